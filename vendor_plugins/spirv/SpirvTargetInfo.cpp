//===- SpirvTargetInfo.cpp - Distribution hooks for SPIR-V ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvTargetInfo.h"

#include "tle/Backend/LLVMAtomics.h"
#include "OpenClBuiltins.h"
#include "SpirvVersion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace tle;
using namespace tle::spirv;
using backend::AtomicKind;
using backend::ShuffleKind;

/// OpenCL's address spaces as LLVM's SPIR-V backend numbers them: global is
/// CrossWorkgroup, local is Workgroup.
static constexpr unsigned DefaultGlobalAddressSpace = 1;
static constexpr unsigned DefaultLocalAddressSpace = 3;

SpirvTargetInfo::SpirvTargetInfo(const hwdesc::HwDesc &Desc)
    : WarpSize(Desc.getWarpSize()),
      HasFloatAtomics(Desc.hasFeature("atomics_fp32")),
      HasSubgroupShuffle(Desc.hasFeature("subgroup_shuffle")),
      SpirvVersion(getSpirvVersion(Desc).value_or(0)) {
  for (const hwdesc::MemoryLevel &Level : Desc.MemoryLevels)
    if (Level.AddressSpace >= 0)
      AddressSpaces[Level.Name] = Level.AddressSpace;
  for (const auto &Alias : Desc.MemoryAliases)
    if (const hwdesc::MemoryLevel *Level = Desc.getMemoryLevel(Alias.getKey()))
      if (Level->AddressSpace >= 0)
        AddressSpaces[Alias.getKey()] = Level->AddressSpace;
  // The core asks for "global" and "shared"; a description may name those
  // levels otherwise (dsa-spirv: ddr and spm), so the device-wide global
  // level and the block-scope level answer to them.
  for (const hwdesc::MemoryLevel &Level : Desc.MemoryLevels) {
    if (Level.AddressSpace < 0)
      continue;
    if (Level.Kind == hwdesc::MemoryKind::Global)
      AddressSpaces.try_emplace("global", Level.AddressSpace);
    if (Level.Scope == hwdesc::MemoryScope::Block)
      AddressSpaces.try_emplace("shared", Level.AddressSpace);
  }
  GlobalAddressSpace =
      getAddressSpace("global").value_or(DefaultGlobalAddressSpace);
  SharedAddressSpace = getAddressSpace("shared").value_or(
      getAddressSpace("block").value_or(DefaultLocalAddressSpace));
}

std::optional<unsigned>
SpirvTargetInfo::getAddressSpace(llvm::StringRef Level) const {
  auto It = AddressSpaces.find(Level);
  if (It == AddressSpaces.end())
    return std::nullopt;
  return It->second;
}

static Value i32Constant(OpBuilder &B, Location Loc, int64_t V) {
  return LLVM::ConstantOp::create(B, Loc, B.getI32Type(),
                                  B.getI32IntegerAttr(V));
}

FailureOr<Value> SpirvTargetInfo::workItemQuery(OpBuilder &B, Location Loc,
                                                StringRef Name,
                                                unsigned Axis) const {
  if (Axis > 2)
    return emitError(Loc) << "spirv plugin: axis " << Axis
                          << " is out of range (0..2)";
  // size_t is 64 bits in the spirv64 (Addresses=64) memory model.
  FailureOr<Value> Id =
      callBuiltin(B, Loc, Name, B.getI64Type(), {i32Constant(B, Loc, Axis)});
  if (failed(Id))
    return failure();
  return Value(LLVM::TruncOp::create(B, Loc, B.getI32Type(), *Id));
}

FailureOr<Value> SpirvTargetInfo::getProgramId(OpBuilder &B, Location Loc,
                                               unsigned Axis) const {
  return workItemQuery(B, Loc, "_Z12get_group_idj", Axis);
}

FailureOr<Value> SpirvTargetInfo::getNumPrograms(OpBuilder &B, Location Loc,
                                                 unsigned Axis) const {
  return workItemQuery(B, Loc, "_Z14get_num_groupsj", Axis);
}

FailureOr<Value> SpirvTargetInfo::getThreadId(OpBuilder &B, Location Loc,
                                              unsigned Axis) const {
  return workItemQuery(B, Loc, "_Z12get_local_idj", Axis);
}

