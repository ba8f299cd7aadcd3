//===- DistributeShape.cpp - Shape ops that move elements between threads -===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// trans, reshape, join, split, cat and the TLE-Lite sub-tile views
// (extract_tile, insert_tile) change which thread holds which element. They
// go through block-level scratch: every thread writes what it holds at the
// element's position in a flat buffer, a barrier, every thread reads what
// its result registers need, another barrier (the scratch is reused). Where
// every thread already holds the elements its result registers need (layout
// assignment picks such layouts for a matrix accumulator's reshape, trans,
// split and join, and for a join, a split or a reshape of the last
// dimension of blocked tiles) the op only renumbers registers. A sub-tile at a constant
// index whose layout tiles both shapes evenly needs no exchange at all
// either: its registers are a subset of the larger tile's.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;

namespace {

/// Maps a tensor index (i32 per dimension) to a flat scratch position.
using PositionFn = std::function<Value(OpBuilder &, Location, ArrayRef<Value>)>;

PositionFn rowMajor(ArrayRef<int64_t> shape, int64_t offset = 0) {
  SmallVector<int64_t> s(shape);
  return [s, offset](OpBuilder &b, Location loc, ArrayRef<Value> index) {
    Value linear = linearizeIndex(b, loc, index, s);
    if (offset)
      linear = arith::AddIOp::create(b, loc, linear, i32Const(b, loc, offset));
    return linear;
  };
}

/// Writes the registers of a tensor of `type` to scratch.
LogicalResult storeTensor(OpBuilder &b, Location loc, DistributeState &st,
                          Value base, RankedTensorType type, ValueRange values,
                          const PositionFn &position) {
  auto indices =
      emitIndices(b, loc, st.target, type.getEncoding(), type.getShape());
  if (failed(indices))
    return failure();
  for (auto [value, index] : llvm::zip(values, *indices))
    storeScratch(b, loc, base, position(b, loc, index), value);
  return success();
}

/// Reads the registers of a tensor of `type` from scratch.
FailureOr<SmallVector<Value>> loadTensor(OpBuilder &b, Location loc,
                                         DistributeState &st, Value base,
                                         RankedTensorType type, Type elem,
                                         const PositionFn &position) {
  auto indices =
      emitIndices(b, loc, st.target, type.getEncoding(), type.getShape());
  if (failed(indices))
    return failure();
  SmallVector<Value> values;
  for (auto &index : *indices)
    values.push_back(loadScratch(b, loc, base, position(b, loc, index), elem));
  return values;
}

/// One exchange: `writes` (operand type, registers, position) then `reads`.
struct Exchange {
  struct Write {
    RankedTensorType type;
    ValueRange values;
    PositionFn position;
  };
  struct Read {
    RankedTensorType type;
    PositionFn position;
  };
  SmallVector<Write> writes;
  SmallVector<Read> reads;
};

FailureOr<SmallVector<SmallVector<Value>>>
emitExchange(OpBuilder &b, Location loc, DistributeState &st,
             const TypeConverter &tc, uint64_t slots, const Exchange &ex) {
  Type elem = tc.convertType(ex.writes[0].type.getElementType());
  auto base = allocScratch(b, loc, st, scratchType(elem), slots);
  if (failed(base))
    return failure();
  for (const auto &w : ex.writes)
    if (failed(storeTensor(b, loc, st, *base, w.type, w.values, w.position)))
      return failure();
  if (failed(st.target.emitBarrier(b, loc, BarrierScope::Block)))
    return failure();
  SmallVector<SmallVector<Value>> results;
  for (const auto &r : ex.reads) {
    auto values = loadTensor(b, loc, st, *base, r.type, elem, r.position);
    if (failed(values))
      return failure();
    results.push_back(std::move(*values));
  }
  if (failed(emitScratchRelease(b, loc, st)))
    return failure();
  return results;
}

/// The registers `sources` pick from the operands' `values`.
SmallVector<Value> pickRegisters(ArrayRef<RegisterSource> sources,
                                 ArrayRef<ValueRange> values) {
  SmallVector<Value> picked;
  for (auto [k, reg] : sources)
    picked.push_back(values[k][reg]);
  return picked;
}

struct TransConversion : DistPattern<TransOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(TransOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSrc().getType(), dst = op.getType();
    SmallVector<int32_t> order(op.getOrder());
    // In the permuted layout every thread already holds its elements.
    if (auto sources = getShapeOpRegisterSources(op)) {
      rewriter.replaceOpWithMultiple(
          op, {pickRegisters((*sources)[0], {adaptor.getSrc()})});
      return success();
    }
    SmallVector<int64_t> srcShape(src.getShape());
    // Result dimension k is source dimension order[k].
    PositionFn fromDst = [order, srcShape](OpBuilder &b, Location loc,
                                           ArrayRef<Value> j) {
      SmallVector<Value> i(j.size());
      for (auto [k, d] : llvm::enumerate(order))
        i[d] = j[k];
      return linearizeIndex(b, loc, i, srcShape);
    };
    auto out = emitExchange(
        rewriter, op.getLoc(), st, *getTypeConverter(), src.getNumElements(),
        {{{src, adaptor.getSrc(), rowMajor(src.getShape())}},
         {{dst, fromDst}}});
    if (failed(out))
      return failure();
    rewriter.replaceOpWithMultiple(op, {(*out)[0]});
    return success();
  }
};

