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

/// How a tensor is placed in scratch for a layout conversion: dimension
/// `fastest` is contiguous, other dimensions follow slowest-last, and each
/// row of the fastest dimension is padded by 16 bytes so that threads
/// reading a column hit different banks.
struct ScratchPlacement {
  unsigned fastest;
  SmallVector<int64_t> strides;
  int64_t size;

  ScratchPlacement(ArrayRef<int64_t> shape, unsigned fastest, unsigned bytes)
      : fastest(fastest), strides(shape.size(), 0) {
    int64_t stride = 1;
    strides[fastest] = 1;
    stride = shape[fastest];
    if (shape.size() > 1)
      stride += 16 / std::max(1u, std::min(bytes, 16u));
    for (unsigned d = shape.size(); d > 0; --d) {
      if (d - 1 == fastest)
        continue;
      strides[d - 1] = stride;
      stride *= shape[d - 1];
    }
    size = stride;
  }

  Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> index) const {
    Value linear = i32Const(b, loc, 0);
    for (auto [v, stride] : llvm::zip(index, strides)) {
      Value term = stride == 1 ? v
                               : Value(arith::MulIOp::create(
                                     b, loc, v, i32Const(b, loc, stride)));
      linear = arith::AddIOp::create(b, loc, linear, term);
    }
    return linear;
  }
};

/// How a conversion reads scratch with the target's 8x8 tile loads
/// (ldmatrix), or writes it with tile stores (stmatrix): scratch keeps
/// dimension `contiguous` contiguous, and each group of eight registers of
/// the layout is four tiles, moved by one instruction. Within a tile the
/// layout must place elements as the tile load delivers them (see
/// TargetInfo::emitMatrixTileLoad).
struct MatrixTilePlan {
  unsigned contiguous;
  bool transpose;
  /// Per group of eight registers: offsets of tiles 1 and 2 from tile 0
  /// (tile 3 is at their sum).
  SmallVector<std::array<SmallVector<int64_t, 2>, 2>> tileSteps;
};

std::optional<MatrixTilePlan>
planMatrixTiles(DistributedLayoutAttrInterface dst, ArrayRef<int64_t> shape,
                    Type elem, unsigned contiguous) {
  if (shape.size() != 2 || elem.getIntOrFloatBitWidth() != 16 ||
      dst.getWarpSize() != 32)
    return std::nullopt;
  unsigned n = dst.getTotalElemsPerThread(shape);
  if (n == 0 || n % 8)
    return std::nullopt;
  unsigned c = contiguous, s = 1 - contiguous;
  auto unit = [&](unsigned dim, int64_t k) {
    SmallVector<int64_t, 2> v(2, 0);
    v[dim] = k;
    return v;
  };
  auto add = [](SmallVector<int64_t, 2> a, ArrayRef<int64_t> b) {
    a[0] += b[0];
    a[1] += b[1];
    return a;
  };
  auto sub = [](SmallVector<int64_t, 2> a, ArrayRef<int64_t> b) {
    a[0] -= b[0];
    a[1] -= b[1];
    return a;
  };
  auto at = [&](unsigned lane, unsigned warp, unsigned reg) {
    SmallVector<int64_t> i = dst.getTensorIndex(shape, lane, warp, reg);
    return SmallVector<int64_t, 2>(i.begin(), i.end());
  };
  for (bool transpose : {false, true}) {
    // Offset of the second register of a pair, and of lanes within a tile.
    unsigned pairDim = transpose ? s : c, rowDim = transpose ? c : s;
    auto laneOffset = [&](unsigned lane) {
      return add(unit(pairDim, 2 * (lane % 4)), unit(rowDim, lane / 4));
    };
    bool ok = true;
    for (unsigned w = 0; ok && w < dst.getNumWarps(); ++w)
      for (unsigned r = 0; ok && r < n; r += 2) {
        SmallVector<int64_t, 2> origin = at(0, w, r);
        ok = origin[0] % 8 == 0 && origin[1] % 8 == 0;
        for (unsigned l = 0; ok && l < 32; ++l) {
          SmallVector<int64_t, 2> first = add(origin, laneOffset(l));
          ok = at(l, w, r) == first &&
               at(l, w, r + 1) == add(first, unit(pairDim, 1));
        }
      }
    MatrixTilePlan plan{contiguous, transpose, {}};
    for (unsigned g = 0; ok && g < n / 8; ++g) {
      SmallVector<int64_t, 2> base = at(0, 0, 8 * g);
      std::array<SmallVector<int64_t, 2>, 2> steps = {
          sub(at(0, 0, 8 * g + 2), base), sub(at(0, 0, 8 * g + 4), base)};
      for (unsigned w = 0; ok && w < dst.getNumWarps(); ++w) {
        SmallVector<int64_t, 2> wbase = at(0, w, 8 * g);
        ok = at(0, w, 8 * g + 2) == add(wbase, steps[0]) &&
             at(0, w, 8 * g + 4) == add(wbase, steps[1]) &&
             at(0, w, 8 * g + 6) == add(add(wbase, steps[0]), steps[1]);
      }
      plan.tileSteps.push_back(steps);
    }
    if (ok)
      return plan;
  }
  return std::nullopt;
}

