//===- NvidiaTargetInfo.h - Distribution hooks for NVIDIA GPUs --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Ids, barriers and shuffles are NVVM dialect ops and atomics are LLVM
// dialect atomics with an NVPTX sync scope, so distributed IR goes straight to
// LLVM IR and the NVPTX backend. Sizes and address spaces are copied from the
// description, so a TargetInfo may outlive the HwDesc it was made from.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIATARGETINFO_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIATARGETINFO_H

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/TargetInfo.h"

#include "llvm/ADT/StringMap.h"

namespace tle {
namespace nvidia {

/// A PTX statement with side effects on register operands ("r": 32-bit
/// values, block-level addresses included: they are 32-bit, see
/// initializeNVPTX; "l": 64-bit).
void emitPtxStatement(mlir::OpBuilder &B, mlir::Location Loc,
                      llvm::StringRef Ptx, llvm::StringRef Constraints,
                      mlir::ValueRange Operands);

class NvidiaTargetInfo : public backend::TargetInfo {
public:
  explicit NvidiaTargetInfo(const hwdesc::HwDesc &Desc);

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
  mlir::FailureOr<mlir::Value>
  emitPackedTruncF(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Low,
                   mlir::Value High, mlir::Type ResultElem) const override;

  bool supportsMatrixTileLoads() const override { return HasLdMatrix; }
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixTileLoad(mlir::OpBuilder &B, mlir::Location Loc,
                     mlir::Value RowAddress, unsigned NumTiles,
                     bool Transpose) const override;

  bool supportsMatrixTileStores() const override { return HasStMatrix; }
  mlir::LogicalResult emitMatrixTileStore(mlir::OpBuilder &B,
                                          mlir::Location Loc,
                                          mlir::Value RowAddress,
                                          mlir::ValueRange Tiles,
                                          bool Transpose) const override;

  bool supportsAsyncCopy(unsigned Bytes) const override {
    return HasCpAsync && (Bytes == 4 || Bytes == 8 || Bytes == 16);
  }
  mlir::LogicalResult emitAsyncCopy(mlir::OpBuilder &B, mlir::Location Loc,
                                    mlir::Value Dst, mlir::Value Src,
                                    unsigned Bytes,
                                    mlir::Value Pred) const override;
  mlir::LogicalResult emitAsyncCommit(mlir::OpBuilder &B,
                                      mlir::Location Loc) const override;
  mlir::LogicalResult emitAsyncWait(mlir::OpBuilder &B, mlir::Location Loc,
                                    unsigned Pending) const override;

  bool supportsBarrierObjects() const override { return HasMBarrier; }
  mlir::LogicalResult emitBarrierInval(mlir::OpBuilder &B, mlir::Location Loc,
                                       mlir::Value Address) const override;
  mlir::LogicalResult emitBarrierInit(mlir::OpBuilder &B, mlir::Location Loc,
                                      mlir::Value Address,
                                      unsigned Count) const override;
  mlir::LogicalResult emitBarrierArrive(mlir::OpBuilder &B, mlir::Location Loc,
                                        mlir::Value Address,
                                        unsigned Count) const override;
  mlir::LogicalResult emitBarrierWait(mlir::OpBuilder &B, mlir::Location Loc,
                                      mlir::Value Address,
                                      mlir::Value Parity) const override;
  mlir::LogicalResult emitAsyncCopyArrive(mlir::OpBuilder &B,
                                          mlir::Location Loc,
                                          mlir::Value Address) const override;
  bool supportsTensorCopies() const override { return HasTensorCopies; }
  /// A CUtensorMap.
  unsigned getTensorMapBytes() const override {
    return HasTensorCopies ? 128 : 0;
  }
  /// A CUtensorMap kernel parameter (`__grid_constant__ const CUtensorMap`):
  /// 64-byte aligned, copied from through its generic address.
  bool supportsLaunchTensorMaps() const override { return HasTensorCopies; }
  unsigned getLaunchTensorMapAlignment() const override {
    return HasTensorCopies ? 64 : 0;
  }
  mlir::LogicalResult emitTensorMapInit(mlir::OpBuilder &B, mlir::Location Loc,
                                        mlir::Value Map, mlir::Value Staging,
                                        const backend::TensorMapDesc &Desc,
                                        mlir::Value LaneId) const override;
  mlir::LogicalResult emitTensorCopy(mlir::OpBuilder &B, mlir::Location Loc,
                                     mlir::Value Dst, mlir::Value Map,
                                     mlir::ValueRange Coords,
                                     mlir::Value Barrier,
                                     bool AfterOrdinaryAccesses) const override;
  mlir::LogicalResult emitBarrierExpectBytes(mlir::OpBuilder &B,
                                             mlir::Location Loc,
                                             mlir::Value Barrier,
                                             unsigned Bytes) const override;

