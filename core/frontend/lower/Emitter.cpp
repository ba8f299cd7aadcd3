//===- Emitter.cpp - Expressions, names and calls -------------------------===//

#include "core/frontend/lower/Emitter.h"

#include "core/frontend/ModuleLoader.h"
#include "core/frontend/Parser.h"
#include "core/frontend/lower/Builtins.h"
#include "core/frontend/lower/PythonText.h"
#include "dialects/TLE/TLEDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>

using namespace mlir;
using namespace ::tle::frontend;

/// Jit calls nest this deep at most; deeper means unbounded recursion.
static constexpr unsigned MaxInlineDepth = 64;

Emitter::Emitter(const Module &M, MLIRContext &Context, DiagnosticEngine &Diags,
                 ModuleLoader *Loader)
    : M(M), Loader(Loader), Context(Context), Diags(Diags), B(&Context),
      CurrentLoc(UnknownLoc::get(&Context)) {}

LogicalResult Emitter::error(const Node *N, const llvm::Twine &Msg) {
  if (!N)
    return error(llvm::SMRange(), Msg);
  return error(N->getRange(), Msg);
}

LogicalResult Emitter::error(llvm::SMRange R, const llvm::Twine &Msg) {
  Diags.error(R.Start, Msg, R);
  return failure();
}

void Emitter::note(const Node *N, const llvm::Twine &Msg) {
  llvm::SMRange R = N ? N->getRange() : llvm::SMRange();
  Diags.note(R.Start, Msg, R);
}

Location Emitter::loc(llvm::SMLoc L) {
  if (!L.isValid())
    return CurrentLoc;
  llvm::SourceMgr &SM = Diags.getSourceMgr();
  unsigned Buf = SM.FindBufferContainingLoc(L);
  if (!Buf)
    return CurrentLoc;
  auto [Line, Col] = SM.getLineAndColumn(L, Buf);
  return FileLineColLoc::get(
      &Context, SM.getMemoryBuffer(Buf)->getBufferIdentifier(), Line, Col);
}

//===----------------------------------------------------------------------===//
// Binding arguments to parameters
//===----------------------------------------------------------------------===//

const CallArg *BoundArgs::get(llvm::StringRef Name) const {
  auto It = ByName.find(Name);
  return It == ByName.end() ? nullptr : &It->second;
}

bool BoundArgs::has(llvm::StringRef Name) const {
  const CallArg *A = get(Name);
  return A && !A->Value.is(TValue::Kind::None);
}

FailureOr<BoundArgs> Emitter::bind(const CallArgs &Args,
                                   ArrayRef<llvm::StringRef> Params,
                                   unsigned NumRequired, llvm::StringRef FnName,
                                   const Node *Site) {
  BoundArgs Bound;
  bool HasRest = !Params.empty() && Params.back().starts_with("*");
  size_t NumNamed = HasRest ? Params.size() - 1 : Params.size();
  for (auto [I, A] : llvm::enumerate(Args.Positional)) {
    if (I < NumNamed) {
      Bound.ByName[Params[I]] = A;
      continue;
    }
    if (!HasRest)
      return (error(
          A.Source ? A.Source : Site,
          FnName + "() takes at most " + llvm::Twine(NumNamed) +
              " positional argument" + (NumNamed == 1 ? "" : "s") + " but " +
              llvm::Twine(Args.Positional.size()) + " were given"));
    Bound.Rest.push_back(A);
  }
  for (const auto &[Name, A] : Args.Keywords) {
    if (!llvm::is_contained(Params.take_front(NumNamed), Name))
      return (error(A.Source ? A.Source : Site,
                           FnName + "() got an unexpected keyword argument '" +
                               Name + "'"));
    if (Bound.ByName.count(Name))
      return (error(A.Source ? A.Source : Site,
                           FnName + "() got multiple values for argument '" +
                               Name + "'"));
    Bound.ByName[Name] = A;
  }
  for (unsigned I = 0; I < NumRequired && I < NumNamed; ++I)
    if (!Bound.ByName.count(Params[I]))
      return (error(Site, FnName + "() missing required argument '" +
                                     Params[I] + "'"));
  return Bound;
}

//===----------------------------------------------------------------------===//
// Requirements on arguments
//===----------------------------------------------------------------------===//

FailureOr<int64_t> Emitter::requireInt(const CallArg *A, llvm::StringRef What,
                                       const Node *Site) {
  if (A && A->Value.is(TValue::Kind::Int) && A->Value.fitsInt64())
    return A->Value.getInt();
  if (A && A->Value.is(TValue::Kind::Bool))
    return static_cast<int64_t>(A->Value.getBool());
  if (A && A->Value.is(TValue::Kind::Int))
    return error(A->Source ? A->Source : Site,
                 What + " must fit in int64, got " + A->Value.describe());
  return (error(A && A->Source ? A->Source : Site,
                       What + " must be a constexpr int, got " +
                           (A ? A->Value.describe() : "nothing")));
}

FailureOr<std::vector<int64_t>>
Emitter::requireShape(const CallArg *A, llvm::StringRef What,
                      const Node *Site) {
  std::vector<int64_t> Shape;
  if (A && A->Value.is(TValue::Kind::Int) && A->Value.fitsInt64()) {
    Shape.push_back(A->Value.getInt());
  } else if (A && A->Value.is(TValue::Kind::Tuple)) {
    for (const TValue &E : A->Value.getElements()) {
      if (!E.is(TValue::Kind::Int) || !E.fitsInt64())
        return (error(A->Source ? A->Source : Site,
                             What + " must be a tuple of constexpr ints, got " +
                                 E.describe() + " in it"));
      Shape.push_back(E.getInt());
    }
  } else {
    return (error(A && A->Source ? A->Source : Site,
                         What + " must be a constexpr shape, got " +
                             (A ? A->Value.describe() : "nothing")));
  }
  for (int64_t D : Shape)
    if (D <= 0 || (D & (D - 1)) != 0)
      return (error(A->Source ? A->Source : Site,
                           What + " must have power-of-2 dimensions, got " +
                               llvm::Twine(D)));
  return Shape;
}

