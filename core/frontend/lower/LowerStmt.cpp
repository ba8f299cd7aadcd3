//===- LowerStmt.cpp - Statements and control flow ------------------------===//
//
// Python scoping is function-wide, so control flow is lowered by tracking
// which names a region rebinds: an `if` on a tile-dependent condition yields
// the names both branches leave bound; loops carry the names their body
// assigns that were bound before the loop. `if` on a constexpr and
// tl.static_range are resolved at compile time.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Emitter.h"

#include "core/frontend/lower/Builtins.h"
#include "core/frontend/lower/BuiltinsTLE.h"
#include "dialects/TLE/TLEDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"

#include <variant>

using namespace mlir;
using namespace ::tle::frontend;

static void collectTargetNames(const Expr *Target,
                               llvm::SmallVectorImpl<std::string> &Names) {
  if (auto *N = dyn_cast<NameExpr>(Target)) {
    if (!llvm::is_contained(Names, N->Id.str()))
      Names.push_back(N->Id.str());
  } else if (auto *S = dyn_cast<SequenceExpr>(Target)) {
    for (const Expr *E : S->Elts)
      collectTargetNames(E, Names);
  } else if (auto *St = dyn_cast<StarredExpr>(Target)) {
    collectTargetNames(St->Value, Names);
  }
}

void Emitter::collectAssignedNames(StmtList Body,
                                   llvm::SmallVectorImpl<std::string> &Names) {
  for (const Stmt *S : Body) {
    switch (S->getKind()) {
    case NodeKind::Assign:
      for (const Expr *T : cast<AssignStmt>(S)->Targets)
        collectTargetNames(T, Names);
      break;
    case NodeKind::AnnAssign:
      collectTargetNames(cast<AnnAssignStmt>(S)->Target, Names);
      break;
    case NodeKind::AugAssign:
      collectTargetNames(cast<AugAssignStmt>(S)->Target, Names);
      break;
    case NodeKind::If:
      collectAssignedNames(cast<IfStmt>(S)->Body, Names);
      collectAssignedNames(cast<IfStmt>(S)->OrElse, Names);
      break;
    case NodeKind::For:
      collectTargetNames(cast<ForStmt>(S)->Target, Names);
      collectAssignedNames(cast<ForStmt>(S)->Body, Names);
      break;
    case NodeKind::While:
      collectAssignedNames(cast<WhileStmt>(S)->Body, Names);
      break;
    default:
      break;
    }
  }
}

LogicalResult Emitter::assign(const Expr *Target, const TValue &V) {
  if (auto *N = dyn_cast<NameExpr>(Target)) {
    frame().Vars[N->Id] = V;
    return success();
  }
  if (auto *S = dyn_cast<SequenceExpr>(Target)) {
    if (!V.is(TValue::Kind::Tuple))
      return error(Target, "cannot unpack " + V.describe() + " into " +
                               llvm::Twine(S->Elts.size()) + " names");
    if (V.getElements().size() != S->Elts.size())
      return error(Target, "cannot unpack " +
                               llvm::Twine(V.getElements().size()) +
                               " values into " + llvm::Twine(S->Elts.size()) +
                               " names");
    for (auto [E, Elt] : llvm::zip(S->Elts, V.getElements()))
      if (failed(assign(E, Elt)))
        return failure();
    return success();
  }
  if (isa<SubscriptExpr>(Target))
    return error(Target, "item assignment is not supported: tiles are "
                         "values (use tl.where, or tle.insert_tile for "
                         "sub-tiles)");
  return error(Target, "cannot assign to this expression");
}

/// True when `S` has a `return` (in any branch or loop body).
static bool containsReturn(const Stmt *S) {
  auto Any = [](StmtList Body) { return llvm::any_of(Body, containsReturn); };
  if (isa<ReturnStmt>(S))
    return true;
  if (auto *If = dyn_cast<IfStmt>(S))
    return Any(If->Body) || Any(If->OrElse);
  if (auto *For = dyn_cast<ForStmt>(S))
    return Any(For->Body) || Any(For->OrElse);
  if (auto *While = dyn_cast<WhileStmt>(S))
    return Any(While->Body) || Any(While->OrElse);
  return false;
}

