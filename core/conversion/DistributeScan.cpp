//===- DistributeScan.cpp - Inclusive and exclusive scans -----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle.scan (tl.cumsum, tl.associative_scan) and tle.exclusive_cumsum
// (tle.cumsum) along one axis of a blocked layout, as Triton does it:
//
//  1. each thread scans its runs of sizePerThread contiguous elements;
//  2. the run totals are scanned across the lanes of the axis by shuffles up
//     (Hillis-Steele), and each thread takes the prefix of the lanes before
//     it by one more shuffle up;
//  3. with several warps along the axis, the warp totals go through
//     block-level scratch and each thread combines those of the warps before
//     its own;
//  4. a layout whose tile is shorter than the axis repeats runs: each
//     repetition (chunk) is scanned as above and carries the totals of the
//     chunks before it.
//
// Scans are inclusive, as Triton's. Whether a prefix exists (lane 0 of the
// axis has none) is only known at run time, so prefixes carry an i1 flag and
// the combiner runs unconditionally, its result selected.
//
// A reverse scan is the same scan over positions counted from the end of
// the axis (registers in reverse order, shuffles down instead of up, lanes
// and warps numbered backwards): each element combines the total of the
// elements after it with its own value, combine(later, element), as
// Triton's flip, scan, flip.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;
using ::tle::backend::ShuffleKind;

