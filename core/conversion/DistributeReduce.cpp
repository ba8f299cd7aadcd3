//===- DistributeReduce.cpp - Reductions: registers, lanes, warps ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;

namespace {

/// The bits `positions` of `id`, gathered into its low bits in order (one
/// shift and mask where they are consecutive).
Value packBits(OpBuilder &b, Location loc, Value id,
               ArrayRef<unsigned> positions) {
  bool consecutive = llvm::all_of(llvm::enumerate(positions), [&](auto e) {
    return e.value() == positions.front() + e.index();
  });
  if (positions.empty())
    return i32Const(b, loc, 0);
  if (consecutive)
    return arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, id, i32Const(b, loc, positions[0])),
        i32Const(b, loc, (1u << positions.size()) - 1));
  Value packed = i32Const(b, loc, 0);
  for (auto [i, bit] : llvm::enumerate(positions)) {
    Value one = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, id, i32Const(b, loc, bit)),
        i32Const(b, loc, 1));
    packed = arith::OrIOp::create(
        b, loc, packed,
        arith::ShLIOp::create(b, loc, one, i32Const(b, loc, i)));
  }
  return packed;
}

struct ReduceConversion : DistPattern<ReduceOp> {
  using DistPattern::DistPattern;

  /// Applies the combiner region to (acc, cur).
  static SmallVector<Value> combine(OpBuilder &b, ReduceOp op,
                                    ArrayRef<Value> acc, ArrayRef<Value> cur) {
    Block &body = op.getCombineOp().front();
    IRMapping map;
    for (unsigned i = 0; i < acc.size(); ++i) {
      map.map(body.getArgument(i), acc[i]);
      map.map(body.getArgument(acc.size() + i), cur[i]);
    }
    for (Operation &inner : body.without_terminator())
      b.clone(inner, map);
    SmallVector<Value> result;
    for (Value v : body.getTerminator()->getOperands())
      result.push_back(map.lookupOrDefault(v));
    return result;
  }

  /// Combines `values` with those of the lanes across each of `laneBits`,
  /// highest first, by xor shuffles.
  LogicalResult butterfly(OpBuilder &b, Location loc, ReduceOp op,
                          SmallVector<Value> &values,
                          ArrayRef<unsigned> laneBits) const {
    for (unsigned bit : llvm::reverse(laneBits)) {
      SmallVector<Value> other;
      for (Value v : values) {
        FailureOr<Value> s = shuffleXor(b, loc, st.target, v, 1u << bit);
        if (failed(s))
          return failure();
        other.push_back(*s);
      }
      values = combine(b, op, values, other);
    }
    return success();
  }

  LogicalResult
  matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    auto layout = getDistributedLayout(srcType);
    unsigned axis = op.getAxis();
    ArrayRef<int64_t> shape = srcType.getShape();
    if (!layout)
      return op.emitError("reduce operand has no distributed layout (run "
                          "tle-assign-layouts)");
    FailureOr<AxisBits> bits = getAxisBits(layout, shape, axis);
    if (failed(bits))
      return op.emitError()
             << "reduce of an operand in layout " << srcType.getEncoding()
             << " along dimension " << axis
             << " is not supported by distribution: lanes or warps hold "
                "elements that differ along it and along another dimension";
    unsigned numOperands = op.getSrcs().size();
    unsigned numRegs = layout.getTotalElemsPerThread(shape);

    // Registers of the result: those of slice(axis, layout), or one scalar.
    // Registers holding the same element (a layout wider than the tensor)
    // are computed once, in the first of them (its primary), and copied.
    SmallVector<int64_t> outShape(shape);
    outShape.erase(outShape.begin() + axis);
    SliceLayoutAttr slice;
    std::map<SmallVector<int64_t>, unsigned> outOfIndex{{{}, 0}};
    unsigned numOut = 1;
    SmallVector<unsigned> primary{0};
    if (!outShape.empty()) {
      slice = SliceLayoutAttr::get(rewriter.getContext(), axis, layout);
      numOut = slice.getTotalElemsPerThread(outShape);
      outOfIndex.clear();
      primary.clear();
      for (unsigned out = 0; out < numOut; ++out)
        primary.push_back(
            outOfIndex
                .try_emplace(slice.getTensorIndex(outShape, 0, 0, out), out)
                .first->second);
    }
    auto isPrimary = [&](unsigned out) { return primary[out] == out; };