LogicalResult Emitter::lowerBlock(StmtList Body) {
  for (auto [I, S] : llvm::enumerate(Body)) {
    auto *If = dyn_cast<IfStmt>(S);
    if (If && frame().LoopDepth == 0 && containsReturn(If))
      return lowerReturningIf(If, Body.drop_front(I + 1));
    if (failed(lowerStmt(S)))
      return failure();
    // Statements after a return are dead.
    if (frame().ReturnValue)
      return success();
  }
  return success();
}

LogicalResult Emitter::lowerLoopBody(StmtList Body) {
  ++frame().LoopDepth;
  LogicalResult Lowered = lowerBlock(Body);
  --frame().LoopDepth;
  return Lowered;
}

LogicalResult Emitter::lowerTail(StmtList Body) {
  std::vector<StmtList> Pending = frame().Continuations;
  if (failed(lowerBlock(Body)))
    return failure();
  // Each continuation runs with only the outer ones pending, so that a
  // returning if in it takes the rest of it once.
  while (!frame().ReturnValue && !frame().Continuations.empty()) {
    StmtList Next = frame().Continuations.back();
    frame().Continuations.pop_back();
    if (failed(lowerBlock(Next)))
      return failure();
  }
  frame().Continuations = std::move(Pending);
  if (!frame().ReturnValue)
    frame().ReturnValue = TValue::none();
  return success();
}

static FailureOr<Value> yieldValue(Emitter &E, const std::string &Name,
                                   const TValue &V, Type Want,
                                   const Node *Site);

/// Yields what each branch leaves for `Name` (Then, Else) at the end of the
/// placeholder's branches, as one type: the IR value's, or a number's own.
/// Appends to Types and Values[branch].
static LogicalResult
yieldBranchValues(Emitter &E, OpBuilder &B, scf::IfOp Placeholder,
                  const std::string &Name, const TValue &Then,
                  const TValue &Else, SmallVectorImpl<Type> &Types,
                  SmallVector<Value> (&Values)[2], const Node *Site) {
  Type Want = Then.is(TValue::Kind::IR)   ? Then.getType()
              : Else.is(TValue::Kind::IR) ? Else.getType()
                                          : Type();
  for (int Branch = 0; Branch < 2; ++Branch) {
    OpBuilder::InsertionGuard Guard(B);
    Block *Blk =
        Branch == 0 ? Placeholder.thenBlock() : Placeholder.elseBlock();
    B.setInsertionPoint(Blk->getTerminator());
    const TValue &V = Branch == 0 ? Then : Else;
    if (!Want) {
      auto IR = E.toIR(V, Site);
      if (failed(IR))
        return failure();
      Want = IR->getType();
    }
    auto Y = yieldValue(E, Name, V, Want, Site);
    if (failed(Y))
      return failure();
    Values[Branch].push_back(*Y);
  }
  Types.push_back(Want);
  return success();
}

