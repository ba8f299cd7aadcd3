//===- LoopPointerBases.cpp - Loop-carried pointer tiles as one base ------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A kernel walks a tile of pointers through a loop by a uniform step (the
// matmul's `a_ptrs += BLOCK_SIZE_K * stride_ak`). Carried as it is, every
// thread keeps a 64-bit pointer per element live across the loop: with a
// 128x128x32 fp16 matmul whose strides are not known, 64 pointers (128
// registers) beside the 128 accumulator registers, and ptxas spills. Triton
// keeps the 32-bit offsets instead. Here the loop carries the scalar base
// and the offsets stay where they were computed, before the loop:
//
//   %p0 = tle.addptr (tle.splat %base), %offs
//   scf.for ... iter_args(%p = %p0) {
//     ... uses of %p ...
//     scf.yield (tle.addptr %p, (tle.splat %step))
//   }
// becomes
//   scf.for ... iter_args(%b = %base) {
//     %p = tle.addptr (tle.splat %b), %offs
//     ... uses of %p ...
//     scf.yield (tle.addptr %b, %step)
//   }
//
// The addresses are the same ones: base + offs + i * step, the offsets in the
// type the kernel computed them in. The step must be loop-invariant (pure
// ops of values from outside the loop, which move out of it). Tiles whose
// accesses vectorize (contiguous, aligned runs; the aligned matmul's) keep
// a pointer per vector, few enough to carry, and are left as they are.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/AxisInfo.h"
#include "core/conversion/Passes.h"

#include "dialects/TLE/TLEDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::tle;

namespace {

/// Whether `v` can be computed before `loop`: defined outside it, or by pure
/// ops without regions whose operands can (at most `depth` deep).
bool isHoistable(Value v, scf::ForOp loop, unsigned depth = 4) {
  if (loop.isDefinedOutsideOfLoop(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0 || !isPure(def) || def->getNumRegions() != 0 ||
      def->getParentOp() != loop)
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isHoistable(operand, loop, depth - 1);
  });
}

/// Moves the ops computing a hoistable `v` before `loop`, operands first.
void hoist(Value v, scf::ForOp loop) {
  if (loop.isDefinedOutsideOfLoop(v))
    return;
  Operation *def = v.getDefiningOp();
  for (Value operand : def->getOperands())
    hoist(operand, loop);
  def->moveBefore(loop);
}

/// A pointer tile carried by `loop` as iteration argument `index` that
/// starts as base + offsets and advances by a splat step.
struct CarriedTile {
  unsigned index;
  Value base, offsets, step;
};

/// Whether some dimension of a pointer tile comes in runs of contiguous,
/// aligned elements that one vector access moves: a thread then holds a
/// pointer per vector, not per element, and keeping them costs few
/// registers (a base recomputing them in the loop would cost instructions).
bool isVectorized(const AxisInfoResult &axis, Value tile) {
  unsigned rank = cast<RankedTensorType>(tile.getType()).getRank();
  for (unsigned d = 0; d < rank; ++d)
    if (::tle::conversion::getVectorWidthAlong(axis, tile, Value(), d, 16) > 1)
      return true;
  return false;
}

std::optional<CarriedTile> matchCarriedTile(scf::ForOp loop, unsigned index,
                                            const AxisInfoResult &axis) {
  Value init = loop.getInitArgs()[index];
  auto type = dyn_cast<RankedTensorType>(init.getType());
  if (!type || !isa<PointerType>(type.getElementType()) ||
      !cast<PointerType>(type.getElementType()).getPointeeType().isIntOrFloat() ||
      isVectorized(axis, init))
    return std::nullopt;
  auto start = init.getDefiningOp<AddPtrOp>();
  auto startBase = start ? start.getPtr().getDefiningOp<SplatOp>() : SplatOp();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto next = yield.getOperand(index).getDefiningOp<AddPtrOp>();
  BlockArgument arg = loop.getRegionIterArgs()[index];
  if (!startBase || !next || next.getPtr() != arg || !next->hasOneUse())
    return std::nullopt;
  auto step = next.getOffset().getDefiningOp<SplatOp>();
  if (!step || !isHoistable(step.getSrc(), loop))
    return std::nullopt;
  return CarriedTile{index, startBase.getSrc(), start.getOffset(),
                     step.getSrc()};
}

