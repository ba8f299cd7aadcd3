//===- SpirvBitReverse.cpp - llvm.bitreverse as shifts and masks ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvBitReverse.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tle {
namespace spirv {

unsigned expandBitReverse(Module &M) {
  SmallVector<IntrinsicInst *> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<IntrinsicInst>(&I))
        if (Call->getIntrinsicID() == Intrinsic::bitreverse)
          Calls.push_back(Call);
  for (IntrinsicInst *Call : Calls) {
    IRBuilder<> B(Call);
    Value *X = Call->getArgOperand(0);
    Type *Ty = X->getType();
    unsigned Bits = Ty->getScalarSizeInBits();
    // Bit I of X goes to bit Bits-1-I of the result.
    Value *Result = Constant::getNullValue(Ty);
    for (unsigned I = 0; I < Bits; ++I) {
      unsigned To = Bits - 1 - I;
      Value *Bit =
          B.CreateAnd(X, ConstantInt::get(Ty, APInt::getOneBitSet(Bits, I)));
      Bit = To > I ? B.CreateShl(Bit, To - I) : B.CreateLShr(Bit, I - To);
      Result = B.CreateOr(Result, Bit);
    }
    Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
  }
  for (Function &F : make_early_inc_range(M))
    if (F.getIntrinsicID() == Intrinsic::bitreverse && F.use_empty())
      F.eraseFromParent();
  return Calls.size();
}

} // namespace spirv
} // namespace tle
