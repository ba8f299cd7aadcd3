//===- TestDistribute.cpp - tle-distribute with a vendor-neutral target ---===//
//
// Registers `tle-distribute` in tle-opt with a TargetInfo that emits upstream
// `gpu` dialect ops (gpu.block_id, gpu.thread_id, gpu.barrier, gpu.shuffle)
// and LLVM atomics, so the core's distributed IR can be checked without a
// vendor plugin. Address spaces: global 1, shared/block 3; warp size 32.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/Passes.h"
#include "tests/lib/TestPasses.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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
    emitError(Loc) << "atomics are not implemented by the test target";
    return failure();
  }
  FailureOr<Value> emitMatrixMultiply(OpBuilder &B, Location Loc,
                                      const ::tle::hwdesc::MatrixInstruction &,
                                      Value, Value, Value) const override {
    emitError(Loc) << "the test target has no matrix instructions";
    return failure();
  }
};

const TargetInfo &getTestTarget() {
  static TestGPUTargetInfo Target;
  return Target;
}
} // namespace

void ::tle::test::registerTestDistributePass() {
  ::tle::conversion::registerAssignLayoutsPass();
  registerPass([] {
    ::tle::conversion::DistributeOptions Options;
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