  /// bar.sync has 16 ids; 0 is the block barrier.
  unsigned getNumGroupBarriers() const override { return 15; }
  mlir::LogicalResult emitGroupBarrier(mlir::OpBuilder &B, mlir::Location Loc,
                                       unsigned Id,
                                       unsigned NumThreads) const override;

  mlir::LogicalResult
  emitMatrixOperandsStored(mlir::OpBuilder &B,
                           mlir::Location Loc) const override;
  mlir::LogicalResult emitMatrixFence(mlir::OpBuilder &B,
                                      mlir::Location Loc) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitBlockMatrixMultiply(mlir::OpBuilder &B, mlir::Location Loc,
                          const hwdesc::MatrixInstruction &Instr, int64_t N,
                          const backend::BlockMatrixOperand &A,
                          const backend::BlockMatrixOperand &BOperand,
                          mlir::ValueRange C) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitRegisterAMatrixMultiply(mlir::OpBuilder &B, mlir::Location Loc,
                              const hwdesc::MatrixInstruction &Instr, int64_t N,
                              mlir::ValueRange ARegisters,
                              const backend::BlockMatrixOperand &BOperand,
                              mlir::ValueRange C) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitFloat8Conversion(mlir::OpBuilder &B, mlir::Location Loc,
                       mlir::ValueRange In, mlir::Type From,
                       mlir::Type To) const override;
  mlir::LogicalResult emitMatrixCommit(mlir::OpBuilder &B,
                                       mlir::Location Loc) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixWait(mlir::OpBuilder &B, mlir::Location Loc, unsigned Pending,
                 mlir::ValueRange Accumulators) const override;

private:
  /// wgmma's fragments (NvidiaWarpgroupMma.cpp); std::nullopt for other
  /// instructions.
  std::optional<backend::MatrixFragments>
  getWarpgroupFragments(const hwdesc::MatrixInstruction &Instr) const;
  /// Shuffles a 32-bit integer or float value.
  mlir::Value shuffle32(mlir::OpBuilder &B, mlir::Location Loc,
                        mlir::Value Value, mlir::Value Offset,
                        backend::ShuffleKind Kind) const;

  unsigned WarpSize;
  /// Level and alias names to address spaces.
  llvm::StringMap<unsigned> AddressSpaces;
  unsigned SharedAddressSpace;
  /// ldmatrix exists from sm_75 on.
  bool HasLdMatrix = false;
  /// stmatrix exists from sm_90 on.
  bool HasStMatrix = false;
  bool HasCpAsync = false;
  /// mbarrier objects exist from sm_80 on; arrivals with a count and
  /// try_wait from sm_90.
  bool HasMBarrier = false;
  bool HasMBarrierArriveCount = false;
  /// cvt.rn.{f16x2,bf16x2}.f32 exist from sm_80 on.
  bool HasPackedConversions = false;
  /// cvt between f32/f16 pairs and e4m3/e5m2 pairs: sm_89 on (PTX ISA 8.1;
  /// 7.8 from sm_90), with the description's `fp8` feature.
  bool HasFloat8Conversions = false;
  /// wgmma needs the architecture-specific sm_90a target.
  bool HasWgmma = false;
  /// Tensor maps written in the kernel (tensormap.replace) and bulk tensor
  /// copies: sm_90a with the description's `tma` feature, PTX ISA 8.3.
  bool HasTensorCopies = false;
  bool HasClusters;
  bool HasFp64Atomics;
};

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIATARGETINFO_H