struct ReshapeConversion : DistPattern<ReshapeOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSrc().getType(), dst = op.getType();
    if (auto sources = getShapeOpRegisterSources(op)) {
      rewriter.replaceOpWithMultiple(
          op, {pickRegisters((*sources)[0], {adaptor.getSrc()})});
      return success();
    }
    auto out = emitExchange(
        rewriter, op.getLoc(), st, *getTypeConverter(), src.getNumElements(),
        {{{src, adaptor.getSrc(), rowMajor(src.getShape())}},
         {{dst, rowMajor(dst.getShape())}}});
    if (failed(out))
      return failure();
    rewriter.replaceOpWithMultiple(op, {(*out)[0]});
    return success();
  }
};

struct JoinConversion : DistPattern<JoinOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(JoinOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType lhs = op.getLhs().getType(), rhs = op.getRhs().getType(),
                     dst = op.getType();
    if (auto sources = getShapeOpRegisterSources(op)) {
      rewriter.replaceOpWithMultiple(
          op,
          {pickRegisters((*sources)[0], {adaptor.getLhs(), adaptor.getRhs()})});
      return success();
    }
    SmallVector<int64_t> shape(lhs.getShape());
    // Element i of lhs is result (i, 0), of rhs (i, 1).
    auto half = [shape](int64_t which) -> PositionFn {
      return [shape, which](OpBuilder &b, Location loc, ArrayRef<Value> i) {
        Value linear = linearizeIndex(b, loc, i, shape);
        return arith::AddIOp::create(
                   b, loc,
                   arith::MulIOp::create(b, loc, linear, i32Const(b, loc, 2)),
                   i32Const(b, loc, which))
            .getResult();
      };
    };
    auto out = emitExchange(
        rewriter, op.getLoc(), st, *getTypeConverter(), dst.getNumElements(),
        {{{lhs, adaptor.getLhs(), half(0)}, {rhs, adaptor.getRhs(), half(1)}},
         {{dst, rowMajor(dst.getShape())}}});
    if (failed(out))
      return failure();
    rewriter.replaceOpWithMultiple(op, {(*out)[0]});
    return success();
  }
};

struct SplitConversion : DistPattern<SplitOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSrc().getType();
    RankedTensorType lhs = op.getLhs().getType(), rhs = op.getRhs().getType();
    if (auto sources = getShapeOpRegisterSources(op)) {
      rewriter.replaceOpWithMultiple(
          op, {pickRegisters((*sources)[0], {adaptor.getSrc()}),
               pickRegisters((*sources)[1], {adaptor.getSrc()})});
      return success();
    }
    SmallVector<int64_t> shape(lhs.getShape());
    auto half = [shape](int64_t which) -> PositionFn {
      return [shape, which](OpBuilder &b, Location loc, ArrayRef<Value> i) {
        Value linear = linearizeIndex(b, loc, i, shape);
        return arith::AddIOp::create(
                   b, loc,
                   arith::MulIOp::create(b, loc, linear, i32Const(b, loc, 2)),
                   i32Const(b, loc, which))
            .getResult();
      };
    };
    auto out = emitExchange(
        rewriter, op.getLoc(), st, *getTypeConverter(), src.getNumElements(),
        {{{src, adaptor.getSrc(), rowMajor(src.getShape())}},
         {{lhs, half(0)}, {rhs, half(1)}}});
    if (failed(out))
      return failure();
    rewriter.replaceOpWithMultiple(op, {(*out)[0], (*out)[1]});
    return success();
  }
};

