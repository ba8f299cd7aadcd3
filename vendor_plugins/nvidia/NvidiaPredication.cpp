//===- NvidiaPredication.cpp - Masked stores as predicated PTX ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaPredication.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace tle {
namespace nvidia {
namespace {

constexpr unsigned GlobalAddressSpace = 1;

/// 32-bit registers of a store of `Ty` (b32, v2.b32, v4.b32), 1 for a
/// 16-bit one (b16), 0 when it is none of those or not aligned to its size.
unsigned getRegisters(Type *Ty, Align Alignment, const DataLayout &DL,
                      bool &Half) {
  uint64_t Bytes = DL.getTypeStoreSize(Ty);
  Half = Bytes == 2;
  if (DL.getTypeAllocSize(Ty) != Bytes || Alignment.value() < Bytes)
    return 0;
  if (Bytes == 2)
    return 1;
  if (Bytes == 4 || Bytes == 8 || Bytes == 16)
    return unsigned(Bytes / 4);
  return 0;
}

bool isSimpleGlobalStore(Instruction &I, const DataLayout &DL) {
  auto *Store = dyn_cast<StoreInst>(&I);
  bool Half;
  return Store && Store->isSimple() &&
         Store->getPointerAddressSpace() == GlobalAddressSpace &&
         !Store->hasMetadata(LLVMContext::MD_nontemporal) &&
         getRegisters(Store->getValueOperand()->getType(), Store->getAlign(),
                      DL, Half);
}

/// `@p st.global.{b16,b32,v2.b32,v4.b32}`.
void emitPredicatedStore(IRBuilder<> &B, StoreInst *Store, Value *Pred,
                         const DataLayout &DL) {
  Value *V = Store->getValueOperand();
  bool Half;
  unsigned N = getRegisters(V->getType(), Store->getAlign(), DL, Half);
  Type *Reg = Half ? B.getInt16Ty() : B.getInt32Ty();
  if (V->getType()->isPointerTy())
    V = B.CreatePtrToInt(V, B.getInt64Ty());
  Value *Packed =
      B.CreateBitCast(V, N == 1 ? Reg : FixedVectorType::get(Reg, N));
  SmallVector<Value *> Args = {Pred, Store->getPointerOperand()};
  SmallVector<Type *> ArgTypes = {B.getInt1Ty(),
                                  Store->getPointerOperandType()};
  std::string Constraints = "b,l";
  std::string Registers = N > 1 ? "{" : "";
  for (unsigned I = 0; I < N; ++I) {
    Args.push_back(N == 1 ? Packed : B.CreateExtractElement(Packed, I));
    ArgTypes.push_back(Reg);
    Constraints += Half ? ",h" : ",r";
    Registers += (I ? ", $" : "$") + std::to_string(I + 2);
  }
  Registers += N > 1 ? "}" : "";
  std::string Width = Half     ? "b16"
                      : N == 1 ? "b32"
                               : "v" + std::to_string(N) + ".b32";
  std::string Asm = "@$0 st.global." + Width + " [$1], " + Registers + ";";
  auto *Fn = FunctionType::get(B.getVoidTy(), ArgTypes, false);
  B.CreateCall(InlineAsm::get(Fn, Asm, Constraints, /*hasSideEffects=*/true),
               Args)
      ->setDoesNotThrow();
}

/// Folds `Guarded` (entered only from `Pred`'s conditional branch, leaving to
/// `Join`, which the other edge reaches directly) into `Pred` when it holds
/// global stores and otherwise only instructions safe to run anyway.
bool foldGuardedBlock(BasicBlock *Guarded, const DataLayout &DL) {
  BasicBlock *Pred = Guarded->getSinglePredecessor();
  BasicBlock *Join = Guarded->getSingleSuccessor();
  if (!Pred || !Join || Pred == Guarded || Join == Guarded ||
      !isa<BranchInst>(Guarded->getTerminator()))
    return false;
  auto *Branch = dyn_cast<BranchInst>(Pred->getTerminator());
  if (!Branch || !Branch->isConditional())
    return false;
  bool OnTrue = Branch->getSuccessor(0) == Guarded;
  if (Branch->getSuccessor(OnTrue ? 1 : 0) != Join)
    return false;
  bool HasStore = false;
  for (Instruction &I : Guarded->instructionsWithoutDebug()) {
    if (I.isTerminator())
      continue;
    if (isSimpleGlobalStore(I, DL))
      HasStore = true;
    else if (isa<PHINode>(I) || !isSafeToSpeculativelyExecute(&I))
      return false;
  }
  if (!HasStore)
    return false;

  IRBuilder<> B(Branch);
  Value *Taken =
      OnTrue ? Branch->getCondition() : B.CreateNot(Branch->getCondition());
  for (Instruction &I : make_early_inc_range(*Guarded)) {
    if (I.isTerminator())
      continue;
    if (auto *Store = dyn_cast<StoreInst>(&I)) {
      B.SetInsertPoint(Branch);
      emitPredicatedStore(B, Store, Taken, DL);
      Store->eraseFromParent();
    } else {
      I.moveBefore(Branch->getIterator());
    }
  }
  // What the join receives from the two edges, chosen by the condition.
  for (PHINode &Phi : Join->phis()) {
    Value *FromGuarded = Phi.getIncomingValueForBlock(Guarded);
    Value *FromPred = Phi.getIncomingValueForBlock(Pred);
    B.SetInsertPoint(Branch);
    Phi.setIncomingValueForBlock(
        Pred, FromGuarded == FromPred
                  ? FromPred
                  : B.CreateSelect(Taken, FromGuarded, FromPred));
    Phi.removeIncomingValue(Guarded);
  }
  BranchInst::Create(Join, Branch->getIterator());
  Branch->eraseFromParent();
  Guarded->eraseFromParent();
  return true;
}

} // namespace

void predicateGuardedStores(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M) {
    // Each fold erases only the block it is given.
    SmallVector<BasicBlock *> Blocks;
    for (BasicBlock &BB : F)
      Blocks.push_back(&BB);
    for (BasicBlock *BB : Blocks)
      foldGuardedBlock(BB, DL);
  }
}

} // namespace nvidia
} // namespace tle