/// Appends to Types and each branch's Values what the two returned values
/// need yielded, and returns how to rebuild the result from the final
/// scf.if's results (a tuple element by element; equal constexpr values need
/// nothing). Values are made in each branch's block.
static FailureOr<std::function<TValue(scf::IfOp)>>
mergeReturns(Emitter &E, OpBuilder &B, scf::IfOp Placeholder,
             const TValue &Then, const TValue &Else,
             SmallVectorImpl<Type> &Types, SmallVector<Value> (&Values)[2],
             const Node *Site) {
  if (Then.is(TValue::Kind::None) && Else.is(TValue::Kind::None))
    return std::function<TValue(scf::IfOp)>(
        [](scf::IfOp) { return TValue::none(); });
  if (Then.is(TValue::Kind::Tuple) && Else.is(TValue::Kind::Tuple) &&
      Then.getElements().size() == Else.getElements().size()) {
    std::vector<std::function<TValue(scf::IfOp)>> Parts;
    for (auto [T, F] : llvm::zip(Then.getElements(), Else.getElements())) {
      auto Part = mergeReturns(E, B, Placeholder, T, F, Types, Values, Site);
      if (failed(Part))
        return failure();
      Parts.push_back(*Part);
    }
    return std::function<TValue(scf::IfOp)>([Parts](scf::IfOp If) {
      std::vector<TValue> Elements;
      for (const auto &Part : Parts)
        Elements.push_back(Part(If));
      return TValue::tuple(std::move(Elements));
    });
  }
  if (Then.isNumber() && Else.isNumber() &&
      Then.getNumber() == Else.getNumber()) {
    TValue Same = Then;
    return std::function<TValue(scf::IfOp)>([Same](scf::IfOp) { return Same; });
  }
  bool ThenIR = Then.is(TValue::Kind::IR) || Then.isNumber();
  bool ElseIR = Else.is(TValue::Kind::IR) || Else.isNumber();
  if (!ThenIR || !ElseIR)
    return E.error(Site, "the branches of this 'if' return " + Then.describe() +
                             " and " + Else.describe() +
                             "; both must return values of one type");
  unsigned Index = Types.size();
  if (failed(yieldBranchValues(E, B, Placeholder, "the returned value", Then,
                               Else, Types, Values, Site)))
    return failure();
  bool Unsigned = Then.isUnsigned();
  return std::function<TValue(scf::IfOp)>([Index, Unsigned](scf::IfOp If) {
    return TValue::ir(If.getResult(Index), Unsigned);
  });
}

/// The scf.if that replaces Placeholder (whose branches were lowered into
/// it) yielding Values[branch] with the given result Types.
static scf::IfOp finishIf(OpBuilder &B, Location L, scf::IfOp Placeholder,
                          TypeRange Types,
                          const SmallVector<Value> (&Values)[2]) {
  auto If = scf::IfOp::create(B, L, Types, Placeholder.getCondition(),
                              /*withElseRegion=*/true);
  for (int Branch = 0; Branch < 2; ++Branch) {
    Region &From =
        Branch == 0 ? Placeholder.getThenRegion() : Placeholder.getElseRegion();
    Region &To = Branch == 0 ? If.getThenRegion() : If.getElseRegion();
    To.takeBody(From);
    Block &Blk = To.front();
    Blk.getTerminator()->erase();
    OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPointToEnd(&Blk);
    scf::YieldOp::create(B, L, Values[Branch]);
  }
  Placeholder.erase();
  return If;
}

FailureOr<std::variant<bool, Value>>
Emitter::lowerIfCondition(const IfStmt *S) {
  auto Cond = lowerExpr(S->Test);
  if (failed(Cond))
    return failure();
  if (Cond->isConstexpr())
    return std::variant<bool, Value>(Cond->isTruthy());
  if (isa<RankedTensorType>(Cond->getType()))
    return error(S->Test, "the condition of an 'if' must be a scalar, got " +
                              Cond->describe() +
                              "; use tl.where for elementwise choices");
  auto C = convert(*Cond, DType{B.getI1Type()}, S->Test);
  if (failed(C))
    return failure();
  return std::variant<bool, Value>(C->getValue());
}

