//===- NvidiaBarriers.cpp - mbarrier objects and named barriers -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle.gpu.alloc_barrier and friends on mbarrier objects (sm_80+), and the
// partitions of tle.gpu.warp_specialize on bar.sync with an id and a thread
// count. The mbarrier instructions are written as PTX: the waits loop on
// try_wait.parity (which may time out) as Triton's do.
//
//===----------------------------------------------------------------------===//

#include "NvidiaTargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tle::nvidia;

void tle::nvidia::emitPtxStatement(OpBuilder &B, Location Loc, StringRef Ptx,
                                   StringRef Constraints, ValueRange Operands) {
  LLVM::InlineAsmOp::create(B, Loc, TypeRange(), Operands, Ptx, Constraints,
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false, LLVM::TailCallKind::None,
                            /*asm_dialect=*/{}, /*operand_attrs=*/{});
}

namespace {

LogicalResult requireMBarriers(bool HasMBarrier, Location Loc) {
  if (HasMBarrier)
    return success();
  return emitError(Loc) << "nvidia plugin: no mbarrier objects on this chip "
                           "(sm_80 or later)";
}

Value i32(OpBuilder &B, Location Loc, int64_t V) {
  return LLVM::ConstantOp::create(B, Loc, B.getI32Type(),
                                  B.getI32IntegerAttr(int32_t(V)));
}

} // namespace

LogicalResult NvidiaTargetInfo::emitBarrierInit(OpBuilder &B, Location Loc,
                                                Value Address,
                                                unsigned Count) const {
  if (failed(requireMBarriers(HasMBarrier, Loc)))
    return failure();
  emitPtxStatement(B, Loc, "mbarrier.init.shared.b64 [$0], $1;", "r,r",
                   {Address, i32(B, Loc, Count)});
  return success();
}

LogicalResult NvidiaTargetInfo::emitBarrierInval(OpBuilder &B, Location Loc,
                                                 Value Address) const {
  if (failed(requireMBarriers(HasMBarrier, Loc)))
    return failure();
  emitPtxStatement(B, Loc, "mbarrier.inval.shared.b64 [$0];", "r", {Address});
  return success();
}

LogicalResult NvidiaTargetInfo::emitBarrierArrive(OpBuilder &B, Location Loc,
                                                  Value Address,
                                                  unsigned Count) const {
  if (failed(requireMBarriers(HasMBarrier, Loc)))
    return failure();
  if (Count == 1) {
    emitPtxStatement(
        B, Loc, "{ .reg .b64 state; mbarrier.arrive.shared.b64 state, [$0]; }",
        "r", {Address});
    return success();
  }
  if (!HasMBarrierArriveCount)
    return emitError(Loc) << "nvidia plugin: arriving " << Count
                          << " times at once needs sm_90 or later";
  emitPtxStatement(
      B, Loc,
      "{ .reg .b64 state; mbarrier.arrive.release.cta.shared::cta.b64 "
      "state, [$0], $1; }",
      "r,r", {Address, i32(B, Loc, Count)});
  return success();
}

LogicalResult NvidiaTargetInfo::emitBarrierWait(OpBuilder &B, Location Loc,
                                                Value Address,
                                                Value Parity) const {
  if (failed(requireMBarriers(HasMBarrier, Loc)))
    return failure();
  // try_wait (sm_90) suspends the thread for a while; test_wait returns at
  // once.
  emitPtxStatement(B, Loc,
                   HasMBarrierArriveCount
                       ? "{ .reg .pred done; tle_wait: "
                         "mbarrier.try_wait.parity.shared.b64 done, [$0], $1; "
                         "@!done bra.uni tle_wait; }"
                       : "{ .reg .pred done; tle_wait: "
                         "mbarrier.test_wait.parity.shared.b64 done, [$0], $1; "
                         "@!done bra.uni tle_wait; }",
                   "r,r", {Address, Parity});
  return success();
}

LogicalResult NvidiaTargetInfo::emitAsyncCopyArrive(OpBuilder &B, Location Loc,
                                                    Value Address) const {
  if (!HasMBarrier || !HasCpAsync)
    return emitError(Loc) << "nvidia plugin: no cp.async.mbarrier.arrive on "
                             "this chip (sm_80 or later)";
  // Without .noinc the arrival the copies make is added to the expected
  // count first: the phase still waits for the kernel's own arrivals.
  emitPtxStatement(B, Loc, "cp.async.mbarrier.arrive.shared.b64 [$0];", "r",
                   {Address});
  return success();
}

LogicalResult NvidiaTargetInfo::emitGroupBarrier(OpBuilder &B, Location Loc,
                                                 unsigned Id,
                                                 unsigned NumThreads) const {
  if (Id == 0 || Id > getNumGroupBarriers() || NumThreads % WarpSize != 0)
    return emitError(Loc) << "nvidia plugin: no barrier " << Id << " for "
                          << NumThreads << " threads (ids 1.."
                          << getNumGroupBarriers() << ", whole warps)";
  NVVM::BarrierOp::create(B, Loc, TypeRange(), i32(B, Loc, Id),
                          i32(B, Loc, NumThreads), /*reductionOp=*/{},
                          /*reductionPredicate=*/Value());
  return success();
}
