//===- SpirvHalfMath.cpp - fp16 math through fp32 -------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvHalfMath.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tle {
namespace spirv {

/// Intrinsics whose operands and result are all of one floating-point type
/// and that OpenCL.std implements per type.
static bool isFloatMath(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::exp:
  case Intrinsic::exp2:
  case Intrinsic::exp10:
  case Intrinsic::log:
  case Intrinsic::log2:
  case Intrinsic::log10:
  case Intrinsic::sqrt:
  case Intrinsic::sin:
  case Intrinsic::cos:
  case Intrinsic::tan:
  case Intrinsic::asin:
  case Intrinsic::acos:
  case Intrinsic::atan:
  case Intrinsic::atan2:
  case Intrinsic::sinh:
  case Intrinsic::cosh:
  case Intrinsic::tanh:
  case Intrinsic::pow:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::maxnum:
  case Intrinsic::minnum:
  case Intrinsic::maximum:
  case Intrinsic::minimum:
  case Intrinsic::fabs:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::round:
  case Intrinsic::roundeven:
  case Intrinsic::copysign:
    return true;
  default:
    return false;
  }
}

static bool isHalf(Type *Ty) { return Ty->getScalarType()->isHalfTy(); }

unsigned promoteHalfMath(Module &M) {
  SmallVector<IntrinsicInst *> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<IntrinsicInst>(&I))
        if (isFloatMath(Call->getIntrinsicID()) && isHalf(Call->getType()))
          Calls.push_back(Call);
  for (IntrinsicInst *Call : Calls) {
    IRBuilder<> B(Call);
    Type *HalfTy = Call->getType();
    Type *FloatTy = HalfTy->getWithNewType(B.getFloatTy());
    SmallVector<Value *> Args;
    for (Value *Arg : Call->args())
      Args.push_back(isHalf(Arg->getType()) ? B.CreateFPExt(Arg, FloatTy)
                                            : Arg);
    CallInst *Wide = B.CreateIntrinsic(Call->getIntrinsicID(), {FloatTy}, Args);
    Wide->copyFastMathFlags(Call);
    Value *Narrow = B.CreateFPTrunc(Wide, HalfTy);
    Call->replaceAllUsesWith(Narrow);
    Call->eraseFromParent();
  }
  // The half declarations, now unused.
  for (Function &F : make_early_inc_range(M))
    if (F.isIntrinsic() && F.use_empty() && isFloatMath(F.getIntrinsicID()) &&
        isHalf(F.getReturnType()))
      F.eraseFromParent();
  return Calls.size();
}

} // namespace spirv
} // namespace tle
