//===- SpirvTargetInfo.h - Distribution hooks for SPIR-V --------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Ids and barriers are calls to OpenCL C built-ins (see OpenClBuiltins.h) and
// atomics are LLVM dialect atomics with OpenCL sync scopes, which LLVM's
// SPIR-V backend turns into BuiltIn variables, OpControlBarrier and OpAtomic*.
//
// Lane shuffles depend on the description. With the feature
// `subgroup_shuffle` they are sub_group_shuffle* built-ins (SPIR-V 1.3
// OpGroupNonUniformShuffle*), and the description's warp_size must be the
// device's subgroup size. Without it (PoCL, the CPU executor of CI, has no
// subgroups) the warp is a group of warp_size consecutive work-items that
// exchange values through a Workgroup array with one 8-byte slot per
// work-item (LaneExchangeGlobal, sized by SpirvBackend::compile once the
// block size is known), between two work-group barriers; such a shuffle must
// then be reached by the whole work-group, as the core's reductions do.
//
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

/// The Workgroup array through which emulated shuffles exchange values:
/// declared `!llvm.array<0 x i64>` by the TargetInfo, given one slot per
/// work-item of the block by compile().
inline constexpr llvm::StringLiteral LaneExchangeGlobal = "__tle_spirv_lanes";

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
  /// One of get_group_id, get_num_groups, get_local_id along Axis, as i32.
  mlir::FailureOr<mlir::Value> workItemQuery(mlir::OpBuilder &B,
                                             mlir::Location Loc,
                                             llvm::StringRef Name,
                                             unsigned Axis) const;
  mlir::FailureOr<mlir::Value>
  subgroupShuffle(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Bits,
                  mlir::Value Offset, backend::ShuffleKind Kind) const;
  mlir::FailureOr<mlir::Value>
  workgroupShuffle(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Bits,
                   mlir::Value Offset, backend::ShuffleKind Kind) const;

  unsigned WarpSize;
  /// Level and alias names to address spaces.
  llvm::StringMap<unsigned> AddressSpaces;
  unsigned GlobalAddressSpace;
  unsigned SharedAddressSpace;
  bool HasFloatAtomics;
  bool HasSubgroupShuffle;
  /// toolchain.isa_version, the SPIR-V version, as 10 * major + minor.
  unsigned SpirvVersion;
};

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVTARGETINFO_H
