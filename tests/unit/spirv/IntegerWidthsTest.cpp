//===- IntegerWidthsTest.cpp - Odd-width integers widened for SPIR-V ------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Each function below computes on integers of widths SPIR-V lacks, as LLVM's
// optimizer leaves them. After expandBitReverse and legalizeIntegerWidths no
// such type may remain, and for every input the function must return what
// it returned before: both versions are evaluated by constant folding (a
// frozen poison as all ones).
//
//===----------------------------------------------------------------------===//

#include "SpirvBitReverse.h"
#include "SpirvIntegerWidths.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include "gtest/gtest.h"

using namespace llvm;

namespace {

const char *const Functions = R"(
define i32 @trunc_zext_i2(i32 %x) {
  %t = trunc i32 %x to i2
  %z = zext i2 %t to i32
  ret i32 %z
}

define i32 @add_mul_shl_i7(i32 %x) {
  %t = trunc i32 %x to i7
  %a = add i7 %t, 100
  %m = mul i7 %a, 3
  %s = shl i7 %m, 2
  %z = zext i7 %s to i32
  ret i32 %z
}

define i32 @signed_i5(i32 %x) {
  %t = trunc i32 %x to i5
  %r = ashr i5 %t, 1
  %d = sdiv i5 %t, 3
  %e = sext i5 %r to i32
  %f = sext i5 %d to i32
  %c = icmp slt i5 %t, 5
  %s = select i1 %c, i32 %e, i32 %f
  ret i32 %s
}

define i32 @unsigned_i12(i32 %x) {
  %t = trunc i32 %x to i12
  %n = xor i12 %t, -1
  %l = lshr i12 %n, 3
  %u = urem i12 %n, 10
  %o = or i12 %l, %u
  %c = icmp ugt i12 %o, 2000
  %w = zext i12 %o to i32
  %s = select i1 %c, i32 %w, i32 7
  ret i32 %s
}

define i32 @bitreverse_i7(i32 %x) {
  %t = trunc i32 %x to i7
  %m = and i7 %t, -63
  %r = call i7 @llvm.bitreverse.i7(i7 %m)
  %z = zext i7 %r to i32
  ret i32 %z
}

define i32 @loop_i3(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i3 [ 0, %entry ], [ %next, %loop ]
  %next = add i3 %i, 3
  %stop = icmp eq i3 %next, 2
  br i1 %stop, label %exit, label %loop
exit:
  %z = zext i3 %i to i32
  ret i32 %z
}
define i32 @casts_i3_i6(i32 %x) {
  %t = trunc i32 %x to i6
  %n = trunc i6 %t to i3
  %s = sext i3 %n to i6
  %q = udiv i6 %s, 5
  %r = srem i6 %s, 3
  %a = add i6 %q, %r
  %w = zext i6 %a to i32
  ret i32 %w
}

define i32 @frozen_poison_i7(i32 %x) {
  %f = freeze i7 poison
  %z = zext i7 %f to i32
  %c = icmp ult i32 %z, 128
  %r = select i1 %c, i32 %x, i32 -1
  ret i32 %r
}
declare i7 @llvm.bitreverse.i7(i7)
)";

/// F applied to X by folding its instructions in order (branches followed).
std::optional<uint64_t> evaluate(Function &F, uint32_t X) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  DenseMap<Value *, Constant *> Known;
  Known[F.getArg(0)] = ConstantInt::get(F.getArg(0)->getType(), X);
  auto lookup = [&](Value *V) -> Constant * {
    if (auto *C = dyn_cast<Constant>(V))
      return C;
    return Known.lookup(V);
  };
  BasicBlock *Prev = nullptr, *BB = &F.getEntryBlock();
  for (unsigned Steps = 0; Steps < 10000; ++Steps) {
    // Phis read the values of the edge taken, all at once.
    SmallVector<std::pair<PHINode *, Constant *>> PhiValues;
    for (PHINode &Phi : BB->phis())
      PhiValues.push_back({&Phi, lookup(Phi.getIncomingValueForBlock(Prev))});
    for (auto [Phi, C] : PhiValues)
      Known[Phi] = C;
    for (Instruction &I : *BB) {
      if (isa<PHINode>(I))
        continue;
      if (auto *Ret = dyn_cast<ReturnInst>(&I)) {
        auto *C = dyn_cast_or_null<ConstantInt>(lookup(Ret->getReturnValue()));
        if (!C)
          return std::nullopt;
        return C->getZExtValue();
      }
      if (auto *Br = dyn_cast<BranchInst>(&I)) {
        Prev = BB;
        if (Br->isUnconditional()) {
          BB = Br->getSuccessor(0);
        } else {
          auto *C = dyn_cast_or_null<ConstantInt>(lookup(Br->getCondition()));
          if (!C)
            return std::nullopt;
          BB = Br->getSuccessor(C->isZero() ? 1 : 0);
        }
        break;
      }
      SmallVector<Constant *> Ops;
      for (Value *Op : I.operands())
        Ops.push_back(lookup(Op));
      if (llvm::is_contained(Ops, nullptr))
        return std::nullopt;
      Constant *C = nullptr;
      // A frozen poison takes all ones here: a widened one must still be
      // cleared above its width.
      if (isa<FreezeInst>(I) && isa<UndefValue>(Ops[0]))
        C = Constant::getAllOnesValue(I.getType());
      else if (auto *Call = dyn_cast<CallInst>(&I))
        C = ConstantFoldCall(Call, Call->getCalledFunction(),
                             ArrayRef(Ops).drop_back());
      else
        C = ConstantFoldInstOperands(&I, Ops, DL);
      if (!C)
        return std::nullopt;
      Known[&I] = C;
    }
  }
  return std::nullopt;
}