LogicalResult Emitter::lowerReturningIf(const IfStmt *S, StmtList Rest) {
  frame().Continuations.push_back(Rest);
  llvm::scope_exit Pop([&] { frame().Continuations.pop_back(); });
  auto Cond = lowerIfCondition(S);
  if (failed(Cond))
    return failure();
  if (const bool *Constant = std::get_if<bool>(&*Cond))
    return lowerTail(*Constant ? S->Body : S->OrElse);
  llvm::StringMap<TValue> Before = frame().Vars;
  Location L = loc(S);
  auto Placeholder = scf::IfOp::create(B, L, std::get<Value>(*Cond),
                                       /*withElseRegion=*/true);
  TValue Returned[2];
  for (int Branch = 0; Branch < 2; ++Branch) {
    OpBuilder::InsertionGuard Guard(B);
    Block *Blk =
        Branch == 0 ? Placeholder.thenBlock() : Placeholder.elseBlock();
    B.setInsertionPoint(Blk->getTerminator());
    frame().Vars = Before;
    frame().ReturnValue.reset();
    if (failed(lowerTail(Branch == 0 ? S->Body : S->OrElse)))
      return failure();
    Returned[Branch] = *frame().ReturnValue;
  }
  SmallVector<Type> Types;
  SmallVector<Value> Values[2];
  auto Rebuild = mergeReturns(*this, B, Placeholder, Returned[0], Returned[1],
                              Types, Values, S);
  if (failed(Rebuild))
    return failure();
  scf::IfOp If = finishIf(B, L, Placeholder, Types, Values);
  // The rest of the function ran in the branches.
  frame().Vars = Before;
  frame().ReturnValue = (*Rebuild)(If);
  return success();
}

LogicalResult Emitter::lowerStmt(const Stmt *S) {
  CurrentLoc = loc(S);
  switch (S->getKind()) {
  case NodeKind::Assign: {
    auto *A = cast<AssignStmt>(S);
    auto V = lowerExpr(A->Value);
    if (failed(V))
      return failure();
    for (const Expr *T : A->Targets)
      if (failed(assign(T, *V)))
        return failure();
    return success();
  }
  case NodeKind::AnnAssign: {
    auto *A = cast<AnnAssignStmt>(S);
    if (!A->Value)
      return success();
    auto V = lowerExpr(A->Value);
    if (failed(V))
      return failure();
    return assign(A->Target, *V);
  }
  case NodeKind::AugAssign: {
    auto *A = cast<AugAssignStmt>(S);
    if (!isa<NameExpr>(A->Target))
      return error(A->Target, "augmented assignment needs a plain name");
    auto Old = lowerExpr(A->Target);
    if (failed(Old))
      return failure();
    auto Rhs = lowerExpr(A->Value);
    if (failed(Rhs))
      return failure();
    auto New = binaryOp(A->Op, *Old, *Rhs, S);
    if (failed(New))
      return failure();
    return assign(A->Target, *New);
  }
  case NodeKind::ExprStmt:
    return lowerExpr(cast<ExprStmt>(S)->Value);
  case NodeKind::Pass:
    return success();
  case NodeKind::If:
    return lowerIf(cast<IfStmt>(S));
  case NodeKind::For:
    return lowerFor(cast<ForStmt>(S));
  case NodeKind::While:
    return lowerWhile(cast<WhileStmt>(S));
  case NodeKind::Return:
    return lowerReturn(cast<ReturnStmt>(S));
  case NodeKind::Assert:
    return lowerAssert(cast<AssertStmt>(S));
  case NodeKind::Break:
  case NodeKind::Continue:
    return error(S, "'" + getNodeKindName(S->getKind()).lower() +
                        "' is not supported in jit functions (as in Triton); "
                        "use a while loop with a condition");
  case NodeKind::Raise:
    return error(S, "'raise' is not supported in jit functions; use "
                    "tl.static_assert or tl.device_assert");
  default:
    return error(S, "unsupported statement in a jit function");
  }
}

LogicalResult Emitter::lowerReturn(const ReturnStmt *S) {
  if (!S->Value) {
    frame().ReturnValue = TValue::none();
    return success();
  }
  auto V = lowerExpr(S->Value);
  if (failed(V))
    return failure();
  frame().ReturnValue = *V;
  return success();
}

