//===- ParserTest.cpp - Unit tests for the parser and scanner -------------===//

#include "core/frontend/Parser.h"
#include "core/frontend/ASTDump.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace tle::frontend;

namespace {
struct Parsed {
  SourceMgr SrcMgr;
  std::unique_ptr<DiagnosticEngine> Diags;
  std::unique_ptr<Module> M;

  explicit Parsed(StringRef Source) {
    unsigned ID = SrcMgr.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(Source, "test.py"), SMLoc());
    Diags = std::make_unique<DiagnosticEngine>(SrcMgr);
    M = parseModule(SrcMgr, ID, *Diags);
  }
  std::string firstError() const {
    return Diags->getDiagnostics().empty()
               ? ""
               : Diags->getDiagnostics().front().Message;
  }
};

/// Parses `x = <Source>` inside a jit function and renders the value as a
/// fully parenthesized string, which makes precedence visible.
std::string paren(const Expr *E);

std::string joinParen(ArrayRef<Expr *> Es, StringRef Sep) {
  std::string S;
  for (const Expr *E : Es)
    S += (S.empty() ? "" : Sep.str()) + paren(E);
  return S;
}

std::string paren(const Expr *E) {
  if (!E)
    return "<null>";
  switch (E->getKind()) {
  case NodeKind::Name:
    return cast<NameExpr>(E)->Id.str();
  case NodeKind::Constant:
    return getSourceText(E->getRange());
  case NodeKind::BinOp: {
    auto *B = cast<BinOpExpr>(E);
    return "(" + paren(B->Left) + " " + getSpelling(B->Op).str() + " " +
           paren(B->Right) + ")";
  }
  case NodeKind::UnaryOp: {
    auto *U = cast<UnaryOpExpr>(E);
    return "(" + getSpelling(U->Op).str() +
           (U->Op == UnaryOpKind::Not ? " " : "") + paren(U->Operand) + ")";
  }
  case NodeKind::BoolOp: {
    auto *B = cast<BoolOpExpr>(E);
    return "(" + joinParen(B->Values, (" " + getSpelling(B->Op) + " ").str()) +
           ")";
  }
  case NodeKind::Compare: {
    auto *C = cast<CompareExpr>(E);
    std::string S = "(" + paren(C->Left);
    for (auto [Op, R] : llvm::zip(C->Ops, C->Comparators))
      S += " " + getSpelling(Op).str() + " " + paren(R);
    return S + ")";
  }
  case NodeKind::IfExp: {
    auto *I = cast<IfExpExpr>(E);
    return "(" + paren(I->Body) + " if " + paren(I->Test) + " else " +
           paren(I->OrElse) + ")";
  }
  case NodeKind::Call: {
    auto *C = cast<CallExpr>(E);
    std::string S = paren(C->Func) + "(" + joinParen(C->Args, ", ");
    for (const Keyword &K : C->Keywords)
      S += ", " + K.Arg.str() + "=" + paren(K.Value);
    return S + ")";
  }
  case NodeKind::Attribute:
    return paren(cast<AttributeExpr>(E)->Value) + "." +
           cast<AttributeExpr>(E)->Attr.str();
  case NodeKind::Subscript:
    return paren(cast<SubscriptExpr>(E)->Value) + "[" +
           paren(cast<SubscriptExpr>(E)->Index) + "]";
  case NodeKind::Slice: {
    auto *S = cast<SliceExpr>(E);
    auto Part = [](const Expr *P) { return P ? paren(P) : std::string(); };
    return Part(S->Lower) + ":" + Part(S->Upper) +
           (S->Step ? ":" + paren(S->Step) : "");
  }
  case NodeKind::Tuple:
    return "(" + joinParen(cast<TupleExpr>(E)->Elts, ", ") + ",)";
  case NodeKind::List:
    return "[" + joinParen(cast<ListExpr>(E)->Elts, ", ") + "]";
  case NodeKind::Starred:
    return "*" + paren(cast<StarredExpr>(E)->Value);
  case NodeKind::NamedExpr:
    return "(" + paren(cast<NamedExprExpr>(E)->Target) +
           " := " + paren(cast<NamedExprExpr>(E)->Value) + ")";
  case NodeKind::Lambda:
    return "(lambda: " + paren(cast<LambdaExpr>(E)->Body) + ")";
  default:
    return "<" + getNodeKindName(E->getKind()).str() + ">";
  }
}