/// tl.cat: dimension 0 concatenated, i.e. the flat row-major arrays.
struct CatConversion : DistPattern<CatOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(CatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType lhs = op.getLhs().getType(), rhs = op.getRhs().getType(),
                     dst = op.getType();
    auto out = emitExchange(rewriter, op.getLoc(), st, *getTypeConverter(),
                            dst.getNumElements(),
                            {{{lhs, adaptor.getLhs(), rowMajor(lhs.getShape())},
                              {rhs, adaptor.getRhs(),
                               rowMajor(rhs.getShape(), lhs.getNumElements())}},
                             {{dst, rowMajor(dst.getShape())}}});
    if (failed(out))
      return failure();
    rewriter.replaceOpWithMultiple(op, {(*out)[0]});
    return success();
  }
};

/// The origin of sub-tile `index` (tiles of `tile` in row-major order over
/// `full`), per dimension, as i32 values.
SmallVector<Value> tileOrigin(OpBuilder &b, Location loc, Value index,
                              ArrayRef<int64_t> full, ArrayRef<int64_t> tile) {
  SmallVector<Value> origin(full.size());
  for (int64_t d = full.size() - 1; d >= 0; --d) {
    int64_t count = llvm::divideCeil(full[d], tile[d]);
    Value c = i32Const(b, loc, count);
    origin[d] =
        arith::MulIOp::create(b, loc, arith::RemUIOp::create(b, loc, index, c),
                              i32Const(b, loc, tile[d]));
    index = arith::DivUIOp::create(b, loc, index, c);
  }
  return origin;
}

/// For a constant sub-tile index: the register of the full tile holding each
/// register of the sub-tile, when one blocked layout tiles both evenly.
std::optional<SmallVector<unsigned>>
subTileRegisters(RankedTensorType full, RankedTensorType tile, Value index) {
  auto layout = dyn_cast<BlockedLayoutAttr>(full.getEncoding());
  APInt value;
  if (!layout || layout != tile.getEncoding() ||
      !matchPattern(index, m_ConstantInt(&value)))
    return std::nullopt;
  SmallVector<int64_t> perTile = layout.getShapePerTile();
  for (unsigned d = 0; d < full.getRank(); ++d)
    if (full.getDimSize(d) % perTile[d] != 0 ||
        tile.getDimSize(d) % perTile[d] != 0)
      return std::nullopt;
  SmallVector<unsigned> fullEpt = layout.getElemsPerThread(full.getShape());
  SmallVector<unsigned> tileEpt = layout.getElemsPerThread(tile.getShape());
  // Row-major tile coordinates of the index, then their register offsets.
  int64_t linear = value.getZExtValue();
  SmallVector<unsigned> shift(full.getRank());
  for (int64_t d = full.getRank() - 1; d >= 0; --d) {
    int64_t count = full.getDimSize(d) / tile.getDimSize(d);
    int64_t origin = (linear % count) * tile.getDimSize(d);
    linear /= count;
    shift[d] = origin / perTile[d] * layout.getSizePerThread()[d];
  }
  SmallVector<unsigned> regs;
  for (unsigned reg = 0, n = layout.getTotalElemsPerThread(tile.getShape());
       reg < n; ++reg) {
    SmallVector<unsigned> coords = delinearize(reg, tileEpt, layout.getOrder());
    for (unsigned d = 0; d < coords.size(); ++d)
      coords[d] += shift[d];
    regs.push_back(linearize(coords, fullEpt, layout.getOrder()));
  }
  return regs;
}

