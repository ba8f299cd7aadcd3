//===- AST.h - Syntax tree of Triton-syntax kernels -------------*- C++ -*-===//
//
// The syntax tree of the parts of a Python file the compiler looks at: jit
// functions (bodies parsed in full), TLE-Raw `@dialect` functions (signature
// and source text), module-level constants and import aliases.
//
// Ownership: every Expr/Stmt/FunctionDef lives in the BumpPtrAllocator of the
// Module's ASTContext and is freed with the Module; nodes are trivially
// destructible (children are raw pointers, lists are ArrayRefs and names are
// StringRefs, all allocator- or source-owned). Strings that appear verbatim in
// the source point into the SourceMgr buffer, so the SourceMgr must outlive
// the Module.
//
// Walking: nodes use LLVM-style RTTI (getKind() + classof), so the lowering
// switches on getKind() or uses llvm::dyn_cast<CallExpr>(E). Field names
// follow Python's `ast` module (Assign.Targets, For.OrElse, Call.Keywords...)
// so the Python grammar documentation doubles as documentation of this tree.
// Every node has a source range; getLoc() is its start.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_AST_H
#define TLE_FRONTEND_AST_H

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"
#include <cstdint>

namespace tle::frontend {

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

/// Owns the memory of one syntax tree.
class ASTContext {
public:
  template <typename T, typename... Args> T *create(Args &&...As) {
    static_assert(std::is_trivially_destructible_v<T>,
                  "AST nodes are never destroyed");
    return new (Alloc.Allocate<T>()) T(std::forward<Args>(As)...);
  }
  template <typename T> llvm::ArrayRef<T> copyArray(llvm::ArrayRef<T> A) {
    if (A.empty())
      return {};
    T *Mem = Alloc.Allocate<T>(A.size());
    std::uninitialized_copy(A.begin(), A.end(), Mem);
    return {Mem, A.size()};
  }
  llvm::StringRef copyString(llvm::StringRef S) {
    if (S.empty())
      return {};
    char *Mem = Alloc.Allocate<char>(S.size());
    std::copy(S.begin(), S.end(), Mem);
    return {Mem, S.size()};
  }

private:
  llvm::BumpPtrAllocator Alloc;
};

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

enum class BinaryOpKind {
  Add,
  Sub,
  Mult,
  MatMult,
  Div,
  FloorDiv,
  Mod,
  Pow,
  LShift,
  RShift,
  BitOr,
  BitXor,
  BitAnd
};
enum class UnaryOpKind { Invert, Not, UAdd, USub };
enum class BoolOpKind { And, Or };
enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// Python spellings ("+", "not in", ...) and `ast` names ("Add", "NotIn").
llvm::StringRef getSpelling(BinaryOpKind Op);
llvm::StringRef getSpelling(UnaryOpKind Op);
llvm::StringRef getSpelling(BoolOpKind Op);
llvm::StringRef getSpelling(CmpOpKind Op);
llvm::StringRef getName(BinaryOpKind Op);
llvm::StringRef getName(UnaryOpKind Op);
llvm::StringRef getName(BoolOpKind Op);
llvm::StringRef getName(CmpOpKind Op);

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

enum class NodeKind {
  // Expressions.
  Name,
  Constant,
  BinOp,
  UnaryOp,
  BoolOp,
  Compare,
  IfExp,
  Call,
  Attribute,
  Subscript,
  Slice,
  Tuple,
  List,
  Set,
  Dict,
  Comprehension,
  Lambda,
  Starred,
  NamedExpr,
  JoinedStr,
  FormattedValue,
  FirstExpr = Name,
  LastExpr = FormattedValue,
  // Statements.
  Assign,
  AnnAssign,
  AugAssign,
  If,
  For,
  While,
  Return,
  Pass,
  Break,
  Continue,
  Assert,
  Raise,
  ExprStmt,
  FirstStmt = Assign,
  LastStmt = ExprStmt,
};

/// The `ast`-style name of a kind ("Name", "AugAssign", ...).
llvm::StringRef getNodeKindName(NodeKind Kind);

class Node {
public:
  NodeKind getKind() const { return Kind; }
  llvm::SMRange getRange() const { return Range; }
  llvm::SMLoc getLoc() const { return Range.Start; }
  llvm::SMLoc getEndLoc() const { return Range.End; }

protected:
  Node(NodeKind Kind, llvm::SMRange Range) : Kind(Kind), Range(Range) {}

private:
  NodeKind Kind;
  llvm::SMRange Range;
};

class Expr : public Node {
public:
  static bool classof(const Node *N) {
    return N->getKind() >= NodeKind::FirstExpr &&
           N->getKind() <= NodeKind::LastExpr;
  }

protected:
  using Node::Node;
};

class Stmt : public Node {
public:
  static bool classof(const Node *N) {
    return N->getKind() >= NodeKind::FirstStmt &&
           N->getKind() <= NodeKind::LastStmt;
  }

protected:
  using Node::Node;
};

/// Defines classof for a leaf node class.
#define TLE_AST_LEAF(Class)                                                    \
  static bool classof(const Node *N) { return N->getKind() == NodeKind::Class; }

//===--- Expressions ------------------------------------------------------===//

/// Whether an expression is read, assigned to (targets of Assign, For,
/// AugAssign, NamedExpr) or deleted, as in Python's `ast.expr_context`.
enum class ExprContext { Load, Store };

class NameExpr : public Expr {
public:
  NameExpr(llvm::SMRange R, llvm::StringRef Id, ExprContext Ctx)
      : Expr(NodeKind::Name, R), Id(Id), Ctx(Ctx) {}
  TLE_AST_LEAF(Name)
  llvm::StringRef Id;
  ExprContext Ctx;
};

/// A literal. Integers of any size keep their digits: Int holds the value
/// when it fits in 64 bits (IntOverflow false), and getAPInt() rebuilds
/// larger values. Adjacent string literals are concatenated as in Python.
/// A literal with an f-string part is a JoinedStrExpr instead.
class ConstantExpr : public Expr {
public:
  enum class ValueKind {
    Int,
    Float,
    Imaginary,
    Str,
    Bytes,
    Bool,
    None,
    Ellipsis
  };
  ConstantExpr(llvm::SMRange R, ValueKind VK)
      : Expr(NodeKind::Constant, R), VK(VK) {}
  TLE_AST_LEAF(Constant)