/// Tiles of at most this many elements that every thread holds whole are
/// converted by selects among the thread's registers: n - 1 compares and
/// selects per register against a round trip through block-level memory and
/// its barriers.
constexpr int64_t kMaxSelectedElements = 16;

/// For a tile every thread holds whole, in the same registers (a row
/// statistic reduced over warps and lanes that hold all of its rows), the
/// row-major offset of the element in each of a thread's registers;
/// std::nullopt for any other layout or a larger tile.
std::optional<SmallVector<int64_t>>
getWholeTileOffsets(DistributedLayoutAttrInterface layout,
                    ArrayRef<int64_t> shape) {
  int64_t elements = ShapedType::getNumElements(shape);
  if (elements > kMaxSelectedElements ||
      layout.getTotalElemsPerThread(shape) != elements)
    return std::nullopt;
  SmallVector<int64_t> offsets;
  llvm::SmallDenseSet<int64_t, 16> seen;
  for (unsigned reg = 0; reg < elements; ++reg) {
    SmallVector<int64_t> index = layout.getTensorIndex(shape, 0, 0, reg);
    for (unsigned warp = 0; warp < layout.getNumWarps(); ++warp)
      for (unsigned lane = 0; lane < layout.getWarpSize(); ++lane)
        if (layout.getTensorIndex(shape, lane, warp, reg) != index)
          return std::nullopt;
    offsets.push_back(getRowMajorOffset(index, shape));
    if (!seen.insert(offsets.back()).second)
      return std::nullopt;
  }
  return offsets;
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
    ArrayRef<int64_t> shape = srcType.getShape();
    ValueRange src = adaptor.getSrc();
    using Counts = ::tle::conversion::LayoutConversionCounts;
    auto count = [&](unsigned Counts::*how) {
      if (st.conversionCounts)
        ++(st.conversionCounts->*how);
    };
    if (haveSameMapping(srcLayout, dstLayout, shape)) {
      rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(src)});
      count(&Counts::Free);
      return success();
    }
    // Every thread holds the whole tile: each picks the elements the new
    // layout gives it by their offsets.
    if (auto offsets = getWholeTileOffsets(srcLayout, shape)) {
      auto indices =
          emitIndices(rewriter, loc, st.target, dstType.getEncoding(), shape);
      if (failed(indices))
        return op.emitError("cannot compute the indices of this layout");
      SmallVector<Value> values;
      for (ArrayRef<Value> index : *indices) {
        Value offset = linearizeIndex(rewriter, loc, index, shape);
        Value picked = src[0];
        for (unsigned reg = 1; reg < offsets->size(); ++reg) {
          Value here = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq, offset,
              i32Const(rewriter, loc, (*offsets)[reg]));
          picked =
              arith::SelectOp::create(rewriter, loc, here, src[reg], picked);
        }
        values.push_back(picked);
      }
      rewriter.replaceOpWithMultiple(op, {values});
      count(&Counts::RegisterSelects);
      return success();
    }
    // Through block-level scratch: every thread writes what it holds, then
    // reads what the new layout gives it. The contiguous dimension of the
    // scratch is the one that needs the fewest accesses in all.
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    Type stored = scratchType(elem);
    unsigned bytes = typeBytes(stored);
    unsigned maxElems = stored == elem ? std::max(1u, 16 / bytes) : 1;
    unsigned srcRegs = srcLayout.getTotalElemsPerThread(shape);
    unsigned dstRegs = dstLayout.getTotalElemsPerThread(shape);
    unsigned bestDim = shape.size() - 1, srcVec = 1;
    unsigned bestCost = ~0u;
    for (unsigned dim = shape.size(); dim > 0; --dim) {
      unsigned sv = getScratchVectorWidth(srcLayout, shape, dim - 1, maxElems);
      unsigned dv = getScratchVectorWidth(dstLayout, shape, dim - 1, maxElems);
      unsigned cost = srcRegs / sv + dstRegs / dv;
      if (cost < bestCost) {
        bestCost = cost;
        bestDim = dim - 1;
        srcVec = sv;
      }
    }
    // Within warps: lane shuffles, no block-level memory or barrier, where
    // they are no more than the scratch accesses (a shuffle and a few
    // selects against a store or load, and the barriers saved).
    if (st.warpExchanges && elem.isIntOrFloat())
      if (std::optional<WarpExchangePlan> plan =
              planWarpExchange(srcLayout, dstLayout, shape,
                               elem.getIntOrFloatBitWidth(), bestCost)) {
        auto values = emitWarpExchange(rewriter, loc, st, *plan, src, elem,
                                       srcLayout.getWarpSize());
        if (failed(values))
          return failure();
        rewriter.replaceOpWithMultiple(op, {*values});
        count(&Counts::WarpExchanges);
        return success();
      }
    // Matrix operands read with tile loads, from scratch laid out as the
    // source writes it fastest (one tile load replaces eight 32-bit loads,
    // and 16-byte rows padded by 16 bytes keep both sides free of bank
    // conflicts).
    if (st.target.supportsMatrixTileLoads() && stored == elem &&
        elem.isIntOrFloat()) {
      unsigned widest = 0;
      for (unsigned dim = 0; dim < shape.size(); ++dim) {
        unsigned sv = getScratchVectorWidth(srcLayout, shape, dim, maxElems);
        if (sv > widest && planMatrixTiles(dstLayout, shape, elem, dim)) {
          widest = sv;
          bestDim = dim;
          srcVec = sv;
        }
      }
    }
    ScratchPlacement placement(shape, bestDim, bytes);
    auto base = allocScratch(rewriter, loc, st, stored, placement.size);
    if (failed(base))
      return failure();
    auto ptrAt = [&](ArrayRef<Value> index, Type type) {
      return scratchPtr(rewriter, loc, *base, type,
                        placement.linearize(rewriter, loc, index));
    };
    if (failed(writeBlockTile(rewriter, loc, st, srcLayout, shape, src, bestDim,
                              srcVec, ptrAt)))
      return failure();
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    auto values = readBlockTile(rewriter, loc, st, dstLayout, shape, elem,
                                bestDim, ptrAt);
    if (failed(values))
      return failure();
    if (failed(emitScratchRelease(rewriter, loc, st)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*values});
    count(&Counts::ThroughBlockMemory);
    return success();
  }
};

