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
// merges into the next release barrier it meets, and is dropped at a
// kernel's end.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace tle::conversion::distribute {
namespace {

/// Whether `op` (an op without regions) can touch block-level memory: it
/// may unless it has no memory effects, or every effect it has is on a
/// pointer into global memory.
bool mayTouchBlockMemory(Operation *op,
                         std::optional<unsigned> globalAddressSpace) {
  if (op->hasAttr(kScratchReleaseAttr))
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
    Operation *next = group.back()->getNextNode();
    while (next && !next->hasTrait<OpTrait::IsTerminator>() &&
           !mayTouchBlockMemoryNested(next, globalAddressSpace))
      next = next->getNextNode();
    if (!next)
      continue;
    Operation *parent = next->getParentOp();
    bool kernelEnd = next->hasTrait<OpTrait::IsTerminator>() &&
                     isa<FunctionOpInterface>(parent) &&
                     parent->hasAttr("tle.kernel");
    if (next->hasAttr(kScratchReleaseAttr) || kernelEnd) {
      for (Operation *op : llvm::reverse(group))
        op->erase();
      continue;
    }
    for (Operation *op : group)
      op->moveBefore(next);
  }
  module.walk([](Operation *op) { op->removeAttr(kScratchReleaseAttr); });
}

} // namespace tle::conversion::distribute
