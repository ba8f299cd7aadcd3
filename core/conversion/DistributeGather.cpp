//===- DistributeGather.cpp - tl.gather through block-level memory --------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle.gather stores the source tile in block-level scratch, row-major, then
// every thread reads each of its result elements at its own index with the
// gathered axis's coordinate taken from the indices (which layout
// assignment gives the result's layout, so register k of the indices is
// the index of result register k).
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;

namespace {

struct GatherConversion : DistPattern<GatherOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType src = op.getSrc().getType(), dst = op.getType();
    if (dst.getEncoding() != op.getIndices().getType().getEncoding())
      return op.emitError("tle.gather: the indices must be in the result's "
                          "layout (layout assignment places them so)");
    ValueRange srcValues = adaptor.getSrc(), indexValues = adaptor.getIndices();
    if (srcValues.empty())
      return failure();
    Type elemType = srcValues.front().getType();
    auto base = allocScratch(rewriter, loc, st, scratchType(elemType),
                             src.getNumElements());
    if (failed(base))
      return failure();
    auto srcIdx = emitIndices(rewriter, loc, st.target, src.getEncoding(),
                              src.getShape());
    auto dstIdx = emitIndices(rewriter, loc, st.target, dst.getEncoding(),
                              dst.getShape());
    if (failed(srcIdx) || failed(dstIdx))
      return failure();
    // Replicated copies store the same value to the same place.
    for (auto [value, index] : llvm::zip(srcValues, *srcIdx))
      storeScratch(rewriter, loc, *base,
                   linearizeIndex(rewriter, loc, index, src.getShape()), value);
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    unsigned axis = op.getAxis();
    SmallVector<Value> results;
    for (auto [gathered, index] : llvm::zip(indexValues, *dstIdx)) {
      SmallVector<Value> at(index);
      // Indices are never negative: a uint8 255 is 255, as Triton reads it.
      at[axis] = intToI32(rewriter, loc, gathered, /*isSigned=*/false);
      results.push_back(loadScratch(
          rewriter, loc, *base,
          linearizeIndex(rewriter, loc, at, src.getShape()), elemType));
    }
    if (failed(emitScratchRelease(rewriter, loc, st)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateGatherPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<GatherConversion>(tc, patterns.getContext(), st);
}