LogicalResult Emitter::lowerAssert(const AssertStmt *S) {
  auto Cond = lowerExpr(S->Test);
  if (failed(Cond))
    return failure();
  std::string Msg = "assertion failed";
  if (S->Msg) {
    auto M = lowerExpr(S->Msg);
    if (failed(M))
      return failure();
    if (M->is(TValue::Kind::Str))
      Msg = M->getStr().str();
  }
  if (Cond->isConstexpr()) {
    if (!Cond->isTruthy())
      return error(S->Test, "static assertion failed: " + Msg);
    return success();
  }
  auto C = convert(*Cond, DType{B.getI1Type()}, S->Test);
  if (failed(C))
    return failure();
  mlir::tle::AssertOp::create(B, loc(S), C->getValue(), Msg);
  return success();
}

LogicalResult Emitter::collectCarried(ArrayRef<std::string> Names,
                                      const Node *Site,
                                      std::vector<std::string> &CarriedNames,
                                      SmallVectorImpl<Value> &CarriedValues,
                                      std::vector<bool> &Unsigned) {
  for (const std::string &Name : Names) {
    auto It = frame().Vars.find(Name);
    if (It == frame().Vars.end())
      continue;
    const TValue &V = It->second;
    if (!V.is(TValue::Kind::IR) && !V.isNumber())
      continue;
    auto IR = toIR(V, Site);
    if (failed(IR))
      return failure();
    frame().Vars[Name] = *IR;
    CarriedNames.push_back(Name);
    CarriedValues.push_back(IR->getValue());
    Unsigned.push_back(IR->isUnsigned());
  }
  return success();
}

/// Converts the value a region leaves for a carried name to the carried
/// type; a Python number adapts, anything else must already match.
static FailureOr<Value> yieldValue(Emitter &E, const std::string &Name,
                                   const TValue &V, Type Want,
                                   const Node *Site) {
  if (V.isNumber() && !isa<RankedTensorType>(Want)) {
    auto C = E.convert(V, DType{Want}, Site);
    if (failed(C))
      return failure();
    return C->getValue();
  }
  if (!V.is(TValue::Kind::IR) || V.getType() != Want)
    return (E.error(
        Site, "'" + Name + "' changes type from " + getTypeName(Want) +
                  " to " +
                  (V.is(TValue::Kind::IR) ? getTypeName(V.getType())
                                          : V.describe()) +
                  " inside control flow; convert it explicitly (e.g. "
                  "with .to())"));
  return V.getValue();
}

LogicalResult Emitter::lowerIf(const IfStmt *S) {
  auto Cond = lowerIfCondition(S);
  if (failed(Cond))
    return failure();
  if (const bool *Constant = std::get_if<bool>(&*Cond))
    return lowerBlock(*Constant ? S->Body : S->OrElse);

  llvm::SmallVector<std::string> Names;
  collectAssignedNames(S->Body, Names);
  collectAssignedNames(S->OrElse, Names);
  // Carried values must exist as IR before the branches rebind them.
  std::vector<std::string> PreNames;
  SmallVector<Value> PreValues;
  std::vector<bool> PreUnsigned;
  if (failed(collectCarried(Names, S, PreNames, PreValues, PreUnsigned)))
    return failure();
  llvm::StringMap<TValue> Before = frame().Vars;
  Location L = loc(S);
  auto Placeholder = scf::IfOp::create(B, L, std::get<Value>(*Cond),
                                       /*withElseRegion=*/true);
  llvm::StringMap<TValue> BranchVars[2];
  for (int Branch = 0; Branch < 2; ++Branch) {
    OpBuilder::InsertionGuard Guard(B);
    Block *Blk = Branch == 0 ? Placeholder.thenBlock() : Placeholder.elseBlock();
    B.setInsertionPoint(Blk->getTerminator());
    frame().Vars = Before;
    if (failed(lowerBlock(Branch == 0 ? S->Body : S->OrElse)))
      return failure();
    if (frame().ReturnValue)
      return error(S, "'return' inside a loop is not supported; assign the "
                      "result and return after the loop");
    BranchVars[Branch] = frame().Vars;
  }
  // Yield every name both branches leave bound whose value may differ.
  std::vector<std::string> Yielded;
  for (const std::string &Name : Names) {
    auto T = BranchVars[0].find(Name), E = BranchVars[1].find(Name);
    if (T == BranchVars[0].end() || E == BranchVars[1].end())
      continue;
    const TValue &TV = T->second, &EV = E->second;
    if (TV.isConstexpr() && EV.isConstexpr() && !TV.isNumber())
      continue;
    if (TV.is(TValue::Kind::IR) || EV.is(TValue::Kind::IR) ||
        TV.getNumber() != EV.getNumber())
      Yielded.push_back(Name);
  }
  SmallVector<Type> Types;
  SmallVector<Value> Values[2];
  std::vector<bool> ResultUnsigned;
  for (const std::string &Name : Yielded) {
    const TValue &TV = BranchVars[0][Name], &EV = BranchVars[1][Name];
    if (failed(yieldBranchValues(*this, B, Placeholder, Name, TV, EV, Types,
                                 Values, S)))
      return failure();
    ResultUnsigned.push_back(TV.isUnsigned());
  }
  scf::IfOp If = finishIf(B, L, Placeholder, Types, Values);
  // Names bound in only one branch go out of scope (as in Triton).
  frame().Vars = Before;
  for (auto [I, Name] : llvm::enumerate(Yielded))
    frame().Vars[Name] = TValue::ir(If.getResult(I), ResultUnsigned[I]);
  return success();
}