  ValueKind getValueKind() const { return VK; }
  bool isInt() const { return VK == ValueKind::Int; }
  bool isFloat() const { return VK == ValueKind::Float; }
  bool isString() const { return VK == ValueKind::Str; }
  bool isBool() const { return VK == ValueKind::Bool; }
  bool isNone() const { return VK == ValueKind::None; }
  /// Integer value with as many bits as it needs (at least 64), unsigned.
  llvm::APInt getAPInt() const;

  ValueKind VK;
  uint64_t Int = 0;
  bool IntOverflow = false;
  llvm::StringRef IntDigits; ///< Digits without prefix or underscores.
  unsigned IntRadix = 10;
  double Float = 0; ///< Float value, or the imaginary part.
  bool Bool = false;
  llvm::StringRef Str; ///< Decoded contents of Str/Bytes.
};

/// An f-string (with the literals concatenated to it), as Python's
/// ast.JoinedStr: its Values are Str constants and FormattedValue fields, in
/// order.
class JoinedStrExpr : public Expr {
public:
  JoinedStrExpr(llvm::SMRange R, llvm::ArrayRef<Expr *> Values)
      : Expr(NodeKind::JoinedStr, R), Values(Values) {}
  TLE_AST_LEAF(JoinedStr)
  llvm::ArrayRef<Expr *> Values;
};

/// One replacement field of an f-string, `{value!conversion:format_spec}`.
/// A self-documenting field (`{x=}`) is the literal "x=" before a field
/// whose conversion is 'r', as Python parses it.
class FormattedValueExpr : public Expr {
public:
  FormattedValueExpr(llvm::SMRange R, Expr *Value, char Conversion,
                     JoinedStrExpr *FormatSpec)
      : Expr(NodeKind::FormattedValue, R), Value(Value), Conversion(Conversion),
        FormatSpec(FormatSpec) {}
  TLE_AST_LEAF(FormattedValue)
  Expr *Value;
  /// 's', 'r' or 'a'; 0 without a conversion.
  char Conversion;
  /// The text after ':', itself an f-string; null without one.
  JoinedStrExpr *FormatSpec;
};

class BinOpExpr : public Expr {
public:
  BinOpExpr(llvm::SMRange R, Expr *Left, BinaryOpKind Op, Expr *Right)
      : Expr(NodeKind::BinOp, R), Left(Left), Op(Op), Right(Right) {}
  TLE_AST_LEAF(BinOp)
  Expr *Left;
  BinaryOpKind Op;
  Expr *Right;
};

class UnaryOpExpr : public Expr {
public:
  UnaryOpExpr(llvm::SMRange R, UnaryOpKind Op, Expr *Operand)
      : Expr(NodeKind::UnaryOp, R), Op(Op), Operand(Operand) {}
  TLE_AST_LEAF(UnaryOp)
  UnaryOpKind Op;
  Expr *Operand;
};

/// `a and b and c` is one node with three values, as in Python.
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(llvm::SMRange R, BoolOpKind Op, llvm::ArrayRef<Expr *> Values)
      : Expr(NodeKind::BoolOp, R), Op(Op), Values(Values) {}
  TLE_AST_LEAF(BoolOp)
  BoolOpKind Op;
  llvm::ArrayRef<Expr *> Values;
};

