//===- SpirvIntegerWidths.cpp - Integers of supported widths only ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvIntegerWidths.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace tle {
namespace spirv {
namespace {

/// The width an integer of `Bits` bits is carried in; 0 above 64.
unsigned getCarrierWidth(unsigned Bits) {
  for (unsigned Width : {8u, 16u, 32u, 64u})
    if (Bits <= Width)
      return Width;
  return 0;
}

/// An integer (or vector of integers) type of fewer than 64 bits that SPIR-V
/// has no width for. Wider integers are left to the backend.
bool isOddWidth(Type *Ty) {
  auto *Int = dyn_cast<IntegerType>(Ty->getScalarType());
  if (!Int)
    return false;
  unsigned Bits = Int->getBitWidth();
  return Bits != 1 && Bits < 64 && getCarrierWidth(Bits) != Bits;
}

/// An integer (or vector of integers) type wider than SPIR-V's 64 bits.
bool isTooWide(Type *Ty) {
  auto *Int = dyn_cast<IntegerType>(Ty->getScalarType());
  return Int && Int->getBitWidth() > 64;
}

class WidthLegalizer {
public:
  explicit WidthLegalizer(Function &F) : F(F) {}

  Expected<unsigned> run() {
    removeUnreachableBlocks(F);
    SmallVector<std::pair<PHINode *, PHINode *>> Phis;
    ReversePostOrderTraversal<Function *> RPOT(&F);
    for (BasicBlock *BB : RPOT)
      for (Instruction &I : make_early_inc_range(*BB)) {
        if (isTooWide(I.getType()) || llvm::any_of(I.operands(), [](Use &U) {
              return isTooWide(U->getType());
            })) {
          std::string Text;
          raw_string_ostream OS(Text);
          OS << "spirv: SPIR-V has no integer wider than 64 bits, and the "
                "plugin cannot narrow this instruction: "
             << I;
          return createStringError(Text);
        }
        bool Produces = isOddWidth(I.getType());
        bool Reads = llvm::any_of(
            I.operands(), [](Use &U) { return isOddWidth(U->getType()); });
        if (!Produces && !Reads)
          continue;
        if (auto *Phi = dyn_cast<PHINode>(&I)) {
          IRBuilder<> B(Phi);
          PHINode *Wide = B.CreatePHI(getCarrier(Phi->getType()),
                                      Phi->getNumIncomingValues());
          Phis.push_back({Phi, Wide});
          Carried[Phi] = Wide;
          Dead.push_back(Phi);
          continue;
        }
        Expected<Value *> Result = rewrite(I);
        if (!Result)
          return Result.takeError();
        if (Produces)
          Carried[&I] = *Result;
        else
          I.replaceAllUsesWith(*Result);
        Dead.push_back(&I);
      }
    for (auto [Phi, Wide] : Phis)
      for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
        Expected<Value *> In = get(Phi->getIncomingValue(K));
        if (!In)
          return In.takeError();
        Wide->addIncoming(*In, Phi->getIncomingBlock(K));
      }
    for (Instruction *I : Dead)
      I->dropAllReferences();
    for (Instruction *I : Dead)
      I->eraseFromParent();
    return unsigned(Dead.size());
  }

private:
  Function &F;
  /// Odd-width value -> the same bits, zero-extended, in its carrier type.
  DenseMap<Value *, Value *> Carried;
  SmallVector<Instruction *> Dead;

  static Type *getCarrier(Type *Ty) {
    return Ty->getWithNewBitWidth(getCarrierWidth(Ty->getScalarSizeInBits()));
  }

  Error unsupported(Instruction &I) {
    std::string Text;
    raw_string_ostream OS(Text);
    OS << "spirv: LLVM's optimizer left an integer of a width SPIR-V has no "
          "type for in an instruction the plugin cannot widen: "
       << I;
    return createStringError(Text);
  }

  Expected<Value *> get(Value *V) {
    if (!isOddWidth(V->getType()))
      return V;
    if (auto It = Carried.find(V); It != Carried.end())
      return It->second;
    Type *Wide = getCarrier(V->getType());
    if (isa<PoisonValue>(V))
      return PoisonValue::get(Wide);
    // An undefined carrier could have bits above the width set; zero is one
    // of the values undef may take.
    if (isa<UndefValue>(V))
      return Constant::getNullValue(Wide);
    if (auto *C = dyn_cast<ConstantInt>(V))
      return ConstantInt::get(Wide,
                              C->getValue().zext(Wide->getScalarSizeInBits()));
    if (auto *C = dyn_cast<Constant>(V))
      if (auto *Splat = dyn_cast_or_null<ConstantInt>(C->getSplatValue()))
        return ConstantInt::get(
            Wide, Splat->getValue().zext(Wide->getScalarSizeInBits()));
    std::string Text;
    raw_string_ostream OS(Text);
    OS << "spirv: cannot widen the integer " << *V << " for SPIR-V";
    return createStringError(Text);
  }

