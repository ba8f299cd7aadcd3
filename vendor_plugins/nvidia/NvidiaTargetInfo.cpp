//===- NvidiaTargetInfo.cpp - Distribution hooks for NVIDIA GPUs ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaTargetInfo.h"
#include "NvidiaArch.h"

#include "tle/Backend/LLVMAtomics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tle;
using namespace tle::nvidia;
using backend::AtomicKind;
using backend::ShuffleKind;

/// PTX's generic and shared address spaces; the global one and the shared one
/// of a description normally say the same, but generic pointers always exist.
static constexpr unsigned GenericAddressSpace = 0;
static constexpr unsigned DefaultSharedAddressSpace = 3;

NvidiaTargetInfo::NvidiaTargetInfo(const hwdesc::HwDesc &Desc)
    : WarpSize(Desc.getWarpSize()), HasClusters(Desc.hasFeature("clusters")),
      HasFp64Atomics(Desc.hasFeature("atomics_fp64")) {
  for (const hwdesc::MemoryLevel &Level : Desc.MemoryLevels)
    if (Level.AddressSpace >= 0)
      AddressSpaces[Level.Name] = Level.AddressSpace;
  for (const auto &Alias : Desc.MemoryAliases)
    if (const hwdesc::MemoryLevel *Level = Desc.getMemoryLevel(Alias.getKey()))
      if (Level->AddressSpace >= 0)
        AddressSpaces[Alias.getKey()] = Level->AddressSpace;
  SharedAddressSpace =
      getAddressSpace("shared").value_or(DefaultSharedAddressSpace);
  unsigned Sm = getComputeCapability(Desc.Arch);
  HasLdMatrix = Sm >= 75;
  HasStMatrix = Sm >= 90;
  HasCpAsync = Sm >= 80;
  HasMBarrier = Sm >= 80;
  HasMBarrierArriveCount = Sm >= 90;
  HasPackedConversions = Sm >= 80;
  HasWgmma = Desc.Arch == "sm_90a";
  unsigned IsaMajor = 0, IsaMinor = 0;
  auto [Major, Minor] = StringRef(Desc.Tools.IsaVersion).split('.');
  bool IsaKnown =
      !Major.getAsInteger(10, IsaMajor) && !Minor.getAsInteger(10, IsaMinor);
  unsigned Isa = IsaKnown ? IsaMajor * 10 + IsaMinor : 0;
  HasTensorCopies = HasWgmma && Desc.hasFeature("tma") && Isa >= 83;
  // The e4m3x2/e5m2x2 forms of cvt: PTX ISA 7.8 for sm_90, 8.1 for sm_89.
  HasFloat8Conversions =
      Sm >= 89 && Desc.hasFeature("fp8") && Isa >= (Sm == 89 ? 81u : 78u);
}

/// cvt.rn.{f16x2,bf16x2}.f32 d, a, b (a in the upper half), as a pure NVVM
/// op, not a vector fptrunc: LLVM would split that into scalar conversions
/// again.
template <typename ConvertOp>
static Value createPackedTrunc(OpBuilder &B, Location Loc, Value Low,
                               Value High, Type ResultElem) {
  return ConvertOp::create(B, Loc, VectorType::get({2}, ResultElem), High, Low,
                           /*random_bits=*/Value(), NVVM::FPRoundingMode::RN,
                           NVVM::SaturationMode::NONE, /*relu=*/false)
      .getResult();
}

FailureOr<Value> NvidiaTargetInfo::emitPackedTruncF(OpBuilder &B,
                                                    Location Loc, Value Low,
                                                    Value High,
                                                    Type ResultElem) const {
  if (!HasPackedConversions || !Low.getType().isF32())
    return failure();
  if (isa<Float16Type>(ResultElem))
    return createPackedTrunc<NVVM::ConvertF32x2ToF16x2Op>(B, Loc, Low, High,
                                                          ResultElem);
  if (isa<BFloat16Type>(ResultElem))
    return createPackedTrunc<NVVM::ConvertF32x2ToBF16x2Op>(B, Loc, Low, High,
                                                           ResultElem);
  return failure();
}

std::optional<unsigned>
NvidiaTargetInfo::getAddressSpace(llvm::StringRef Level) const {
  auto It = AddressSpaces.find(Level);
  if (It == AddressSpaces.end())
    return std::nullopt;
  return It->second;
}

FailureOr<Value> NvidiaTargetInfo::getProgramId(OpBuilder &B, Location Loc,
                                                unsigned Axis) const {
  Type I32 = B.getI32Type();
  switch (Axis) {
  case 0:
    return Value(NVVM::BlockIdXOp::create(B, Loc, I32));
  case 1:
    return Value(NVVM::BlockIdYOp::create(B, Loc, I32));
  case 2:
    return Value(NVVM::BlockIdZOp::create(B, Loc, I32));
  }
  return emitError(Loc) << "nvidia plugin: axis " << Axis
                        << " is out of range (0..2)";
}

