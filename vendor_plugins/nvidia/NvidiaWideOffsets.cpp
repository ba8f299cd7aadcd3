//===- NvidiaWideOffsets.cpp - Loop pointers' offsets kept 64-bit ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaWideOffsets.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tle {
namespace nvidia {

/// A wgmma matmul's loop has 8 pointers per thread (4 rows of each operand
/// in 16-byte copies).
static constexpr unsigned MaxWidePointersPerLoop = 8;

/// The 32-bit sign extensions, outside `L`, among the indices of the chain of
/// address computations (outside `L`) that `V` starts from.
static void collectOffsets(Value *V, const Loop &L,
                           SetVector<SExtInst *> &Offsets) {
  while (auto *Gep = dyn_cast<GetElementPtrInst>(V)) {
    if (L.contains(Gep))
      return;
    for (Value *Index : Gep->indices())
      if (auto *Ext = dyn_cast<SExtInst>(Index))
        if (Ext->getSrcTy()->isIntegerTy(32) && !L.contains(Ext))
          Offsets.insert(Ext);
    V = Gep->getPointerOperand();
  }
}

unsigned keepLoopPointerOffsetsWide(Module &M) {
  unsigned Count = 0;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    DominatorTree DT(F);
    LoopInfo LI(DT);
    SetVector<SExtInst *> Offsets;
    for (Loop *L : LI.getLoopsInPreorder()) {
      SmallVector<PHINode *> Pointers;
      for (PHINode &Phi : L->getHeader()->phis())
        if (Phi.getType()->isPointerTy())
          Pointers.push_back(&Phi);
      // Each offset kept wide holds a register pair through the loop: with
      // many pointers (element-wise copies of strided operands) ptxas's
      // recomputation is what keeps them out of local memory.
      if (Pointers.size() > MaxWidePointersPerLoop)
        continue;
      for (PHINode *Phi : Pointers)
        for (Value *Incoming : Phi->incoming_values())
          collectOffsets(Incoming, *L, Offsets);
    }
    for (SExtInst *Ext : Offsets) {
      auto *Cvt = InlineAsm::get(
          FunctionType::get(Ext->getType(), {Ext->getSrcTy()}, false),
          "cvt.s64.s32 $0, $1;", "=l,r", /*hasSideEffects=*/false);
      auto *Call = CallInst::Create(Cvt, {Ext->getOperand(0)}, "",
                                    Ext->getIterator());
      Call->setDoesNotAccessMemory();
      Call->takeName(Ext);
      Ext->replaceAllUsesWith(Call);
      Ext->eraseFromParent();
      ++Count;
    }
  }
  return Count;
}

} // namespace nvidia
} // namespace tle