  /// The low `Bits` bits of V, the rest cleared.
  static Value *mask(IRBuilder<> &B, Value *V, unsigned Bits) {
    unsigned Width = V->getType()->getScalarSizeInBits();
    if (Bits >= Width)
      return V;
    return B.CreateAnd(
        V, ConstantInt::get(V->getType(), APInt::getLowBitsSet(Width, Bits)));
  }
  /// V's low `Bits` bits sign-extended over its type.
  static Value *signExtend(IRBuilder<> &B, Value *V, unsigned Bits) {
    unsigned Shift = V->getType()->getScalarSizeInBits() - Bits;
    if (Shift == 0)
      return V;
    return B.CreateAShr(B.CreateShl(V, Shift), Shift);
  }
  /// V (zero- or sign-extended form) resized to To, which carries `Bits`.
  static Value *resize(IRBuilder<> &B, Value *V, Type *To, bool Signed) {
    return Signed ? B.CreateSExtOrTrunc(V, To) : B.CreateZExtOrTrunc(V, To);
  }

  Expected<Value *> rewrite(Instruction &I) {
    IRBuilder<> B(&I);
    Type *Ty = I.getType();
    unsigned Bits = Ty->getScalarSizeInBits();
    Type *To = isOddWidth(Ty) ? getCarrier(Ty) : Ty;
    // The result as the carrier holds it: cleared above the width.
    auto clean = [&](Value *V) { return mask(B, V, Bits); };
    auto operand = [&](unsigned K) { return get(I.getOperand(K)); };
    auto signedOperand = [&](unsigned K) -> Expected<Value *> {
      Expected<Value *> V = get(I.getOperand(K));
      if (!V)
        return V;
      return signExtend(B, *V,
                        I.getOperand(K)->getType()->getScalarSizeInBits());
    };
    switch (I.getOpcode()) {
    case Instruction::Trunc:
    case Instruction::ZExt: {
      Expected<Value *> X = operand(0);
      if (!X)
        return X;
      return clean(resize(B, *X, To, /*Signed=*/false));
    }
    case Instruction::SExt: {
      Expected<Value *> X = signedOperand(0);
      if (!X)
        return X;
      return clean(resize(B, *X, To, /*Signed=*/true));
    }
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor:
    case Instruction::LShr:
    case Instruction::UDiv:
    case Instruction::URem:
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::Shl: {
      // Zero-extended operands: and, or, xor, lshr, udiv and urem stay
      // cleared above the width; the others are masked.
      Expected<Value *> L = operand(0), R = operand(1);
      if (!L)
        return L;
      if (!R)
        return R;
      return clean(B.CreateBinOp(
          static_cast<Instruction::BinaryOps>(I.getOpcode()), *L, *R));
    }
    case Instruction::AShr:
    case Instruction::SDiv:
    case Instruction::SRem: {
      Expected<Value *> L = signedOperand(0);
      if (!L)
        return L;
      Expected<Value *> R =
          I.getOpcode() == Instruction::AShr ? operand(1) : signedOperand(1);
      if (!R)
        return R;
      return clean(B.CreateBinOp(
          static_cast<Instruction::BinaryOps>(I.getOpcode()), *L, *R));
    }
    case Instruction::ICmp: {
      auto *Cmp = cast<ICmpInst>(&I);
      bool Signed = Cmp->isSigned();
      Expected<Value *> L = Signed ? signedOperand(0) : operand(0);
      if (!L)
        return L;
      Expected<Value *> R = Signed ? signedOperand(1) : operand(1);
      if (!R)
        return R;
      return B.CreateICmp(Cmp->getPredicate(), *L, *R);
    }
    case Instruction::Select: {
      Expected<Value *> C = operand(0), T = operand(1), E = operand(2);
      if (!C)
        return C;
      if (!T)
        return T;
      if (!E)
        return E;
      return B.CreateSelect(*C, *T, *E);
    }
    case Instruction::Freeze: {
      // A frozen poison carrier may hold any value: cleared again.
      Expected<Value *> X = operand(0);
      if (!X)
        return X;
      return clean(B.CreateFreeze(*X));
    }
    default:
      return unsupported(I);
    }
  }
};

/// The Itanium mangling of an OpenCL C integer type of 8, 16, 32 or 64 bits.
char mangleInteger(unsigned Bits, bool Signed) {
  switch (Bits) {
  case 8:
    return Signed ? 'c' : 'h';
  case 16:
    return Signed ? 's' : 't';
  case 32:
    return Signed ? 'i' : 'j';
  case 64:
    return Signed ? 'l' : 'm';
  default:
    llvm_unreachable("OpenCL C has no integer of this width");
  }
}

/// The integer of type Ty that V, an operand of a product twice as wide,
/// extends (sign-extends when Signed); a constant that fits is narrowed.
Value *getNarrowOperand(Value *V, IntegerType *Ty, bool Signed) {
  if (auto *Ext = dyn_cast<CastInst>(V))
    if (Ext->getOpcode() == (Signed ? Instruction::SExt : Instruction::ZExt) &&
        Ext->getSrcTy() == Ty)
      return Ext->getOperand(0);
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    const APInt &Wide = C->getValue();
    unsigned Bits = Ty->getBitWidth();
    if (Signed ? Wide.isSignedIntN(Bits) : Wide.isIntN(Bits))
      return ConstantInt::get(Ty, Wide.trunc(Bits));
  }
  return nullptr;
}