std::string parseExpr(StringRef Source) {
  std::string File =
      "import triton\n@triton.jit\ndef k():\n    x = " + Source.str() + "\n";
  Parsed P(File);
  if (P.Diags->hasErrors())
    return "error: " + P.firstError();
  if (P.M->Functions.size() != 1 || P.M->Functions[0]->Body.size() != 1)
    return "error: no function";
  auto *A = dyn_cast<AssignStmt>(P.M->Functions[0]->Body[0]);
  return A ? paren(A->Value) : "error: not an assignment";
}
} // namespace

TEST(ParserTest, ArithmeticPrecedence) {
  EXPECT_EQ(parseExpr("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(parseExpr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(parseExpr("a * b // c % d @ e"), "((((a * b) // c) % d) @ e)");
  EXPECT_EQ(parseExpr("a | b ^ c & d << e + f"),
            "(a | (b ^ (c & (d << (e + f)))))");
}

TEST(ParserTest, PowerAndUnary) {
  EXPECT_EQ(parseExpr("-x ** 2"), "(-(x ** 2))");
  EXPECT_EQ(parseExpr("a ** b ** c"), "(a ** (b ** c))");
  EXPECT_EQ(parseExpr("2 ** -1"), "(2 ** (-1))");
  EXPECT_EQ(parseExpr("~a + -b"), "((~a) + (-b))");
}

TEST(ParserTest, BooleanAndComparison) {
  EXPECT_EQ(parseExpr("a < b <= c"), "(a < b <= c)");
  EXPECT_EQ(parseExpr("not a == b and c or d"),
            "(((not (a == b)) and c) or d)");
  EXPECT_EQ(parseExpr("a and b and c"), "(a and b and c)");
  EXPECT_EQ(parseExpr("a is not None"), "(a is not None)");
  EXPECT_EQ(parseExpr("a not in b"), "(a not in b)");
  EXPECT_EQ(parseExpr("a & b == c"), "((a & b) == c)");
}

TEST(ParserTest, ConditionalAndLambda) {
  EXPECT_EQ(parseExpr("a if b else c if d else e"),
            "(a if b else (c if d else e))");
  EXPECT_EQ(parseExpr("lambda: a or b"), "(lambda: (a or b))");
  EXPECT_EQ(parseExpr("(y := a + 1)"), "(y := (a + 1))");
}

TEST(ParserTest, Trailers) {
  EXPECT_EQ(parseExpr("tl.load(p + offs[:, None], mask=m, other=0.0)"),
            "tl.load((p + offs[(:, None,)]), mask=m, other=0.0)");
  EXPECT_EQ(parseExpr("x.to(tl.float16).T"), "x.to(tl.float16).T");
  EXPECT_EQ(parseExpr("a[1:2:3, ::2, None]"), "a[(1:2:3, ::2, None,)]");
  EXPECT_EQ(parseExpr("-a.b[c]"), "(-a.b[c])");
  EXPECT_EQ(parseExpr("f(*args, k=1)"), "f(*args, k=1)");
}

TEST(ParserTest, Displays) {
  EXPECT_EQ(parseExpr("a, b"), "(a, b,)");
  EXPECT_EQ(parseExpr("(a,)"), "(a,)");
  EXPECT_EQ(parseExpr("()"), "(,)");
  EXPECT_EQ(parseExpr("[a, *b]"), "[a, *b]");
  EXPECT_EQ(parseExpr("{'a': 1}"), "<Dict>");
}

TEST(ParserTest, Constants) {
  Parsed P("import triton\n@triton.jit\ndef k():\n"
           "    x = 123456789012345678901234567890\n"
           "    y = 0x_ff\n    z = 'a' 'b\\n'\n    w = 1.5e3\n");
  ASSERT_FALSE(P.Diags->hasErrors()) << P.firstError();
  ArrayRef<Stmt *> Body = P.M->Functions[0]->Body;
  auto Value = [&](unsigned I) {
    return cast<ConstantExpr>(cast<AssignStmt>(Body[I])->Value);
  };
  EXPECT_TRUE(Value(0)->IntOverflow);
  EXPECT_EQ(toString(Value(0)->getAPInt(), 10, false),
            "123456789012345678901234567890");
  EXPECT_EQ(Value(1)->Int, 255u);
  EXPECT_FALSE(Value(1)->IntOverflow);
  EXPECT_EQ(Value(2)->Str, "ab\n");
  EXPECT_DOUBLE_EQ(Value(3)->Float, 1500.0);
}

TEST(ParserTest, ChainedAndTupleAssignment) {
  Parsed P("import triton\n@triton.jit\ndef k():\n    a = b = c\n"
           "    x, (y, *z) = t\n    q += 1\n    r: tl.constexpr = 2\n");
  ASSERT_FALSE(P.Diags->hasErrors()) << P.firstError();
  ArrayRef<Stmt *> Body = P.M->Functions[0]->Body;
  ASSERT_EQ(Body.size(), 4u);
  EXPECT_EQ(cast<AssignStmt>(Body[0])->Targets.size(), 2u);
  auto *T = cast<TupleExpr>(cast<AssignStmt>(Body[1])->Targets[0]);
  EXPECT_EQ(T->Ctx, ExprContext::Store);
  EXPECT_TRUE(isa<AugAssignStmt>(Body[2]));
  EXPECT_TRUE(isa<AnnAssignStmt>(Body[3]));
}

TEST(ParserTest, ImportAliasesResolve) {
  Parsed P("import triton\nimport triton.language as tl\n"
           "from triton.language.extra import libdevice\n"
           "import triton.experimental.tle.language.gpu as tle\n"
           "from triton import jit\n"
           "@jit\ndef k(p):\n    tl.load(p)\n");
  ASSERT_FALSE(P.Diags->hasErrors()) << P.firstError();
  EXPECT_EQ(P.M->resolveDottedName("tl.math.exp2"),
            "triton.language.math.exp2");
  EXPECT_EQ(P.M->resolveDottedName("libdevice.exp"),
            "triton.language.extra.libdevice.exp");
  EXPECT_EQ(P.M->resolveDottedName("tle.gpu.alloc"),
            "triton.experimental.tle.language.gpu.gpu.alloc");
  EXPECT_EQ(P.M->resolveDottedName("range"), "range");
  ASSERT_EQ(P.M->Functions.size(), 1u);
  auto *Call =
      cast<CallExpr>(cast<ExprStmt>(P.M->Functions[0]->Body[0])->Value);
  EXPECT_EQ(P.M->getCanonicalName(Call->Func), "triton.language.load");
}

TEST(ParserTest, HostCodeIsSkipped) {
  Parsed P("import triton\nclass A:\n    def f(self):\n        with x: pass\n"
           "def host():\n    try:\n        import torch\n    except: pass\n"
           "if __name__ == '__main__':\n    print(f'{1}')\n"
           "@triton.jit\ndef k():\n    pass\n");
  EXPECT_FALSE(P.Diags->hasErrors()) << P.firstError();
  ASSERT_EQ(P.M->Functions.size(), 1u);
  EXPECT_EQ(P.M->Functions[0]->Name, "k");
}

TEST(ParserTest, ModuleConstants) {
  Parsed P("import triton.language as tl\nA = tl.constexpr(4)\n"
           "B: tl.constexpr = 8\nC = 1.5\nD = 'x'\nE = True\n"
           "DEVICE = torch.device('cuda')\n");
  ASSERT_FALSE(P.Diags->hasErrors());
  std::vector<std::string> Names;
  for (const ModuleConstant &C : P.M->Constants)
    Names.push_back(C.Name.str());
  EXPECT_EQ(Names, (std::vector<std::string>{"A", "B", "C", "D", "E"}));
}

TEST(ParserTest, UnsupportedStatement) {
  Parsed P("import triton\n@triton.jit\ndef k():\n    with a:\n        pass\n");
  EXPECT_EQ(P.firstError(),
            "unsupported syntax in a jit function: 'with' statement");
}

TEST(ParserTest, ErrorFormatHasCaret) {
  Parsed P("import triton\n@triton.jit\ndef k(x):\n    if x\n        pass\n");
  ASSERT_TRUE(P.Diags->hasErrors());
  std::string Text = P.Diags->format(P.Diags->getDiagnostics().front());
  EXPECT_EQ(Text, "test.py:4:9: error: expected ':' after 'if' condition\n"
                  "    if x\n"
                  "        ^\n");
}

TEST(ParserTest, DeepNestingIsAnError) {
  std::string Src = "import triton\n@triton.jit\ndef k():\n    x = " +
                    std::string(5000, '-') + "1\n";
  Parsed P(Src);
  EXPECT_EQ(P.firstError(), "expression is too deeply nested");
}

TEST(ParserTest, RaiseInDeadBranchIsParsed) {
  Parsed P("import triton\n@triton.jit\ndef k(x: tl.constexpr):\n"
           "    if x == 8:\n        pass\n    else:\n"
           "        raise ValueError('unsupported') from None\n");
  ASSERT_FALSE(P.Diags->hasErrors()) << P.firstError();
  auto *If = cast<IfStmt>(P.M->Functions[0]->Body[0]);
  auto *R = cast<RaiseStmt>(If->OrElse[0]);
  EXPECT_TRUE(isa<CallExpr>(R->Exc));
  EXPECT_TRUE(isa<ConstantExpr>(R->Cause));
}

TEST(ParserTest, AutotuneConfigsAreMetadata) {
  Parsed P("import triton\n"
           "@triton.autotune(configs=[triton.Config({'B': 64}, num_warps=4, "
           "num_stages=2)], key=['n'])\n"
           "@triton.jit\ndef k(n, B: tl.constexpr):\n    pass\n");
  ASSERT_FALSE(P.Diags->hasErrors()) << P.firstError();
  const AutotuneInfo *A = P.M->Functions[0]->Autotune;
  ASSERT_NE(A, nullptr);
  ASSERT_EQ(A->Configs.size(), 1u);
  const AutotuneConfig &C = A->Configs[0];
  ASSERT_NE(C.Kwargs, nullptr);
  EXPECT_EQ(cast<ConstantExpr>(C.Kwargs->lookup("B"))->Int, 64u);
  ASSERT_EQ(C.Options.size(), 2u);
  EXPECT_EQ(C.Options[0].Arg, "num_warps");
  EXPECT_EQ(C.Options[1].Arg, "num_stages");
  EXPECT_TRUE(isa<ListExpr>(A->Key));
}

TEST(ParserTest, DialectFunctionKeepsSource) {
  Parsed P("from triton.experimental.tle.raw import dialect\n"
           "@dialect(name='cuda')\ndef f(x):\n    '''int f() {}'''\n");
  ASSERT_FALSE(P.Diags->hasErrors()) << P.firstError();
  ASSERT_EQ(P.M->Functions.size(), 1u);
  const FunctionDef *F = P.M->Functions[0];
  EXPECT_TRUE(F->isDialect());
  EXPECT_EQ(F->Docstring, "int f() {}");
  EXPECT_EQ(F->BodyText, "'''int f() {}'''");
  EXPECT_EQ(F->getDecorator(DecoratorKind::Dialect)->CanonicalName,
            "triton.experimental.tle.raw.dialect");
}