namespace {

/// Combines (earlier, later) operand tuples.
using CombineFn =
    std::function<SmallVector<Value>(OpBuilder &, ValueRange, ValueRange)>;

/// A tuple that may be absent: `flag` (i1) tells whether it is present, a
/// null flag means always; no values means never.
struct Partial {
  SmallVector<Value> vals;
  Value flag;
  bool empty() const { return vals.empty(); }
};

SmallVector<Value> selectAll(OpBuilder &b, Location loc, Value cond,
                             ValueRange t, ValueRange f) {
  SmallVector<Value> out;
  for (auto [x, y] : llvm::zip(t, f))
    out.push_back(arith::SelectOp::create(b, loc, cond, x, y));
  return out;
}

/// `a` then `b`: the combination of whichever are present.
Partial join(OpBuilder &b, Location loc, const CombineFn &combine,
             const Partial &x, const Partial &y) {
  if (x.empty())
    return y;
  if (y.empty())
    return x;
  SmallVector<Value> both = combine(b, x.vals, y.vals);
  if (!x.flag && !y.flag)
    return {both, Value()};
  if (!x.flag)
    return {selectAll(b, loc, y.flag, both, x.vals), Value()};
  if (!y.flag)
    return {selectAll(b, loc, x.flag, both, y.vals), Value()};
  SmallVector<Value> onlyOne = selectAll(b, loc, x.flag, x.vals, y.vals);
  Value bothPresent = arith::AndIOp::create(b, loc, x.flag, y.flag);
  return {selectAll(b, loc, bothPresent, both, onlyOne),
          arith::OrIOp::create(b, loc, x.flag, y.flag)};
}

/// `prefix` combined before `vals` where present.
SmallVector<Value> applyPrefix(OpBuilder &b, Location loc,
                               const CombineFn &combine, const Partial &prefix,
                               ValueRange vals) {
  if (prefix.empty())
    return SmallVector<Value>(vals);
  SmallVector<Value> combined = combine(b, prefix.vals, vals);
  if (!prefix.flag)
    return combined;
  return selectAll(b, loc, prefix.flag, combined, vals);
}

FailureOr<SmallVector<Value>> shuffleAll(OpBuilder &b, Location loc,
                                         DistributeState &st, ValueRange vals,
                                         Value offset, ShuffleKind kind) {
  SmallVector<Value> out;
  for (Value v : vals) {
    FailureOr<Value> s = shuffleValue(b, loc, st.target, v, offset, kind);
    if (failed(s))
      return failure();
    out.push_back(*s);
  }
  return out;
}

struct ScanResult {
  /// [register][operand]
  SmallVector<SmallVector<Value>> inclusive;
  /// [register][operand]; only with an identity.
  SmallVector<SmallVector<Value>> exclusive;
  /// [operand]: the total of the whole axis, for rank-1 operands.
  SmallVector<Value> total;
};

/// Scans `regs` ([register][operand]) of tensors of `type` along `axis`,
/// from its end with `reverse`.
FailureOr<ScanResult> emitScan(OpBuilder &b, Location loc, DistributeState &st,
                               Operation *op, RankedTensorType type,
                               unsigned axis, bool reverse,
                               ArrayRef<SmallVector<Value>> regs,
                               const CombineFn &combine,
                               ArrayRef<Value> identity) {
  auto layout = dyn_cast<BlockedLayoutAttr>(type.getEncoding());
  if (!layout)
    return op->emitError() << "'" << op->getName() << "' of an operand in "
                           << "layout " << type.getEncoding()
                           << " is not supported by distribution yet";
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<unsigned> ept = layout.getElemsPerThread(shape);
  ArrayRef<unsigned> order = layout.getOrder();
  int64_t run = layout.getSizePerThread()[axis];
  if (run > shape[axis])
    return op->emitError() << "'" << op->getName() << "' along an axis of "
                           << shape[axis] << " elements with " << run
                           << " per thread is not supported by distribution "
                              "yet";
  unsigned tpw = layout.getThreadsPerWarp()[axis];
  unsigned lanes = std::clamp<int64_t>(shape[axis] / run, 1, tpw);
  unsigned warps = std::clamp<int64_t>(shape[axis] / (run * tpw), 1,
                                       layout.getWarpsPerCTA()[axis]);
  unsigned chunks = ept[axis] / run;
  unsigned laneStride = 1;
  for (unsigned d : order) {
    if (d == axis)
      break;
    laneStride *= layout.getThreadsPerWarp()[d];
  }
  unsigned numOperands = regs[0].size();

  // Registers of each row (the other coordinates fixed), by scan position.
  SmallVector<unsigned> rowEpt(ept);
  rowEpt[axis] = 1;
  unsigned numRows = 1;
  for (unsigned e : rowEpt)
    numRows *= e;
  SmallVector<SmallVector<unsigned>> rowRegs(numRows,
                                             SmallVector<unsigned>(ept[axis]));
  for (unsigned reg = 0; reg < regs.size(); ++reg) {
    SmallVector<unsigned> coords = delinearize(reg, ept, order);
    unsigned k = reverse ? ept[axis] - 1 - coords[axis] : coords[axis];
    coords[axis] = 0;
    rowRegs[linearize(coords, rowEpt, order)][k] = reg;
  }

  auto ids = getLaneAndWarp(b, loc, st.target, layout.getWarpSize());
  if (failed(ids))
    return failure();
  Value lane = ids->first;
  SmallVector<Value> laneC =
      delinearizeValue(b, loc, lane, layout.getThreadsPerWarp(), order);
  SmallVector<Value> warpC =
      delinearizeValue(b, loc, ids->second, layout.getWarpsPerCTA(), order);
  // Scan positions of the lane and the warp along the axis.
  auto position = [&](Value coord, unsigned count) -> Value {
    Value p = arith::RemUIOp::create(b, loc, coord, i32Const(b, loc, count));
    return reverse
               ? arith::SubIOp::create(b, loc, i32Const(b, loc, count - 1), p)
               : p;
  };
  Value pos = position(laneC[axis], lanes);
  Value warpPos = position(warpC[axis], warps);
  // Toward the lanes of earlier scan positions.
  ShuffleKind towardEarlier = reverse ? ShuffleKind::Down : ShuffleKind::Up;
  auto cmp = [&](arith::CmpIPredicate pred, Value v, int64_t c) -> Value {
    return arith::CmpIOp::create(b, loc, pred, v, i32Const(b, loc, c));
  };

  // Phase 1: per (row, chunk), the thread's run scanned, then across lanes.
  struct Piece {
    SmallVector<SmallVector<Value>> local; // [s][operand]
    SmallVector<Value> warpIncl;           // lanes up to this one
    Partial lanePrefix;
  };
  SmallVector<SmallVector<Piece>> pieces(numRows, SmallVector<Piece>(chunks));
  for (unsigned row = 0; row < numRows; ++row) {
    for (unsigned c = 0; c < chunks; ++c) {
      Piece &piece = pieces[row][c];
      for (int64_t s = 0; s < run; ++s) {
        ArrayRef<Value> x = regs[rowRegs[row][c * run + s]];
        piece.local.push_back(s == 0 ? SmallVector<Value>(x)
                                     : combine(b, piece.local.back(), x));
      }
      SmallVector<Value> incl = piece.local.back();
      for (unsigned off = 1; off < lanes; off *= 2) {
        auto other =
            shuffleAll(b, loc, st, incl, i32Const(b, loc, off * laneStride),
                       towardEarlier);
        if (failed(other))
          return failure();
        incl = selectAll(b, loc, cmp(arith::CmpIPredicate::uge, pos, off),
                         combine(b, *other, incl), incl);
      }
      piece.warpIncl = incl;
      if (lanes > 1) {
        auto prev = shuffleAll(b, loc, st, incl, i32Const(b, loc, laneStride),
                               towardEarlier);
        if (failed(prev))
          return failure();
        piece.lanePrefix = {*prev, cmp(arith::CmpIPredicate::ugt, pos, 0)};
      }
    }
  }

  // Phase 2: warp totals through scratch, slot (row * chunks + c) * warps + w.
  SmallVector<Value> bases;
  SmallVector<Value> rowSlots;
  if (warps > 1) {
    SmallVector<int64_t> rowShape(shape);
    rowShape.erase(rowShape.begin() + axis);
    int64_t totalRows = type.getNumElements() / shape[axis];
    for (unsigned k = 0; k < numOperands; ++k) {
      auto base = allocScratch(b, loc, st, scratchType(regs[0][k].getType()),
                               totalRows * chunks * warps);
      if (failed(base))
        return failure();
      bases.push_back(*base);
    }
    auto indices = emitIndices(b, loc, st.target, type.getEncoding(), shape);
    if (failed(indices))
      return failure();
    for (unsigned row = 0; row < numRows; ++row) {
      SmallVector<Value> index = (*indices)[rowRegs[row][0]];
      index.erase(index.begin() + axis);
      rowSlots.push_back(rowShape.empty()
                             ? i32Const(b, loc, 0)
                             : linearizeIndex(b, loc, index, rowShape));
    }
    Value isLast = cmp(arith::CmpIPredicate::eq, pos, lanes - 1);
    auto ifOp = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (unsigned row = 0; row < numRows; ++row)
      for (unsigned c = 0; c < chunks; ++c) {
        Value slot = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc,
                arith::AddIOp::create(
                    b, loc,
                    arith::MulIOp::create(b, loc, rowSlots[row],
                                          i32Const(b, loc, chunks)),
                    i32Const(b, loc, c)),
                i32Const(b, loc, warps)),
            warpPos);
        for (unsigned k = 0; k < numOperands; ++k)
          storeScratch(b, loc, bases[k], slot, pieces[row][c].warpIncl[k]);
      }
  }
  if (warps > 1 && failed(st.target.emitBarrier(b, loc, BarrierScope::Block)))
    return failure();

  // Phase 3: prefixes from earlier warps and chunks applied.
  ScanResult result;
  result.inclusive.resize(regs.size());
  if (!identity.empty())
    result.exclusive.resize(regs.size());
  for (unsigned row = 0; row < numRows; ++row) {
    Partial carry;
    for (unsigned c = 0; c < chunks; ++c) {
      Piece &piece = pieces[row][c];
      Partial warpPrefix;
      SmallVector<Value> chunkTotal;
      if (warps > 1) {
        Value first = arith::MulIOp::create(
            b, loc,
            arith::AddIOp::create(
                b, loc,
                arith::MulIOp::create(b, loc, rowSlots[row],
                                      i32Const(b, loc, chunks)),
                i32Const(b, loc, c)),
            i32Const(b, loc, warps));
        // prefix[w] combines the totals of warps 0..w-1.
        SmallVector<Value> running;
        SmallVector<Value> prefixOfMine;
        for (unsigned w = 0; w < warps; ++w) {
          Value slot =
              arith::AddIOp::create(b, loc, first, i32Const(b, loc, w));
          SmallVector<Value> total;
          for (unsigned k = 0; k < numOperands; ++k)
            total.push_back(
                loadScratch(b, loc, bases[k], slot, regs[0][k].getType()));
          if (w > 0)
            prefixOfMine =
                w == 1 ? running
                       : selectAll(b, loc,
                                   cmp(arith::CmpIPredicate::eq, warpPos, w),
                                   running, prefixOfMine);
          running = w == 0 ? total : combine(b, running, total);
        }
        warpPrefix = {prefixOfMine, cmp(arith::CmpIPredicate::ugt, warpPos, 0)};
        chunkTotal = running;
      } else if (lanes > 1) {
        // The lane of the last scan position holds the chunk's total.
        Value distance = arith::MulIOp::create(
            b, loc,
            arith::SubIOp::create(b, loc, i32Const(b, loc, lanes - 1), pos),
            i32Const(b, loc, laneStride));
        Value src =
            reverse ? arith::SubIOp::create(b, loc, lane, distance).getResult()
                    : arith::AddIOp::create(b, loc, lane, distance).getResult();
        auto total =
            shuffleAll(b, loc, st, piece.warpIncl, src, ShuffleKind::Index);
        if (failed(total))
          return failure();
        chunkTotal = *total;
      } else {
        chunkTotal = piece.warpIncl;
      }
      Partial prefix =
          join(b, loc, combine, join(b, loc, combine, carry, warpPrefix),
               piece.lanePrefix);
      for (int64_t s = 0; s < run; ++s) {
        unsigned reg = rowRegs[row][c * run + s];
        result.inclusive[reg] =
            applyPrefix(b, loc, combine, prefix, piece.local[s]);
        if (identity.empty())
          continue;
        if (s > 0) {
          result.exclusive[reg] =
              result.inclusive[rowRegs[row][c * run + s - 1]];
        } else if (prefix.empty()) {
          result.exclusive[reg] = SmallVector<Value>(identity);
        } else if (!prefix.flag) {
          result.exclusive[reg] = prefix.vals;
        } else {
          result.exclusive[reg] =
              selectAll(b, loc, prefix.flag, prefix.vals, identity);
        }
      }
      carry = join(b, loc, combine, carry, Partial{chunkTotal, Value()});
    }
    if (type.getRank() == 1)
      result.total = carry.vals;
  }
  // Scratch is reused by the next op that needs it.
  if (warps == 1)
    releaseScratch(st);
  else if (failed(emitScratchRelease(b, loc, st)))
    return failure();
  return result;
}

