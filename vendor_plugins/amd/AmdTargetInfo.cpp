//===- AmdTargetInfo.cpp - Distribution hooks for AMD GPUs ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "AmdTargetInfo.h"

#include "tle/Backend/LLVMAtomics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace tle;
using namespace tle::amd;
using backend::AtomicKind;
using backend::ShuffleKind;

/// LLVM's AMDGPU address spaces (AMDGPUUsage): flat, global, LDS and the
/// constant space the dispatch packet lives in. The description's global and
/// LDS levels normally say the same.
static constexpr unsigned FlatAddressSpace = 0;
static constexpr unsigned DefaultGlobalAddressSpace = 1;
static constexpr unsigned DefaultLdsAddressSpace = 3;
static constexpr unsigned ConstantAddressSpace = 4;

/// Byte offsets in hsa_kernel_dispatch_packet_t (HSA runtime specification):
/// the work-group size (u16 each) and the grid size in work-items (u32 each)
/// along x, y and z.
static constexpr int64_t WorkgroupSizeOffset = 4;
static constexpr int64_t GridSizeOffset = 12;

AmdTargetInfo::AmdTargetInfo(const hwdesc::HwDesc &Desc)
    : WarpSize(Desc.getWarpSize()),
      HasFp32Atomics(Desc.hasFeature("atomics_fp32")),
      HasFp64Atomics(Desc.hasFeature("atomics_fp64")) {
  for (const hwdesc::MemoryLevel &Level : Desc.MemoryLevels)
    if (Level.AddressSpace >= 0)
      AddressSpaces[Level.Name] = Level.AddressSpace;
  for (const auto &Alias : Desc.MemoryAliases)
    if (const hwdesc::MemoryLevel *Level = Desc.getMemoryLevel(Alias.getKey()))
      if (Level->AddressSpace >= 0)
        AddressSpaces[Alias.getKey()] = Level->AddressSpace;
  GlobalAddressSpace =
      getAddressSpace("global").value_or(DefaultGlobalAddressSpace);
  SharedAddressSpace =
      getAddressSpace("shared").value_or(DefaultLdsAddressSpace);
}

std::optional<unsigned>
AmdTargetInfo::getAddressSpace(llvm::StringRef Level) const {
  auto It = AddressSpaces.find(Level);
  if (It == AddressSpaces.end())
    return std::nullopt;
  return It->second;
}

static Value i32Constant(OpBuilder &B, Location Loc, int64_t V) {
  return LLVM::ConstantOp::create(B, Loc, B.getI32Type(),
                                  B.getI32IntegerAttr(V));
}

static InFlightDiagnostic axisError(Location Loc, unsigned Axis) {
  return emitError(Loc) << "amd plugin: axis " << Axis
                        << " is out of range (0..2)";
}

FailureOr<Value> AmdTargetInfo::getProgramId(OpBuilder &B, Location Loc,
                                             unsigned Axis) const {
  Type I32 = B.getI32Type();
  switch (Axis) {
  case 0:
    return Value(ROCDL::BlockIdXOp::create(B, Loc, I32));
  case 1:
    return Value(ROCDL::BlockIdYOp::create(B, Loc, I32));
  case 2:
    return Value(ROCDL::BlockIdZOp::create(B, Loc, I32));
  }
  return axisError(Loc, Axis);
}

FailureOr<Value> AmdTargetInfo::getNumPrograms(OpBuilder &B, Location Loc,
                                               unsigned Axis) const {
  // rocdl.grid.dim.* calls __ockl_get_num_groups from ROCm's device
  // libraries, which this plugin does without. The dispatch packet holds
  // the grid size in work-items and the work-group size; the number of
  // work-groups is their rounded-up quotient, as HSA defines it.
  if (Axis > 2)
    return axisError(Loc, Axis);
  Type I16 = B.getI16Type(), I32 = B.getI32Type(), I8 = B.getI8Type();
  auto ConstPtr = LLVM::LLVMPointerType::get(B.getContext(),
                                             ConstantAddressSpace);
  Value Packet =
      LLVM::CallIntrinsicOp::create(B, Loc, ConstPtr,
                                    B.getStringAttr("llvm.amdgcn.dispatch.ptr"),
                                    ValueRange{})
          .getResult(0);
  auto FieldAt = [&](int64_t Offset) {
    return LLVM::GEPOp::create(B, Loc, ConstPtr, I8, Packet,
                               ArrayRef<LLVM::GEPArg>{Offset});
  };
  Value GridSize =
      LLVM::LoadOp::create(B, Loc, I32, FieldAt(GridSizeOffset + 4 * Axis),
                           /*alignment=*/4, /*isVolatile=*/false,
                           /*isNonTemporal=*/false, /*isInvariant=*/true);
  Value GroupSize = LLVM::ZExtOp::create(
      B, Loc, I32,
      LLVM::LoadOp::create(B, Loc, I16,
                           FieldAt(WorkgroupSizeOffset + 2 * Axis),
                           /*alignment=*/2, /*isVolatile=*/false,
                           /*isNonTemporal=*/false, /*isInvariant=*/true));
  Value RoundedUp = LLVM::AddOp::create(
      B, Loc, GridSize,
      LLVM::SubOp::create(B, Loc, GroupSize, i32Constant(B, Loc, 1)));
  return Value(LLVM::UDivOp::create(B, Loc, RoundedUp, GroupSize));
}