/// Per group of eight registers of a tile plan, the index this lane
/// addresses: lane l gives row l%8 of tile l/8 of its group; the group's
/// first tile is where this thread's first register of the group lies,
/// less its offset inside the tile.
FailureOr<SmallVector<SmallVector<Value, 2>>>
getMatrixTileRowIndices(OpBuilder &b, Location loc, DistributeState &st,
                        const MatrixTilePlan &plan,
                        ArrayRef<SmallVector<Value>> idx, unsigned warpSize) {
  auto ids = getLaneAndWarp(b, loc, st.target, warpSize);
  if (failed(ids))
    return failure();
  Value lane = ids->first;
  unsigned c = plan.contiguous, s = 1 - c;
  unsigned pairDim = plan.transpose ? s : c, rowDim = plan.transpose ? c : s;
  auto shr = [&](Value v, unsigned k) {
    return Value(arith::ShRUIOp::create(b, loc, v, i32Const(b, loc, k)));
  };
  auto andi = [&](Value v, unsigned k) {
    return Value(arith::AndIOp::create(b, loc, v, i32Const(b, loc, k)));
  };
  auto mulc = [&](Value v, int64_t k) {
    return Value(arith::MulIOp::create(b, loc, v, i32Const(b, loc, k)));
  };
  SmallVector<Value, 2> inTile(2);
  inTile[pairDim] = mulc(andi(lane, 3), 2);
  inTile[rowDim] = shr(lane, 2);
  Value row = andi(lane, 7);
  Value tile = shr(lane, 3);
  Value tileBit0 = andi(tile, 1), tileBit1 = shr(tile, 1);
  SmallVector<SmallVector<Value, 2>> rows;
  for (auto [g, steps] : llvm::enumerate(plan.tileSteps)) {
    SmallVector<Value, 2> index;
    for (unsigned d = 0; d < 2; ++d) {
      Value v = arith::SubIOp::create(b, loc, idx[8 * g][d], inTile[d]);
      if (steps[0][d])
        v = arith::AddIOp::create(b, loc, v, mulc(tileBit0, steps[0][d]));
      if (steps[1][d])
        v = arith::AddIOp::create(b, loc, v, mulc(tileBit1, steps[1][d]));
      if (d == s)
        v = arith::AddIOp::create(b, loc, v, row);
      index.push_back(v);
    }
    rows.push_back(index);
  }
  return rows;
}