/// Arguments of range()/tl.range()/tl.static_range().
struct RangeArgs {
  TValue Start = TValue::integer(0), End, Step = TValue::integer(1);
  std::optional<int64_t> NumStages, UnrollFactor;
  bool Static = false;
};

LogicalResult Emitter::lowerFor(const ForStmt *S) {
  if (!S->OrElse.empty())
    return error(S, "'for ... else' is not supported in jit functions");
  auto *Call = dyn_cast<CallExpr>(S->Iter);
  std::string IterName = Call ? mod().getCanonicalName(Call->Func) : "";
  IterName = canonicalizeName(IterName);
  if (Call && IterName == "tle.dsa.parallel")
    return lowerParallelFor(*this, S, Call);
  if (!Call || (IterName != "range" && IterName != "tl.range" &&
                IterName != "tl.static_range" && IterName != "tle.range")) {
    // Iterating a constexpr tuple unrolls the loop.
    auto Seq = lowerExpr(S->Iter);
    if (failed(Seq))
      return failure();
    if (!Seq->is(TValue::Kind::Tuple))
      return error(S->Iter, "a for loop must iterate over range(), "
                            "tl.range(), tl.static_range() or a constexpr "
                            "tuple, got " +
                                Seq->describe());
    for (const TValue &V : Seq->getElements()) {
      if (failed(assign(S->Target, V)) || failed(lowerLoopBody(S->Body)))
        return failure();
      if (frame().ReturnValue)
        return error(S, "'return' inside a loop is not supported");
    }
    return success();
  }
  auto Callee = lowerExpr(Call->Func);
  if (failed(Callee))
    return failure();
  CallArgs Args;
  for (const Expr *A : Call->Args) {
    auto V = lowerExpr(A);
    if (failed(V))
      return failure();
    Args.Positional.push_back({*V, A});
  }
  for (const Keyword &K : Call->Keywords) {
    auto V = lowerExpr(K.Value);
    if (failed(V))
      return failure();
    Args.Keywords.push_back({K.Arg.str(), CallArg{*V, K.Value}});
  }
  auto Bound = bind(Args,
                    {"arg1", "arg2", "step", "num_stages", "loop_unroll_factor",
                     "disallow_acc_multi_buffer", "flatten", "warp_specialize",
                     "reorder"},
                    1, IterName, Call);
  if (failed(Bound))
    return failure();
  RangeArgs R;
  R.Static = IterName == "tl.static_range";
  if (Bound->has("arg2")) {
    R.Start = Bound->get("arg1")->Value;
    R.End = Bound->get("arg2")->Value;
  } else {
    R.End = Bound->get("arg1")->Value;
  }
  if (Bound->has("step"))
    R.Step = Bound->get("step")->Value;
  if (Bound->has("num_stages")) {
    auto N = requireInt(Bound->get("num_stages"), "num_stages", Call);
    if (failed(N))
      return failure();
    R.NumStages = *N;
  }
  if (Bound->has("loop_unroll_factor")) {
    auto N = requireInt(Bound->get("loop_unroll_factor"),
                        "loop_unroll_factor", Call);
    if (failed(N))
      return failure();
    R.UnrollFactor = *N;
  }

  if (R.Static) {
    for (const TValue *V : {&R.Start, &R.End, &R.Step})
      if (!V->is(TValue::Kind::Int))
        return error(Call, "tl.static_range bounds must be constexpr ints, "
                           "got " +
                               V->describe());
    if (R.Step.getInt() == 0)
      return error(Call, "range() step must not be zero");
    std::vector<int64_t> Values;
    for (int64_t I = R.Start.getInt();
         R.Step.getInt() > 0 ? I < R.End.getInt() : I > R.End.getInt();
         I += R.Step.getInt())
      Values.push_back(I);
    return lowerStaticFor(S, Values);
  }
  if (R.Step.is(TValue::Kind::Int) && R.Step.getInt() <= 0)
    return error(Call, "range() step must be positive in jit functions, got " +
                           llvm::Twine(R.Step.getInt()));
  if (!isa<NameExpr>(S->Target))
    return error(S->Target, "the loop variable must be a plain name");

  // The induction variable takes the promoted type of the bounds.
  auto T1 = promote(R.Start, R.End, false, Call);
  if (failed(T1))
    return failure();
  auto T = promote(*T1, R.Step, false, Call);
  if (failed(T))
    return failure();
  if (!isIntType(T->Type))
    return error(Call, "range() bounds must be integers");
  if (T->Type.isInteger(1) || T->Type.getIntOrFloatBitWidth() < 32)
    T = DType{B.getI32Type()};
  auto Lb = convert(R.Start, *T, Call), Ub = convert(R.End, *T, Call),
       Step = convert(R.Step, *T, Call);
  if (failed(Lb) || failed(Ub) || failed(Step))
    return failure();

  llvm::SmallVector<std::string> Names;
  collectAssignedNames(S->Body, Names);
  std::vector<std::string> CarriedNames;
  SmallVector<Value> Inits;
  std::vector<bool> Unsigned;
  if (failed(collectCarried(Names, S, CarriedNames, Inits, Unsigned)))
    return failure();
  llvm::StringMap<TValue> Before = frame().Vars;
  Location L = loc(S);
  auto For = scf::ForOp::create(B, L, Lb->getValue(), Ub->getValue(),
                                Step->getValue(), Inits);
  if (R.NumStages)
    For->setAttr("tle.num_stages", B.getI32IntegerAttr(*R.NumStages));
  if (R.UnrollFactor)
    For->setAttr("tle.loop_unroll_factor",
                 B.getI32IntegerAttr(*R.UnrollFactor));
  {
    OpBuilder::InsertionGuard Guard(B);
    Block *Body = For.getBody();
    B.setInsertionPointToStart(Body);
    frame().Vars[cast<NameExpr>(S->Target)->Id] =
        TValue::ir(For.getInductionVar(), T->IsUnsigned);
    for (auto [I, Name] : llvm::enumerate(CarriedNames))
      frame().Vars[Name] = TValue::ir(For.getRegionIterArg(I), Unsigned[I]);
    if (failed(lowerLoopBody(S->Body)))
      return failure();
    if (frame().ReturnValue)
      return error(S, "'return' inside a loop is not supported; assign the "
                      "result and return after the loop");
    SmallVector<Value> Yields;
    for (auto [I, Name] : llvm::enumerate(CarriedNames)) {
      auto Y = yieldValue(*this, Name, frame().Vars[Name],
                          Inits[I].getType(), S);
      if (failed(Y))
        return failure();
      Yields.push_back(*Y);
    }
    // scf.for's builder added an empty yield when there are no iter args.
    if (!Body->empty() && isa<scf::YieldOp>(Body->back()))
      Body->back().erase();
    B.setInsertionPointToEnd(Body);
    scf::YieldOp::create(B, L, Yields);
  }
  frame().Vars = Before;
  for (auto [I, Name] : llvm::enumerate(CarriedNames))
    frame().Vars[Name] = TValue::ir(For.getResult(I), Unsigned[I]);
  return success();
}

