//===- AmdTargetInfo.h - Distribution hooks for AMD GPUs --------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Ids, barriers and lane exchanges are ROCDL dialect ops (they translate to
// llvm.amdgcn.* intrinsics), atomics are LLVM dialect atomics with AMDGPU
// sync scopes, so distributed IR goes straight to LLVM IR and the AMDGPU
// backend without ROCm's device libraries. Sizes and address spaces are
// copied from the description, so a TargetInfo may outlive the HwDesc it was
// made from.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_AMD_AMDTARGETINFO_H
#define TLE_VENDOR_PLUGINS_AMD_AMDTARGETINFO_H

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/TargetInfo.h"

#include "llvm/ADT/StringMap.h"

namespace tle {
namespace amd {

class AmdTargetInfo : public backend::TargetInfo {
public:
  explicit AmdTargetInfo(const hwdesc::HwDesc &Desc);

  unsigned getWarpSize() const override { return WarpSize; }
  std::optional<unsigned> getAddressSpace(llvm::StringRef Level) const override;

  mlir::FailureOr<mlir::Value> getNumPrograms(mlir::OpBuilder &B,
                                              mlir::Location Loc,
                                              unsigned Axis) const override;
  mlir::FailureOr<mlir::Value> getProgramId(mlir::OpBuilder &B,
                                            mlir::Location Loc,
                                            unsigned Axis) const override;
  mlir::FailureOr<mlir::Value> getThreadId(mlir::OpBuilder &B,
                                           mlir::Location Loc,
                                           unsigned Axis) const override;
  mlir::LogicalResult emitBarrier(mlir::OpBuilder &B, mlir::Location Loc,
                                  backend::BarrierScope Scope) const override;
  mlir::FailureOr<mlir::Value>
  shuffle(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Value,
          mlir::Value Offset, backend::ShuffleKind Kind) const override;
  bool supportsAtomic(backend::AtomicKind Kind, mlir::Type ElementType,
                      unsigned AddressSpace) const override;
  mlir::FailureOr<mlir::Value> emitAtomic(mlir::OpBuilder &B,
                                          mlir::Location Loc,
                                          backend::AtomicKind Kind,
                                          mlir::Value Ptr, mlir::Value Operand,
                                          mlir::Value Compare) const override;
  std::optional<backend::MatrixFragments>
  getMatrixFragments(const hwdesc::MatrixInstruction &Instr) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixMultiply(mlir::OpBuilder &B, mlir::Location Loc,
                     const hwdesc::MatrixInstruction &Instr, mlir::ValueRange A,
                     mlir::ValueRange BOperand,
                     mlir::ValueRange C) const override;

private:
  /// Moves a 32-bit integer from lane Source (an i32) to this lane.
  mlir::Value permute32(mlir::OpBuilder &B, mlir::Location Loc,
                        mlir::Value Bits, mlir::Value Source) const;

  unsigned WarpSize;
  /// Level and alias names to address spaces.
  llvm::StringMap<unsigned> AddressSpaces;
  unsigned GlobalAddressSpace;
  unsigned SharedAddressSpace;
  bool HasFp32Atomics;
  bool HasFp64Atomics;
};

} // namespace amd
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_AMD_AMDTARGETINFO_H
