//===- TestDistribute.cpp - tle-distribute with a vendor-neutral target ---===//
//
// Registers `tle-distribute` in tle-opt with a TargetInfo that emits upstream
// `gpu` dialect ops (gpu.block_id, gpu.thread_id, gpu.barrier, gpu.shuffle)
// and LLVM atomics, so the core's distributed IR can be checked without a
// vendor plugin. Address spaces: global 1, shared/block 3; warp size 32.
//
// The target has two matrix instructions, emitted as inline-asm calls so
// that tests see which registers went into each instruction:
// `test.mma.m16n8k16` (fp16 x fp16 + fp32, the fragments of NVIDIA's
// mma.m16n8k16) and, for bf16, `test.wgmma.m64n64k16`, issued by 4 warps on
// operands in block-level memory (the fragments of Hopper's wgmma, N any
// multiple of 8 up to 64). `tle-assign-layouts-test-mma` is layout
// assignment offered both units.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/Passes.h"
#include "tests/lib/TestPasses.h"
#include "tle/Backend/LLVMAtomics.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace ::tle::backend;

namespace {
class TestGPUTargetInfo : public TargetInfo {
public:
  unsigned getWarpSize() const override { return 32; }

  std::optional<unsigned> getAddressSpace(llvm::StringRef Level) const override {
    if (Level == "global")
      return 1;
    if (Level == "shared" || Level == "block")
      return 3;
    return std::nullopt;
  }

  static Value toI32(OpBuilder &B, Location Loc, Value Index) {
    return arith::IndexCastOp::create(B, Loc, B.getI32Type(), Index);
  }
  static gpu::Dimension dim(unsigned Axis) {
    return Axis == 0 ? gpu::Dimension::x
                     : Axis == 1 ? gpu::Dimension::y : gpu::Dimension::z;
  }

  FailureOr<Value> getProgramId(OpBuilder &B, Location Loc,
                                unsigned Axis) const override {
    return toI32(B, Loc, gpu::BlockIdOp::create(B, Loc, dim(Axis)));
  }
  FailureOr<Value> getNumPrograms(OpBuilder &B, Location Loc,
                                  unsigned Axis) const override {
    return toI32(B, Loc, gpu::GridDimOp::create(B, Loc, dim(Axis)));
  }
  FailureOr<Value> getThreadId(OpBuilder &B, Location Loc,
                               unsigned Axis) const override {
    return toI32(B, Loc, gpu::ThreadIdOp::create(B, Loc, dim(Axis)));
  }

  LogicalResult emitBarrier(OpBuilder &B, Location Loc,
                            BarrierScope Scope) const override {
    if (Scope == BarrierScope::Block)
      gpu::BarrierOp::create(B, Loc);
    return success();
  }

  FailureOr<Value> shuffle(OpBuilder &B, Location Loc, Value V, Value Offset,
                           ShuffleKind Kind) const override {
    gpu::ShuffleMode Mode = Kind == ShuffleKind::Xor    ? gpu::ShuffleMode::XOR
                            : Kind == ShuffleKind::Up   ? gpu::ShuffleMode::UP
                            : Kind == ShuffleKind::Down ? gpu::ShuffleMode::DOWN
                                                        : gpu::ShuffleMode::IDX;
    Value Width = arith::ConstantOp::create(B, Loc, B.getI32IntegerAttr(32));
    return gpu::ShuffleOp::create(B, Loc, V, Offset, Width, Mode)
        .getShuffleResult();
  }

