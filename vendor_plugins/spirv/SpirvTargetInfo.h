//===- SpirvTargetInfo.h - Distribution hooks for SPIR-V --------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Ids, barriers and shuffles are emitted as gpu dialect ops, which MLIR's
// gpu-to-spirv conversion lowers for both the OpenCL and the Vulkan flavour.
// Sizes and address spaces are copied from the description, so a TargetInfo
// may outlive the HwDesc it was made from.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVTARGETINFO_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVTARGETINFO_H

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/TargetInfo.h"

#include "llvm/ADT/StringMap.h"

namespace tle {
namespace spirv {

class SpirvTargetInfo : public backend::TargetInfo {
public:
  explicit SpirvTargetInfo(const hwdesc::HwDesc &Desc);

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
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixMultiply(mlir::OpBuilder &B, mlir::Location Loc,
                     const hwdesc::MatrixInstruction &Instr, mlir::ValueRange A,
                     mlir::ValueRange BOperand,
                     mlir::ValueRange C) const override;

private:
  unsigned WarpSize;
  /// Level and alias names to address spaces.
  llvm::StringMap<unsigned> AddressSpaces;
  bool HasFloatAtomics;
};

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVTARGETINFO_H
