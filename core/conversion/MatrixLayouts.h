//===- MatrixLayouts.h - tl.dot tiled over a matrix instruction -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A backend describes one matrix instruction by the fragments a warp holds
// (backend::MatrixFragments). These helpers tile a tl.dot with it: warps
// over M and N, repetitions over the rest of the tile, giving #tle.linear
// layouts for A, B and C; distribution then finds each instruction's
// registers in those layouts.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_CONVERSION_MATRIXLAYOUTS_H
#define TLE_CORE_CONVERSION_MATRIXLAYOUTS_H

#include "core/conversion/Passes.h"
#include "dialects/TLE/TLEDialect.h"

#include <optional>

namespace tle::conversion {

/// The name a hardware description gives an element type ("fp16", "bf16",
/// "fp32", "int8", ...); empty for types it has no name for.
llvm::StringRef getDescriptionTypeName(mlir::Type Type);

enum class MatrixOperand { A, B, C };

/// How one tl.dot is tiled: the instruction and the warps along M and N
/// (warpgroups, for instructions several warps issue together).
struct MatrixTiling {
  const MatrixUnit *Unit = nullptr;
  unsigned WarpsM = 1, WarpsN = 1;
  /// The instruction's N: the description's, or a multiple of the unit's
  /// NGranule up to it.
  int64_t InstrN = 0;

  /// Whether A and B stay in block-level memory (no register layouts).
  bool operandsInBlockMemory() const {
    return Unit->Fragments.OperandsInBlockMemory;
  }

  /// Whether the unit reads B from block-level memory but can take A from
  /// registers (its fragment A describes them).
  bool acceptsRegisterA() const {
    return operandsInBlockMemory() && !Unit->Fragments.A.Registers.empty();
  }

  /// The layout of operand Role (A: M x K, B: K x N, C: M x N) of Shape.
  mlir::tle::LinearLayoutAttr getLayout(mlir::MLIRContext *Ctx,
                                        MatrixOperand Role,
                                        llvm::ArrayRef<int64_t> Shape) const;
};

/// The first unit whose instruction takes Dot's element types and tiles its
/// shapes with NumWarps warps of WarpSize lanes; std::nullopt if none does.
std::optional<MatrixTiling> planMatrixTiling(mlir::tle::DotOp Dot,
                                             llvm::ArrayRef<MatrixUnit> Units,
                                             unsigned NumWarps,
                                             unsigned WarpSize);

} // namespace tle::conversion

#endif // TLE_CORE_CONVERSION_MATRIXLAYOUTS_H
