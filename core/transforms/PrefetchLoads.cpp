//===- PrefetchLoads.cpp - Load the next iteration while computing --------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Two-stage software pipelining of loops in tile IR through the upstream
// scf pipeliner. Stage 0 holds the loads and their address/mask slice
// (including loop-carried pointer increments), stage 1 the rest. The loop is
// not peeled: stage-0 ops of an iteration past the end run predicated, which
// for tle.load means masked off; everything else in stage 0 is pure.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"

#include "dialects/TLE/TLEDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEPREFETCHLOADS
#include "core/transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

/// Whether Op may be moved to the iteration before its own: it reads memory
/// only through a non-volatile tle.load, or not at all.
bool isMovable(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return !load.getIsVolatile();
  return isPure(op);
}

/// The ops of Loop's body that stage 0 takes: the top-level tensor loads and,
/// transitively, the body ops their operands come from, following
/// loop-carried values to the op that yields them. Empty when the loop has
/// no such load or the slice would pull in an op that cannot move.
llvm::SetVector<Operation *> getPrefetchSlice(scf::ForOp loop) {
  Block *body = loop.getBody();
  SmallVector<Operation *> worklist;
  for (Operation &op : body->without_terminator())
    if (auto load = dyn_cast<LoadOp>(op);
        load && isa<RankedTensorType>(load.getType()))
      worklist.push_back(&op);
  llvm::SetVector<Operation *> slice;
  if (worklist.empty())
    return slice;
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!slice.insert(op))
      continue;
    if (!isMovable(op))
      return {};
    auto visit = [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() != body || arg.getArgNumber() == 0)
          return;
        v = yield.getOperand(arg.getArgNumber() - 1);
      }
      if (Operation *def = v.getDefiningOp();
          def && def->getBlock() == body)
        worklist.push_back(def);
    };
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        visit(operand);
    });
  }
  return slice;
}

/// Loads of an iteration that does not exist are masked off.
Operation *predicate(RewriterBase &rewriter, Operation *op, Value pred) {
  auto load = dyn_cast<LoadOp>(op);
  if (!load)
    return isPure(op) ? op : nullptr;
  rewriter.setInsertionPoint(load);
  Location loc = load.getLoc();
  Value mask = pred;
  if (auto tensor = dyn_cast<RankedTensorType>(load.getPtr().getType()))
    mask = SplatOp::create(
        rewriter, loc,
        RankedTensorType::get(tensor.getShape(), rewriter.getI1Type()), pred);
  if (Value old = load.getMask())
    mask = arith::AndIOp::create(rewriter, loc, old, mask);
  rewriter.modifyOpInPlace(load,
                           [&] { load.getMaskMutable().assign(mask); });
  return load;
}

struct PrefetchLoadsPass
    : public mlir::tle::impl::TLEPrefetchLoadsBase<PrefetchLoadsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto stages = module->getAttrOfType<IntegerAttr>("tle.num_stages");
    if (stages && stages.getInt() < 2)
      return;
    // Innermost loops only: their loads are the ones issued most often.
    SmallVector<scf::ForOp> loops;
    module.walk([&](scf::ForOp loop) {
      if (!loop.getBody()
               ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
               .wasInterrupted())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      // Memory written in the loop could be read by a later iteration's
      // load; such loops keep their order.
      bool writes = false;
      loop.getBody()->walk([&](Operation *op) {
        if (!isa<LoadOp>(op) && !isPure(op) &&
            !isa<scf::YieldOp, scf::ForOp, scf::IfOp>(op))
          writes = true;
      });
      if (writes)
        continue;
      llvm::SetVector<Operation *> slice = getPrefetchSlice(loop);
      if (slice.empty())
        continue;
      scf::PipeliningOption options;
      options.getScheduleFn =
          [&](scf::ForOp forOp,
              std::vector<std::pair<Operation *, unsigned>> &schedule) {
            for (Operation &op : forOp.getBody()->without_terminator())
              if (slice.contains(&op))
                schedule.emplace_back(&op, 0);
            for (Operation &op : forOp.getBody()->without_terminator())
              if (!slice.contains(&op))
                schedule.emplace_back(&op, 1);
          };
      options.peelEpilogue = false;
      options.supportDynamicLoops = true;
      options.predicateFn = predicate;
      bool modified = false;
      rewriter.setInsertionPoint(loop);
      if (failed(scf::pipelineForLoop(rewriter, loop, options, &modified)) &&
          modified) {
        loop.emitError("software pipelining failed half way");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