    // 1. Within the thread, over registers holding distinct elements: a
    // pairwise tree over them in register order, so that the dependent chain
    // is log2(registers) combines long rather than one per register (a row
    // of 64 values per thread: 6 instead of 63).
    std::set<SmallVector<int64_t>> seen;
    SmallVector<SmallVector<SmallVector<Value>>> leaves(numOut);
    for (unsigned reg = 0; reg < numRegs; ++reg) {
      SmallVector<int64_t> index = layout.getTensorIndex(shape, 0, 0, reg);
      if (!seen.insert(index).second)
        continue;
      index.erase(index.begin() + axis);
      auto out = outOfIndex.find(index);
      if (out == outOfIndex.end())
        return op.emitError("reduce: a register's row has no result register");
      SmallVector<Value> &cur = leaves[out->second].emplace_back();
      for (ValueRange src : adaptor.getSrcs())
        cur.push_back(src[reg]);
    }
    SmallVector<SmallVector<Value>> acc(numOut);
    for (unsigned out = 0; out < numOut; ++out) {
      if (!isPrimary(out))
        continue;
      if (leaves[out].empty())
        return op.emitError("reduce: a result register has no operand "
                            "register in its row");
      SmallVector<SmallVector<Value>> level = std::move(leaves[out]);
      while (level.size() > 1) {
        SmallVector<SmallVector<Value>> next;
        for (unsigned i = 0; i + 1 < level.size(); i += 2)
          next.push_back(combine(rewriter, op, level[i], level[i + 1]));
        if (level.size() % 2)
          next.push_back(level.back());
        level = std::move(next);
      }
      acc[out] = std::move(level.front());
    }

    // 2. Across the lanes of a warp, by xor butterflies.
    for (unsigned bit : llvm::reverse(bits->Lanes))
      for (auto &values : acc)
        if (!values.empty() &&
            failed(butterfly(rewriter, loc, op, values, {bit})))
          return failure();