  bool supportsAtomic(AtomicKind, Type, unsigned) const override {
    return true;
  }
  FailureOr<Value> emitAtomic(OpBuilder &B, Location Loc, AtomicKind Kind,
                              Value Ptr, Value Operand,
                              Value Compare) const override {
    auto Ordering = LLVM::AtomicOrdering::acq_rel;
    if (Kind == AtomicKind::CompareExchange) {
      auto CmpXchg = LLVM::AtomicCmpXchgOp::create(
          B, Loc, Ptr, Compare, Operand, Ordering,
          LLVM::AtomicOrdering::monotonic);
      return Value(LLVM::ExtractValueOp::create(B, Loc, CmpXchg.getRes(), 0));
    }
    return Value(LLVM::AtomicRMWOp::create(B, Loc, getLLVMAtomicBinOp(Kind),
                                           Ptr, Operand, Ordering));
  }
  std::optional<MatrixFragments>
  getMatrixFragments(const ::tle::hwdesc::MatrixInstruction &Instr)
      const override {
    if (Instr.Name == getTestGroupInstruction().Name) {
      MatrixFragments F;
      F.OperandsInBlockMemory = true;
      F.NGranule = 8;
      F.C.Registers = {{0, 1}, {8, 0}};
      F.C.Lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
      F.C.Warps = {{16, 0}, {32, 0}};
      F.A.Registers = {{0, 1}, {8, 0}, {0, 8}};
      F.A.Lanes = F.C.Lanes;
      F.A.Warps = F.C.Warps;
      return F;
    }
    if (Instr.Name != getTestMatrixInstruction().Name)
      return std::nullopt;
    MatrixFragments F;
    F.A.Registers = {{0, 1}, {8, 0}, {0, 8}};
    F.A.Lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
    F.B.Registers = {{1, 0}, {8, 0}};
    F.B.Lanes = {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}};
    F.C.Registers = {{0, 1}, {8, 0}};
    F.C.Lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
    return F;
  }

  FailureOr<SmallVector<Value>>
  emitMatrixMultiply(OpBuilder &B, Location Loc,
                     const ::tle::hwdesc::MatrixInstruction &Instr,
                     ValueRange A, ValueRange BOperand,
                     ValueRange C) const override {
    SmallVector<Value> Operands(A);
    llvm::append_range(Operands, BOperand);
    llvm::append_range(Operands, C);
    Type F32 = B.getF32Type();
    auto Result =
        LLVM::LLVMStructType::getLiteral(B.getContext(), {F32, F32, F32, F32});
    std::string Constraints = "=f,=f,=f,=f";
    for (size_t I = 0; I < Operands.size(); ++I)
      Constraints += ",r";
    Value D = LLVM::InlineAsmOp::create(
                  B, Loc, Result, Operands, Instr.Name, Constraints,
                  /*has_side_effects=*/false, /*is_align_stack=*/false,
                  LLVM::TailCallKind::None, /*asm_dialect=*/{},
                  /*operand_attrs=*/{})
                  .getResult(0);
    SmallVector<Value> Out;
    for (int64_t I = 0; I < 4; ++I)
      Out.push_back(LLVM::ExtractValueOp::create(B, Loc, D, I));
    return Out;
  }

