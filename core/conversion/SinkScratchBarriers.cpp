//===- SinkScratchBarriers.cpp - Barriers only where accesses conflict ----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Distribution emits two kinds of block barriers whose only job is to order
// accesses to block-level memory, and places them where they are certainly
// enough; this moves or drops them, as Triton places its barriers just
// before the access that conflicts.
//
// A scratch-release barrier ends an op that exchanged values through the
// scratch (a reduction across warps, a layout conversion): every thread's
// reads come before anyone's next write. Emitted right after the reads, it
// also made every warp wait before work that never touches that memory: in
// layer norm the second loop's global loads waited on the first reduction's
// barrier. It moves down its block past every op that touches no block
// memory its window touches (the accesses since the barrier before it):
// pure ops, global memory, other block-level globals (a ring is apart from
// the scratch unless it shares its bytes). It merges into the next barrier
// it meets, and is dropped at a kernel's end, or at the end of a loop body
// when both the next iteration and the code after the loop meet a barrier
// before a conflicting access.
//
// A slot-release barrier (kSlotReleaseAttr) comes before a pipelined loop's
// copies refill the slot just read. Where a barrier that stays (not a
// release, which may move) comes between the slot's reads and it, with no
// access that conflicts with the copies in between, it is dropped: a
// softmax row's reductions already separate them, as in Triton.
//
// Accesses are told apart by the block-level global their pointer comes
// from, and within the scratch by the slice (getBlockRegion: consecutive
// small ops take apart slices, so a softmax row's second reduction needs no
// barrier before its writes); ops with effects MLIR cannot see (a plugin's
// cp.async) carry kBlockAccessAttr; anything else may touch anything.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace tle::conversion::distribute {
namespace {

bool isBarrier(Operation *op) {
  return op->hasAttr(kScratchReleaseAttr) || op->hasAttr(kBlockBarrierAttr) ||
         op->hasAttr(kSlotReleaseAttr);
}

/// A barrier that no placement moves or drops.
bool isFixedBarrier(Operation *op) {
  return op->hasAttr(kBlockBarrierAttr) && !op->hasAttr(kScratchReleaseAttr) &&
         !op->hasAttr(kSlotReleaseAttr);
}

/// The block-level memory some ops may touch: any (`unknown`), or the
/// regions named.
struct Footprint {
  bool unknown = false;
  llvm::SmallVector<BlockRegion, 2> regions;

  bool empty() const { return !unknown && regions.empty(); }
  void add(const Footprint &other) {
    unknown |= other.unknown;
    regions.append(other.regions.begin(), other.regions.end());
  }
};

class BarrierPlacement {
public:
  BarrierPlacement(std::optional<unsigned> globalAddressSpace,
                   const llvm::StringSet<> &scratchSharers, bool earlyRefill)
      : globalAddressSpace(globalAddressSpace), scratchSharers(scratchSharers),
        earlyRefill(earlyRefill) {}