struct LoopPointerBasesPass
    : public PassWrapper<LoopPointerBasesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LoopPointerBasesPass)

  StringRef getArgument() const override { return "tle-loop-pointer-bases"; }
  StringRef getDescription() const override {
    return "Carry a loop's pointer tiles that advance by a uniform step as "
           "one scalar base, the offsets computed once before the loop";
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    AxisInfoResult axis(getOperation());
    for (scf::ForOp loop : loops)
      rewrite(loop, axis);
  }

  void rewrite(scf::ForOp loop, const AxisInfoResult &axis) {
    SmallVector<CarriedTile> tiles;
    for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i)
      if (std::optional<CarriedTile> tile = matchCarriedTile(loop, i, axis))
        tiles.push_back(*tile);
    if (tiles.empty())
      return;
    for (CarriedTile &tile : tiles)
      hoist(tile.step, loop);
    IRRewriter rewriter(loop.getContext());
    SmallVector<Value> bases;
    for (CarriedTile &tile : tiles)
      bases.push_back(tile.base);
    FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
        rewriter, bases, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args) {
          SmallVector<Value> next;
          for (auto [tile, arg] : llvm::zip(tiles, args))
            next.push_back(
                AddPtrOp::create(b, loc, arg.getType(), arg, tile.step));
          return next;
        });
    if (failed(replaced))
      return;
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    unsigned firstBase = newLoop.getNumRegionIterArgs() - tiles.size();
    for (auto [k, tile] : llvm::enumerate(tiles)) {
      BlockArgument oldArg = newLoop.getRegionIterArgs()[tile.index];
      BlockArgument base = newLoop.getRegionIterArgs()[firstBase + k];
      auto type = cast<RankedTensorType>(oldArg.getType());
      // In the body: the tile from this iteration's base.
      rewriter.setInsertionPointToStart(newLoop.getBody());
      Value splat = SplatOp::create(rewriter, oldArg.getLoc(), type, base);
      Value tileHere = AddPtrOp::create(rewriter, oldArg.getLoc(), type, splat,
                                        tile.offsets);
      // After the loop: the tile from the last base.
      rewriter.setInsertionPointAfter(newLoop);
      Value lastSplat = SplatOp::create(rewriter, newLoop.getLoc(), type,
                                        newLoop.getResult(firstBase + k));
      Value tileAfter = AddPtrOp::create(rewriter, newLoop.getLoc(), type,
                                         lastSplat, tile.offsets);
      // The old tile passes through unchanged (dropped below).
      auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
      Operation *update = yield.getOperand(tile.index).getDefiningOp();
      rewriter.replaceAllUsesExcept(oldArg, tileHere, update);
      yield.setOperand(tile.index, oldArg);
      rewriter.eraseOp(update);
      newLoop.getResult(tile.index).replaceAllUsesWith(tileAfter);
    }
    // scf.for's own folding drops the pass-through arguments; their initial
    // tiles go when nothing else uses them.
    SmallVector<Operation *> starts;
    for (CarriedTile &tile : tiles)
      starts.push_back(newLoop.getInitArgs()[tile.index].getDefiningOp());
    RewritePatternSet patterns(newLoop.getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, newLoop.getContext());
    (void)applyOpPatternsGreedily(ArrayRef<Operation *>{newLoop},
                                  std::move(patterns));
    for (Operation *start : starts)
      eraseIfUnused(start);
  }

  /// Erases a pure op without users, then the ops that only it used.
  static void eraseIfUnused(Operation *op) {
    if (!op || !op->use_empty() || !isPure(op))
      return;
    SmallVector<Operation *> operands;
    for (Value v : op->getOperands())
      operands.push_back(v.getDefiningOp());
    op->erase();
    for (Operation *def : operands)
      eraseIfUnused(def);
  }
};

} // namespace

namespace tle::conversion {
std::unique_ptr<Pass> createLoopPointerBasesPass() {
  return std::make_unique<LoopPointerBasesPass>();
}

void registerLoopPointerBasesPass() { PassRegistration<LoopPointerBasesPass>(); }
} // namespace tle::conversion
