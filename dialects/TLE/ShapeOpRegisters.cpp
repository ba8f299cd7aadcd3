//===- ShapeOpRegisters.cpp - Shape ops that keep elements in place -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Whether tle.trans, tle.reshape, tle.join and tle.split, in the layouts of
// their operands and results, leave every element in the thread that holds
// it: then distribution only renumbers registers, and layout assignment and
// the scratch bound of software pipelining count no block-level memory for
// them.
//
//===----------------------------------------------------------------------===//

#include "dialects/TLE/TLEDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tle;

namespace {

/// The operand and operand index holding the element at a result index.
using SourceIndexFn =
    function_ref<std::pair<unsigned, SmallVector<int64_t>>(ArrayRef<int64_t>)>;

/// For each register of `result`: the operand register that holds its
/// element in every thread; std::nullopt when some thread lacks one.
std::optional<SmallVector<RegisterSource>>
getRegisterSources(ArrayRef<RankedTensorType> operands, RankedTensorType result,
                   SourceIndexFn sourceOf) {
  auto dst =
      dyn_cast_or_null<DistributedLayoutAttrInterface>(result.getEncoding());
  if (!dst)
    return std::nullopt;
  SmallVector<DistributedLayoutAttrInterface> srcs;
  for (RankedTensorType operand : operands) {
    auto layout =
        dyn_cast_or_null<DistributedLayoutAttrInterface>(operand.getEncoding());
    if (!layout || layout.getWarpSize() != dst.getWarpSize() ||
        layout.getNumWarps() != dst.getNumWarps())
      return std::nullopt;
    srcs.push_back(layout);
  }
  unsigned count = dst.getTotalElemsPerThread(result.getShape());
  SmallVector<RegisterSource> sources;
  for (unsigned warp = 0; warp < dst.getNumWarps(); ++warp) {
    for (unsigned lane = 0; lane < dst.getWarpSize(); ++lane) {
      // Which register of this thread holds each element of each operand.
      SmallVector<llvm::DenseMap<int64_t, unsigned>> held(operands.size());
      for (auto [k, operand] : llvm::enumerate(operands)) {
        ArrayRef<int64_t> shape = operand.getShape();
        for (unsigned reg = 0, e = srcs[k].getTotalElemsPerThread(shape);
             reg < e; ++reg)
          held[k].try_emplace(
              getRowMajorOffset(srcs[k].getTensorIndex(shape, lane, warp, reg),
                                shape),
              reg);
      }
      for (unsigned reg = 0; reg < count; ++reg) {
        auto [k, index] =
            sourceOf(dst.getTensorIndex(result.getShape(), lane, warp, reg));
        auto it =
            held[k].find(getRowMajorOffset(index, operands[k].getShape()));
        if (it == held[k].end())
          return std::nullopt;
        RegisterSource source{k, it->second};
        if (warp == 0 && lane == 0)
          sources.push_back(source);
        else if (sources[reg] != source)
          return std::nullopt;
      }
    }
  }
  return sources;
}

} // namespace

std::optional<SmallVector<SmallVector<RegisterSource>>>
mlir::tle::getShapeOpRegisterSources(Operation *op) {
  SmallVector<SmallVector<RegisterSource>> results;
  auto add = [&](std::optional<SmallVector<RegisterSource>> sources) {
    if (!sources)
      return false;
    results.push_back(std::move(*sources));
    return true;
  };
  if (auto trans = dyn_cast<TransOp>(op)) {
    ArrayRef<int32_t> order = trans.getOrder();
    // Result dimension k is operand dimension order[k].
    if (!add(getRegisterSources(trans.getSrc().getType(), trans.getType(),
                                [&](ArrayRef<int64_t> j) {
                                  SmallVector<int64_t> i(j.size());
                                  for (auto [k, d] : llvm::enumerate(order))
                                    i[d] = j[k];
                                  return std::make_pair(0u, i);
                                })))
      return std::nullopt;
  } else if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    RankedTensorType src = reshape.getSrc().getType(), dst = reshape.getType();
    if (!add(getRegisterSources(src, dst, [&](ArrayRef<int64_t> j) {
          return std::make_pair(
              0u, getRowMajorIndex(getRowMajorOffset(j, dst.getShape()),
                                   src.getShape()));
        })))
      return std::nullopt;
  } else if (auto join = dyn_cast<JoinOp>(op)) {
    // Result (i, 0) is lhs i, (i, 1) rhs i.
    if (!add(getRegisterSources(
            {join.getLhs().getType(), join.getRhs().getType()}, join.getType(),
            [&](ArrayRef<int64_t> j) {
              return std::make_pair(unsigned(j.back()),
                                    SmallVector<int64_t>(j.drop_back()));
            })))
      return std::nullopt;
  } else if (auto split = dyn_cast<SplitOp>(op)) {
    for (auto [index, half] : llvm::enumerate(split.getResults())) {
      int64_t which = index;
      if (!add(getRegisterSources(split.getSrc().getType(),
                                  cast<RankedTensorType>(half.getType()),
                                  [&](ArrayRef<int64_t> j) {
                                    SmallVector<int64_t> i(j);
                                    i.push_back(which);
                                    return std::make_pair(0u, i);
                                  })))
        return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  return results;
}