FailureOr<Value> NvidiaTargetInfo::getNumPrograms(OpBuilder &B, Location Loc,
                                                  unsigned Axis) const {
  Type I32 = B.getI32Type();
  switch (Axis) {
  case 0:
    return Value(NVVM::GridDimXOp::create(B, Loc, I32));
  case 1:
    return Value(NVVM::GridDimYOp::create(B, Loc, I32));
  case 2:
    return Value(NVVM::GridDimZOp::create(B, Loc, I32));
  }
  return emitError(Loc) << "nvidia plugin: axis " << Axis
                        << " is out of range (0..2)";
}

FailureOr<Value> NvidiaTargetInfo::getThreadId(OpBuilder &B, Location Loc,
                                               unsigned Axis) const {
  Type I32 = B.getI32Type();
  switch (Axis) {
  case 0:
    return Value(NVVM::ThreadIdXOp::create(B, Loc, I32));
  case 1:
    return Value(NVVM::ThreadIdYOp::create(B, Loc, I32));
  case 2:
    return Value(NVVM::ThreadIdZOp::create(B, Loc, I32));
  }
  return emitError(Loc) << "nvidia plugin: axis " << Axis
                        << " is out of range (0..2)";
}

static Value i32Constant(OpBuilder &B, Location Loc, int64_t V) {
  return LLVM::ConstantOp::create(B, Loc, B.getI32Type(),
                                  B.getI32IntegerAttr(V));
}

LogicalResult NvidiaTargetInfo::emitBarrier(OpBuilder &B, Location Loc,
                                            backend::BarrierScope Scope) const {
  switch (Scope) {
  case backend::BarrierScope::Warp:
    // bar.warp.sync with every lane: distribution only asks for whole warps.
    NVVM::SyncWarpOp::create(B, Loc, i32Constant(B, Loc, -1));
    return success();
  case backend::BarrierScope::Block:
    NVVM::Barrier0Op::create(B, Loc);
    return success();
  case backend::BarrierScope::Cluster:
    if (!HasClusters)
      return emitError(Loc) << "nvidia plugin: this chip has no block "
                               "clusters (feature 'clusters')";
    // Arrive then wait is barrier.cluster.sync; the .aligned forms match
    // the block barrier's assumption that every thread reaches it.
    NVVM::ClusterArriveOp::create(B, Loc, B.getUnitAttr());
    NVVM::ClusterWaitOp::create(B, Loc, B.getUnitAttr());
    return success();
  }
  llvm_unreachable("unknown barrier scope");
}

Value NvidiaTargetInfo::shuffle32(OpBuilder &B, Location Loc, Value Value,
                                  mlir::Value Offset, ShuffleKind Kind) const {
  NVVM::ShflKind NvvmKind;
  switch (Kind) {
  case ShuffleKind::Xor:
    NvvmKind = NVVM::ShflKind::bfly;
    break;
  case ShuffleKind::Up:
    NvvmKind = NVVM::ShflKind::up;
    break;
  case ShuffleKind::Down:
    NvvmKind = NVVM::ShflKind::down;
    break;
  case ShuffleKind::Index:
    NvvmKind = NVVM::ShflKind::idx;
    break;
  }
  // The c operand of shfl.sync packs the segment mask (none: the whole warp
  // is one segment) with the clamp lane: 0 for up, the last lane otherwise.
  int64_t MaskAndClamp = Kind == ShuffleKind::Up ? 0 : WarpSize - 1;
  return NVVM::ShflOp::create(B, Loc, Value.getType(), i32Constant(B, Loc, -1),
                              Value, Offset, i32Constant(B, Loc, MaskAndClamp),
                              NVVM::ShflKindAttr::get(B.getContext(), NvvmKind),
                              UnitAttr());
}