  /// Markers where target instructions would go, taking their operands:
  /// the steps of an asynchronous matrix group ("test.fence.operands",
  /// ...), barrier objects and group barriers ("test.barrier.init
  /// <count>", "test.barrier.arrive <count>", "test.barrier.wait",
  /// "test.copy.arrive", "test.group.barrier <id>, <threads>").
  static void emitMarker(OpBuilder &B, Location Loc, StringRef Name,
                         ValueRange Operands = {}) {
    std::string Constraints;
    for (size_t I = 0; I < Operands.size(); ++I)
      Constraints += I ? ",r" : "r";
    LLVM::InlineAsmOp::create(B, Loc, TypeRange(), Operands, Name,
                              Constraints, /*has_side_effects=*/true,
                              /*is_align_stack=*/false,
                              LLVM::TailCallKind::None, /*asm_dialect=*/{},
                              /*operand_attrs=*/{});
  }
  bool supportsBarrierObjects() const override { return true; }
  LogicalResult emitBarrierInit(OpBuilder &B, Location Loc, Value Address,
                                unsigned Count) const override {
    emitMarker(B, Loc, "test.barrier.init " + std::to_string(Count), Address);
    return success();
  }
  LogicalResult emitBarrierInval(OpBuilder &B, Location Loc,
                                 Value Address) const override {
    emitMarker(B, Loc, "test.barrier.inval", Address);
    return success();
  }
  LogicalResult emitBarrierArrive(OpBuilder &B, Location Loc, Value Address,
                                  unsigned Count) const override {
    emitMarker(B, Loc, "test.barrier.arrive " + std::to_string(Count),
               Address);
    return success();
  }
  LogicalResult emitBarrierWait(OpBuilder &B, Location Loc, Value Address,
                                Value Parity) const override {
    emitMarker(B, Loc, "test.barrier.wait", {Address, Parity});
    return success();
  }
  LogicalResult emitAsyncCopyArrive(OpBuilder &B, Location Loc,
                                    Value Address) const override {
    emitMarker(B, Loc, "test.copy.arrive", Address);
    return success();
  }
  bool supportsTensorCopies() const override { return true; }
  unsigned getTensorMapBytes() const override { return 128; }
  bool supportsLaunchTensorMaps() const override { return true; }
  unsigned getLaunchTensorMapAlignment() const override { return 64; }
  LogicalResult emitTensorMapInit(OpBuilder &B, Location Loc, Value Map,
                                  Value Staging, const TensorMapDesc &Desc,
                                  Value LaneId) const override {
    std::string Name = "test.tensormap box";
    for (int64_t Size : Desc.Box)
      Name += " " + std::to_string(Size);
    Name += " swizzle " + std::to_string(Desc.SwizzleBytes);
    SmallVector<Value> Operands{Map, Staging, Desc.Base};
    llvm::append_range(Operands, Desc.Sizes);
    llvm::append_range(Operands, Desc.Strides);
    Operands.push_back(LaneId);
    emitMarker(B, Loc, Name, Operands);
    return success();
  }
  LogicalResult emitTensorCopy(OpBuilder &B, Location Loc, Value Dst, Value Map,
                               ValueRange Coords, Value Barrier,
                               bool AfterOrdinaryAccesses) const override {
    SmallVector<Value> Operands{Dst, Map};
    llvm::append_range(Operands, Coords);
    Operands.push_back(Barrier);
    emitMarker(B, Loc,
               AfterOrdinaryAccesses ? "test.tensor.copy ordered"
                                     : "test.tensor.copy",
               Operands);
    return success();
  }
  LogicalResult emitBarrierExpectBytes(OpBuilder &B, Location Loc,
                                       Value Barrier,
                                       unsigned Bytes) const override {
    emitMarker(B, Loc, "test.barrier.expect " + std::to_string(Bytes), Barrier);
    return success();
  }
  unsigned getNumGroupBarriers() const override { return 3; }
  LogicalResult emitGroupBarrier(OpBuilder &B, Location Loc, unsigned Id,
                                 unsigned NumThreads) const override {
    emitMarker(B, Loc,
               "test.group.barrier " + std::to_string(Id) + ", " +
                   std::to_string(NumThreads));
    return success();
  }

