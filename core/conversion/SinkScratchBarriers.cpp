//===- SinkScratchBarriers.cpp - Scratch barriers where they are needed ---===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// An op that exchanges values through the block-level scratch (a reduction
// across warps, a layout conversion) ends with a block barrier, so that the
// next op may reuse the scratch: every thread's reads come before anyone's
// next write. Emitted right after the reads, the barrier also makes every
// warp wait before work that never touches block memory. In layer norm the
// second loop's global loads waited on the first reduction's barrier, and
// the last reduction's barrier held up a kernel end that needs none.
// Triton places such a barrier just before the access that conflicts; here
// each moves down its block to the next op that may touch block memory,
// merges into the next barrier it meets, and is dropped at a kernel's end.
// At the end of a loop body it is dropped when the next iteration starts
// with a barrier of its own (a pipelined loop's wait for its copies) and
// the code after the loop meets one too.
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
  return op->hasAttr(kScratchReleaseAttr) || op->hasAttr(kBlockBarrierAttr);
}

/// Whether `op` (an op without regions) can touch block-level memory: it
/// may unless it has no memory effects, or every effect it has is on a
/// pointer into global memory.
bool mayTouchBlockMemory(Operation *op,
                         std::optional<unsigned> globalAddressSpace) {
  if (isBarrier(op))
    return true;
  if (isMemoryEffectFree(op))
    return false;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface || !globalAddressSpace)
    return true;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [&](const MemoryEffects::EffectInstance &e) {
    auto ptr = e.getValue()
                   ? dyn_cast<LLVM::LLVMPointerType>(e.getValue().getType())
                   : LLVM::LLVMPointerType();
    return !ptr || ptr.getAddressSpace() != *globalAddressSpace;
  });
}

/// mayTouchBlockMemory for an op and everything nested in it; an op with
/// regions must have no effects of its own (structured control flow).
bool mayTouchBlockMemoryNested(Operation *op,
                               std::optional<unsigned> globalAddressSpace) {
  // A block barrier between warp_specialize partitions would hold each
  // partition's warps until the ones before have finished theirs.
  if (op->hasAttr(kPartitionAttr))
    return true;
  return op
      ->walk([&](Operation *nested) {
        bool touches =
            nested->getNumRegions() > 0
                ? !nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                : mayTouchBlockMemory(nested, globalAddressSpace);
        return touches ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The first op from `op` (inclusive) that may touch block memory (a
/// barrier counts) or ends the block.
Operation *firstAccessOrEnd(Operation *op,
                            std::optional<unsigned> globalAddressSpace) {
  while (!op->hasTrait<OpTrait::IsTerminator>() &&
         !mayTouchBlockMemoryNested(op, globalAddressSpace))
    op = op->getNextNode();
  return op;
}

/// Whether a barrier comes first, going down from `op` (inclusive), before
/// anything may touch block memory; `atEnd` says what reaching the block's
/// terminator means.
bool barrierBeforeAccess(Operation *op,
                         std::optional<unsigned> globalAddressSpace,
                         bool atEnd) {
  Operation *stop = firstAccessOrEnd(op, globalAddressSpace);
  return isBarrier(stop) || (stop->hasTrait<OpTrait::IsTerminator>() && atEnd);
}

bool isKernelEnd(Operation *terminator) {
  Operation *parent = terminator->getParentOp();
  return isa<FunctionOpInterface>(parent) && parent->hasAttr("tle.kernel");
}

/// Whether a release barrier just before the terminator of a loop body is
/// redundant: the next iteration, and the code after the loop, each meet a
/// barrier (or the kernel's end) before touching block memory.
bool redundantAtLoopEnd(Operation *terminator,
                        std::optional<unsigned> globalAddressSpace) {
  auto loop = dyn_cast<scf::ForOp>(terminator->getParentOp());
  if (!loop)
    return false;
  return barrierBeforeAccess(&loop.getBody()->front(), globalAddressSpace,
                             /*atEnd=*/false) &&
         barrierBeforeAccess(loop->getNextNode(), globalAddressSpace,
                             isKernelEnd(loop->getBlock()->getTerminator()));
}

} // namespace

void sinkScratchBarriers(ModuleOp module,
                         std::optional<unsigned> globalAddressSpace) {
  // A barrier may be several ops (fences around it on AMD): consecutive
  // marked ops form one group.
  SmallVector<SmallVector<Operation *>> groups;
  module.walk([&](Operation *op) {
    if (!op->hasAttr(kScratchReleaseAttr))
      return;
    if (!groups.empty() && groups.back().back() == op->getPrevNode())
      groups.back().push_back(op);
    else
      groups.push_back({op});
  });
  for (ArrayRef<Operation *> group : groups) {
    Operation *next =
        firstAccessOrEnd(group.back()->getNextNode(), globalAddressSpace);
    bool atTerminator = next->hasTrait<OpTrait::IsTerminator>();
    if (isBarrier(next) || (atTerminator && isKernelEnd(next)) ||
        (atTerminator && redundantAtLoopEnd(next, globalAddressSpace))) {
      for (Operation *op : llvm::reverse(group))
        op->erase();
      continue;
    }
    for (Operation *op : group)
      op->moveBefore(next);
  }
  module.walk([](Operation *op) {
    op->removeAttr(kScratchReleaseAttr);
    op->removeAttr(kBlockBarrierAttr);
  });
}

} // namespace tle::conversion::distribute