FailureOr<Value> AmdTargetInfo::getThreadId(OpBuilder &B, Location Loc,
                                            unsigned Axis) const {
  Type I32 = B.getI32Type();
  switch (Axis) {
  case 0:
    return Value(ROCDL::ThreadIdXOp::create(B, Loc, I32));
  case 1:
    return Value(ROCDL::ThreadIdYOp::create(B, Loc, I32));
  case 2:
    return Value(ROCDL::ThreadIdZOp::create(B, Loc, I32));
  }
  return axisError(Loc, Axis);
}

LogicalResult AmdTargetInfo::emitBarrier(OpBuilder &B, Location Loc,
                                         backend::BarrierScope Scope) const {
  switch (Scope) {
  case backend::BarrierScope::Warp:
    // A wavefront executes in lockstep; only the memory it exchanged
    // through must be ordered, which a wavefront-scope fence does.
    LLVM::FenceOp::create(B, Loc, LLVM::AtomicOrdering::acq_rel, "wavefront");
    return success();
  case backend::BarrierScope::Block:
    // HIP's __syncthreads(): s_barrier between workgroup-scope fences, so
    // that LDS and global writes before it are seen after it.
    LLVM::FenceOp::create(B, Loc, LLVM::AtomicOrdering::release, "workgroup");
    ROCDL::SBarrierOp::create(B, Loc);
    LLVM::FenceOp::create(B, Loc, LLVM::AtomicOrdering::acquire, "workgroup");
    return success();
  case backend::BarrierScope::Cluster:
    return emitError(Loc) << "amd plugin: CDNA chips have no block clusters; "
                             "a cluster barrier cannot be expressed";
  }
  llvm_unreachable("unknown barrier scope");
}

Value AmdTargetInfo::permute32(OpBuilder &B, Location Loc, Value Bits,
                               Value Source) const {
  // ds_bpermute_b32 reads the value of the lane whose byte address (lane *
  // 4) this lane supplies, across the whole wavefront (64 lanes on CDNA).
  Value Address = LLVM::ShlOp::create(B, Loc, Source, i32Constant(B, Loc, 2));
  return ROCDL::DsBpermuteOp::create(B, Loc, B.getI32Type(), Address, Bits);
}