/// `a < b <= c`: Left = a, Ops = [<, <=], Comparators = [b, c].
class CompareExpr : public Expr {
public:
  CompareExpr(llvm::SMRange R, Expr *Left, llvm::ArrayRef<CmpOpKind> Ops,
              llvm::ArrayRef<Expr *> Comparators)
      : Expr(NodeKind::Compare, R), Left(Left), Ops(Ops),
        Comparators(Comparators) {}
  TLE_AST_LEAF(Compare)
  Expr *Left;
  llvm::ArrayRef<CmpOpKind> Ops;
  llvm::ArrayRef<Expr *> Comparators;
};

/// `Body if Test else OrElse`.
class IfExpExpr : public Expr {
public:
  IfExpExpr(llvm::SMRange R, Expr *Test, Expr *Body, Expr *OrElse)
      : Expr(NodeKind::IfExp, R), Test(Test), Body(Body), OrElse(OrElse) {}
  TLE_AST_LEAF(IfExp)
  Expr *Test, *Body, *OrElse;
};

/// A keyword argument `Arg=Value`, or `**Value` when Arg is empty.
struct Keyword {
  llvm::StringRef Arg;
  Expr *Value;
  llvm::SMRange Range;
};

/// A call. Args may contain StarredExpr for `*args`.
class CallExpr : public Expr {
public:
  CallExpr(llvm::SMRange R, Expr *Func, llvm::ArrayRef<Expr *> Args,
           llvm::ArrayRef<Keyword> Keywords)
      : Expr(NodeKind::Call, R), Func(Func), Args(Args), Keywords(Keywords) {}
  TLE_AST_LEAF(Call)
  /// The keyword argument named Name, or nullptr.
  const Keyword *getKeyword(llvm::StringRef Name) const;
  Expr *Func;
  llvm::ArrayRef<Expr *> Args;
  llvm::ArrayRef<Keyword> Keywords;
};