  LogicalResult emitMatrixOperandsStored(OpBuilder &B,
                                         Location Loc) const override {
    emitMarker(B, Loc, "test.fence.operands");
    return success();
  }
  LogicalResult emitMatrixFence(OpBuilder &B, Location Loc) const override {
    emitMarker(B, Loc, "test.fence.accumulators");
    return success();
  }
  LogicalResult emitMatrixCommit(OpBuilder &B, Location Loc) const override {
    emitMarker(B, Loc, "test.commit");
    return success();
  }
  /// "test.wgmma.n<N> swizzle <S> mn <A>,<B> strides <rows>,<panels>
  /// offsets <A bytes>,<B bytes>" on the two operand addresses and the
  /// accumulators.
  FailureOr<SmallVector<Value>>
  emitBlockMatrixMultiply(OpBuilder &B, Location Loc,
                          const ::tle::hwdesc::MatrixInstruction &Instr,
                          int64_t N, const BlockMatrixOperand &A,
                          const BlockMatrixOperand &BOperand,
                          ValueRange C) const override {
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    OS << "test.wgmma.n" << N << " swizzle " << A.SwizzleBytes << ","
       << BOperand.SwizzleBytes << " mn " << A.MajorMN << ","
       << BOperand.MajorMN << " strides " << A.RowGroupStride << ","
       << A.PanelStride << "," << BOperand.RowGroupStride << ","
       << BOperand.PanelStride << " offsets " << A.ByteOffset << ","
       << BOperand.ByteOffset;
    SmallVector<Value> Operands{A.Address, BOperand.Address};
    llvm::append_range(Operands, C);
    return emitTied(B, Loc, Name, Operands, C.size(), 2);
  }
  /// "test.wgmma.n<N>.ra swizzle <S> mn <B> strides <rows>,<panels>
  /// offset <B bytes>" on B's address, A's four packed registers and the
  /// accumulators.
  FailureOr<SmallVector<Value>> emitRegisterAMatrixMultiply(
      OpBuilder &B, Location Loc, const ::tle::hwdesc::MatrixInstruction &Instr,
      int64_t N, ValueRange ARegisters, const BlockMatrixOperand &BOperand,
      ValueRange C) const override {
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    OS << "test.wgmma.n" << N << ".ra swizzle " << BOperand.SwizzleBytes
       << " mn " << BOperand.MajorMN << " strides " << BOperand.RowGroupStride
       << "," << BOperand.PanelStride << " offset " << BOperand.ByteOffset;
    SmallVector<Value> Operands{BOperand.Address};
    llvm::append_range(Operands, ARegisters);
    llvm::append_range(Operands, C);
    return emitTied(B, Loc, Name, Operands, C.size(), 1, ARegisters.size());
  }
  FailureOr<SmallVector<Value>>
  emitMatrixWait(OpBuilder &B, Location Loc, unsigned Pending,
                 ValueRange Accumulators) const override {
    return emitTied(B, Loc, "test.wait " + std::to_string(Pending),
                    Accumulators, Accumulators.size(), 0);
  }
  /// Inline asm returning Count f32 values; operands before Skip are
  /// pointers, the Words after them 32-bit registers.
  static SmallVector<Value> emitTied(OpBuilder &B, Location Loc, StringRef Name,
                                     ValueRange Operands, size_t Count,
                                     size_t Skip, size_t Words = 0) {
    SmallVector<Type> Types(Count, B.getF32Type());
    auto Result = LLVM::LLVMStructType::getLiteral(B.getContext(), Types);
    std::string Constraints;
    for (size_t I = 0; I < Count; ++I)
      Constraints += "=f,";
    for (size_t I = 0; I < Operands.size(); ++I)
      Constraints += I < Skip ? "l," : I < Skip + Words ? "r," : "f,";
    Constraints.pop_back();
    Value D = LLVM::InlineAsmOp::create(
                  B, Loc, Result, Operands, Name, Constraints,
                  /*has_side_effects=*/true, /*is_align_stack=*/false,
                  LLVM::TailCallKind::None, /*asm_dialect=*/{},
                  /*operand_attrs=*/{})
                  .getResult(0);
    SmallVector<Value> Out;
    for (size_t I = 0; I < Count; ++I)
      Out.push_back(LLVM::ExtractValueOp::create(B, Loc, D, I));
    return Out;
  }

  bool supportsMatrixTileLoads() const override { return true; }

  /// "test.ldmatrix.x<N>[.trans]" as inline asm on the row address.
  FailureOr<SmallVector<Value>>
  emitMatrixTileLoad(OpBuilder &B, Location Loc, Value RowAddress,
                     unsigned NumTiles, bool Transpose) const override {
    Type I32 = B.getI32Type();
    auto Result = LLVM::LLVMStructType::getLiteral(
        B.getContext(), SmallVector<Type>(NumTiles, I32));
    std::string Constraints;
    for (unsigned I = 0; I < NumTiles; ++I)
      Constraints += "=r,";
    Constraints += "l";
    std::string Name = "test.ldmatrix.x" + std::to_string(NumTiles) +
                       (Transpose ? ".trans" : "");
    Value Loaded = LLVM::InlineAsmOp::create(
                       B, Loc, Result, ValueRange{RowAddress}, Name,
                       Constraints, /*has_side_effects=*/false,
                       /*is_align_stack=*/false, LLVM::TailCallKind::None,
                       /*asm_dialect=*/{}, /*operand_attrs=*/{})
                       .getResult(0);
    SmallVector<Value> Tiles;
    for (unsigned I = 0; I < NumTiles; ++I)
      Tiles.push_back(LLVM::ExtractValueOp::create(B, Loc, Loaded, I));
    return Tiles;
  }