/// The destination registers, four tiles per tile load.
FailureOr<SmallVector<Value>>
loadMatrixTiles(OpBuilder &b, Location loc, DistributeState &st,
                const MatrixTilePlan &plan, ArrayRef<SmallVector<Value>> dstIdx,
                Type elem, unsigned warpSize,
                function_ref<Value(ArrayRef<Value>, Type)> ptrAt) {
  auto rows = getMatrixTileRowIndices(b, loc, st, plan, dstIdx, warpSize);
  if (failed(rows))
    return failure();
  auto vecType = VectorType::get({2}, elem);
  SmallVector<Value> values;
  for (ArrayRef<Value> index : *rows) {
    auto loaded = st.target.emitMatrixTileLoad(b, loc, ptrAt(index, elem), 4,
                                               plan.transpose);
    if (failed(loaded))
      return failure();
    for (Value pair : *loaded) {
      Value v = LLVM::BitcastOp::create(b, loc, vecType, pair);
      for (unsigned j = 0; j < 2; ++j)
        values.push_back(
            LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, j)));
    }
  }
  return values;
}

/// Writes the source registers, four tiles per tile store (the inverse of
/// loadMatrixTiles: register pairs 2i, 2i+1 of a group are tile i).
LogicalResult storeMatrixTiles(OpBuilder &b, Location loc, DistributeState &st,
                               const MatrixTilePlan &plan,
                               ArrayRef<SmallVector<Value>> srcIdx,
                               ValueRange src, Type elem, unsigned warpSize,
                               function_ref<Value(ArrayRef<Value>, Type)> ptrAt) {
  auto rows = getMatrixTileRowIndices(b, loc, st, plan, srcIdx, warpSize);
  if (failed(rows))
    return failure();
  for (auto [g, index] : llvm::enumerate(*rows)) {
    SmallVector<Value, 4> tiles;
    for (unsigned t = 0; t < 4; ++t) {
      Value pair = packVector(b, loc, src.slice(8 * g + 2 * t, 2));
      tiles.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair));
    }
    if (failed(st.target.emitMatrixTileStore(b, loc, ptrAt(index, elem), tiles,
                                             plan.transpose)))
      return failure();
  }
  return success();
}
} // namespace