/// [operand][register] -> [register][operand].
SmallVector<SmallVector<Value>> byRegister(ArrayRef<ValueRange> operands) {
  SmallVector<SmallVector<Value>> regs(operands[0].size());
  for (ValueRange operand : operands)
    for (auto [i, v] : llvm::enumerate(operand))
      regs[i].push_back(v);
  return regs;
}

struct ScanConversion : DistPattern<ScanOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
    Block &body = op.getCombineOp().front();
    CombineFn combine = [&](OpBuilder &b, ValueRange acc, ValueRange cur) {
      IRMapping map;
      for (unsigned i = 0; i < acc.size(); ++i) {
        map.map(body.getArgument(i), acc[i]);
        map.map(body.getArgument(acc.size() + i), cur[i]);
      }
      for (Operation &inner : body.without_terminator())
        b.clone(inner, map);
      SmallVector<Value> out;
      for (Value v : body.getTerminator()->getOperands())
        out.push_back(map.lookupOrDefault(v));
      return out;
    };
    SmallVector<ValueRange> operands(adaptor.getSrcs());
    auto scan = emitScan(rewriter, op.getLoc(), st, op, type, op.getAxis(),
                         op.getReverse(), byRegister(operands), combine, {});
    if (failed(scan))
      return failure();
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (auto &reg : scan->inclusive)
      for (auto [k, v] : llvm::enumerate(reg))
        results[k].push_back(v);
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