/// In-bounds test and clamped position of `origin + j` in `full`.
std::pair<Value, Value> subTilePosition(OpBuilder &b, Location loc,
                                        ArrayRef<Value> origin,
                                        ArrayRef<Value> j,
                                        ArrayRef<int64_t> full) {
  SmallVector<Value> i;
  Value inBounds;
  for (unsigned d = 0; d < full.size(); ++d) {
    Value v = arith::AddIOp::create(b, loc, origin[d], j[d]);
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v,
                                     i32Const(b, loc, full[d]));
    inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, ok) : ok;
    i.push_back(v);
  }
  Value linear = linearizeIndex(b, loc, i, full);
  // Outside a partial edge tile the element is undefined: read slot 0.
  return {inBounds, arith::SelectOp::create(b, loc, inBounds, linear,
                                            i32Const(b, loc, 0))};
}

struct ExtractTileConversion : DistPattern<ExtractTileOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ExtractTileOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType full = op.getSrc().getType(), tile = op.getType();
    ValueRange src = adaptor.getSrc();
    if (auto regs = subTileRegisters(full, tile, op.getIndex())) {
      SmallVector<Value> values;
      for (unsigned r : *regs)
        values.push_back(src[r]);
      rewriter.replaceOpWithMultiple(op, {values});
      return success();
    }
    Location loc = op.getLoc();
    SmallVector<Value> origin =
        tileOrigin(rewriter, loc, adaptor.getIndex().front(), full.getShape(),
                   tile.getShape());
    SmallVector<int64_t> fullShape(full.getShape());
    PositionFn fromTile = [origin, fullShape](OpBuilder &b, Location l,
                                              ArrayRef<Value> j) {
      return subTilePosition(b, l, origin, j, fullShape).second;
    };
    auto out = emitExchange(
        rewriter, loc, st, *getTypeConverter(), full.getNumElements(),
        {{{full, src, rowMajor(full.getShape())}}, {{tile, fromTile}}});
    if (failed(out))
      return failure();
    rewriter.replaceOpWithMultiple(op, {(*out)[0]});
    return success();
  }
};

struct InsertTileConversion : DistPattern<InsertTileOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(InsertTileOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType full = op.getDest().getType(),
                     tile = op.getTile().getType();
    ValueRange dest = adaptor.getDest(), sub = adaptor.getTile();
    if (auto regs = subTileRegisters(full, tile, op.getIndex())) {
      SmallVector<Value> values(dest);
      for (auto [i, r] : llvm::enumerate(*regs))
        values[r] = sub[i];
      rewriter.replaceOpWithMultiple(op, {values});
      return success();
    }
    // dest written, then the tile's in-bounds elements over it, then read.
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(full.getElementType());
    auto base = allocScratch(rewriter, loc, st, scratchType(elem),
                             full.getNumElements());
    if (failed(base) ||
        failed(storeTensor(rewriter, loc, st, *base, full, dest,
                           rowMajor(full.getShape()))) ||
        failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    SmallVector<Value> origin =
        tileOrigin(rewriter, loc, adaptor.getIndex().front(), full.getShape(),
                   tile.getShape());
    auto indices = emitIndices(rewriter, loc, st.target, tile.getEncoding(),
                               tile.getShape());
    if (failed(indices))
      return failure();
    for (auto [value, j] : llvm::zip(sub, *indices)) {
      std::pair<Value, Value> place =
          subTilePosition(rewriter, loc, origin, j, full.getShape());
      Value tileValue = value;
      // Out-of-bounds elements of a partial edge tile are dropped.
      scf::IfOp::create(rewriter, loc, place.first,
                        [&](OpBuilder &b, Location l) {
                          storeScratch(b, l, *base, place.second, tileValue);
                          scf::YieldOp::create(b, l);
                        });
    }
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    auto values = loadTensor(rewriter, loc, st, *base, full, elem,
                             rowMajor(full.getShape()));
    if (failed(values) || failed(emitScratchRelease(rewriter, loc, st)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*values});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateShapePatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns
      .add<TransConversion, ReshapeConversion, JoinConversion, SplitConversion,
           CatConversion, ExtractTileConversion, InsertTileConversion>(
          tc, patterns.getContext(), st);
}