LogicalResult SpirvTargetInfo::emitBarrier(OpBuilder &B, Location Loc,
                                           backend::BarrierScope Scope) const {
  // Both fences: Triton's debug_barrier orders global memory too.
  Value Flags = i32Constant(B, Loc, ClkLocalMemFence | ClkGlobalMemFence);
  switch (Scope) {
  case backend::BarrierScope::Warp:
    // Without subgroups the warp is emulated inside the work-group, and only
    // a work-group barrier orders its lanes.
    return callBuiltin(
        B, Loc, HasSubgroupShuffle ? "_Z17sub_group_barrierj" : "_Z7barrierj",
        Type(), {Flags});
  case backend::BarrierScope::Block:
    return callBuiltin(B, Loc, "_Z7barrierj", Type(), {Flags});
  case backend::BarrierScope::Cluster:
    return emitError(Loc) << "spirv plugin: SPIR-V has no barrier across "
                             "work-groups (block clusters)";
  }
  llvm_unreachable("unknown barrier scope");
}

/// The integer type of Ty's bits, for values OpenCL C cannot shuffle as they
/// are (pointers, i1, bf16); null if Ty is wider than 64 bits.
static Type getBitsType(Type Ty) {
  MLIRContext *Ctx = Ty.getContext();
  if (isa<LLVM::LLVMPointerType>(Ty))
    return IntegerType::get(Ctx, 64);
  if (!Ty.isIntOrFloat() || Ty.getIntOrFloatBitWidth() > 64)
    return nullptr;
  if (!mangleScalarType(Ty).empty())
    return Ty;
  return IntegerType::get(
      Ctx,
      std::max<uint64_t>(8, llvm::PowerOf2Ceil(Ty.getIntOrFloatBitWidth())));
}

static Value toBits(OpBuilder &B, Location Loc, Value V, Type BitsTy) {
  Type Ty = V.getType();
  if (Ty == BitsTy)
    return V;
  if (isa<LLVM::LLVMPointerType>(Ty))
    return LLVM::PtrToIntOp::create(B, Loc, BitsTy, V);
  if (isa<FloatType>(Ty))
    V = LLVM::BitcastOp::create(
        B, Loc, B.getIntegerType(Ty.getIntOrFloatBitWidth()), V);
  if (V.getType() != BitsTy)
    V = LLVM::ZExtOp::create(B, Loc, BitsTy, V);
  return V;
}

static Value fromBits(OpBuilder &B, Location Loc, Value Bits, Type Ty) {
  if (Bits.getType() == Ty)
    return Bits;
  if (isa<LLVM::LLVMPointerType>(Ty))
    return LLVM::IntToPtrOp::create(B, Loc, Ty, Bits);
  Type IntTy = B.getIntegerType(Ty.getIntOrFloatBitWidth());
  if (Bits.getType() != IntTy)
    Bits = LLVM::TruncOp::create(B, Loc, IntTy, Bits);
  if (isa<FloatType>(Ty))
    return LLVM::BitcastOp::create(B, Loc, Ty, Bits);
  return Bits;
}

/// The lane Kind reads from, given this lane and Offset (all i32). Lanes
/// whose source would lie outside the warp read their own value, as CUDA's
/// clamped shfl.sync does; OpenCL leaves that case undefined.
static Value getSourceLane(OpBuilder &B, Location Loc, Value Lane, Value Offset,
                           ShuffleKind Kind, unsigned WarpSize) {
  Value Size = i32Constant(B, Loc, WarpSize);
  switch (Kind) {
  case ShuffleKind::Xor:
    return LLVM::URemOp::create(
        B, Loc, LLVM::XOrOp::create(B, Loc, Lane, Offset), Size);
  case ShuffleKind::Index:
    return LLVM::URemOp::create(B, Loc, Offset, Size);
  case ShuffleKind::Up: {
    Value InRange =
        LLVM::ICmpOp::create(B, Loc, LLVM::ICmpPredicate::uge, Lane, Offset);
    return LLVM::SelectOp::create(
        B, Loc, InRange, LLVM::SubOp::create(B, Loc, Lane, Offset), Lane);
  }
  case ShuffleKind::Down: {
    Value Source = LLVM::AddOp::create(B, Loc, Lane, Offset);
    Value InRange =
        LLVM::ICmpOp::create(B, Loc, LLVM::ICmpPredicate::ult, Source, Size);
    return LLVM::SelectOp::create(B, Loc, InRange, Source, Lane);
  }
  }
  llvm_unreachable("unknown shuffle kind");
}