/// tle.cumsum: the exclusive prefix sum, and the total along the axis.
struct ExclusiveCumsumConversion : DistPattern<ExclusiveCumsumOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ExclusiveCumsumOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getSrc().getType();
    if (type.getRank() != 1)
      return op.emitError("tle.cumsum of a tensor of rank > 1 (a tensor of "
                          "totals) is not supported by distribution yet");
    Type elem = getTypeConverter()->convertType(type.getElementType());
    bool isFloat = isa<FloatType>(elem);
    CombineFn combine = [&](OpBuilder &b, ValueRange acc, ValueRange cur) {
      Value sum =
          isFloat ? arith::AddFOp::create(b, loc, acc[0], cur[0]).getResult()
                  : arith::AddIOp::create(b, loc, acc[0], cur[0]).getResult();
      return SmallVector<Value>{sum};
    };
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elem));
    SmallVector<ValueRange> operands{adaptor.getSrc()};
    auto scan =
        emitScan(rewriter, loc, st, op, type, op.getAxis(),
                 /*reverse=*/false, byRegister(operands), combine, {zero});
    if (failed(scan))
      return failure();
    SmallVector<Value> exclusive;
    for (auto &reg : scan->exclusive)
      exclusive.push_back(reg[0]);
    rewriter.replaceOpWithMultiple(
        op, {exclusive, SmallVector<Value>{scan->total[0]}});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateScanPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<ScanConversion, ExclusiveCumsumConversion>(
      tc, patterns.getContext(), st);
}