LogicalResult Emitter::lowerStaticFor(const ForStmt *S,
                                      const std::vector<int64_t> &Values) {
  for (int64_t V : Values) {
    if (failed(assign(S->Target, TValue::integer(V))) ||
        failed(lowerLoopBody(S->Body)))
      return failure();
    if (frame().ReturnValue)
      return error(S, "'return' inside a loop is not supported");
  }
  return success();
}

LogicalResult Emitter::lowerWhile(const WhileStmt *S) {
  if (!S->OrElse.empty())
    return error(S, "'while ... else' is not supported in jit functions");
  llvm::SmallVector<std::string> Names;
  collectAssignedNames(S->Body, Names);
  std::vector<std::string> CarriedNames;
  SmallVector<Value> Inits;
  std::vector<bool> Unsigned;
  if (failed(collectCarried(Names, S, CarriedNames, Inits, Unsigned)))
    return failure();
  llvm::StringMap<TValue> Before = frame().Vars;
  Location L = loc(S);
  SmallVector<Type> Types;
  for (Value V : Inits)
    Types.push_back(V.getType());
  SmallVector<Location> Locs(Types.size(), L);
  auto While = scf::WhileOp::create(B, L, Types, Inits);
  Block *Cond, *Body;
  {
    OpBuilder::InsertionGuard Guard(B);
    Cond = B.createBlock(&While.getBefore(), {}, Types, Locs);
    Body = B.createBlock(&While.getAfter(), {}, Types, Locs);
  }
  auto Bind = [&](Block *Blk) {
    for (auto [I, Name] : llvm::enumerate(CarriedNames))
      frame().Vars[Name] = TValue::ir(Blk->getArgument(I), Unsigned[I]);
  };
  {
    OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPointToEnd(Cond);
    Bind(Cond);
    auto C = lowerExpr(S->Test);
    if (failed(C))
      return failure();
    if (C->isConstexpr())
      return error(S->Test, "the condition of a while loop must depend on "
                            "run-time values, got " +
                                C->describe());
    if (isa<RankedTensorType>(C->getType()))
      return error(S->Test, "the condition of a while loop must be a "
                            "scalar, got " +
                                C->describe());
    auto C1 = convert(*C, DType{B.getI1Type()}, S->Test);
    if (failed(C1))
      return failure();
    scf::ConditionOp::create(B, L, C1->getValue(), Cond->getArguments());
  }
  {
    OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPointToEnd(Body);
    frame().Vars = Before;
    Bind(Body);
    if (failed(lowerLoopBody(S->Body)))
      return failure();
    if (frame().ReturnValue)
      return error(S, "'return' inside a loop is not supported");
    SmallVector<Value> Yields;
    for (auto [I, Name] : llvm::enumerate(CarriedNames)) {
      auto Y = yieldValue(*this, Name, frame().Vars[Name], Types[I], S);
      if (failed(Y))
        return failure();
      Yields.push_back(*Y);
    }
    scf::YieldOp::create(B, L, Yields);
  }
  frame().Vars = Before;
  for (auto [I, Name] : llvm::enumerate(CarriedNames))
    frame().Vars[Name] = TValue::ir(While.getResult(I), Unsigned[I]);
  return success();
}