/// Replaces Trunc by OpenCL's mul_hi if it takes the high half of a product
/// of two extended integers of its type.
bool rewriteHighHalf(Module &M, TruncInst *Trunc) {
  using namespace PatternMatch;
  auto *Ty = dyn_cast<IntegerType>(Trunc->getType());
  unsigned Bits = Ty ? Ty->getBitWidth() : 0;
  Value *X, *Y;
  if (!llvm::is_contained({8u, 16u, 32u, 64u}, Bits) ||
      Trunc->getSrcTy()->getIntegerBitWidth() != 2 * Bits ||
      !match(Trunc->getOperand(0),
             m_LShr(m_Mul(m_Value(X), m_Value(Y)), m_SpecificInt(Bits))))
    return false;
  for (bool Signed : {false, true}) {
    Value *A = getNarrowOperand(X, Ty, Signed);
    Value *B = getNarrowOperand(Y, Ty, Signed);
    if (!A || !B)
      continue;
    std::string Name = "_Z6mul_hi";
    Name.append(2, mangleInteger(Bits, Signed));
    FunctionCallee MulHi =
        M.getOrInsertFunction(Name, FunctionType::get(Ty, {Ty, Ty}, false));
    if (auto *Decl = dyn_cast<Function>(MulHi.getCallee())) {
      Decl->setDoesNotAccessMemory();
      Decl->setWillReturn();
      Decl->setDoesNotThrow();
    }
    IRBuilder<> Builder(Trunc);
    Trunc->replaceAllUsesWith(Builder.CreateCall(MulHi, {A, B}));
    Value *Product = Trunc->getOperand(0);
    Trunc->eraseFromParent();
    // The wide product and its extensions, now unused.
    RecursivelyDeleteTriviallyDeadInstructions(Product);
    return true;
  }
  return false;
}

} // namespace

unsigned useOpenClMulHi(Module &M) {
  // Weak handles: a rewrite deletes what only its product used, which may
  // be another candidate (the inner of two nested tl.umulhi).
  SmallVector<WeakTrackingVH> Truncs;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (isa<TruncInst>(I))
        Truncs.push_back(&I);
  unsigned Rewritten = 0;
  for (WeakTrackingVH &Handle : Truncs)
    if (auto *Trunc = dyn_cast_or_null<TruncInst>(Handle))
      Rewritten += rewriteHighHalf(M, Trunc);
  return Rewritten;
}

Expected<unsigned> legalizeIntegerWidths(Module &M) {
  unsigned Rewritten = 0;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (Argument &A : F.args())
      if (isOddWidth(A.getType()))
        return createStringError("spirv: function " + F.getName().str() +
                                 " takes an integer of a width SPIR-V has "
                                 "no type for");
    Expected<unsigned> N = WidthLegalizer(F).run();
    if (!N)
      return N.takeError();
    Rewritten += *N;
  }
  return Rewritten;
}

} // namespace spirv
} // namespace tle