/// `Value.Attr`; AttrLoc is the location of the attribute name.
class AttributeExpr : public Expr {
public:
  AttributeExpr(llvm::SMRange R, Expr *Value, llvm::StringRef Attr,
                llvm::SMLoc AttrLoc, ExprContext Ctx)
      : Expr(NodeKind::Attribute, R), Value(Value), Attr(Attr),
        AttrLoc(AttrLoc), Ctx(Ctx) {}
  TLE_AST_LEAF(Attribute)
  Expr *Value;
  llvm::StringRef Attr;
  llvm::SMLoc AttrLoc;
  ExprContext Ctx;
};

/// `Value[Index]`. `x[a, :, None]` has a TupleExpr index whose elements are
/// expressions or SliceExprs.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(llvm::SMRange R, Expr *Value, Expr *Index, ExprContext Ctx)
      : Expr(NodeKind::Subscript, R), Value(Value), Index(Index), Ctx(Ctx) {}
  TLE_AST_LEAF(Subscript)
  Expr *Value;
  Expr *Index;
  ExprContext Ctx;
};

/// `Lower:Upper:Step` inside a subscript; each part may be null.
class SliceExpr : public Expr {
public:
  SliceExpr(llvm::SMRange R, Expr *Lower, Expr *Upper, Expr *Step)
      : Expr(NodeKind::Slice, R), Lower(Lower), Upper(Upper), Step(Step) {}
  TLE_AST_LEAF(Slice)
  Expr *Lower, *Upper, *Step;
};

/// Tuple, List and Set displays share one layout.
class SequenceExpr : public Expr {
public:
  SequenceExpr(NodeKind K, llvm::SMRange R, llvm::ArrayRef<Expr *> Elts,
               ExprContext Ctx)
      : Expr(K, R), Elts(Elts), Ctx(Ctx) {}
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::Tuple || N->getKind() == NodeKind::List ||
           N->getKind() == NodeKind::Set;
  }
  llvm::ArrayRef<Expr *> Elts;
  ExprContext Ctx;
};

class TupleExpr : public SequenceExpr {
public:
  TupleExpr(llvm::SMRange R, llvm::ArrayRef<Expr *> Elts, ExprContext Ctx)
      : SequenceExpr(NodeKind::Tuple, R, Elts, Ctx) {}
  TLE_AST_LEAF(Tuple)
};

class ListExpr : public SequenceExpr {
public:
  ListExpr(llvm::SMRange R, llvm::ArrayRef<Expr *> Elts, ExprContext Ctx)
      : SequenceExpr(NodeKind::List, R, Elts, Ctx) {}
  TLE_AST_LEAF(List)
};

/// Only produced outside jit bodies (decorator arguments); jit bodies report
/// set displays as unsupported.
class SetExpr : public SequenceExpr {
public:
  SetExpr(llvm::SMRange R, llvm::ArrayRef<Expr *> Elts)
      : SequenceExpr(NodeKind::Set, R, Elts, ExprContext::Load) {}
  TLE_AST_LEAF(Set)
};

/// `{k: v, **d}`: Keys[i] is null for a `**d` entry.
class DictExpr : public Expr {
public:
  DictExpr(llvm::SMRange R, llvm::ArrayRef<Expr *> Keys,
           llvm::ArrayRef<Expr *> Values)
      : Expr(NodeKind::Dict, R), Keys(Keys), Values(Values) {}
  TLE_AST_LEAF(Dict)
  /// The value of the entry whose key is the string constant Key, or null.
  Expr *lookup(llvm::StringRef Key) const;
  llvm::ArrayRef<Expr *> Keys;
  llvm::ArrayRef<Expr *> Values;
};

/// One `for Target in Iter if Ifs...` clause of a comprehension.
struct ComprehensionFor {
  Expr *Target;
  Expr *Iter;
  llvm::ArrayRef<Expr *> Ifs;
};

