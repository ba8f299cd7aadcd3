//===- ASTDump.cpp - Textual dump of the syntax tree ----------------------===//

#include "core/frontend/ASTDump.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace tle::frontend;

std::string tle::frontend::getSourceText(SMRange Range) {
  if (!Range.isValid())
    return {};
  StringRef Text(Range.Start.getPointer(),
                 Range.End.getPointer() - Range.Start.getPointer());
  std::string Out;
  bool PendingSpace = false;
  for (char C : Text) {
    if (isSpace(C) || C == '\\') {
      PendingSpace = !Out.empty();
      continue;
    }
    if (PendingSpace)
      Out += ' ';
    PendingSpace = false;
    Out += C;
  }
  return Out;
}

namespace {
class Dumper {
public:
  Dumper(const SourceMgr &SrcMgr, raw_ostream &OS) : SrcMgr(SrcMgr), OS(OS) {}

  void function(const FunctionDef &F);
  void node(StringRef Role, const Node *N);

private:
  void line(StringRef Role, SMLoc Loc, const Twine &Text);
  void param(StringRef Role, const Param &P);
  void children(StringRef Role, ArrayRef<Expr *> Nodes) {
    for (const Expr *E : Nodes)
      node(Role, E);
  }
  void children(StringRef Role, ArrayRef<Stmt *> Nodes) {
    for (const Stmt *S : Nodes)
      node(Role, S);
  }
  void keyword(const Keyword &K);
  std::string describe(const Node *N);

  const SourceMgr &SrcMgr;
  raw_ostream &OS;
  unsigned Indent = 0;

  struct Nest {
    Dumper &D;
    explicit Nest(Dumper &D) : D(D) { ++D.Indent; }
    ~Nest() { --D.Indent; }
  };
};
} // namespace

void Dumper::line(StringRef Role, SMLoc Loc, const Twine &Text) {
  OS.indent(Indent * 2);
  if (!Role.empty())
    OS << Role << ": ";
  OS << Text;
  if (Loc.isValid()) {
    auto [Line, Col] = SrcMgr.getLineAndColumn(Loc);
    OS << ' ' << Line << ':' << Col;
  }
  OS << '\n';
}

static StringRef storeSuffix(ExprContext Ctx) {
  return Ctx == ExprContext::Store ? " (store)" : "";
}

std::string Dumper::describe(const Node *N) {
  std::string S = getNodeKindName(N->getKind()).str();
  raw_string_ostream Out(S);
  switch (N->getKind()) {
  case NodeKind::Name: {
    const auto *E = cast<NameExpr>(N);
    Out << ' ' << E->Id << storeSuffix(E->Ctx);
    break;
  }
  case NodeKind::Constant: {
    const auto *C = cast<ConstantExpr>(N);
    using VK = ConstantExpr::ValueKind;
    switch (C->getValueKind()) {
    case VK::Int:
      Out << " int "
          << (C->IntOverflow ? toString(C->getAPInt(), 10, false)
                             : std::to_string(C->Int));
      break;
    case VK::Float: {
      // %g drops the point of integral values; keep the dump unambiguous.
      std::string F = formatv("{0}", format("%g", C->Float)).str();
      if (F.find_first_of(".ein") == std::string::npos)
        F += ".0";
      Out << " float " << F;
      break;
    }
    case VK::Imaginary:
      Out << " imaginary " << format("%g", C->Float) << "j";
      break;
    case VK::Str:
    case VK::Bytes:
      Out << (C->getValueKind() == VK::Str ? " str " : " bytes ");
      Out << '"';
      Out.write_escaped(C->Str);
      Out << '"';
      break;
    case VK::Bool:
      Out << (C->Bool ? " True" : " False");
      break;
    case VK::None:
      Out << " None";
      break;
    case VK::Ellipsis:
      Out << " Ellipsis";
      break;
    }
    break;
  }
  case NodeKind::BinOp:
    Out << ' ' << getSpelling(cast<BinOpExpr>(N)->Op);
    break;
  case NodeKind::UnaryOp:
    Out << ' ' << getSpelling(cast<UnaryOpExpr>(N)->Op);
    break;
  case NodeKind::BoolOp:
    Out << ' ' << getSpelling(cast<BoolOpExpr>(N)->Op);
    break;
  case NodeKind::Compare:
    for (CmpOpKind Op : cast<CompareExpr>(N)->Ops)
      Out << ' ' << getSpelling(Op);
    break;
  case NodeKind::Attribute: {
    const auto *A = cast<AttributeExpr>(N);
    Out << ' ' << A->Attr << storeSuffix(A->Ctx);
    break;
  }
  case NodeKind::Subscript:
    Out << storeSuffix(cast<SubscriptExpr>(N)->Ctx);
    break;
  case NodeKind::Tuple:
  case NodeKind::List:
    Out << storeSuffix(cast<SequenceExpr>(N)->Ctx);
    break;
  case NodeKind::Starred:
    Out << storeSuffix(cast<StarredExpr>(N)->Ctx);
    break;
  case NodeKind::Comprehension: {
    using CK = ComprehensionExpr::CompKind;
    CK K = cast<ComprehensionExpr>(N)->CK;
    Out << (K == CK::List   ? " list"
            : K == CK::Set  ? " set"
            : K == CK::Dict ? " dict"
                            : " generator");
    break;
  }
  case NodeKind::FormattedValue:
    if (char Conversion = cast<FormattedValueExpr>(N)->Conversion)
      Out << " !" << Conversion;
    break;
  case NodeKind::AugAssign:
    Out << ' ' << getSpelling(cast<AugAssignStmt>(N)->Op) << '=';
    break;
  case NodeKind::If:
    if (cast<IfStmt>(N)->IsElif)
      Out << " (elif)";
    break;
  default:
    break;
  }
  return S;
}