FailureOr<Value> SpirvTargetInfo::subgroupShuffle(OpBuilder &B, Location Loc,
                                                  Value Bits, Value Offset,
                                                  ShuffleKind Kind) const {
  if (SpirvVersion < 13)
    return emitError(Loc)
           << "spirv plugin: subgroup shuffles need SPIR-V 1.3 "
              "(OpGroupNonUniformShuffle), but the description's "
              "toolchain.isa_version is older; remove the feature "
              "'subgroup_shuffle' to shuffle through Workgroup memory";
  std::string Type = mangleScalarType(Bits.getType());
  if (Kind == ShuffleKind::Xor || Kind == ShuffleKind::Index) {
    StringRef Name = Kind == ShuffleKind::Xor ? "_Z21sub_group_shuffle_xor"
                                              : "_Z17sub_group_shuffle";
    return callBuiltin(B, Loc, (Name + Type + "j").str(), Bits.getType(),
                       {Bits, Offset});
  }
  StringRef Name = Kind == ShuffleKind::Up ? "_Z20sub_group_shuffle_up"
                                           : "_Z22sub_group_shuffle_down";
  FailureOr<Value> Moved = callBuiltin(B, Loc, (Name + Type + "j").str(),
                                       Bits.getType(), {Bits, Offset});
  FailureOr<Value> Lane =
      callBuiltin(B, Loc, "_Z22get_sub_group_local_idv", B.getI32Type(), {});
  if (failed(Moved) || failed(Lane))
    return failure();
  Value Source = getSourceLane(B, Loc, *Lane, Offset, Kind, WarpSize);
  Value Own =
      LLVM::ICmpOp::create(B, Loc, LLVM::ICmpPredicate::eq, Source, *Lane);
  return Value(LLVM::SelectOp::create(B, Loc, Own, Bits, *Moved));
}

FailureOr<Value> SpirvTargetInfo::workgroupShuffle(OpBuilder &B, Location Loc,
                                                   Value Bits, Value Offset,
                                                   ShuffleKind Kind) const {
  FailureOr<Value> Tid = getThreadId(B, Loc, 0);
  if (failed(Tid))
    return failure();
  Operation *Parent = B.getInsertionBlock()->getParentOp();
  auto Module = Parent->getParentOfType<ModuleOp>();
  auto ExchangeTy = LLVM::LLVMArrayType::get(B.getI64Type(), 0);
  if (!Module.lookupSymbol(LaneExchangeGlobal)) {
    OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPointToStart(Module.getBody());
    LLVM::GlobalOp::create(B, Loc, ExchangeTy, /*isConstant=*/false,
                           LLVM::Linkage::External, LaneExchangeGlobal,
                           Attribute(), /*alignment=*/8, SharedAddressSpace);
  }
  Value Lane =
      LLVM::URemOp::create(B, Loc, *Tid, i32Constant(B, Loc, WarpSize));
  Value WarpStart = LLVM::SubOp::create(B, Loc, *Tid, Lane);
  Value Source = LLVM::AddOp::create(
      B, Loc, WarpStart, getSourceLane(B, Loc, Lane, Offset, Kind, WarpSize));
  auto PtrTy = LLVM::LLVMPointerType::get(B.getContext(), SharedAddressSpace);
  Value Base = LLVM::AddressOfOp::create(B, Loc, PtrTy, LaneExchangeGlobal);
  auto Slot = [&](Value Index) {
    return LLVM::GEPOp::create(B, Loc, PtrTy, B.getI64Type(), Base,
                               ArrayRef<LLVM::GEPArg>{Index});
  };
  // The first barrier keeps this store from overwriting a slot that another
  // lane has not read yet in the previous shuffle.
  if (failed(emitBarrier(B, Loc, backend::BarrierScope::Block)))
    return failure();
  LLVM::StoreOp::create(B, Loc, Bits, Slot(*Tid));
  if (failed(emitBarrier(B, Loc, backend::BarrierScope::Block)))
    return failure();
  return Value(LLVM::LoadOp::create(B, Loc, Bits.getType(), Slot(Source)));
}

