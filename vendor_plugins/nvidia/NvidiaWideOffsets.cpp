//===- NvidiaWideOffsets.cpp - Loop pointers' offsets kept 64-bit ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaWideOffsets.h"

#include "llvm/ADT/STLExtras.h"
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

/// Whether `I` runs once per iteration of a loop around `L`, or outside all
/// loops: before `L` starts, not in a loop beside it.
static bool isBefore(const Instruction *I, const Loop &L, const LoopInfo &LI) {
  const Loop *At = LI.getLoopFor(I->getParent());
  return !At || (At != &L && At->contains(&L));
}

/// The address computations before `L` that `V` starts from, with the
/// 32-bit sign extensions (before `L`) among their indices.
static void collectOffsets(Value *V, const Loop &L, const LoopInfo &LI,
                           SetVector<SExtInst *> &Offsets) {
  while (auto *Gep = dyn_cast<GetElementPtrInst>(V)) {
    if (!isBefore(Gep, L, LI))
      return;
    for (Value *Index : Gep->indices())
      if (auto *Ext = dyn_cast<SExtInst>(Index))
        if (Ext->getSrcTy()->isIntegerTy(32) &&
            Ext->getType()->isIntegerTy(64) && isBefore(Ext, L, LI))
          Offsets.insert(Ext);
    V = Gep->getPointerOperand();
  }
}

void keepLoopPointerOffsetsWide(Module &M) {
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    DominatorTree DT(F);
    LoopInfo LI(DT);
    SetVector<SExtInst *> Offsets;
    SmallVector<const Loop *> Crowded;
    for (Loop *L : LI.getLoopsInPreorder()) {
      SmallVector<PHINode *> Pointers;
      for (PHINode &Phi : L->getHeader()->phis())
        if (Phi.getType()->isPointerTy())
          Pointers.push_back(&Phi);
      // Each offset kept wide holds a register pair through the loop: with
      // many pointers (element-wise copies of strided operands) ptxas's
      // recomputation is what keeps them out of local memory.
      if (Pointers.size() > MaxWidePointersPerLoop) {
        Crowded.push_back(L);
        continue;
      }
      for (PHINode *Phi : Pointers)
        for (Value *Incoming : Phi->incoming_values())
          collectOffsets(Incoming, *L, LI, Offsets);
    }
    // Every use becomes opaque (a loop's step too, so that the pointers
    // stay one base plus offsets), except in the crowded loops.
    for (SExtInst *Ext : Offsets) {
      auto *Cvt = InlineAsm::get(
          FunctionType::get(Ext->getType(), {Ext->getSrcTy()}, false),
          "cvt.s64.s32 $0, $1;", "=l,r", /*hasSideEffects=*/false);
      auto *Call =
          CallInst::Create(Cvt, {Ext->getOperand(0)}, Ext->getName() + ".wide",
                           std::next(Ext->getIterator()));
      Call->setDoesNotAccessMemory();
      Call->setDoesNotThrow();
      Ext->replaceUsesWithIf(Call, [&](Use &U) {
        auto *User = cast<Instruction>(U.getUser());
        return none_of(Crowded,
                       [&](const Loop *L) { return L->contains(User); });
      });
      if (Ext->use_empty())
        Ext->eraseFromParent();
    }
  }
}

} // namespace nvidia
} // namespace tle
