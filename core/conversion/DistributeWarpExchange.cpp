//===- DistributeWarpExchange.cpp - Layout conversions by lane shuffles ---===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A layout conversion in which no element leaves its warp (the accumulator
// of one matrix product becoming the register A operand of the next, an
// exchange inside each quad of lanes) needs no block-level memory and no
// barrier: in rounds, every lane publishes one 32-bit word of its source
// registers (up to four elements) and reads the word another lane
// publishes, keeping the elements its destination registers want. Which lane
// it reads, which word it publishes and where its elements lie in the word
// may differ from lane to lane; each is a function of the lane id, computed
// from constants.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;

namespace {

/// A lane's value in one round, or kAny where nothing depends on it.
constexpr int32_t kAny = -1;

/// Where a destination register comes from: the source lane, the word of
/// its source registers, and the element's position in the word.
struct Source {
  int32_t lane, word, position;
};

/// The bits of `value` at `bits` (ascending), packed; and the other bits.
unsigned gatherBits(unsigned value, ArrayRef<unsigned> bits) {
  unsigned out = 0;
  for (auto [i, bit] : llvm::enumerate(bits))
    out |= ((value >> bit) & 1) << i;
  return out;
}
unsigned otherBits(unsigned value, ArrayRef<unsigned> bits) {
  unsigned out = 0, i = 0;
  for (unsigned bit = 0; (value >> bit) != 0; ++bit)
    if (!llvm::is_contained(bits, bit))
      out |= ((value >> bit) & 1) << i++;
  return out;
}

} // namespace

namespace tle::conversion::distribute {

std::optional<WarpExchangePlan>
planWarpExchange(DistributedLayoutAttrInterface src,
                 DistributedLayoutAttrInterface dst, ArrayRef<int64_t> shape,
                 unsigned elemBits, unsigned maxRounds) {
  unsigned warpSize = src.getWarpSize(), numWarps = src.getNumWarps();
  if (dst.getWarpSize() != warpSize || dst.getNumWarps() != numWarps ||
      warpSize > 32 || !llvm::is_contained({8u, 16u, 32u}, elemBits))
    return std::nullopt;
  unsigned srcRegs = src.getTotalElemsPerThread(shape);
  unsigned dstRegs = dst.getTotalElemsPerThread(shape);
  if (!llvm::isPowerOf2_32(srcRegs) || !llvm::isPowerOf2_32(dstRegs))
    return std::nullopt;
  unsigned perWord = std::min(32 / elemBits, srcRegs);
  // A word packs the source registers that differ in `wordBits` of the
  // register index: bits whose step is also a step between destination
  // registers where there are such (the accumulator's column pairs and
  // rows g and g + 8, all bound for one lane), else the lowest.
  auto registerSteps = [&](DistributedLayoutAttrInterface layout,
                           unsigned regs) {
    SmallVector<SmallVector<int64_t>> steps;
    for (unsigned bit = 0; (1u << bit) < regs; ++bit)
      steps.push_back(layout.getTensorIndex(shape, 0, 0, 1u << bit));
    return steps;
  };
  SmallVector<SmallVector<int64_t>> srcSteps = registerSteps(src, srcRegs);
  SmallVector<SmallVector<int64_t>> dstSteps = registerSteps(dst, dstRegs);
  SmallVector<unsigned> wordBits;
  unsigned wanted = llvm::Log2_32(perWord);
  for (unsigned bit = 0; bit < srcSteps.size() && wordBits.size() < wanted;
       ++bit)
    if (llvm::is_contained(dstSteps, srcSteps[bit]))
      wordBits.push_back(bit);
  for (unsigned bit = 0; bit < srcSteps.size() && wordBits.size() < wanted;
       ++bit)
    if (!llvm::is_contained(wordBits, bit))
      wordBits.push_back(bit);
  llvm::sort(wordBits);

  // Every warp's destination registers, from its own source registers, the
  // same way in every warp (the code is the same for all of them).
  SmallVector<SmallVector<Source>> needs(warpSize);
  for (unsigned warp = 0; warp < numWarps; ++warp) {
    // Each element held once: where lanes hold copies (a reduction's
    // result), one lane would serve all of them, a round each, while
    // scratch reads them in parallel.
    std::map<SmallVector<int64_t>, std::pair<unsigned, unsigned>> holders;
    for (unsigned lane = 0; lane < warpSize; ++lane)
      for (unsigned reg = 0; reg < srcRegs; ++reg)
        if (!holders
                 .try_emplace(src.getTensorIndex(shape, lane, warp, reg), lane,
                              reg)
                 .second)
          return std::nullopt;
    for (unsigned lane = 0; lane < warpSize; ++lane)
      for (unsigned reg = 0; reg < dstRegs; ++reg) {
        auto it = holders.find(dst.getTensorIndex(shape, lane, warp, reg));
        if (it == holders.end())
          return std::nullopt;
        auto [srcLane, srcReg] = it->second;
        Source need{int32_t(srcLane), int32_t(otherBits(srcReg, wordBits)),
                    int32_t(gatherBits(srcReg, wordBits))};
        if (warp == 0) {
          needs[lane].push_back(need);
          continue;
        }
        const Source &first = needs[lane][reg];
        if (first.lane != need.lane || first.word != need.word ||
            first.position != need.position)
          return std::nullopt;
      }
  }

  // Each lane's distinct (lane, word) requests, served one per round; a
  // lane publishes one word per round, which any number of lanes may read.
  SmallVector<SmallVector<std::pair<int32_t, int32_t>>> requests(warpSize);
  for (unsigned lane = 0; lane < warpSize; ++lane)
    for (const Source &need : needs[lane])
      if (!llvm::is_contained(requests[lane],
                              std::make_pair(need.lane, need.word)))
        requests[lane].push_back({need.lane, need.word});
  WarpExchangePlan plan;
  plan.elemBits = elemBits;
  plan.elemsPerWord = perWord;
  plan.wordBits = wordBits;
  plan.srcRegs = srcRegs;
  plan.dstRegs = dstRegs;
  SmallVector<SmallVector<bool>> served(warpSize);
  for (unsigned lane = 0; lane < warpSize; ++lane)
    served[lane].assign(requests[lane].size(), false);
  SmallVector<SmallVector<bool>> filled(warpSize,
                                        SmallVector<bool>(dstRegs, false));
  unsigned left = 0;
  for (const auto &r : requests)
    left += r.size();
  while (left) {
    if (plan.rounds.size() == maxRounds)
      return std::nullopt;
    WarpExchangePlan::Round &round = plan.rounds.emplace_back();
    round.srcLane.assign(warpSize, kAny);
    round.word.assign(warpSize, kAny);
    for (unsigned lane = 0; lane < warpSize; ++lane)
      for (auto [i, request] : llvm::enumerate(requests[lane])) {
        auto [from, word] = request;
        if (served[lane][i] ||
            (round.word[from] != kAny && round.word[from] != word))
          continue;
        served[lane][i] = true;
        --left;
        round.srcLane[lane] = from;
        round.word[from] = word;
        break;
      }
    // The destination registers this round fills, per lane.
    for (unsigned reg = 0; reg < dstRegs; ++reg) {
      SmallVector<int32_t> positions(warpSize, kAny);
      bool any = false;
      for (unsigned lane = 0; lane < warpSize; ++lane) {
        const Source &need = needs[lane][reg];
        if (filled[lane][reg] || round.srcLane[lane] != need.lane ||
            round.word[need.lane] != need.word)
          continue;
        positions[lane] = need.position;
        filled[lane][reg] = true;
        any = true;
      }
      if (any)
        round.fills.push_back({reg, std::move(positions)});
    }
  }
  return plan;
}

unsigned WarpExchangePlan::getSourceRegister(unsigned word,
                                             unsigned position) const {
  unsigned reg = 0;
  for (unsigned bit = 0, w = 0, o = 0; (1u << bit) < srcRegs; ++bit)
    if (llvm::is_contained(wordBits, bit))
      reg |= ((position >> w++) & 1) << bit;
    else
      reg |= ((word >> o++) & 1) << bit;
  return reg;
}

} // namespace tle::conversion::distribute