bool hasOddWidth(const Module &M) {
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      for (Type *Ty : {I.getType()})
        if (auto *Int = dyn_cast<IntegerType>(Ty->getScalarType()))
          if (Int->getBitWidth() != 1 && Int->getBitWidth() != 8 &&
              Int->getBitWidth() != 16 && Int->getBitWidth() != 32 &&
              Int->getBitWidth() != 64)
            return true;
  return false;
}

TEST(IntegerWidths, SameResultsWithoutOddWidths) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> Before = parseAssemblyString(Functions, Err, Ctx);
  ASSERT_TRUE(Before) << Err.getMessage().str();
  std::unique_ptr<Module> After = CloneModule(*Before);
  EXPECT_EQ(tle::spirv::expandBitReverse(*After), 1u);
  Expected<unsigned> Rewritten = tle::spirv::legalizeIntegerWidths(*After);
  ASSERT_TRUE(bool(Rewritten)) << toString(Rewritten.takeError());
  EXPECT_GT(*Rewritten, 0u);
  EXPECT_FALSE(hasOddWidth(*After));
  for (Function &F : *Before) {
    if (F.isDeclaration())
      continue;
    Function *G = After->getFunction(F.getName());
    for (uint32_t X = 0; X < 4200; X += 3) {
      std::optional<uint64_t> Want = evaluate(F, X), Got = evaluate(*G, X);
      ASSERT_TRUE(Want && Got) << F.getName().str() << "(" << X << ")";
      EXPECT_EQ(*Want, *Got) << F.getName().str() << "(" << X << ")";
    }
  }
}

TEST(IntegerWidths, UnknownInstructionIsAnError) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(R"(
define i32 @popcount_i7(i32 %x) {
  %t = trunc i32 %x to i7
  %p = call i7 @llvm.ctpop.i7(i7 %t)
  %z = zext i7 %p to i32
  ret i32 %z
}
declare i7 @llvm.ctpop.i7(i7)
)",
                                                  Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  Expected<unsigned> Rewritten = tle::spirv::legalizeIntegerWidths(*M);
  ASSERT_FALSE(bool(Rewritten));
  EXPECT_NE(toString(Rewritten.takeError()).find("llvm.ctpop.i7"),
            std::string::npos);
}

} // namespace

namespace {

TEST(IntegerWidths, WideProductHighHalfIsMulHi) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(R"(
define i64 @umulhi(i64 %a, i64 %b) {
  %x = zext i64 %a to i128
  %y = zext i64 %b to i128
  %p = mul i128 %x, %y
  %h = lshr i128 %p, 64
  %r = trunc i128 %h to i64
  ret i64 %r
}

define i64 @sum128(i64 %a, i64 %b) {
  %x = zext i64 %a to i128
  %y = zext i64 %b to i128
  %s = add i128 %x, %y
  %h = lshr i128 %s, 64
  %r = trunc i128 %h to i64
  ret i64 %r
}
)",
                                                  Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  EXPECT_EQ(tle::spirv::useOpenClMulHi(*M), 1u);
  // OpenCL's mul_hi(ulong, ulong).
  EXPECT_TRUE(M->getFunction("_Z6mul_himm"));
  for (Instruction &I : instructions(*M->getFunction("umulhi")))
    EXPECT_FALSE(I.getType()->isIntegerTy(128))
        << "left: " << I.getName().str();
  // The sum's 128-bit values stay, and are refused.
  Expected<unsigned> Rewritten = tle::spirv::legalizeIntegerWidths(*M);
  ASSERT_FALSE(bool(Rewritten));
  std::string Message = toString(Rewritten.takeError());
  EXPECT_NE(Message.find("wider than 64 bits"), std::string::npos);
  EXPECT_NE(Message.find("to i128"), std::string::npos) << Message;
}

} // namespace
