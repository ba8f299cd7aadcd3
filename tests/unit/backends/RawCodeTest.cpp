//===- RawCodeTest.cpp - The TLE-Raw helpers of the plugin SDK ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "tle/Backend/RawCode.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <chrono>

using namespace llvm;
using tle::backend::RawFunction;

namespace {

RawFunction makeFn() {
  RawFunction Fn;
  Fn.Symbol = "__tle_raw_twice";
  Fn.Kernel = "k";
  Fn.Language = "cuda";
  Fn.Entry = "twice";
  Fn.File = "k.py";
  Fn.Line = 12;
  Fn.Column = 8;
  return Fn;
}

TEST(RawCode, DiagnosticsMoveToTheKernelFile) {
  RawFunction Fn = makeFn();
  // Line 1 of the code starts at column 8 of line 12; later lines keep
  // their own columns.
  EXPECT_EQ(tle::backend::mapRawDiagnostics(
                "/tmp/tle-raw-1/native.cu:1:3: error: a\n"
                "native.cu:3:21: error: use of undeclared identifier 'y'\n"
                "    3 | return y;",
                "native.cu", Fn),
            "k.py:12:10: error: a\n"
            "k.py:14:21: error: use of undeclared identifier 'y'\n"
            "    3 | return y;");
  // Lines of a prelude the plugin added are not the kernel's.
  EXPECT_EQ(tle::backend::mapRawDiagnostics("native.cu:1:1: error: p\n"
                                            "native.cu:2:5: error: q",
                                            "native.cu", Fn, 1),
            "native.cu:1:1: error: p\nk.py:12:12: error: q");
}

TEST(RawCode, ToolsRunWithoutAShell) {
  // A name with a space and a semicolon reaches cp as one argument.
  Expected<std::string> Out = tle::backend::runRawTool(
      "/bin/cp", {"%dir/a b;c", "%dir/out"}, {{"a b;c", "hello"}}, "out");
  ASSERT_TRUE(static_cast<bool>(Out)) << toString(Out.takeError());
  EXPECT_EQ(*Out, "hello");
}

TEST(RawCode, FailuresCarryTheToolsOutput) {
  Expected<std::string> Out = tle::backend::runRawTool(
      "/bin/cp", {"%dir/missing", "%dir/out"}, {}, "out");
  ASSERT_FALSE(static_cast<bool>(Out));
  std::string Message = toString(Out.takeError());
  EXPECT_NE(Message.find("cp failed with exit status 1"), std::string::npos)
      << Message;
  // The private directory is gone afterwards: its path is not shown.
  EXPECT_NE(Message.find("'missing'"), std::string::npos) << Message;
  EXPECT_EQ(Message.find("tle-raw"), std::string::npos) << Message;
}

TEST(RawCode, ToolsAreStoppedAtTheTimeLimit) {
  auto Start = std::chrono::steady_clock::now();
  Expected<std::string> Out =
      tle::backend::runRawTool("/bin/sleep", {"30"}, {}, "out",
                               /*TimeoutSeconds=*/1);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  ASSERT_FALSE(static_cast<bool>(Out));
  std::string Message = toString(Out.takeError());
  EXPECT_NE(Message.find("sleep failed"), std::string::npos) << Message;
  EXPECT_NE(Message.find("(limit 1 s)"), std::string::npos) << Message;
  EXPECT_LT(Seconds, 10.0);
}

std::unique_ptr<Module> parse(StringRef Text, LLVMContext &Context) {
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Diag, Context);
  EXPECT_TRUE(M) << Diag.getMessage().str();
  return M;
}

TEST(RawCode, LinkedFunctionsInline) {
  LLVMContext Context;
  std::unique_ptr<Module> Kernel = parse(R"(
    declare float @__tle_raw_twice(float)
    define void @k(ptr %p) {
      %x = load float, ptr %p
      %y = call float @__tle_raw_twice(float %x)
      store float %y, ptr %p
      ret void
    })",
                                         Context);
  // What clang in CUDA mode makes: a mangled entry, a helper, attributes of
  // another target CPU that would stop inlining.
  std::unique_ptr<Module> Native = parse(R"(
    define float @helper(float %x) #0 {
      %r = fmul float %x, 2.0
      ret float %r
    }
    define float @_Z5twicef(float %x) #0 {
      %r = call float @helper(float %x)
      ret float %r
    }
    attributes #0 = { noinline "target-cpu"="sm_90" "target-features"="+ptx88" })",
                                         Context);
  RawFunction Fn = makeFn();
  ASSERT_FALSE(static_cast<bool>(
      tle::backend::linkRawFunction(*Kernel, Fn, std::move(Native), "test")));
  Function *F = Kernel->getFunction("__tle_raw_twice");
  ASSERT_TRUE(F && !F->isDeclaration());
  EXPECT_TRUE(F->hasInternalLinkage());
  EXPECT_TRUE(F->hasFnAttribute(Attribute::AlwaysInline));
  EXPECT_FALSE(F->hasFnAttribute(Attribute::NoInline));
  EXPECT_TRUE(F->isConvergent());
  EXPECT_FALSE(F->hasFnAttribute("target-cpu"));
  Function *Helper = Kernel->getFunction("helper");
  ASSERT_TRUE(Helper);
  EXPECT_TRUE(Helper->hasInternalLinkage());
}

TEST(RawCode, WrongEntriesAreReportedAtTheKernelLine) {
  LLVMContext Context;
  const char *KernelText = R"(
    declare float @__tle_raw_twice(float)
    define void @k(ptr %p) {
      %x = load float, ptr %p
      %y = call float @__tle_raw_twice(float %x)
      store float %y, ptr %p
      ret void
    })";
  std::unique_ptr<Module> Kernel = parse(KernelText, Context);
  Error E = tle::backend::linkRawFunction(
      *Kernel, makeFn(),
      parse("define double @twice(double %x) { ret double %x }", Context),
      "test");
  EXPECT_EQ(toString(std::move(E)),
            "k.py:12:8: error: 'twice' has type double (double), but the call "
            "passes one element per operand: float (float) (kernel 'k', test "
            "plugin)");
  E = tle::backend::linkRawFunction(
      *Kernel, makeFn(),
      parse("define float @thrice(float %x) { ret float %x }", Context),
      "test");
  EXPECT_EQ(toString(std::move(E)),
            "k.py:12:8: error: the cuda code defines no function 'twice' (it "
            "defines: thrice); name it with @dialect(extern_func_name=...) "
            "(kernel 'k', test plugin)");
}

} // namespace