/// List/set/dict comprehensions and generator expressions. Only produced
/// outside jit bodies, e.g. `configs=[triton.Config(...) for w in [4, 8]]`
/// in an autotune decorator; jit bodies report them as unsupported.
class ComprehensionExpr : public Expr {
public:
  enum class CompKind { List, Set, Dict, Generator };
  ComprehensionExpr(llvm::SMRange R, CompKind CK, Expr *Elt, Expr *Value,
                    llvm::ArrayRef<ComprehensionFor> Generators)
      : Expr(NodeKind::Comprehension, R), CK(CK), Elt(Elt), Value(Value),
        Generators(Generators) {}
  TLE_AST_LEAF(Comprehension)
  CompKind CK;
  Expr *Elt;   ///< The element, or the key of a dict comprehension.
  Expr *Value; ///< The value of a dict comprehension, else null.
  llvm::ArrayRef<ComprehensionFor> Generators;
};

/// A function parameter (of a def or a lambda).
struct Param {
  enum class ParamKind {
    Regular,        ///< `x`, `x: ann`, `x=default`.
    PositionalOnly, ///< Before a `/` marker.
    KeywordOnly,    ///< After `*` or `*args`.
    VarPositional,  ///< `*args`.
    VarKeyword,     ///< `**kwargs`.
  };
  llvm::StringRef Name;
  llvm::SMRange
      Range; ///< The whole parameter, annotation and default included.
  Expr *Annotation = nullptr;
  Expr *Default = nullptr;
  ParamKind Kind = ParamKind::Regular;
};

class LambdaExpr : public Expr {
public:
  LambdaExpr(llvm::SMRange R, llvm::ArrayRef<Param> Params, Expr *Body)
      : Expr(NodeKind::Lambda, R), Params(Params), Body(Body) {}
  TLE_AST_LEAF(Lambda)
  llvm::ArrayRef<Param> Params;
  Expr *Body;
};

/// `*Value` in a call, a display or an assignment target.
class StarredExpr : public Expr {
public:
  StarredExpr(llvm::SMRange R, Expr *Value, ExprContext Ctx)
      : Expr(NodeKind::Starred, R), Value(Value), Ctx(Ctx) {}
  TLE_AST_LEAF(Starred)
  Expr *Value;
  ExprContext Ctx;
};

/// `Target := Value`.
class NamedExprExpr : public Expr {
public:
  NamedExprExpr(llvm::SMRange R, NameExpr *Target, Expr *Value)
      : Expr(NodeKind::NamedExpr, R), Target(Target), Value(Value) {}
  TLE_AST_LEAF(NamedExpr)
  NameExpr *Target;
  Expr *Value;
};

//===--- Statements -------------------------------------------------------===//

using StmtList = llvm::ArrayRef<Stmt *>;

/// `T1 = T2 = Value`: Targets = [T1, T2]; tuple unpacking targets are
/// TupleExpr/ListExpr (possibly with a StarredExpr).
class AssignStmt : public Stmt {
public:
  AssignStmt(llvm::SMRange R, llvm::ArrayRef<Expr *> Targets, Expr *Value)
      : Stmt(NodeKind::Assign, R), Targets(Targets), Value(Value) {}
  TLE_AST_LEAF(Assign)
  llvm::ArrayRef<Expr *> Targets;
  Expr *Value;
};

/// `Target: Annotation [= Value]`; Value may be null.
class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(llvm::SMRange R, Expr *Target, Expr *Annotation, Expr *Value)
      : Stmt(NodeKind::AnnAssign, R), Target(Target), Annotation(Annotation),
        Value(Value) {}
  TLE_AST_LEAF(AnnAssign)
  Expr *Target;
  Expr *Annotation;
  Expr *Value;
};

/// `Target Op= Value`.
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(llvm::SMRange R, Expr *Target, BinaryOpKind Op, Expr *Value)
      : Stmt(NodeKind::AugAssign, R), Target(Target), Op(Op), Value(Value) {}
  TLE_AST_LEAF(AugAssign)
  Expr *Target;
  BinaryOpKind Op;
  Expr *Value;
};