FailureOr<Value> SpirvTargetInfo::shuffle(OpBuilder &B, Location Loc,
                                          Value Value, mlir::Value Offset,
                                          ShuffleKind Kind) const {
  Type Ty = Value.getType();
  Type BitsTy = getBitsType(Ty);
  if (!BitsTy)
    return emitError(Loc) << "spirv plugin: cannot shuffle a value of type "
                          << Ty;
  if (!Offset.getType().isInteger(32))
    return emitError(Loc) << "spirv plugin: the shuffle offset must be an "
                             "i32, not "
                          << Offset.getType();
  mlir::Value Bits = toBits(B, Loc, Value, BitsTy);
  FailureOr<mlir::Value> Moved =
      HasSubgroupShuffle ? subgroupShuffle(B, Loc, Bits, Offset, Kind)
                         : workgroupShuffle(B, Loc, Bits, Offset, Kind);
  if (failed(Moved))
    return failure();
  return fromBits(B, Loc, *Moved, Ty);
}

bool SpirvTargetInfo::supportsAtomic(AtomicKind Kind, Type ElementType,
                                     unsigned AddressSpace) const {
  // OpenCL atomics work on global and local memory.
  if (AddressSpace != GlobalAddressSpace && AddressSpace != SharedAddressSpace)
    return false;
  bool IsInt = ElementType.isInteger(32) || ElementType.isInteger(64);
  switch (Kind) {
  case AtomicKind::FAdd:
    // SPV_EXT_shader_atomic_float_add, which the description lists as a
    // feature.
    return ElementType.isF32() && HasFloatAtomics;
  case AtomicKind::Exchange:
    // OpAtomicExchange takes floats too.
    return IsInt || ElementType.isF32();
  default:
    return IsInt;
  }
}

FailureOr<Value> SpirvTargetInfo::emitAtomic(OpBuilder &B, Location Loc,
                                             AtomicKind Kind, Value Ptr,
                                             Value Operand,
                                             Value Compare) const {
  auto PtrTy = dyn_cast<LLVM::LLVMPointerType>(Ptr.getType());
  if (!PtrTy)
    return emitError(Loc) << "spirv plugin: atomic on a non-pointer of type "
                          << Ptr.getType();
  unsigned AddressSpace = PtrTy.getAddressSpace();
  if (!supportsAtomic(Kind, Operand.getType(), AddressSpace))
    return emitError(Loc)
           << "spirv plugin: no atomic of this kind on " << Operand.getType()
           << " in address space " << AddressSpace
           << (Kind == AtomicKind::FAdd && !HasFloatAtomics
                   ? " (float add needs the feature 'atomics_fp32')"
                   : "");
  // Triton's default semantics (acq_rel, scope gpu); Workgroup memory is
  // only visible inside the work-group. LLVM's SPIR-V backend maps these
  // sync scopes to Workgroup and Device.
  StringRef Scope = AddressSpace == SharedAddressSpace ? "workgroup" : "device";
  auto Ordering = LLVM::AtomicOrdering::acq_rel;
  if (Kind == AtomicKind::CompareExchange) {
    if (!Compare)
      return emitError(Loc)
             << "spirv plugin: compare-exchange needs a compare value";
    auto CmpXchg =
        LLVM::AtomicCmpXchgOp::create(B, Loc, Ptr, Compare, Operand, Ordering,
                                      LLVM::AtomicOrdering::monotonic, Scope);
    return Value(LLVM::ExtractValueOp::create(B, Loc, CmpXchg.getRes(), 0));
  }
  return Value(LLVM::AtomicRMWOp::create(B, Loc,
                                         backend::getLLVMAtomicBinOp(Kind),
                                         Ptr, Operand, Ordering, Scope));
}

FailureOr<SmallVector<Value>> SpirvTargetInfo::emitMatrixMultiply(
    OpBuilder &B, Location Loc, const hwdesc::MatrixInstruction &Instr,
    ValueRange A, ValueRange BOperand, ValueRange C) const {
  // getMatrixFragments reports none, so layout assignment keeps tl.dot on
  // the FMA fallback and this is only reached by a caller that ignored it.
  return emitError(Loc) << "spirv plugin: matrix instruction '" << Instr.Name
                        << "' is not supported (cooperative matrices are not "
                           "generated yet; tl.dot uses the FMA fallback)";
}
