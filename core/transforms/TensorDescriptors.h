//===- TensorDescriptors.h - Descriptor tiles as pointer tiles --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TRANSFORMS_TENSORDESCRIPTORS_H
#define TLE_CORE_TRANSFORMS_TENSORDESCRIPTORS_H

#include "dialects/TLE/TLEDialect.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tle {

/// Replaces `Load` by the masked pointer load it means (see
/// tle-lower-tensor-descriptors). A result with a layout (a 2-D tile after
/// layout assignment: a load tensor copies did not stage) keeps it, and the
/// index, pointer and mask tiles are built in it and its slices.
LogicalResult lowerDescriptorLoad(RewriterBase &Rewriter,
                                  DescriptorLoadOp Load);

/// The tl.dot that reads `Load`'s tile as operand A or B in the same block,
/// maybe through a tl.trans (attention's K^T), when that is its only use.
struct DotOperandUse {
  DotOp Dot;
  TransOp Trans;
};
std::optional<DotOperandUse> getDotOperandUse(DescriptorLoadOp Load);

/// The swizzle, in bytes, of a slot of `Tile` (2-D, integer or float
/// elements) that a matrix unit reads, dimension `Fastest` contiguous: the
/// widest of 128, 64 and 32 bytes the contiguous rows are a multiple of (a
/// row is whole panels of it); 0 if none is, or the slot is not whole
/// 1024-byte swizzle periods. Rings from asynchronous and tensor copies are
/// laid out in it, and a tensor map boxes one panel: attention's 64-byte
/// rows (8-bit K and V at HEAD_DIM 64) take the 64-byte swizzle.
inline int64_t getOperandSwizzle(RankedTensorType Tile, unsigned Fastest) {
  Type Elem = Tile.getElementType();
  if (Tile.getRank() != 2 || !Elem.isIntOrFloat() ||
      Elem.getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  int64_t Bytes = Elem.getIntOrFloatBitWidth() / 8;
  if (Tile.getNumElements() * Bytes % 1024 != 0)
    return 0;
  for (int64_t Swizzle : {128, 64, 32})
    if (Tile.getDimSize(Fastest) * Bytes % Swizzle == 0)
      return Swizzle;
  return 0;
}

} // namespace mlir::tle

#endif // TLE_CORE_TRANSFORMS_TENSORDESCRIPTORS_H