namespace {

/// Builds values that depend on the lane id only.
struct LaneFunctions {
  OpBuilder &b;
  Location loc;
  Value lane;

  Value constant(int32_t v) { return i32Const(b, loc, v); }

  /// Whether this lane is in `lanes` (bit l of the mask).
  Value isIn(uint32_t lanes) {
    Value bit = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, constant(int32_t(lanes)), lane),
        constant(1));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit,
                                 constant(0));
  }

  /// table[lane], where entries kAny may be anything.
  Value lookup(ArrayRef<int32_t> table) {
    std::optional<int32_t> same, xorWith;
    bool isSame = true, isXor = true;
    for (auto [l, v] : llvm::enumerate(table)) {
      if (v == kAny)
        continue;
      if (!same)
        same = v, xorWith = v ^ int32_t(l);
      isSame &= v == *same;
      isXor &= (v ^ int32_t(l)) == *xorWith;
    }
    if (!same || isSame)
      return constant(same.value_or(0));
    if (isXor)
      return *xorWith == 0 ? lane
                           : Value(arith::XOrIOp::create(b, loc, lane,
                                                         constant(*xorWith)));
    // Bit by bit, each bit's lanes a 32-bit mask.
    Value result;
    for (unsigned bit = 0; bit < 31; ++bit) {
      uint32_t lanes = 0;
      bool used = false;
      for (auto [l, v] : llvm::enumerate(table))
        if (v != kAny && v >> bit) {
          used = true;
          if ((v >> bit) & 1)
            lanes |= 1u << l;
        }
      if (!used)
        break;
      if (!lanes)
        continue;
      Value set = arith::AndIOp::create(
          b, loc,
          arith::ShRUIOp::create(b, loc, constant(int32_t(lanes)), lane),
          constant(1));
      if (bit)
        set = arith::ShLIOp::create(b, loc, set, constant(bit));
      result = result ? Value(arith::OrIOp::create(b, loc, result, set)) : set;
    }
    return result ? result : constant(0);
  }
};

} // namespace