  static const ::tle::hwdesc::MatrixInstruction &getTestMatrixInstruction() {
    static const ::tle::hwdesc::MatrixInstruction Instr = [] {
      ::tle::hwdesc::MatrixInstruction I;
      I.Name = "test.mma.m16n8k16";
      I.M = 16;
      I.N = 8;
      I.K = 16;
      I.AType = I.BType = "fp16";
      I.AccType = "fp32";
      return I;
    }();
    return Instr;
  }
  static const ::tle::hwdesc::MatrixInstruction &getTestGroupInstruction() {
    static const ::tle::hwdesc::MatrixInstruction Instr = [] {
      ::tle::hwdesc::MatrixInstruction I;
      I.Name = "test.wgmma.m64n64k16";
      I.M = 64;
      I.N = 64;
      I.K = 16;
      I.AType = I.BType = "bf16";
      I.AccType = "fp32";
      I.Level = ::tle::hwdesc::IssueLevel::Warpgroup;
      return I;
    }();
    return Instr;
  }
};

const TargetInfo &getTestTarget() {
  static TestGPUTargetInfo Target;
  return Target;
}
} // namespace

/// The test target's matrix units, as lowerToDistributedIR would offer them.
static std::vector<::tle::conversion::MatrixUnit> getTestMatrixUnits() {
  const auto &Target = static_cast<const TestGPUTargetInfo &>(getTestTarget());
  std::vector<::tle::conversion::MatrixUnit> Units;
  for (const auto *Instr : {&TestGPUTargetInfo::getTestGroupInstruction(),
                            &TestGPUTargetInfo::getTestMatrixInstruction()})
    Units.push_back({*Instr, *Target.getMatrixFragments(*Instr)});
  return Units;
}

namespace {
/// tle-assign-layouts offered the test target's matrix unit.
struct TestAssignMatrixLayoutsPass
    : public PassWrapper<TestAssignMatrixLayoutsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAssignMatrixLayoutsPass)
  StringRef getArgument() const final { return "tle-assign-layouts-test-mma"; }
  StringRef getDescription() const final {
    return "tle-assign-layouts with the test target's matrix instruction";
  }
  void runOnOperation() override {
    ::tle::conversion::AssignLayoutsOptions Options;
    Options.MatrixUnits = getTestMatrixUnits();
    OpPassManager PM(ModuleOp::getOperationName());
    PM.addPass(::tle::conversion::createAssignLayoutsPass(Options));
    if (failed(runPipeline(PM, getOperation())))
      signalPassFailure();
  }
};
} // namespace

void ::tle::test::registerTestDistributePass() {
  ::tle::conversion::registerAssignLayoutsPass();
  ::tle::conversion::registerRemoveLayoutConversionsPass();
  ::tle::conversion::registerLoopPointerBasesPass();
  ::tle::conversion::registerMathToLibraryPass();
  ::tle::conversion::registerPipelineLoadsPass();
  PassRegistration<TestAssignMatrixLayoutsPass>();
  registerPass([] {
    ::tle::conversion::DistributeOptions Options;
    Options.MatrixUnits = getTestMatrixUnits();
    Options.TargetDialects = [](DialectRegistry &Registry) {
      Registry.insert<gpu::GPUDialect, arith::ArithDialect>();
    };
    return ::tle::conversion::createDistributePass(getTestTarget(), Options);
  });
  // The upstream lowerings lowerToDistributedIR finishes with, for lit tests
  // of the whole path.
  registerSCFToControlFlowPass();
  registerArithToLLVMConversionPass();
  registerConvertMathToLLVMPass();
  registerConvertControlFlowToLLVMPass();
}