/// `if`/`elif`/`else`. An `elif` is an IfStmt (with IsElif set) that is the
/// only statement of its parent's OrElse, as in Python's `ast`.
class IfStmt : public Stmt {
public:
  IfStmt(llvm::SMRange R, Expr *Test, StmtList Body, StmtList OrElse,
         bool IsElif)
      : Stmt(NodeKind::If, R), Test(Test), Body(Body), OrElse(OrElse),
        IsElif(IsElif) {}
  TLE_AST_LEAF(If)
  Expr *Test;
  StmtList Body;
  StmtList OrElse;
  bool IsElif;
};

class ForStmt : public Stmt {
public:
  ForStmt(llvm::SMRange R, Expr *Target, Expr *Iter, StmtList Body,
          StmtList OrElse)
      : Stmt(NodeKind::For, R), Target(Target), Iter(Iter), Body(Body),
        OrElse(OrElse) {}
  TLE_AST_LEAF(For)
  Expr *Target;
  Expr *Iter;
  StmtList Body;
  StmtList OrElse;
};

class WhileStmt : public Stmt {
public:
  WhileStmt(llvm::SMRange R, Expr *Test, StmtList Body, StmtList OrElse)
      : Stmt(NodeKind::While, R), Test(Test), Body(Body), OrElse(OrElse) {}
  TLE_AST_LEAF(While)
  Expr *Test;
  StmtList Body;
  StmtList OrElse;
};

/// `return [Value]`; `return a, b` has a TupleExpr value.
class ReturnStmt : public Stmt {
public:
  ReturnStmt(llvm::SMRange R, Expr *Value)
      : Stmt(NodeKind::Return, R), Value(Value) {}
  TLE_AST_LEAF(Return)
  Expr *Value;
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(llvm::SMRange R) : Stmt(NodeKind::Pass, R) {}
  TLE_AST_LEAF(Pass)
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(llvm::SMRange R) : Stmt(NodeKind::Break, R) {}
  TLE_AST_LEAF(Break)
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(llvm::SMRange R) : Stmt(NodeKind::Continue, R) {}
  TLE_AST_LEAF(Continue)
};

/// `assert Test[, Msg]`.
class AssertStmt : public Stmt {
public:
  AssertStmt(llvm::SMRange R, Expr *Test, Expr *Msg)
      : Stmt(NodeKind::Assert, R), Test(Test), Msg(Msg) {}
  TLE_AST_LEAF(Assert)
  Expr *Test;
  Expr *Msg;
};

/// `raise [Exc [from Cause]]`. Parsed rather than rejected because kernels
/// raise in branches that constexpr conditions make dead (`else: raise
/// ValueError("unsupported dtype")`); the lowering reports one it reaches.
class RaiseStmt : public Stmt {
public:
  RaiseStmt(llvm::SMRange R, Expr *Exc, Expr *Cause)
      : Stmt(NodeKind::Raise, R), Exc(Exc), Cause(Cause) {}
  TLE_AST_LEAF(Raise)
  Expr *Exc;
  Expr *Cause;
};

/// An expression evaluated for its effect (`tl.store(...)`).
class ExprStmt : public Stmt {
public:
  ExprStmt(llvm::SMRange R, Expr *Value)
      : Stmt(NodeKind::ExprStmt, R), Value(Value) {}
  TLE_AST_LEAF(ExprStmt)
  Expr *Value;
};

#undef TLE_AST_LEAF

//===--- Functions --------------------------------------------------------===//

/// What a decorator of a top-level function means, resolved through the
/// module's imports (so `@jit` after `from triton import jit` is Jit).
enum class DecoratorKind {
  Jit,
  Autotune,
  Heuristics,
  Dialect,
  /// `@tl.constexpr` / `@triton.constexpr_function`: a Python helper that
  /// jit code calls at compile time.
  ConstexprFunction,
  Other
};