namespace tle::conversion::distribute {

FailureOr<SmallVector<Value>> emitWarpExchange(OpBuilder &b, Location loc,
                                               DistributeState &st,
                                               const WarpExchangePlan &plan,
                                               ValueRange src, Type elem,
                                               unsigned warpSize) {
  auto ids = getLaneAndWarp(b, loc, st.target, warpSize);
  if (failed(ids))
    return failure();
  LaneFunctions fn{b, loc, ids->first};
  Type i32 = b.getI32Type();
  Type bitsType = b.getIntegerType(plan.elemBits);
  unsigned perWord = plan.elemsPerWord;
  // The source registers as 32-bit words, element i in bits i * elemBits:
  // vectors of the elements' bits, which the backend packs with byte
  // permutes (and folds away where the elements came out of one packed
  // conversion, as 8-bit floats do).
  auto asBits = [&](Value v) {
    return elem == bitsType
               ? v
               : Value(LLVM::BitcastOp::create(b, loc, bitsType, v));
  };
  SmallVector<Value> words(plan.srcRegs / perWord);
  for (unsigned j = 0; j < words.size(); ++j) {
    if (plan.elemBits == 32) {
      words[j] = asBits(src[plan.getSourceRegister(j, 0)]);
      continue;
    }
    SmallVector<Value> elems;
    for (unsigned i = 0; i < perWord; ++i)
      elems.push_back(asBits(src[plan.getSourceRegister(j, i)]));
    Value word = packVector(b, loc, elems);
    if (perWord > 1)
      word = LLVM::BitcastOp::create(
          b, loc, b.getIntegerType(perWord * plan.elemBits), word);
    words[j] = perWord * plan.elemBits < 32
                   ? Value(arith::ExtUIOp::create(b, loc, i32, word))
                   : word;
  }
  // Each destination register: the received word holding it (a select by
  // lane among the rounds that fill it), then the element at its position
  // in that word. Selecting whole words first lets registers filled by the
  // same rounds for the same lanes share them, and leaves the elements of
  // one word to the target's byte permutes when the consumer packs them.
  SmallVector<Value> holding(plan.dstRegs);
  SmallVector<SmallVector<int32_t>> shifts(
      plan.dstRegs, SmallVector<int32_t>(warpSize, kAny));
  for (const WarpExchangePlan::Round &round : plan.rounds) {
    // The word this lane publishes: a select among the words lanes publish.
    std::map<int32_t, uint32_t> publishers;
    for (auto [l, w] : llvm::enumerate(round.word))
      if (w != kAny)
        publishers[w] |= 1u << l;
    Value published;
    for (auto [w, lanes] : publishers)
      published = published ? Value(arith::SelectOp::create(
                                  b, loc, fn.isIn(lanes), words[w], published))
                            : words[w];
    if (!published)
      published = words.front();
    FailureOr<Value> received =
        shuffleValue(b, loc, st.target, published, fn.lookup(round.srcLane),
                     ::tle::backend::ShuffleKind::Index);
    if (failed(received))
      return failure();
    for (const WarpExchangePlan::Fill &fill : round.fills) {
      uint32_t lanes = 0;
      for (auto [l, p] : llvm::enumerate(fill.positions))
        if (p != kAny) {
          lanes |= 1u << l;
          shifts[fill.reg][l] = p * int32_t(plan.elemBits);
        }
      bool everyLane = lanes == (warpSize == 32 ? ~0u : (1u << warpSize) - 1);
      Value &word = holding[fill.reg];
      word = !word || everyLane ? *received
                                : Value(arith::SelectOp::create(
                                      b, loc, fn.isIn(lanes), *received, word));
    }
  }
  SmallVector<Value> out;
  for (auto [word, shift] : llvm::zip(holding, shifts)) {
    if (!word)
      return emitError(loc, "internal error: a warp exchange left a register "
                            "unfilled");
    Value v = word;
    if (plan.elemBits < 32) {
      // At the same position in every lane: an element of the word as a
      // vector (which the consumer's packing folds into byte permutes);
      // else shifted down by the lane's position.
      std::optional<int32_t> position;
      bool uniform = true;
      for (int32_t bitsAt : shift)
        if (bitsAt != kAny) {
          uniform &= !position || *position == bitsAt;
          position = bitsAt;
        }
      if (uniform) {
        auto vector = VectorType::get({32 / plan.elemBits}, bitsType);
        v = LLVM::ExtractElementOp::create(
            b, loc, LLVM::BitcastOp::create(b, loc, vector, v),
            fn.constant(position.value_or(0) / int32_t(plan.elemBits)));
      } else {
        v = arith::ShRUIOp::create(b, loc, v, fn.lookup(shift));
        v = arith::TruncIOp::create(b, loc, bitsType, v);
      }
    }
    if (elem != v.getType())
      v = LLVM::BitcastOp::create(b, loc, elem, v);
    out.push_back(v);
  }
  return out;
}

} // namespace tle::conversion::distribute