    // 3. Across warps, through block-level scratch.
    unsigned warps = 1u << bits->Warps.size();
    if (warps > 1) {
      auto ids = getLaneAndWarp(rewriter, loc, st.target, layout.getWarpSize());
      if (failed(ids))
        return failure();
      // The warp's position along the axis: its axis bits, packed.
      Value warpAlong = packBits(rewriter, loc, ids->second, bits->Warps);
      int64_t outElems = 1;
      for (int64_t s : outShape)
        outElems *= s;
      // Row-major position of each result register.
      SmallVector<Value> outLinear;
      if (outShape.empty()) {
        outLinear.push_back(i32Const(rewriter, loc, 0));
      } else {
        auto idx = emitIndices(rewriter, loc, st.target, slice, outShape);
        if (failed(idx))
          return failure();
        for (auto &index : *idx)
          outLinear.push_back(linearizeIndex(rewriter, loc, index, outShape));
      }
      Value cWarps = i32Const(rewriter, loc, warps);
      SmallVector<Value> bases;
      for (unsigned k = 0; k < numOperands; ++k) {
        Type t = acc[primary[0]][k].getType();
        auto base =
            allocScratch(rewriter, loc, st, scratchType(t), outElems * warps);
        if (failed(base))
          return failure();
        bases.push_back(*base);
      }
      // One lane per row of the axis writes the warp's partial, the lane
      // whose axis bits are zero, as Triton does: the butterfly leaves each
      // lane its own combine order, and with a non-commutative combiner, or
      // an argmax over NaNs, lanes writing one slot could leave a value and
      // an index from different lanes.
      Value writer;
      if (!bits->Lanes.empty()) {
        unsigned axisLanes = 0;
        for (unsigned bit : bits->Lanes)
          axisLanes |= 1u << bit;
        writer = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq,
            arith::AndIOp::create(rewriter, loc, ids->first,
                                  i32Const(rewriter, loc, axisLanes)),
            i32Const(rewriter, loc, 0));
      }
      auto storePartials = [&](OpBuilder &b, Location l) {
        for (unsigned out = 0; out < numOut; ++out) {
          if (!isPrimary(out))
            continue;
          Value slot = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, outLinear[out], cWarps),
              warpAlong);
          for (unsigned k = 0; k < numOperands; ++k)
            storeScratch(b, l, bases[k], slot, acc[out][k]);
        }
      };
      if (writer) {
        scf::IfOp::create(rewriter, loc, writer, [&](OpBuilder &b, Location l) {
          storePartials(b, l);
          scf::YieldOp::create(b, l);
        });
      } else {
        storePartials(rewriter, loc);
      }
      if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
        return failure();
      // With shuffled partials: the lowest log2(warps) lane bits along the
      // axis pick this lane's partial (where there are that many).
      unsigned warpBits = bits->Warps.size();
      SmallVector<unsigned> partLanes;
      Value lanePart;
      if (st.shuffledPartials && bits->Lanes.size() >= warpBits) {
        partLanes.assign(bits->Lanes.begin(), bits->Lanes.end());
        llvm::sort(partLanes);
        partLanes.resize(warpBits);
        lanePart = packBits(rewriter, loc, ids->first, partLanes);
      }
      for (unsigned out = 0; out < numOut; ++out) {
        if (!isPrimary(out))
          continue;
        Value first =
            arith::MulIOp::create(rewriter, loc, outLinear[out], cWarps);
        if (lanePart) {
          // This lane reads the partial its axis lane bits select; xor
          // shuffles over those bits combine the partials, w with w + half
          // first, as the tree below and Triton's butterfly do. The lanes
          // exchanging values differ only along the axis, so they hold the
          // same result elements.
          Value slot = arith::AddIOp::create(rewriter, loc, first, lanePart);
          SmallVector<Value> cur;
          for (unsigned k = 0; k < numOperands; ++k)
            cur.push_back(loadScratch(rewriter, loc, bases[k], slot,
                                      acc[out][k].getType()));
          if (failed(butterfly(rewriter, loc, op, cur, partLanes)))
            return failure();
          acc[out] = std::move(cur);
          continue;
        }
        SmallVector<SmallVector<Value>> partials;
        for (unsigned w = 0; w < warps; ++w) {
          Value slot = arith::AddIOp::create(rewriter, loc, first,
                                             i32Const(rewriter, loc, w));
          SmallVector<Value> cur;
          for (unsigned k = 0; k < numOperands; ++k)
            cur.push_back(loadScratch(rewriter, loc, bases[k], slot,
                                      acc[out][k].getType()));
          partials.push_back(std::move(cur));
        }
        // A tree, log2(warps) deep, pairing warp w with w + half as
        // Triton's xor butterfly over the partials does: the same rounding
        // as Triton's, and no chain of warps - 1 dependent combines.
        for (size_t half = partials.size() / 2; half > 0; half /= 2)
          for (size_t w = 0; w < half; ++w)
            partials[w] =
                combine(rewriter, op, partials[w], partials[w + half]);
        acc[out] = std::move(partials.front());
      }
      if (failed(emitScratchRelease(rewriter, loc, st)))
        return failure();
    }

    SmallVector<SmallVector<Value>> results(numOperands);
    for (unsigned out = 0; out < numOut; ++out)
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(acc[primary[out]][k]);
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateReducePatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<ReduceConversion>(tc, patterns.getContext(), st);
}