struct Decorator {
  DecoratorKind Kind;
  /// The expression after `@`: a dotted name or a call of one.
  Expr *Value;
  /// Canonical dotted path of the decorator ("triton.autotune"), or empty.
  llvm::StringRef CanonicalName;
};

/// One `triton.Config({...}, num_warps=..., ...)` of `@triton.autotune`.
struct AutotuneConfig {
  CallExpr *Call;
  /// The meta-parameter dict (first argument or `kwargs=`), or null.
  DictExpr *Kwargs;
  /// num_warps, num_stages, num_ctas, maxnreg, pre_hook, ... as written.
  llvm::ArrayRef<Keyword> Options;
};

/// Metadata of an `@triton.autotune(...)` decorator. When `configs=` is not
/// a literal list (a call of a host helper, a comprehension), ConfigsExpr
/// holds it and Configs is empty: the host side decides the configs.
struct AutotuneInfo {
  CallExpr *Call = nullptr;
  Expr *ConfigsExpr = nullptr;
  llvm::ArrayRef<AutotuneConfig> Configs;
  Expr *Key = nullptr; ///< The `key=` list.
};

/// A top-level function the compiler parses.
///  - Jit functions (`@triton.jit`, `@tle.jit`, stacked under autotune or
///    heuristics): Body holds the parsed statements.
///  - TLE-Raw functions (`@dialect(name=...)`): the body is native code and
///    is not parsed; BodyText is its source text and Docstring its leading
///    string literal (the inline source when written that way).
class FunctionDef {
public:
  bool isJit() const { return IsJit; }
  bool isDialect() const { return !IsJit; }
  /// A jit function that can be compiled as a kernel: not a compile-time
  /// helper.
  bool isKernel() const { return IsJit && !IsCompileTime; }
  /// The first decorator of the given kind, or null.
  const Decorator *getDecorator(DecoratorKind Kind) const;
  /// Parameter by name, or null.
  const Param *getParam(llvm::StringRef Name) const;

  llvm::StringRef Name;
  llvm::SMLoc NameLoc;
  llvm::SMRange Range; ///< From the first decorator to the end of the body.
  llvm::ArrayRef<Param> Params;
  Expr *Returns = nullptr;              ///< `-> annotation`, or null.
  llvm::ArrayRef<Decorator> Decorators; ///< Outermost first.
  /// Set when an `@triton.autotune` decorator is present.
  const AutotuneInfo *Autotune = nullptr;
  /// The leading docstring (decoded), removed from Body.
  llvm::StringRef Docstring;
  bool HasDocstring = false;
  StmtList Body;
  llvm::StringRef BodyText;
  /// Where BodyText (and a docstring, which it starts with) begins, so that
  /// diagnostics about native code can point into the kernel file.
  llvm::SMLoc BodyLoc;
  bool IsJit = true;
  /// A Python helper jit code calls, inlined as jit functions are: one
  /// decorated `@tl.constexpr` (run on compile-time values), or an
  /// undecorated top-level def whose body parses as jit code.
  bool IsCompileTime = false;
};

/// A module-level constant: `X = 4`, `X = tl.constexpr(4)`,
/// `X: tl.constexpr = 4`. Value is the right-hand side as written; the
/// lowering evaluates it (and unwraps `constexpr(...)`).
struct ModuleConstant {
  llvm::StringRef Name;
  llvm::SMRange Range;
  Expr *Annotation; ///< Null when not annotated.
  Expr *Value;
};

/// One name bound by an import statement: `import a.b as c` binds c to
/// "a.b"; `import a.b` binds a to "a"; `from a.b import c as d` binds d to
/// "a.b.c". Relative imports keep their leading dots (".utils.x").
struct ImportAlias {
  llvm::StringRef LocalName;
  std::string Path;
  llvm::SMRange Range;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_AST_H