FailureOr<DType> Emitter::requireDType(const CallArg *A, llvm::StringRef What,
                                       const Node *Site) {
  if (A && A->Value.is(TValue::Kind::DType))
    return DType{A->Value.getType(), A->Value.isUnsigned()};
  return (error(A && A->Source ? A->Source : Site,
                       What + " must be a dtype such as tl.float32, got " +
                           (A ? A->Value.describe() : "nothing")));
}

FailureOr<std::string> Emitter::requireStr(const CallArg *A,
                                           llvm::StringRef What,
                                           const Node *Site) {
  if (A && A->Value.is(TValue::Kind::Str))
    return A->Value.getStr().str();
  return (error(A && A->Source ? A->Source : Site,
                       What + " must be a constexpr string, got " +
                           (A ? A->Value.describe() : "nothing")));
}

Result Emitter::requireIR(const CallArg *A, llvm::StringRef What,
                          const Node *Site) {
  if (!A || !(A->Value.is(TValue::Kind::IR) || A->Value.isNumber()))
    return (error(A && A->Source ? A->Source : Site,
                         What + " must be a tensor or a number, got " +
                             (A ? A->Value.describe() : "nothing")));
  return toIR(A->Value, A->Source ? A->Source : Site);
}

Result Emitter::requireTensor(const CallArg *A, llvm::StringRef What,
                              const Node *Site) {
  if (!A || !A->Value.is(TValue::Kind::IR) ||
      !isa<RankedTensorType>(A->Value.getType()))
    return (error(A && A->Source ? A->Source : Site,
                         What + " must be a tensor, got " +
                             (A ? A->Value.describe() : "nothing")));
  return A->Value;
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// Python builtins a kernel body may use.
static bool isPythonBuiltin(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {
      "range", "min", "max",  "float", "int",   "bool",  "len",
      "abs",   "isinstance", "print", "tuple", "list", "getattr", "hasattr",
      "zip",   "enumerate", "str"};
  return Names.contains(Name);
}

Result Emitter::evalModuleConstant(const Module &Mod, const ModuleConstant &C) {
  auto It = ModuleConstants.find({&Mod, C.Name});
  if (It != ModuleConstants.end())
    return It->second;
  // Module constants are evaluated in an empty frame of their module: they
  // may refer only to other constants and library names.
  Frames.emplace_back();
  Frames.back().Mod = &Mod;
  Result V = lowerExpr(C.Value);
  Frames.pop_back();
  if (failed(V))
    return failure();
  // Besides constants, a module may bind another name for a function
  // (`f = tl.uint_to_uniform_float`).
  if (!V->isConstexpr() && !V->is(TValue::Kind::Builtin) &&
      !V->is(TValue::Kind::Function))
    return error(C.Value, "module-level value '" + C.Name +
                              "' must be a compile-time constant");
  ModuleConstants[{&Mod, C.Name}] = *V;
  return *V;
}

TValue Emitter::builtinOrDType(StringRef Dotted) {
  std::string Name = canonicalizeName(Dotted);
  StringRef Ref(Name);
  if (Ref.consume_front("tl."))
    if (std::optional<DType> T = lookupDType(Ref, &Context))
      return TValue::dtype(T->Type, T->IsUnsigned);
  // Python's math constants are plain floats in jit code, as in Triton
  // (FlagGems' angle: `pi = math.pi`).
  std::optional<double> MathConstant =
      llvm::StringSwitch<std::optional<double>>(Name)
          .Case("math.pi", M_PI)
          .Case("math.e", M_E)
          .Case("math.tau", 2 * M_PI)
          .Case("math.inf", HUGE_VAL)
          .Case("math.nan", std::nan(""))
          .Default(std::nullopt);
  if (MathConstant)
    return TValue::floating(*MathConstant);
  return TValue::builtin(Name);
}

Result Emitter::lookupName(const NameExpr *N) {
  if (!Frames.empty()) {
    auto It = frame().Vars.find(N->Id);
    if (It != frame().Vars.end())
      return It->second;
  }
  const Module &Mod = mod();
  if (const ModuleConstant *C = Mod.lookupConstant(N->Id))
    return evalModuleConstant(Mod, *C);
  if (const FunctionDef *F = Mod.lookupFunction(N->Id))
    return TValue::function(F);
  if (Mod.lookupImport(N->Id)) {
    std::string Dotted = Mod.resolveDottedName(N->Id);
    if (Loader)
      Dotted = Loader->absolutize(Mod, Dotted);
    if (std::optional<Result> Imported = lookupImported(Dotted))
      return *Imported;
    // `from triton.language import float16` binds the dtype itself.
    return builtinOrDType(Dotted);
  }
  if (N->Id == "True" || N->Id == "False")
    return TValue::boolean(N->Id == "True");
  if (N->Id == "None")
    return TValue::none();
  // The later of a conditional binding and a host one is the name's last.
  const Module::ConditionalName *C = Mod.lookupConditional(N->Id);
  StringRef Host = Mod.lookupHostBinding(N->Id);
  if (!Host.empty() && (!C || C->At.getPointer() < Host.data())) {
    auto [Line, Col] = Diags.getSourceMgr().getLineAndColumn(
        SMLoc::getFromPointer(Host.data()));
    return error(N, "'" + N->Id + "' is last bound at line " + Twine(Line) +
                        ":" + Twine(Col) +
                        " by a statement only Python can evaluate (tlec runs "
                        "no host code); bind it to a constant or a jit "
                        "function");
  }
  if (C) {
    auto [Line, Col] = Diags.getSourceMgr().getLineAndColumn(C->IfRange.Start);
    return error(N, "'" + N->Id +
                        "' is bound differently in the branches of "
                        "the module-level 'if' at line " +
                        Twine(Line) + ":" + Twine(Col) +
                        ", whose condition only Python can evaluate; bind it "
                        "outside the 'if' (or in one branch only)");
  }
  if (isPythonBuiltin(N->Id))
    return TValue::builtin(N->Id);
  return error(N, "name '" + N->Id + "' is not defined");
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Result Emitter::lowerConstant(const ConstantExpr *C) {
  switch (C->getValueKind()) {
  case ConstantExpr::ValueKind::Int:
    if (C->IntOverflow)
      return error(C, "integer constant does not fit in 64 bits");
    return TValue::uint64(C->Int);
  case ConstantExpr::ValueKind::Float:
    return TValue::floating(C->Float);
  case ConstantExpr::ValueKind::Str:
    return TValue::string(C->Str);
  case ConstantExpr::ValueKind::Bool:
    return TValue::boolean(C->Bool);
  case ConstantExpr::ValueKind::None:
    return TValue::none();
  case ConstantExpr::ValueKind::Imaginary:
    return error(C, "complex numbers are not supported in jit functions");
  case ConstantExpr::ValueKind::Bytes:
    return error(C, "bytes are not supported in jit functions");
  case ConstantExpr::ValueKind::Ellipsis:
    return error(C, "'...' is not supported in jit functions");
  }
  return error(C, "unsupported constant");
}

Result Emitter::lowerJoinedStr(const JoinedStrExpr *E) {
  // As Triton: each field's value must be a constexpr, formatted by str()
  // or its conversion; a format spec is ignored, which tlec says once.
  std::string Out;
  for (const Expr *Part : E->Values) {
    if (const auto *C = dyn_cast<ConstantExpr>(Part)) {
      Out += C->Str;
      continue;
    }
    const auto *Field = cast<FormattedValueExpr>(Part);
    if (const JoinedStrExpr *Spec = Field->FormatSpec;
        Spec && !Spec->Values.empty() && WarnedFormatSpecs.insert(Spec).second)
      Diags.warning(Spec->getLoc(),
                    "format spec ignored: Triton formats an f-string field "
                    "in a jit function with str() (or its conversion), and "
                    "so does tlec, for the same text",
                    Spec->getRange());
    auto V = lowerExpr(Field->Value);
    if (failed(V))
      return failure();
    std::optional<std::string> Text = getPythonText(*V, Field->Conversion);
    if (!Text)
      return error(Field->Value,
                   "an f-string field in a jit function must be a "
                   "compile-time value (constexpr number, string, bool, "
                   "None or dtype), got " +
                       V->describe());
    Out += *Text;
  }
  return TValue::string(Out);
}

Result Emitter::lowerBoolOp(const BoolOpExpr *E) {
  auto First = lowerExpr(E->Values.front());
  if (failed(First))
    return failure();
  TValue Acc = *First;
  for (const Expr *Operand : E->Values.drop_front()) {
    if (Acc.isConstexpr()) {
      // Python short-circuits: `a and b` is a when a is falsy.
      bool Truthy = Acc.isTruthy();
      if ((E->Op == BoolOpKind::And && !Truthy) ||
          (E->Op == BoolOpKind::Or && Truthy))
        return Acc;
      auto Next = lowerExpr(Operand);
      if (failed(Next))
        return failure();
      Acc = *Next;
      continue;
    }
    auto Next = lowerExpr(Operand);
    if (failed(Next))
      return failure();
    auto L = convert(Acc, DType{B.getI1Type()}, E);
    auto R = convert(*Next, DType{B.getI1Type()}, Operand);
    if (failed(L) || failed(R))
      return failure();
    auto Combined =
        binaryOp(E->Op == BoolOpKind::And ? BinaryOpKind::BitAnd
                                          : BinaryOpKind::BitOr,
                 *L, *R, E);
    if (failed(Combined))
      return failure();
    Acc = *Combined;
  }
  return Acc;
}

Result Emitter::lowerCompare(const CompareExpr *E) {
  auto Left = lowerExpr(E->Left);
  if (failed(Left))
    return failure();
  TValue Acc;
  TValue Lhs = *Left;
  for (auto [I, Op] : llvm::enumerate(E->Ops)) {
    auto Rhs = lowerExpr(E->Comparators[I]);
    if (failed(Rhs))
      return failure();
    auto Cmp = compare(Op, Lhs, *Rhs, E);
    if (failed(Cmp))
      return failure();
    if (I == 0) {
      Acc = *Cmp;
    } else {
      auto Both = binaryOp(BinaryOpKind::BitAnd, Acc, *Cmp, E);
      if (failed(Both))
        return failure();
      Acc = *Both;
    }
    Lhs = *Rhs;
  }
  return Acc;
}

Result Emitter::lowerIfExp(const IfExpExpr *E) {
  auto Cond = lowerExpr(E->Test);
  if (failed(Cond))
    return failure();
  if (Cond->isConstexpr())
    return lowerExpr(Cond->isTruthy() ? E->Body : E->OrElse);
  auto X = lowerExpr(E->Body), Y = lowerExpr(E->OrElse);
  if (failed(X) || failed(Y))
    return failure();
  return where(*Cond, *X, *Y, E);
}

Result Emitter::sliceSequence(const TValue &Seq, const SliceExpr *Slice) {
  bool IsStr = Seq.is(TValue::Kind::Str);
  int64_t Size = IsStr ? static_cast<int64_t>(Seq.getStr().size())
                       : static_cast<int64_t>(Seq.getElements().size());
  // Each bound: a constexpr int, or None / absent for the default.
  auto Bound = [&](const Expr *E) -> FailureOr<std::optional<int64_t>> {
    if (!E)
      return std::optional<int64_t>();
    auto V = lowerExpr(E);
    if (failed(V))
      return failure();
    if (V->is(TValue::Kind::None))
      return std::optional<int64_t>();
    if (!V->is(TValue::Kind::Int))
      return error(E,
                   "slice bounds must be constexpr ints, got " + V->describe());
    // Bounds clamp to the sequence: one beyond int64 is as good as INT64_MAX.
    return std::optional<int64_t>(V->fitsInt64() ? V->getInt() : INT64_MAX);
  };
  auto Lower = Bound(Slice->Lower), Upper = Bound(Slice->Upper),
       StepBound = Bound(Slice->Step);
  if (failed(Lower) || failed(Upper) || failed(StepBound))
    return failure();
  int64_t Step = StepBound->value_or(1);
  if (Step == 0)
    return error(Slice->Step, "slice step cannot be zero");
  // CPython's PySlice_AdjustIndices: negative bounds count from the end,
  // then clamp to [0, Size] (or [-1, Size - 1] stepping backwards).
  auto Adjust = [&](std::optional<int64_t> B, int64_t Default) {
    if (!B)
      return Default;
    int64_t I = *B < 0 ? *B + Size : *B;
    return Step > 0 ? std::clamp<int64_t>(I, 0, Size)
                    : std::clamp<int64_t>(I, -1, Size - 1);
  };
  int64_t Begin = Adjust(*Lower, Step > 0 ? 0 : Size - 1);
  int64_t End = Adjust(*Upper, Step > 0 ? Size : -1);
  std::string Chars;
  std::vector<TValue> Elts;
  // Begin and End lie in [-1, Size]: their distance cannot overflow, a
  // step may (s[1::2**63-1]), so the walk stops before stepping past End.
  uint64_t StepSize = Step > 0 ? static_cast<uint64_t>(Step)
                               : static_cast<uint64_t>(-(Step + 1)) + 1;
  for (int64_t I = Begin; Step > 0 ? I < End : I > End;) {
    if (IsStr)
      Chars += Seq.getStr()[I];
    else
      Elts.push_back(Seq.getElements()[I]);
    uint64_t Left = static_cast<uint64_t>(Step > 0 ? End - I : I - End);
    if (Left <= StepSize)
      break;
    I += Step;
  }
  return IsStr ? TValue::string(Chars) : TValue::tuple(std::move(Elts));
}

Result Emitter::lowerSubscript(const SubscriptExpr *S) {
  auto Base = lowerExpr(S->Value);
  if (failed(Base))
    return failure();
  std::vector<const Expr *> Indices;
  if (auto *T = dyn_cast<TupleExpr>(S->Index))
    Indices.assign(T->Elts.begin(), T->Elts.end());
  else
    Indices.push_back(S->Index);

  if (Base->is(TValue::Kind::Tuple) || Base->is(TValue::Kind::Str)) {
    if (Indices.size() != 1)
      return error(S->Index, "tuples take a single index");
    if (const auto *Slice = dyn_cast<SliceExpr>(Indices[0]))
      return sliceSequence(*Base, Slice);
    auto Index = lowerExpr(Indices[0]);
    if (failed(Index))
      return failure();
    if (!Index->is(TValue::Kind::Int))
      return error(Indices[0], "tuple index must be a constexpr int, got " +
                                   Index->describe());
    int64_t Size = Base->is(TValue::Kind::Tuple)
                       ? static_cast<int64_t>(Base->getElements().size())
                       : static_cast<int64_t>(Base->getStr().size());
    int64_t I = Index->getInt() < 0 ? Index->getInt() + Size : Index->getInt();
    if (!Index->fitsInt64() || I < 0 || I >= Size)
      return error(Indices[0], "index " +
                                   toString(Index->getWideInt(), 10, true) +
                                   " is out of range for a sequence of " +
                                   llvm::Twine(Size) + " elements");
    if (Base->is(TValue::Kind::Str))
      return TValue::string(Base->getStr().substr(I, 1));
    return Base->getElements()[I];
  }
  if (!Base->is(TValue::Kind::IR))
    return error(S, Base->describe() + " cannot be subscripted");
  // Tiles take `None` (new axis of size 1) and `:` (keep the axis).
  TValue V = *Base;
  int64_t Axis = 0;
  int64_t Rank = getShape(V.getType()).size();
  for (const Expr *Index : Indices) {
    auto *C = dyn_cast<ConstantExpr>(Index);
    if (C && C->isNone()) {
      auto Tensor = dyn_cast<RankedTensorType>(V.getType());
      SmallVector<int64_t> Shape(getShape(V.getType()));
      Shape.insert(Shape.begin() + Axis, 1);
      Value In = V.getValue();
      if (!Tensor) {
        In = mlir::tle::SplatOp::create(B, loc(S),
                                  RankedTensorType::get({}, V.getType()), In);
        Tensor = cast<RankedTensorType>(In.getType());
      }
      V = TValue::ir(mlir::tle::ExpandDimsOp::create(B, loc(Index),
                                               Tensor.clone(Shape), In,
                                               B.getI32IntegerAttr(Axis)),
                     V.isUnsigned());
      ++Axis;
      continue;
    }
    auto *Sl = dyn_cast<SliceExpr>(Index);
    if (Sl && !Sl->Lower && !Sl->Upper && !Sl->Step) {
      if (Axis >= static_cast<int64_t>(getShape(V.getType()).size()))
        return error(Index, "too many indices for a tensor of rank " +
                                llvm::Twine(Rank));
      ++Axis;
      continue;
    }
    return error(Index, "tensors can only be indexed with None and ':' "
                        "(use tl.reshape, tl.split or tle.extract_tile to "
                        "take parts of a tile)");
  }
  return V;
}

Result Emitter::lowerAttribute(const AttributeExpr *A) {
  auto Base = lowerExpr(A->Value);
  if (failed(Base))
    return failure();
  return attributeOf(*Base, A->Attr, A);
}

Result Emitter::attributeOf(const TValue &V, llvm::StringRef Attr,
                            const Node *Site) {
  // tl.constexpr's wrapped value (`dtype.value`): TLE's compile-time
  // values are not wrapped.
  if (Attr == "value" && V.isConstexpr())
    return V;
  switch (V.getKind()) {
  case TValue::Kind::Builtin: {
    if (std::optional<TValue> Limit = getTorchTypeInfo(V.getName(), Attr))
      return *Limit;
    std::string Dotted = V.getName().str() + "." + Attr.str();
    if (std::optional<Result> Imported = lookupImported(Dotted))
      return *Imported;
    return builtinOrDType(Dotted);
  }
  case TValue::Kind::IR: {
    Type T = V.getType();
    // Triton's tensor_descriptor: its tiles' element type and shape, and
    // the described tensor's shape and strides (runtime values).
    if (auto Desc = dyn_cast<mlir::tle::TensorDescType>(T)) {
      RankedTensorType Block = Desc.getBlockType();
      if (Attr == "dtype")
        return TValue::dtype(Block.getElementType(), V.isUnsigned());
      if (Attr == "block_shape") {
        std::vector<TValue> Dims;
        for (int64_t D : Block.getShape())
          Dims.push_back(TValue::integer(D));
        return TValue::tuple(std::move(Dims));
      }
      if (Attr == "shape" || Attr == "strides") {
        auto Make = V.getValue().getDefiningOp<mlir::tle::MakeTensorDescOp>();
        if (!Make)
          return error(Site, "'." + Attr +
                                 "' of a tensor descriptor that does not "
                                 "come from tl.make_tensor_descriptor or a "
                                 "kernel argument");
        std::vector<TValue> Dims;
        for (Value D : Attr == "shape" ? Make.getShape() : Make.getStrides())
          Dims.push_back(TValue::ir(D));
        return TValue::tuple(std::move(Dims));
      }
      return TValue::method(V, Attr);
    }
    if (Attr == "dtype")
      return TValue::dtype(getScalarType(T), V.isUnsigned());
    // A scalar's type is its dtype (`ptr.type.element_ty`, as FlagGems
    // writes it); a tensor's is a block type, which TLE does not model.
    if (Attr == "type") {
      if (isa<RankedTensorType>(T))
        return error(Site, "'.type' of a tensor (a block type) is not "
                           "supported; use '.dtype' for its element type");
      return TValue::dtype(T, V.isUnsigned());
    }
    if (Attr == "shape") {
      std::vector<TValue> Dims;
      for (int64_t D : getShape(T))
        Dims.push_back(TValue::integer(D));
      return TValue::tuple(std::move(Dims));
    }
    if (Attr == "numel") {
      int64_t N = 1;
      for (int64_t D : getShape(T))
        N *= D;
      return TValue::integer(N);
    }
    if (Attr == "T") {
      CallArgs Args;
      Args.Positional.push_back({V, Site});
      return callBuiltin("tl.trans", Args, Site);
    }
    return TValue::method(V, Attr);
  }
  case TValue::Kind::DType: {
    Type T = V.getType();
    if (Attr == "element_ty") {
      auto Ptr = dyn_cast<mlir::tle::PointerType>(T);
      if (!Ptr)
        return error(Site, "'element_ty' needs a pointer dtype, got " +
                               V.describe());
      return TValue::dtype(Ptr.getPointeeType(), V.isUnsigned());
    }
    if (Attr == "primitive_bitwidth")
      return TValue::integer(isPointerType(T) ? 64 : T.getIntOrFloatBitWidth());
    if (Attr == "int_bitwidth") {
      if (!isIntType(T))
        return error(Site, "'int_bitwidth' needs an integer dtype, got " +
                               V.describe());
      return TValue::integer(T.getIntOrFloatBitWidth());
    }
    if (Attr == "fp_mantissa_width") {
      if (!isFloatType(T))
        return error(Site, "'fp_mantissa_width' needs a float dtype, got " +
                               V.describe());
      return TValue::integer(cast<FloatType>(T).getFPMantissaWidth() - 1);
    }
    if (Attr == "scalar")
      return V;
    return TValue::method(V, Attr);
  }
  case TValue::Kind::BlockPtr:
    // Triton's is a pointer to the block type; a pointer to the element
    // type serves its uses (`p.dtype.element_ty` as a cast's target).
    if (Attr == "dtype" || Attr == "type")
      return TValue::dtype(mlir::tle::PointerType::get(
          cast<mlir::tle::TensorDescType>(V.getType())
              .getBlockType()
              .getElementType()));
    if (Attr != "advance")
      return error(Site, "a block pointer has no attribute '" + Attr + "'");
    return TValue::method(V, Attr);
  default:
    return error(Site, V.describe() + " has no attribute '" + Attr + "'");
  }
}

Result Emitter::lowerCall(const CallExpr *C) {
  auto Callee = lowerExpr(C->Func);
  if (failed(Callee))
    return failure();
  CallArgs Args;
  for (const Expr *A : C->Args) {
    if (auto *Star = dyn_cast<StarredExpr>(A)) {
      auto V = lowerExpr(Star->Value);
      if (failed(V))
        return failure();
      if (!V->is(TValue::Kind::Tuple))
        return error(A, "only tuples can be unpacked with '*', got " +
                            V->describe());
      for (const TValue &E : V->getElements())
        Args.Positional.push_back({E, A});
      continue;
    }
    auto V = lowerExpr(A);
    if (failed(V))
      return failure();
    Args.Positional.push_back({*V, A});
  }
  for (const Keyword &K : C->Keywords) {
    if (K.Arg.empty())
      return error(K.Range, "'**' arguments are not supported in jit "
                            "functions");
    auto V = lowerExpr(K.Value);
    if (failed(V))
      return failure();
    Args.Keywords.push_back({K.Arg.str(), CallArg{*V, K.Value}});
  }
  return call(*Callee, Args, C);
}

Result Emitter::call(const TValue &Callee, CallArgs &Args, const Node *Site) {
  switch (Callee.getKind()) {
  case TValue::Kind::Function:
    return callJit(*Callee.getFunction(), Args, Site);
  case TValue::Kind::Builtin:
    return callBuiltin(Callee.getName(), Args, Site);
  case TValue::Kind::Method:
    return callMethod(Callee.getSelf(), Callee.getName(), Args, Site);
  case TValue::Kind::DType: {
    // `tl.float16(x)` is not Triton; but dtype objects are callable in
    // Python only as constructors. Reject clearly.
    return error(Site, "dtypes are not callable; use x.to(" +
                           getDTypeName(Callee.getType()) + ")");
  }
  default:
    return error(Site, Callee.describe() + " is not callable");
  }
}

Result Emitter::callJit(const FunctionDef &F, CallArgs &Args,
                        const Node *Site) {
  if (!F.isJit())
    return error(Site, "'" + F.Name +
                           "' is a TLE-Raw function; call it through "
                           "tle_raw.call(" +
                           F.Name + ", [args])");
  if (InlineDepth >= MaxInlineDepth)
    return error(Site, "jit calls nest deeper than " +
                           llvm::Twine(MaxInlineDepth) +
                           " levels; is '" + F.Name + "' recursive?");
  SmallVector<llvm::StringRef> Names;
  unsigned NumRequired = 0;
  for (const Param &P : F.Params) {
    if (P.Kind == Param::ParamKind::VarPositional ||
        P.Kind == Param::ParamKind::VarKeyword)
      return error(P.Range, "'*args' and '**kwargs' parameters are not "
                            "supported in jit functions");
    Names.push_back(P.Name);
    if (!P.Default)
      NumRequired = Names.size();
  }
  auto Bound = bind(Args, Names, NumRequired, F.Name, Site);
  if (failed(Bound))
    return failure();
  Frame Callee;
  Callee.Fn = &F;
  Callee.Mod = &getOwner(F);
  for (const Param &P : F.Params) {
    if (const CallArg *A = Bound->get(P.Name)) {
      Callee.Vars[P.Name] = A->Value;
      continue;
    }
    // Defaults are evaluated in module scope, as Python does at def time.
    Frames.emplace_back();
    Frames.back().Mod = Callee.Mod;
    Result D = lowerExpr(P.Default);
    Frames.pop_back();
    if (failed(D))
      return failure();
    Callee.Vars[P.Name] = *D;
  }
  // A library's source is not the user's: an error inside it also points
  // at the user's call.
  bool CalledFromLibrary =
      !Frames.empty() && frame().Mod && isLibrary(*frame().Mod);
  bool EntersLibrary = isLibrary(*Callee.Mod) && !CalledFromLibrary;
  Frames.push_back(std::move(Callee));
  ++InlineDepth;
  LogicalResult Lowered = lowerBlock(F.Body);
  --InlineDepth;
  std::optional<TValue> Ret = frame().ReturnValue;
  Frames.pop_back();
  if (failed(Lowered)) {
    if (EntersLibrary && Site)
      note(Site, "in this call of tl." + F.Name);
    return failure();
  }
  return Ret ? *Ret : TValue::none();
}

Result Emitter::callMethod(const TValue &Self, llvm::StringRef Name,
                           CallArgs &Args, const Node *Site) {
  if (Self.is(TValue::Kind::DType)) {
    Type T = Self.getType();
    // Triton's is_int8 .. is_uint64: the signed or unsigned integer of
    // that width (is_int1 is bool).
    auto isInt = [&](unsigned Width, bool Unsigned) {
      return isIntType(T) && !isBoolType(T) &&
             T.getIntOrFloatBitWidth() == Width &&
             Self.isUnsigned() == Unsigned;
    };
    std::optional<bool> Answer =
        llvm::StringSwitch<std::optional<bool>>(Name)
            .Case("is_floating", isFloatType(T))
            .Case("is_standard_floating",
                  T.isF16() || T.isBF16() || T.isF32() || T.isF64())
            .Case("is_int1", isBoolType(T))
            .Case("is_int8", isInt(8, false))
            .Case("is_int16", isInt(16, false))
            .Case("is_int32", isInt(32, false))
            .Case("is_int64", isInt(64, false))
            .Case("is_uint8", isInt(8, true))
            .Case("is_uint16", isInt(16, true))
            .Case("is_uint32", isInt(32, true))
            .Case("is_uint64", isInt(64, true))
            .Case("is_block", false)
            .Case("is_void", false)
            .Case("is_int", isIntType(T) && !isBoolType(T))
            .Case("is_int_signed", isIntType(T) && !Self.isUnsigned())
            .Case("is_int_unsigned", isIntType(T) && Self.isUnsigned())
            .Case("is_bool", isBoolType(T))
            .Case("is_ptr", isPointerType(T))
            .Case("is_fp16", T.isF16())
            .Case("is_bf16", T.isBF16())
            .Case("is_fp32", T.isF32())
            .Case("is_fp64", T.isF64())
            .Case("is_fp8", isFp8Type(T))
            .Default(std::nullopt);
    if (!Answer)
      return error(Site, "dtype has no method '" + Name + "'");
    return TValue::boolean(*Answer);
  }
  Args.Positional.insert(Args.Positional.begin(), CallArg{Self, Site});
  if (Self.is(TValue::Kind::IR) && isa<mlir::tle::TensorDescType>(Self.getType()))
    return callBuiltin("tl.descriptor." + Name.str(), Args, Site);
  if (Self.is(TValue::Kind::IR) && isa<mlir::tle::PipeType>(Self.getType()))
    return callBuiltin("tle.pipe." + Name.str(), Args, Site);
  if (Name == "to")
    return callBuiltin("tl.cast", Args, Site);
  return callBuiltin("tl." + Name.str(), Args, Site);
}

const FunctionDef *Emitter::getLibraryFunction(llvm::StringRef Name) {
  auto Load = [&](std::unique_ptr<Module> &Library, const char *Source,
                  llvm::StringRef BufferName) -> const Module & {
    if (!Library) {
      llvm::SourceMgr &SrcMgr = Diags.getSourceMgr();
      unsigned ID = SrcMgr.AddNewSourceBuffer(
          llvm::MemoryBuffer::getMemBuffer(Source, BufferName), llvm::SMLoc());
      Library = parseModule(SrcMgr, ID, Diags);
    }
    return *Library;
  };
  // Names starting with '_' are the libraries' own helpers.
  if (Name.starts_with("_"))
    return nullptr;
  const Module &Random =
      Load(RandomLibrary, getRandomLibrarySource(), "<triton.language.random>");
  if (Name.consume_front("random."))
    return Random.lookupFunction(Name);
  if (const FunctionDef *F = Random.lookupFunction(Name))
    return F;
  return Load(StandardLibrary, getStandardLibrarySource(),
              "<triton.language.standard>")
      .lookupFunction(Name);
}

bool Emitter::isLibrary(const Module &Mod) const {
  return &Mod == RandomLibrary.get() || &Mod == StandardLibrary.get();
}

const Module &Emitter::getOwner(const FunctionDef &F) {
  for (const Module *Library : {RandomLibrary.get(), StandardLibrary.get()})
    if (Library && llvm::is_contained(Library->Functions, &F))
      return *Library;
  return Loader ? Loader->getOwner(F) : M;
}

const Module *Emitter::loadImportedModule(llvm::StringRef Dotted,
                                          llvm::StringRef &Name) {
  auto [ModuleName, Last] = Dotted.rsplit('.');
  if (!Loader || Last.empty() || Last == Dotted)
    return nullptr;
  Name = Last;
  return Loader->load(ModuleName);
}

std::optional<Result> Emitter::lookupImported(llvm::StringRef Dotted,
                                              unsigned ReExports) {
  llvm::StringRef Name;
  const Module *Imported = loadImportedModule(Dotted, Name);
  if (!Imported)
    return std::nullopt;
  if (const FunctionDef *F = Imported->lookupFunction(Name))
    return Result(TValue::function(F));
  if (const ModuleConstant *C = Imported->lookupConstant(Name))
    return evalModuleConstant(*Imported, *C);
  // A name the module itself imports (a package's __init__.py re-exporting
  // `from .helper import shim`); a few levels, imports may form cycles.
  if (const ImportAlias *A = Imported->lookupImport(Name);
      A && ReExports < 4 && A->Path != Dotted) {
    std::string Path = Loader->absolutize(*Imported, A->Path);
    if (std::optional<Result> Found = lookupImported(Path, ReExports + 1))
      return Found;
    if (StringRef(Path).starts_with("triton."))
      return Result(TValue::builtin(canonicalizeName(Path)));
  }
  return std::nullopt;
}

Result Emitter::callBuiltin(llvm::StringRef Name, CallArgs &Args,
                            const Node *Site) {
  if (BuiltinFn Fn = lookupBuiltin(Name))
    return Fn(*this, Args, Site);
  llvm::StringRef Short = Name;
  if (Short.consume_front("tl.")) {
    if (const FunctionDef *F = getLibraryFunction(Short))
      return callJit(*F, Args, Site);
    return error(Site, "unknown function 'tl." + Short +
                           "' (not a triton.language builtin TLE supports)");
  }
  llvm::StringRef FunctionName;
  if (loadImportedModule(Name, FunctionName))
    return error(Site, "module '" + Name.drop_back(FunctionName.size() + 1) +
                           "' has no jit function '" + FunctionName + "'");
  return error(Site, "unknown function '" + Name + "'");
}

LogicalResult
Emitter::lowerCombiner(const TValue &Fn, Block &Body, ArrayRef<TValue> Inputs,
                       const Node *Site,
                       llvm::function_ref<void(ValueRange)> MakeTerminator) {
  OpBuilder::InsertionGuard Guard(B);
  B.setInsertionPointToStart(&Body);
  // The arguments are two elements of each input, which keep its
  // signedness (a uint max compares unsigned).
  CallArgs Args;
  for (BlockArgument A : Body.getArguments())
    Args.Positional.push_back(
        {TValue::ir(A, Inputs[A.getArgNumber() % Inputs.size()].isUnsigned()),
         Site});
  Result R = failure();
  if (Fn.is(TValue::Kind::Function)) {
    R = callJit(*Fn.getFunction(), Args, Site);
  } else if (Fn.is(TValue::Kind::Lambda)) {
    auto *L = cast<LambdaExpr>(Fn.getLambda());
    if (L->Params.size() != Args.Positional.size())
      return error(L, "the combine function must take " +
                          llvm::Twine(Args.Positional.size()) +
                          " arguments, this lambda takes " +
                          llvm::Twine(L->Params.size()));
    Frame LF;
    if (!Frames.empty()) {
      LF.Fn = frame().Fn;
      LF.Mod = frame().Mod;
    }
    for (auto [P, A] : llvm::zip(L->Params, Args.Positional))
      LF.Vars[P.Name] = A.Value;
    Frames.push_back(std::move(LF));
    R = lowerExpr(L->Body);
    Frames.pop_back();
  } else {
    return error(Site, "the combine function must be a jit function or a "
                       "lambda, got " +
                           Fn.describe());
  }
  if (failed(R))
    return failure();
  std::vector<TValue> Results = R->is(TValue::Kind::Tuple)
                                    ? R->getElements()
                                    : std::vector<TValue>{*R};
  unsigned NumResults = Body.getNumArguments() / 2;
  if (Results.size() != NumResults)
    return error(Site, "the combine function must return " +
                           llvm::Twine(NumResults) + " value" +
                           (NumResults == 1 ? "" : "s") + ", it returns " +
                           llvm::Twine(Results.size()));
  SmallVector<Value> Values;
  for (auto [I, V] : llvm::enumerate(Results)) {
    Type Want = Body.getArgument(I).getType();
    auto C = convert(V, DType{Want}, Site);
    if (failed(C))
      return failure();
    if (C->getType() != Want)
      return error(Site, "the combine function returns " + C->describe() +
                             " where " + getDTypeName(Want) + " is expected");
    Values.push_back(C->getValue());
  }
  MakeTerminator(Values);
  return success();
}

Result Emitter::lowerExpr(const Expr *E) {
  CurrentLoc = loc(E);
  switch (E->getKind()) {
  case NodeKind::Name:
    return lookupName(cast<NameExpr>(E));
  case NodeKind::Constant:
    return lowerConstant(cast<ConstantExpr>(E));
  case NodeKind::JoinedStr:
    return lowerJoinedStr(cast<JoinedStrExpr>(E));
  case NodeKind::BinOp: {
    auto *Bin = cast<BinOpExpr>(E);
    auto L = lowerExpr(Bin->Left);
    if (failed(L))
      return failure();
    auto R = lowerExpr(Bin->Right);
    if (failed(R))
      return failure();
    return binaryOp(Bin->Op, *L, *R, E);
  }
  case NodeKind::UnaryOp: {
    auto *U = cast<UnaryOpExpr>(E);
    auto V = lowerExpr(U->Operand);
    if (failed(V))
      return failure();
    return unaryOp(U->Op, *V, E);
  }
  case NodeKind::BoolOp:
    return lowerBoolOp(cast<BoolOpExpr>(E));
  case NodeKind::Compare:
    return lowerCompare(cast<CompareExpr>(E));
  case NodeKind::IfExp:
    return lowerIfExp(cast<IfExpExpr>(E));
  case NodeKind::Call:
    return lowerCall(cast<CallExpr>(E));
  case NodeKind::Attribute:
    return lowerAttribute(cast<AttributeExpr>(E));
  case NodeKind::Subscript:
    return lowerSubscript(cast<SubscriptExpr>(E));
  case NodeKind::Tuple:
  case NodeKind::List: {
    std::vector<TValue> Elts;
    for (const Expr *Elt : cast<SequenceExpr>(E)->Elts) {
      auto V = lowerExpr(Elt);
      if (failed(V))
        return failure();
      Elts.push_back(*V);
    }
    return TValue::tuple(std::move(Elts));
  }
  case NodeKind::Lambda:
    return TValue::lambda(E);
  case NodeKind::Slice:
    return TValue::slice();
  case NodeKind::NamedExpr: {
    auto *N = cast<NamedExprExpr>(E);
    auto V = lowerExpr(N->Value);
    if (failed(V) || failed(assign(N->Target, *V)))
      return failure();
    return *V;
  }
  case NodeKind::Set:
  case NodeKind::Dict:
  case NodeKind::Comprehension:
  case NodeKind::Starred:
    return error(E, "unsupported expression in a jit function: " +
                        getNodeKindName(E->getKind()));
  default:
    return error(E, "unsupported expression in a jit function");
  }
}