  void run(ModuleOp module);

private:
  /// What `op` and the ops nested in it may touch. A barrier, nested or a
  /// warp_specialize partition, counts as touching anything: nothing moves
  /// across one.
  Footprint getFootprint(Operation *op) const {
    Footprint fp;
    if (op->hasAttr(kPartitionAttr) || isBarrier(op)) {
      fp.unknown = true;
      return fp;
    }
    if (op->getNumRegions() > 0) {
      if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
        fp.unknown = true;
        return fp;
      }
      for (Region &region : op->getRegions())
        for (Operation &nested : region.getOps())
          fp.add(getFootprint(&nested));
      return fp;
    }
    if (auto globals = op->getAttrOfType<ArrayAttr>(kBlockAccessAttr)) {
      for (auto global : globals.getAsRange<FlatSymbolRefAttr>())
        fp.regions.push_back({global.getValue()});
      return fp;
    }
    if (isMemoryEffectFree(op))
      return fp;
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface || !globalAddressSpace) {
      fp.unknown = true;
      return fp;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &e : effects) {
      auto ptr = e.getValue()
                     ? dyn_cast<LLVM::LLVMPointerType>(e.getValue().getType())
                     : LLVM::LLVMPointerType();
      if (ptr && ptr.getAddressSpace() == *globalAddressSpace)
        continue;
      std::optional<BlockRegion> region =
          ptr ? getBlockRegion(e.getValue()) : std::nullopt;
      if (!region) {
        fp.unknown = true;
        return fp;
      }
      fp.regions.push_back(*region);
    }
    return fp;
  }

  /// Whether two regions may share bytes: of one global where their bytes
  /// meet, or the scratch and a buffer placed in its bytes.
  bool overlap(const BlockRegion &a, const BlockRegion &b) const {
    if (a.global == b.global)
      return a.begin < b.end && b.begin < a.end;
    return (a.global == kScratchSymbol && scratchSharers.contains(b.global)) ||
           (b.global == kScratchSymbol && scratchSharers.contains(a.global));
  }

  bool conflict(const Footprint &a, const Footprint &b) const {
    if (a.empty() || b.empty())
      return false;
    if (a.unknown || b.unknown)
      return true;
    return llvm::any_of(a.regions, [&](const BlockRegion &x) {
      return llvm::any_of(b.regions,
                          [&](const BlockRegion &y) { return overlap(x, y); });
    });
  }

  /// The first op from `op` (inclusive) that is a barrier, conflicts with
  /// `window`, or ends the block.
  Operation *firstStop(Operation *op, const Footprint &window) const {
    while (!op->hasTrait<OpTrait::IsTerminator>() && !isBarrier(op) &&
           !conflict(getFootprint(op), window))
      op = op->getNextNode();
    return op;
  }

  /// Whether a barrier comes first, going down from `op` (inclusive),
  /// before an access that conflicts with `window`; `atEnd` says what
  /// reaching the block's terminator means.
  bool barrierFirst(Operation *op, const Footprint &window, bool atEnd) const {
    Operation *stop = firstStop(op, window);
    return isBarrier(stop) ||
           (stop->hasTrait<OpTrait::IsTerminator>() && atEnd);
  }

  static bool isKernelEnd(Operation *terminator) {
    Operation *parent = terminator->getParentOp();
    return isa<FunctionOpInterface>(parent) && parent->hasAttr("tle.kernel");
  }

  /// Whether, from the terminator of a block, whatever runs next meets a
  /// barrier before an access that conflicts with `window`: the kernel's
  /// end, or both the next iteration of an scf.for and the code after it.
  bool barrierFirstAfter(Operation *terminator, const Footprint &window) const {
    if (isKernelEnd(terminator))
      return true;
    auto loop = dyn_cast<scf::ForOp>(terminator->getParentOp());
    if (!loop)
      return false;
    return barrierFirst(&loop.getBody()->front(), window, /*atEnd=*/false) &&
           barrierFirst(loop->getNextNode(), window,
                        isKernelEnd(loop->getBlock()->getTerminator()));
  }

  /// Adds the footprints from `op` (inclusive) up to the next barrier that
  /// stays to `fp`; returns the block's terminator when it comes first.
  Operation *addUntilFixedBarrier(Operation *op, Footprint &fp) const {
    for (; !op->hasTrait<OpTrait::IsTerminator>(); op = op->getNextNode()) {
      if (isFixedBarrier(op))
        return nullptr;
      if (!isBarrier(op))
        fp.add(getFootprint(op));
    }
    return op;
  }

  /// The accesses a barrier group orders after it: from the group to the
  /// next barrier that stays (releases may move on), on into the next
  /// iteration and the code after the loop when the body's end comes first
  /// (a pipelined loop whose wait has no barrier); unknown where that
  /// cannot be told.
  Footprint getAccessesAfter(ArrayRef<Operation *> group) const {
    Footprint after;
    Operation *end = addUntilFixedBarrier(group.back()->getNextNode(), after);
    if (!end || isKernelEnd(end))
      return after;
    auto loop = dyn_cast<scf::ForOp>(end->getParentOp());
    if (!loop) {
      after.unknown = true;
      return after;
    }
    // Reaching the body's end again, the whole body is in.
    addUntilFixedBarrier(&loop.getBody()->front(), after);
    Operation *exitEnd = addUntilFixedBarrier(loop->getNextNode(), after);
    after.unknown |= exitEnd && !isKernelEnd(exitEnd);
    return after;
  }

  /// Going up from a slot-release group: the earliest barrier that stays
  /// with no access between it and the group that conflicts with `after`
  /// (null if none), and the last such access (null if none). Above the
  /// first barrier that stays, that barrier already orders an access before
  /// everything after the group; there only the refill (`refill`: the rest
  /// of the block, which moves up) must not conflict. A softmax row's first
  /// reduction thus releases the slot even though its scratch reads
  /// conflict with the next row's scratch writes (which the second
  /// reduction's barrier orders).
  ///
  /// Likewise the accesses a scratch release orders (those between it and
  /// the barrier before it, but asynchronous copies, see getWindow):
  /// wherever sinkRelease takes the release, it or the barrier it merges
  /// into still comes before any access that conflicts with them. (A row's
  /// sum sharing the max's scratch bytes reads what the next row's max
  /// writes, behind the sum's release.)
  std::pair<Operation *, Operation *>
  scanBefore(ArrayRef<Operation *> group, const Footprint &after,
             const Footprint &refill) const {
    Operation *earliest = nullptr;
    bool releasedWindow = false;
    for (Operation *op = group.front()->getPrevNode(); op;
         op = op->getPrevNode()) {
      // A barrier may be several ops: the refill goes after the last.
      if (isFixedBarrier(op)) {
        if (!isFixedBarrier(op->getNextNode()))
          earliest = op;
        releasedWindow = false;
      } else if (isBarrier(op)) {
        releasedWindow = op->hasAttr(kScratchReleaseAttr);
      } else if (conflict(getFootprint(op),
                          earliest || (releasedWindow &&
                                       !op->hasAttr(kAsyncCopyAttr))
                              ? refill
                              : after)) {
        return {earliest, op};
      }
    }
    return {earliest, nullptr};
  }

  /// Moves the ops from `from` to the end of the block up to just after
  /// `after`, in order, while they can pass what lies between (no
  /// conflicting access) and their operands are ready there; the barriers
  /// among them must be in `movable`. The refill is issued as early as the
  /// slot allows, so more copies are in flight while the body works on.
  void hoistRefill(Operation *after, Operation *from,
                   ArrayRef<Operation *> movable = {}) const {
    // One walk: what the refill passes (up to `from`) and what lies after
    // `after` at all.
    Footprint passed;
    llvm::SmallPtrSet<Operation *, 32> later;
    bool beforeFrom = true;
    for (Operation *op = after->getNextNode(); op; op = op->getNextNode()) {
      beforeFrom &= op != from;
      if (beforeFrom && !isBarrier(op))
        passed.add(getFootprint(op));
      later.insert(op);
    }
    Block *block = after->getBlock();
    llvm::SmallPtrSet<Operation *, 16> moved;
    // Whether a value `op` uses is defined where op would go: outside the
    // block, inside op, at or before `after`, or by an op moved there.
    auto ready = [&](Operation *op, Value v) {
      Operation *def = v.getDefiningOp();
      Operation *inBlock = def ? block->findAncestorOpInBlock(*def) : nullptr;
      return !inBlock || inBlock == op || moved.contains(inBlock) ||
             !later.contains(inBlock);
    };
    Operation *insertAfter = after;
    for (Operation *op = from, *next; !op->hasTrait<OpTrait::IsTerminator>();
         op = next) {
      next = op->getNextNode();
      bool operandsReady = true;
      op->walk([&](Operation *nested) {
        for (Value v : nested->getOperands())
          operandsReady &= ready(op, v);
      });
      bool barrier = isBarrier(op);
      if ((barrier && !llvm::is_contained(movable, op)) || !operandsReady ||
          (!barrier && conflict(getFootprint(op), passed)))
        return;
      op->moveAfter(insertAfter);
      insertAfter = op;
      moved.insert(op);
    }
  }

  /// The accesses since the barrier before the group, which a release
  /// barrier orders before the next ones. An asynchronous copy is not one:
  /// a barrier does not order its writes (a wait does), so a refill issued
  /// before the release does not hold the release back.
  Footprint getWindow(ArrayRef<Operation *> group) const {
    Footprint window;
    for (Operation *op = group.front()->getPrevNode(); op && !isBarrier(op);
         op = op->getPrevNode())
      if (!op->hasAttr(kAsyncCopyAttr))
        window.add(getFootprint(op));
    return window;
  }

  void sinkRelease(ArrayRef<Operation *> group) const {
    Footprint window = getWindow(group);
    Operation *next = firstStop(group.back()->getNextNode(), window);
    if (isBarrier(next) || (next->hasTrait<OpTrait::IsTerminator>() &&
                            barrierFirstAfter(next, window))) {
      for (Operation *op : llvm::reverse(group))
        op->erase();
      return;
    }
    for (Operation *op : group)
      op->moveBefore(next);
  }

  std::optional<unsigned> globalAddressSpace;
  const llvm::StringSet<> &scratchSharers;
  bool earlyRefill;
};

