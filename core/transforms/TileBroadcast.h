//===- TileBroadcast.h - Spread a 1-D tile over a shape ---------*- C++ -*-===//
//-*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Tile passes that build index or offset tiles dimension by dimension (the
// kernel author's offs_m[:, None] * stride + offs_n[None, :]) compute on 1-D
// tiles and then spread each along its dimension of the full shape.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TRANSFORMS_TILEBROADCAST_H
#define TLE_CORE_TRANSFORMS_TILEBROADCAST_H

#include "mlir/IR/Builders.h"

namespace mlir::tle {

/// `Tile1D` (a 1-D tile of Shape[Dim] elements) made size 1 along every
/// other dimension of Shape with tle.expand_dims, then tle.broadcast to
/// Shape; `Tile1D` itself for a 1-D shape. With `Layout` (2-D shapes only),
/// the results are in that layout and Tile1D in its slice along the other
/// dimension.
Value broadcastAlongDim(OpBuilder &B, Location Loc, Value Tile1D, unsigned Dim,
                        ArrayRef<int64_t> Shape, Attribute Layout = {});

} // namespace mlir::tle

#endif // TLE_CORE_TRANSFORMS_TILEBROADCAST_H