void Dumper::param(StringRef Role, const Param &P) {
  StringRef Prefix;
  switch (P.Kind) {
  case Param::ParamKind::VarPositional:
    Prefix = "*";
    break;
  case Param::ParamKind::VarKeyword:
    Prefix = "**";
    break;
  default:
    break;
  }
  StringRef Suffix;
  if (P.Kind == Param::ParamKind::PositionalOnly)
    Suffix = " (positional-only)";
  else if (P.Kind == Param::ParamKind::KeywordOnly)
    Suffix = " (keyword-only)";
  line(Role, P.Range.Start, Prefix + P.Name + Suffix);
  Nest N(*this);
  if (P.Annotation)
    node("annotation", P.Annotation);
  if (P.Default)
    node("default", P.Default);
}

void Dumper::keyword(const Keyword &K) {
  line("keyword", K.Range.Start, K.Arg.empty() ? StringRef("**") : K.Arg);
  Nest N(*this);
  node("value", K.Value);
}

void Dumper::node(StringRef Role, const Node *N) {
  if (!N)
    return;
  line(Role, N->getLoc(), describe(N));
  Nest Guard(*this);
  switch (N->getKind()) {
  case NodeKind::Name:
  case NodeKind::Constant:
  case NodeKind::Pass:
  case NodeKind::Break:
  case NodeKind::Continue:
    return;
  case NodeKind::BinOp:
    node("left", cast<BinOpExpr>(N)->Left);
    node("right", cast<BinOpExpr>(N)->Right);
    return;
  case NodeKind::UnaryOp:
    node("operand", cast<UnaryOpExpr>(N)->Operand);
    return;
  case NodeKind::BoolOp:
    children("value", cast<BoolOpExpr>(N)->Values);
    return;
  case NodeKind::Compare:
    node("left", cast<CompareExpr>(N)->Left);
    children("comparator", cast<CompareExpr>(N)->Comparators);
    return;
  case NodeKind::IfExp: {
    const auto *E = cast<IfExpExpr>(N);
    node("test", E->Test);
    node("body", E->Body);
    node("orelse", E->OrElse);
    return;
  }
  case NodeKind::Call: {
    const auto *C = cast<CallExpr>(N);
    node("func", C->Func);
    children("arg", C->Args);
    for (const Keyword &K : C->Keywords)
      keyword(K);
    return;
  }
  case NodeKind::Attribute:
    node("value", cast<AttributeExpr>(N)->Value);
    return;
  case NodeKind::Subscript:
    node("value", cast<SubscriptExpr>(N)->Value);
    node("index", cast<SubscriptExpr>(N)->Index);
    return;
  case NodeKind::Slice: {
    const auto *S = cast<SliceExpr>(N);
    node("lower", S->Lower);
    node("upper", S->Upper);
    node("step", S->Step);
    return;
  }
  case NodeKind::Tuple:
  case NodeKind::List:
  case NodeKind::Set:
    children("elt", cast<SequenceExpr>(N)->Elts);
    return;
  case NodeKind::Dict: {
    const auto *D = cast<DictExpr>(N);
    for (auto [K, V] : llvm::zip(D->Keys, D->Values)) {
      if (K)
        node("key", K);
      else
        line("key", SMLoc(), "**");
      node("value", V);
    }
    return;
  }
  case NodeKind::Comprehension: {
    const auto *C = cast<ComprehensionExpr>(N);
    node("elt", C->Elt);
    node("value", C->Value);
    for (const ComprehensionFor &G : C->Generators) {
      node("target", G.Target);
      node("iter", G.Iter);
      children("if", G.Ifs);
    }
    return;
  }
  case NodeKind::Lambda:
    for (const Param &P : cast<LambdaExpr>(N)->Params)
      param("param", P);
    node("body", cast<LambdaExpr>(N)->Body);
    return;
  case NodeKind::Starred:
    node("value", cast<StarredExpr>(N)->Value);
    return;
  case NodeKind::NamedExpr:
    node("target", cast<NamedExprExpr>(N)->Target);
    node("value", cast<NamedExprExpr>(N)->Value);
    return;
  case NodeKind::JoinedStr:
    children("value", cast<JoinedStrExpr>(N)->Values);
    return;
  case NodeKind::FormattedValue:
    node("value", cast<FormattedValueExpr>(N)->Value);
    node("format_spec", cast<FormattedValueExpr>(N)->FormatSpec);
    return;
  case NodeKind::Assign:
    children("target", cast<AssignStmt>(N)->Targets);
    node("value", cast<AssignStmt>(N)->Value);
    return;
  case NodeKind::AnnAssign: {
    const auto *S = cast<AnnAssignStmt>(N);
    node("target", S->Target);
    node("annotation", S->Annotation);
    node("value", S->Value);
    return;
  }
  case NodeKind::AugAssign:
    node("target", cast<AugAssignStmt>(N)->Target);
    node("value", cast<AugAssignStmt>(N)->Value);
    return;
  case NodeKind::If: {
    const auto *S = cast<IfStmt>(N);
    node("test", S->Test);
    children("body", S->Body);
    children("orelse", S->OrElse);
    return;
  }
  case NodeKind::For: {
    const auto *S = cast<ForStmt>(N);
    node("target", S->Target);
    node("iter", S->Iter);
    children("body", S->Body);
    children("orelse", S->OrElse);
    return;
  }
  case NodeKind::While: {
    const auto *S = cast<WhileStmt>(N);
    node("test", S->Test);
    children("body", S->Body);
    children("orelse", S->OrElse);
    return;
  }
  case NodeKind::Return:
    node("value", cast<ReturnStmt>(N)->Value);
    return;
  case NodeKind::Assert:
    node("test", cast<AssertStmt>(N)->Test);
    node("msg", cast<AssertStmt>(N)->Msg);
    return;
  case NodeKind::Raise:
    node("exc", cast<RaiseStmt>(N)->Exc);
    node("cause", cast<RaiseStmt>(N)->Cause);
    return;
  case NodeKind::ExprStmt:
    node("value", cast<ExprStmt>(N)->Value);
    return;
  }
}

void Dumper::function(const FunctionDef &F) {
  line("", F.NameLoc,
       Twine(F.isJit() ? "FunctionDef " : "DialectDef ") + F.Name);
  Nest N(*this);
  for (const Decorator &D : F.Decorators)
    node("decorator", D.Value);
  for (const Param &P : F.Params)
    param("param", P);
  node("returns", F.Returns);
  if (F.HasDocstring) {
    std::string Doc;
    raw_string_ostream DocOS(Doc);
    DocOS.write_escaped(F.Docstring);
    line("docstring", SMLoc(), "\"" + Doc + "\"");
  }
  if (F.isJit())
    children("body", F.Body);
}

void tle::frontend::dumpFunction(const FunctionDef &F, const SourceMgr &SrcMgr,
                                 raw_ostream &OS) {
  Dumper(SrcMgr, OS).function(F);
}

void tle::frontend::dumpNode(const Node *N, const SourceMgr &SrcMgr,
                             raw_ostream &OS) {
  Dumper(SrcMgr, OS).node("", N);
}