/// The consecutive ops carrying `attr` (a barrier may be several ops:
/// fences around it on AMD), in program order.
SmallVector<SmallVector<Operation *>> getGroups(ModuleOp module,
                                                StringRef attr) {
  SmallVector<SmallVector<Operation *>> groups;
  module.walk([&](Operation *op) {
    if (!op->hasAttr(attr))
      return;
    if (!groups.empty() && groups.back().back() == op->getPrevNode())
      groups.back().push_back(op);
    else
      groups.push_back({op});
  });
  return groups;
}

void BarrierPlacement::run(ModuleOp module) {
  // Slot releases first: whether one is needed rests on barriers that stay.
  for (ArrayRef<Operation *> group : getGroups(module, kSlotReleaseAttr)) {
    Footprint refill;
    for (Operation *op = group.back()->getNextNode(); op;
         op = op->getNextNode())
      refill.add(getFootprint(op));
    auto [barrier, lastAccess] =
        scanBefore(group, getAccessesAfter(group), refill);
    Operation *from = group.back()->getNextNode();
    if (barrier) {
      for (Operation *op : llvm::reverse(group))
        op->erase();
      if (earlyRefill)
        hoistRefill(barrier, from);
      continue;
    }
    // Needed: it and the refill go up to just after the slot's last read,
    // and it stays as any barrier.
    for (Operation *op : group)
      op->removeAttr(kSlotReleaseAttr);
    if (lastAccess && lastAccess->getNextNode() != group.front())
      hoistRefill(lastAccess, group.front(), group);
  }
  for (ArrayRef<Operation *> group : getGroups(module, kScratchReleaseAttr))
    sinkRelease(group);
}

} // namespace

void sinkScratchBarriers(ModuleOp module,
                         std::optional<unsigned> globalAddressSpace,
                         const llvm::StringSet<> &scratchSharers,
                         bool earlyRefill) {
  BarrierPlacement(globalAddressSpace, scratchSharers, earlyRefill).run(module);
  module.walk([](Operation *op) {
    op->removeAttr(kScratchReleaseAttr);
    op->removeAttr(kBlockBarrierAttr);
    op->removeAttr(kBlockAccessAttr);
    op->removeAttr(kAsyncCopyAttr);
    op->removeAttr(kScratchSliceAttr);
  });
}

} // namespace tle::conversion::distribute