FailureOr<Value> AmdTargetInfo::shuffle(OpBuilder &B, Location Loc,
                                        Value Value, mlir::Value Offset,
                                        ShuffleKind Kind) const {
  Type Ty = Value.getType();
  Type I32 = B.getI32Type();
  auto Ptr = dyn_cast<LLVM::LLVMPointerType>(Ty);
  if (!Ptr && (!Ty.isIntOrFloat() || Ty.getIntOrFloatBitWidth() > 64))
    return emitError(Loc) << "amd plugin: cannot shuffle a value of type "
                          << Ty;
  unsigned Width = Ptr ? 64 : Ty.getIntOrFloatBitWidth();

  // The lane to read from. Like shfl.sync, up and down shuffles whose
  // source falls outside the wavefront keep their own value.
  mlir::Value Minus1 = i32Constant(B, Loc, -1);
  mlir::Value Lane = ROCDL::MbcntLoOp::create(B, Loc, I32, Minus1,
                                              i32Constant(B, Loc, 0), {}, {});
  if (WarpSize == 64)
    Lane = ROCDL::MbcntHiOp::create(B, Loc, I32, Minus1, Lane, {}, {});
  mlir::Value Source;
  switch (Kind) {
  case ShuffleKind::Xor:
    Source = LLVM::XOrOp::create(B, Loc, Lane, Offset);
    break;
  case ShuffleKind::Index:
    Source = Offset;
    break;
  case ShuffleKind::Up:
  case ShuffleKind::Down: {
    mlir::Value Moved = Kind == ShuffleKind::Up
                            ? mlir::Value(LLVM::SubOp::create(B, Loc, Lane,
                                                              Offset))
                            : mlir::Value(LLVM::AddOp::create(B, Loc, Lane,
                                                              Offset));
    // Unsigned compare: a negative lane (up) is also out of range.
    mlir::Value InRange = LLVM::ICmpOp::create(
        B, Loc, LLVM::ICmpPredicate::ult, Moved,
        i32Constant(B, Loc, WarpSize));
    Source = LLVM::SelectOp::create(B, Loc, InRange, Moved, Lane);
    break;
  }
  }

  if (Width == 32 && !Ptr) {
    mlir::Value Bits =
        Ty.isInteger(32) ? Value
                         : mlir::Value(LLVM::BitcastOp::create(B, Loc, I32,
                                                               Value));
    mlir::Value Moved = permute32(B, Loc, Bits, Source);
    if (Ty.isInteger(32))
      return Moved;
    return mlir::Value(LLVM::BitcastOp::create(B, Loc, Ty, Moved));
  }
  // Narrower values are widened, 64-bit ones (and pointers) move as two
  // halves.
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
                                   permute32(B, Loc, Wide, Source));
  } else {
    mlir::Value Shift =
        LLVM::ConstantOp::create(B, Loc, IntTy, B.getIntegerAttr(IntTy, 32));
    mlir::Value Lo = LLVM::TruncOp::create(B, Loc, I32, Bits);
    mlir::Value Hi = LLVM::TruncOp::create(
        B, Loc, I32, LLVM::LShrOp::create(B, Loc, Bits, Shift));
    Lo = LLVM::ZExtOp::create(B, Loc, IntTy, permute32(B, Loc, Lo, Source));
    Hi = LLVM::ZExtOp::create(B, Loc, IntTy, permute32(B, Loc, Hi, Source));
    Result =
        LLVM::OrOp::create(B, Loc, Lo, LLVM::ShlOp::create(B, Loc, Hi, Shift));
  }
  if (Ptr)
    return mlir::Value(LLVM::IntToPtrOp::create(B, Loc, Ty, Result));
  if (isa<FloatType>(Ty))
    return mlir::Value(LLVM::BitcastOp::create(B, Loc, Ty, Result));
  return Result;
}

bool AmdTargetInfo::supportsAtomic(AtomicKind Kind, Type ElementType,
                                   unsigned AddressSpace) const {
  // Global and LDS atomics, and flat ones that reach either.
  if (AddressSpace != FlatAddressSpace && AddressSpace != GlobalAddressSpace &&
      AddressSpace != SharedAddressSpace)
    return false;
  bool IsInt = ElementType.isInteger(32) || ElementType.isInteger(64);
  switch (Kind) {
  case AtomicKind::FAdd:
    return (ElementType.isF32() && HasFp32Atomics) ||
           (ElementType.isF64() && HasFp64Atomics);
  case AtomicKind::Exchange:
    return IsInt || ElementType.isF32() || ElementType.isF64();
  default:
    // cmpxchg, like the integer read-modify-write ops, takes integers only.
    return IsInt;
  }
}

FailureOr<Value> AmdTargetInfo::emitAtomic(OpBuilder &B, Location Loc,
                                           AtomicKind Kind, Value Ptr,
                                           Value Operand, Value Compare) const {
  auto PtrTy = dyn_cast<LLVM::LLVMPointerType>(Ptr.getType());
  if (!PtrTy)
    return emitError(Loc) << "amd plugin: atomic on a non-pointer of type "
                          << Ptr.getType();
  unsigned AddressSpace = PtrTy.getAddressSpace();
  if (!supportsAtomic(Kind, Operand.getType(), AddressSpace))
    return emitError(Loc) << "amd plugin: no atomic of this kind on "
                          << Operand.getType() << " in address space "
                          << AddressSpace;
  // Triton's default semantics are acq_rel at GPU scope, which is AMDGPU's
  // "agent"; an LDS word is only visible inside the work-group. The AMDGPU
  // backend implements the ordering itself (cache writebacks and
  // invalidates around the atomic), so no explicit fences are needed.
  StringRef Scope = AddressSpace == SharedAddressSpace ? "workgroup" : "agent";
  auto Ordering = LLVM::AtomicOrdering::acq_rel;
  if (Kind == AtomicKind::CompareExchange) {
    if (!Compare)
      return emitError(Loc)
             << "amd plugin: compare-exchange needs a compare value";
    auto CmpXchg = LLVM::AtomicCmpXchgOp::create(
        B, Loc, Ptr, Compare, Operand, Ordering,
        LLVM::AtomicOrdering::monotonic, Scope);
    return Value(LLVM::ExtractValueOp::create(B, Loc, CmpXchg.getRes(), 0));
  }
  return Value(LLVM::AtomicRMWOp::create(B, Loc,
                                         backend::getLLVMAtomicBinOp(Kind),
                                         Ptr, Operand, Ordering, Scope));
}
