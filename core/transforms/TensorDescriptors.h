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

/// The swizzle of a tensor copy's ring, in bytes: the widest a matrix unit
/// reads in place. A tile's rows are whole panels of it (the keep rule), the
/// ring's slots are laid out in it, and the tensor map boxes one panel.
constexpr int64_t kTensorCopySwizzleBytes = 128;

} // namespace mlir::tle

#endif // TLE_CORE_TRANSFORMS_TENSORDESCRIPTORS_H
