//===- NvidiaAsyncCopy.cpp - cp.async for software pipelining -------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Global -> shared copies that do not pass through registers (sm_80+): the
// core's pipelined loops start the copies of later iterations with them and
// wait on commit groups before reading a slot.
//
//===----------------------------------------------------------------------===//

#include "NvidiaTargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tle::nvidia;

LogicalResult NvidiaTargetInfo::emitAsyncCopy(OpBuilder &B, Location Loc,
                                              Value Dst, Value Src,
                                              unsigned Bytes,
                                              Value Pred) const {
  if (!supportsAsyncCopy(Bytes))
    return emitError(Loc) << "nvidia plugin: no asynchronous copy of " << Bytes
                          << " bytes on this chip";
  // cp.async names its operands' state spaces.
  MLIRContext *Ctx = B.getContext();
  auto Global = LLVM::LLVMPointerType::get(Ctx, 1);
  auto Shared = LLVM::LLVMPointerType::get(Ctx, 3);
  if (Src.getType() != Global)
    Src = LLVM::AddrSpaceCastOp::create(B, Loc, Global, Src);
  if (Dst.getType() != Shared)
    Dst = LLVM::AddrSpaceCastOp::create(B, Loc, Shared, Dst);
  // A source size of 0 reads nothing and fills the destination with zeros.
  Value Size = LLVM::SelectOp::create(
      B, Loc, Pred,
      LLVM::ConstantOp::create(B, Loc, B.getI32IntegerAttr(int32_t(Bytes))),
      LLVM::ConstantOp::create(B, Loc, B.getI32IntegerAttr(0)));
  // .cg (L2 only) exists for 16-byte copies; smaller ones go through L1.
  auto Modifier = NVVM::LoadCacheModifierKindAttr::get(
      Ctx, Bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                       : NVVM::LoadCacheModifierKind::CA);
  NVVM::CpAsyncOp::create(B, Loc, Dst, Src, B.getI32IntegerAttr(int32_t(Bytes)),
                          Modifier, Size);
  return success();
}

LogicalResult NvidiaTargetInfo::emitAsyncCommit(OpBuilder &B,
                                                Location Loc) const {
  NVVM::CpAsyncCommitGroupOp::create(B, Loc);
  return success();
}

LogicalResult NvidiaTargetInfo::emitAsyncWait(OpBuilder &B, Location Loc,
                                              unsigned Pending) const {
  NVVM::CpAsyncWaitGroupOp::create(B, Loc,
                                   B.getI32IntegerAttr(int32_t(Pending)));
  return success();
}