FailureOr<Value> NvidiaTargetInfo::shuffle(OpBuilder &B, Location Loc,
                                           Value Value, mlir::Value Offset,
                                           ShuffleKind Kind) const {
  // shfl.sync moves 32 bits: narrower values are widened, 64-bit ones (and
  // pointers) move as two halves.
  Type Ty = Value.getType();
  Type I32 = B.getI32Type();
  if (Ty.isInteger(32) || Ty.isF32())
    return shuffle32(B, Loc, Value, Offset, Kind);
  auto Ptr = dyn_cast<LLVM::LLVMPointerType>(Ty);
  unsigned Width = Ptr ? 64 : Ty.getIntOrFloatBitWidth();
  if (!Ptr && !Ty.isIntOrFloat())
    return emitError(Loc) << "nvidia plugin: cannot shuffle a value of type "
                          << Ty;
  if (Width > 64)
    return emitError(Loc) << "nvidia plugin: cannot shuffle a value of type "
                          << Ty;
  Type IntTy = B.getIntegerType(Width);
  mlir::Value Bits =
      Ptr ? mlir::Value(LLVM::PtrToIntOp::create(B, Loc, IntTy, Value))
      : isa<FloatType>(Ty)
          ? mlir::Value(LLVM::BitcastOp::create(B, Loc, IntTy, Value))
          : Value;
  mlir::Value Result;
  if (Width < 32) {
    mlir::Value Wide = LLVM::ZExtOp::create(B, Loc, I32, Bits);
    Result = LLVM::TruncOp::create(B, Loc, IntTy,
                                   shuffle32(B, Loc, Wide, Offset, Kind));
  } else {
    mlir::Value Lo = LLVM::TruncOp::create(B, Loc, I32, Bits);
    mlir::Value Shift =
        LLVM::ConstantOp::create(B, Loc, IntTy, B.getIntegerAttr(IntTy, 32));
    mlir::Value Hi = LLVM::TruncOp::create(
        B, Loc, I32, LLVM::LShrOp::create(B, Loc, Bits, Shift));
    Lo = LLVM::ZExtOp::create(B, Loc, IntTy,
                              shuffle32(B, Loc, Lo, Offset, Kind));
    Hi = LLVM::ZExtOp::create(B, Loc, IntTy,
                              shuffle32(B, Loc, Hi, Offset, Kind));
    Result =
        LLVM::OrOp::create(B, Loc, Lo, LLVM::ShlOp::create(B, Loc, Hi, Shift));
  }
  if (Ptr)
    return mlir::Value(LLVM::IntToPtrOp::create(B, Loc, Ty, Result));
  if (isa<FloatType>(Ty))
    return mlir::Value(LLVM::BitcastOp::create(B, Loc, Ty, Result));
  return Result;
}

bool NvidiaTargetInfo::supportsAtomic(AtomicKind Kind, Type ElementType,
                                      unsigned AddressSpace) const {
  // PTX atom/red work on global and shared memory and on generic pointers
  // to either.
  if (AddressSpace != GenericAddressSpace &&
      AddressSpace != SharedAddressSpace &&
      AddressSpace != getAddressSpace("global"))
    return false;
  bool IsInt = ElementType.isInteger(32) || ElementType.isInteger(64);
  switch (Kind) {
  case AtomicKind::FAdd:
    return ElementType.isF32() || (ElementType.isF64() && HasFp64Atomics);
  case AtomicKind::Exchange:
    return IsInt || ElementType.isF32();
  default:
    return IsInt;
  }
}

FailureOr<Value> NvidiaTargetInfo::emitAtomic(OpBuilder &B, Location Loc,
                                              AtomicKind Kind, Value Ptr,
                                              Value Operand,
                                              Value Compare) const {
  auto PtrTy = dyn_cast<LLVM::LLVMPointerType>(Ptr.getType());
  if (!PtrTy)
    return emitError(Loc) << "nvidia plugin: atomic on a non-pointer of type "
                          << Ptr.getType();
  unsigned AddressSpace = PtrTy.getAddressSpace();
  if (!supportsAtomic(Kind, Operand.getType(), AddressSpace))
    return emitError(Loc) << "nvidia plugin: no atomic of this kind on "
                          << Operand.getType() << " in address space "
                          << AddressSpace;
  // Triton's default semantics (acq_rel, scope gpu). A shared-memory word is
  // only visible inside the block, so the narrower scope is enough there.
  StringRef Scope = AddressSpace == SharedAddressSpace ? "block" : "device";
  auto Ordering = LLVM::AtomicOrdering::acq_rel;
  if (Kind == AtomicKind::CompareExchange) {
    if (!Compare)
      return emitError(Loc)
             << "nvidia plugin: compare-exchange needs a compare value";
    auto CmpXchg =
        LLVM::AtomicCmpXchgOp::create(B, Loc, Ptr, Compare, Operand, Ordering,
                                      LLVM::AtomicOrdering::monotonic, Scope);
    return Value(LLVM::ExtractValueOp::create(B, Loc, CmpXchg.getRes(), 0));
  }
  // LLVM 22's NVPTX backend drops the ordering of atomicrmw (it emits a
  // relaxed atom, unlike for cmpxchg), so acq_rel is spelled out with fences.
  LLVM::FenceOp::create(B, Loc, LLVM::AtomicOrdering::release, Scope);
  Value Old = LLVM::AtomicRMWOp::create(
      B, Loc, backend::getLLVMAtomicBinOp(Kind), Ptr, Operand,
      LLVM::AtomicOrdering::monotonic, Scope);
  LLVM::FenceOp::create(B, Loc, LLVM::AtomicOrdering::acquire, Scope);
  return Old;
}
