//===- DistributeLayout.cpp - make_range, splat, broadcast, convert_layout ===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;

namespace {

struct MakeRangeConversion : DistPattern<MakeRangeOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getResult().getType();
    auto indices = emitIndices(rewriter, op.getLoc(), st.target,
                               type.getEncoding(), type.getShape());
    if (failed(indices))
      return op.emitError("cannot compute the indices of this layout");
    Value start = i32Const(rewriter, op.getLoc(), op.getStart());
    SmallVector<Value> values;
    for (auto &index : *indices)
      values.push_back(
          arith::AddIOp::create(rewriter, op.getLoc(), start, index[0]));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct SplatConversion : DistPattern<SplatOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getResult().getType();
    unsigned n =
        getDistributedLayout(type).getTotalElemsPerThread(type.getShape());
    Value src = adaptor.getSrc().front();
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(n, src)});
    return success();
  }
};

/// Register of `srcType` holding what register `reg` of `dstType` needs, when
/// dst differs from src only in size-1 (broadcast) or removed (slice) dims.
struct BroadcastConversion : DistPattern<BroadcastOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto dstType = op.getResult().getType();
    auto layout = getDistributedLayout(dstType);
    if (srcType.getEncoding() != dstType.getEncoding())
      return op.emitError("broadcast between different layouts is not "
                          "supported by distribution");
    SmallVector<unsigned> srcEpt = layout.getElemsPerThread(srcType.getShape());
    SmallVector<unsigned> dstEpt = layout.getElemsPerThread(dstType.getShape());
    SmallVector<unsigned> order = layout.getRegisterOrder();
    ValueRange src = adaptor.getSrc();
    SmallVector<Value> values;
    for (unsigned reg = 0,
                  n = layout.getTotalElemsPerThread(dstType.getShape());
         reg < n; ++reg) {
      SmallVector<unsigned> coords = delinearize(reg, dstEpt, order);
      for (unsigned d = 0; d < coords.size(); ++d)
        if (srcType.getDimSize(d) == 1)
          coords[d] = 0;
        else if (srcEpt[d] != dstEpt[d])
          return op.emitError("unexpected register counts in broadcast");
      values.push_back(src[linearize(coords, srcEpt, order)]);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct ExpandDimsConversion : DistPattern<ExpandDimsOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto dstType = op.getResult().getType();
    auto slice = dyn_cast<SliceLayoutAttr>(srcType.getEncoding());
    if (!slice || slice.getDim() != unsigned(op.getAxis()) ||
        slice.getParent() != dstType.getEncoding())
      return op.emitError("expand_dims operand must be in the slice of the "
                          "result layout along the axis (run "
                          "tle-assign-layouts)");
    auto parent = slice.getParent();
    SmallVector<unsigned> dstEpt = parent.getElemsPerThread(dstType.getShape());
    SmallVector<unsigned> order = parent.getRegisterOrder();
    SmallVector<unsigned> srcEpt = slice.getElemsPerThread(srcType.getShape());
    SmallVector<unsigned> srcOrder = slice.getRegisterOrder();
    ValueRange src = adaptor.getSrc();
    SmallVector<Value> values;
    for (unsigned reg = 0,
                  n = parent.getTotalElemsPerThread(dstType.getShape());
         reg < n; ++reg) {
      SmallVector<unsigned> coords = delinearize(reg, dstEpt, order);
      coords.erase(coords.begin() + op.getAxis());
      values.push_back(src[linearize(coords, srcEpt, srcOrder)]);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// True when every thread holds the same elements in the same registers.
bool sameMapping(DistributedLayoutAttrInterface a,
                 DistributedLayoutAttrInterface b, ArrayRef<int64_t> shape) {
  unsigned n = a.getTotalElemsPerThread(shape);
  if (n != b.getTotalElemsPerThread(shape) ||
      a.getWarpSize() != b.getWarpSize() || a.getNumWarps() != b.getNumWarps())
    return false;
  for (unsigned warp = 0; warp < a.getNumWarps(); ++warp)
    for (unsigned lane = 0; lane < a.getWarpSize(); ++lane)
      for (unsigned reg = 0; reg < n; ++reg)
        if (a.getTensorIndex(shape, lane, warp, reg) !=
            b.getTensorIndex(shape, lane, warp, reg))
          return false;
  return true;
}

struct ConvertLayoutConversion : DistPattern<ConvertLayoutOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getResult().getType());
    auto srcLayout = getDistributedLayout(srcType);
    auto dstLayout = getDistributedLayout(dstType);
    ValueRange src = adaptor.getSrc();
    if (sameMapping(srcLayout, dstLayout, srcType.getShape())) {
      rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(src)});
      return success();
    }
    // Through block-level scratch: every thread writes what it holds at the
    // row-major position, then reads what the new layout gives it.
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    auto base = allocScratch(rewriter, loc, st, scratchType(elem),
                             srcType.getNumElements());
    if (failed(base))
      return failure();
    auto srcIdx =
        emitIndices(rewriter, loc, st.target, srcLayout, srcType.getShape());
    auto dstIdx =
        emitIndices(rewriter, loc, st.target, dstLayout, dstType.getShape());
    if (failed(srcIdx) || failed(dstIdx))
      return op.emitError("cannot compute the indices of this layout");
    for (auto [value, index] : llvm::zip(src, *srcIdx))
      storeScratch(rewriter, loc, *base,
                   linearizeIndex(rewriter, loc, index, srcType.getShape()),
                   value);
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    SmallVector<Value> values;
    for (auto &index : *dstIdx)
      values.push_back(loadScratch(
          rewriter, loc, *base,
          linearizeIndex(rewriter, loc, index, dstType.getShape()), elem));
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateLayoutPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<MakeRangeConversion, SplatConversion, BroadcastConversion,
               ExpandDimsConversion, ConvertLayoutConversion>(
      tc, patterns.getContext(), st);
}