namespace tle::conversion::distribute {
FailureOr<SmallVector<Value>>
readBlockTile(OpBuilder &b, Location loc, DistributeState &st,
              DistributedLayoutAttrInterface layout, ArrayRef<int64_t> shape,
              Type elem, unsigned contiguous,
              function_ref<Value(ArrayRef<Value>, Type)> ptrAt) {
  auto idx = emitIndices(b, loc, st.target, layout, shape);
  if (failed(idx))
    return emitError(loc, "cannot compute the indices of this layout");
  Type stored = scratchType(elem);
  if (st.target.supportsMatrixTileLoads() && stored == elem &&
      elem.isIntOrFloat())
    if (std::optional<MatrixTilePlan> tiles =
            planMatrixTiles(layout, shape, elem, contiguous))
      return loadMatrixTiles(b, loc, st, *tiles, *idx, elem,
                             layout.getWarpSize(), ptrAt);
  unsigned bytes = typeBytes(stored);
  unsigned maxElems = stored == elem ? std::max(1u, 16 / bytes) : 1;
  unsigned vec = getScratchVectorWidth(layout, shape, contiguous, maxElems);
  SmallVector<Value> values;
  for (unsigned r = 0, n = layout.getTotalElemsPerThread(shape); r < n;
       r += vec) {
    if (vec == 1) {
      Value v = LLVM::LoadOp::create(b, loc, stored, ptrAt((*idx)[r], stored));
      if (stored != elem)
        v = arith::TruncIOp::create(b, loc, elem, v);
      values.push_back(v);
      continue;
    }
    auto vecType = VectorType::get({int64_t(vec)}, elem);
    Value loaded = LLVM::LoadOp::create(b, loc, vecType, ptrAt((*idx)[r], elem),
                                        vec * bytes);
    for (unsigned j = 0; j < vec; ++j)
      values.push_back(
          LLVM::ExtractElementOp::create(b, loc, loaded, i32Const(b, loc, j)));
  }
  return values;
}

LogicalResult writeBlockTile(OpBuilder &b, Location loc, DistributeState &st,
                             DistributedLayoutAttrInterface layout,
                             ArrayRef<int64_t> shape, ValueRange values,
                             unsigned contiguous, unsigned maxVector,
                             function_ref<Value(ArrayRef<Value>, Type)> ptrAt) {
  auto idx = emitIndices(b, loc, st.target, layout, shape);
  if (failed(idx))
    return emitError(loc, "cannot compute the indices of this layout");
  Type elem = values.front().getType();
  Type stored = scratchType(elem);
  // Matrix fragments (the accumulator of a tl.dot) go with tile stores
  // where the layout has the tile pattern along the contiguous dimension:
  // one instruction per eight registers.
  if (st.target.supportsMatrixTileStores() && stored == elem &&
      elem.isIntOrFloat())
    if (std::optional<MatrixTilePlan> tiles =
            planMatrixTiles(layout, shape, elem, contiguous))
      return storeMatrixTiles(b, loc, st, *tiles, *idx, values, elem,
                              layout.getWarpSize(), ptrAt);
  unsigned vec = stored == elem ? getScratchVectorWidth(layout, shape,
                                                        contiguous, maxVector)
                                : 1;
  for (unsigned r = 0; r < values.size(); r += vec) {
    Value value = values[r];
    if (vec > 1)
      value = packVector(b, loc, values.slice(r, vec));
    else if (stored != elem)
      value = arith::ExtUIOp::create(b, loc, stored, value);
    LLVM::StoreOp::create(b, loc, value, ptrAt((*idx)[r], stored),
                          vec * typeBytes(stored));
  }
  return success();
}
} // namespace tle::conversion::distribute

void ::tle::conversion::distribute::populateLayoutPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<MakeRangeConversion, SplatConversion, BroadcastConversion,
               ExpandDimsConversion, ConvertLayoutConversion>(
      tc, patterns.getContext(), st);
}
