//===- BuiltinsLanguage.cpp - triton.language: tiles and memory -----------===//
//
// Program ids, tile construction, loads/stores/atomics, dot, reductions,
// shape manipulation and casts, with the argument names and defaults of
// triton.language so keyword calls written for Triton work unchanged.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Builtins.h"
#include "core/frontend/lower/Emitter.h"
#include "core/frontend/lower/PythonText.h"

#include "dialects/TLE/TLEDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace ::tle::frontend;

namespace {
/// Shorthands for the builtins below.
struct Ctx {
  Emitter &E;
  CallArgs &Args;
  const Node *Site;
  OpBuilder &B;
  Location L;
  Ctx(Emitter &E, CallArgs &Args, const Node *Site)
      : E(E), Args(Args), Site(Site), B(E.getBuilder()), L(E.loc(Site)) {}
  FailureOr<BoundArgs> bind(llvm::StringRef Fn,
                            ArrayRef<llvm::StringRef> Params,
                            unsigned NumRequired) {
    return E.bind(Args, Params, NumRequired, Fn, Site);
  }
  Result fail(const llvm::Twine &Msg) { return (E.error(Site, Msg)); }
};

Result programId(Ctx &C, bool Num) {
  auto A = C.bind(Num ? "tl.num_programs" : "tl.program_id", {"axis"}, 1);
  if (failed(A))
    return failure();
  auto Axis = C.E.requireInt(A->get("axis"), "axis", C.Site);
  if (failed(Axis))
    return failure();
  if (*Axis < 0 || *Axis > 2)
    return C.fail("axis must be 0, 1 or 2, got " + llvm::Twine(*Axis));
  Type I32 = C.B.getI32Type();
  if (Num)
    return TValue::ir(mlir::tle::GetNumProgramsOp::create(C.B, C.L, I32, *Axis));
  return TValue::ir(mlir::tle::GetProgramIdOp::create(C.B, C.L, I32, *Axis));
}

Result builtinProgramId(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  return programId(C, false);
}

Result builtinNumPrograms(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  return programId(C, true);
}

Result builtinArange(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.arange", {"start", "end"}, 2);
  if (failed(A))
    return failure();
  auto Start = E.requireInt(A->get("start"), "start", Site);
  auto End = E.requireInt(A->get("end"), "end", Site);
  if (failed(Start) || failed(End))
    return failure();
  int64_t N = *End - *Start;
  if (N <= 0 || (N & (N - 1)) != 0)
    return C.fail("tl.arange(" + llvm::Twine(*Start) + ", " +
                  llvm::Twine(*End) +
                  "): the range size must be a power of 2, got " +
                  llvm::Twine(N));
  if (*Start < 0 || *End > INT32_MAX)
    return C.fail("tl.arange bounds must lie in [0, 2**31)");
  auto Type = RankedTensorType::get({N}, C.B.getI32Type());
  return TValue::ir(mlir::tle::MakeRangeOp::create(C.B, C.L, Type, *Start, *End));
}

Result fullTile(Ctx &C, ArrayRef<int64_t> Shape, const TValue &Value,
                DType T) {
  if (Value.isNumber()) {
    // Triton makes the constant with its builder's get_<dtype>, which
    // refuses what the type cannot hold: 300 as uint8, -1 as uint32, a
    // nonzero float as an int (0.0 is allowed).
    if (isIntType(T.Type) && !isBoolType(T.Type)) {
      bool Fits = Value.is(TValue::Kind::Float)
                      ? Value.getFloat() == 0
                      : holdsInteger(T, Value.getWideInt());
      if (!Fits)
        return C.fail("value " + *getPythonText(Value, 'r') +
                      " does not fit dtype " +
                      getDTypeName(T.Type, T.IsUnsigned));
    }
    return TValue::ir(C.E.splatConstant(Value, T, Shape, C.Site),
                      T.IsUnsigned);
  }
  auto V = C.E.convert(Value, T, C.Site);
  if (failed(V))
    return failure();
  return C.E.broadcastTo(*V, Shape, C.Site);
}

Result builtinZeros(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.zeros", {"shape", "dtype"}, 2);
  if (failed(A))
    return failure();
  auto Shape = E.requireShape(A->get("shape"), "shape", Site);
  auto T = E.requireDType(A->get("dtype"), "dtype", Site);
  if (failed(Shape) || failed(T))
    return failure();
  return fullTile(C, *Shape, TValue::integer(0), *T);
}

Result builtinFull(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.full", {"shape", "value", "dtype"}, 3);
  if (failed(A))
    return failure();
  auto Shape = E.requireShape(A->get("shape"), "shape", Site);
  auto T = E.requireDType(A->get("dtype"), "dtype", Site);
  if (failed(Shape) || failed(T))
    return failure();
  return fullTile(C, *Shape, A->get("value")->Value, *T);
}

Result builtinZerosLike(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.zeros_like", {"input"}, 1);
  if (failed(A))
    return failure();
  auto In = E.requireIR(A->get("input"), "input", Site);
  if (failed(In))
    return failure();
  return fullTile(C, getShape(In->getType()), TValue::integer(0),
                  DType{getScalarType(In->getType()), In->isUnsigned()});
}

/// An optional keyword argument spelled as one of `Table`'s strings
/// (cache_modifier=".cg", sem="acquire", ...); `Default` when absent.
template <typename EnumT>
FailureOr<EnumT>
getKeyword(Ctx &C, const CallArg *A, llvm::StringRef Arg, EnumT Default,
           std::initializer_list<std::pair<llvm::StringRef, EnumT>> Table,
           llvm::StringRef Noun, llvm::StringRef Expected) {
  if (!A || A->Value.is(TValue::Kind::None))
    return Default;
  auto S = C.E.requireStr(A, Arg, C.Site);
  if (failed(S))
    return failure();
  for (const auto &[Spelling, Value] : Table)
    if (Spelling == *S)
      return Value;
  return C.E.error(A->Source ? A->Source : C.Site,
                   "unknown " + Noun + " '" + *S + "' (expected " + Expected +
                       ")");
}

/// The eviction/cache hints of loads and stores.
FailureOr<mlir::tle::CacheModifier> getCache(Ctx &C, const CallArg *A) {
  using M = mlir::tle::CacheModifier;
  return getKeyword(C, A, "cache_modifier", M::None,
                    {{"", M::None},
                     {".ca", M::CA},
                     {".cg", M::CG},
                     {".cs", M::CS},
                     {".wb", M::WB},
                     {".wt", M::WT},
                     {".cv", M::CV}},
                    "cache modifier", ".ca, .cg, .cs, .wb, .wt or .cv");
}

FailureOr<mlir::tle::EvictionPolicy> getEviction(Ctx &C, const CallArg *A) {
  using P = mlir::tle::EvictionPolicy;
  return getKeyword(C, A, "eviction_policy", P::Normal,
                    {{"", P::Normal},
                     {"evict_normal", P::Normal},
                     {"evict_first", P::EvictFirst},
                     {"evict_last", P::EvictLast}},
                    "eviction policy", "evict_first or evict_last");
}

/// A pointer or pointer tile argument.
Result requirePointer(Ctx &C, const CallArg *A) {
  if (!A || !A->Value.is(TValue::Kind::IR) ||
      !isPointerType(getScalarType(A->Value.getType())))
    return (C.E.error(A && A->Source ? A->Source : C.Site,
                             "pointer must be a pointer or a tensor of "
                             "pointers, got " +
                                 (A ? A->Value.describe() : "nothing")));
  return A->Value;
}

/// A mask broadcast to the pointer's shape, or null when absent.
FailureOr<Value> getMask(Ctx &C, const CallArg *A, const TValue &Ptr) {
  if (!A || A->Value.is(TValue::Kind::None))
    return Value();
  auto M = C.E.convert(A->Value, DType{C.B.getI1Type()},
                    A->Source ? A->Source : C.Site);
  if (failed(M))
    return failure();
  auto BM = C.E.broadcastTo(*M, getShape(Ptr.getType()),
                            A->Source ? A->Source : C.Site);
  if (failed(BM))
    return failure();
  if (isa<RankedTensorType>(BM->getType()) !=
      isa<RankedTensorType>(Ptr.getType()))
    return (C.E.error(A->Source ? A->Source : C.Site,
                             "a tensor mask needs a tensor of pointers"));
  return BM->getValue();
}

/// `value` converted to the pointee type and broadcast to the pointer shape.
Result valueForPointer(Ctx &C, const CallArg *A, const TValue &Ptr) {
  Type Pointee =
      cast<mlir::tle::PointerType>(getScalarType(Ptr.getType())).getPointeeType();
  const Node *Src = A->Source ? A->Source : C.Site;
  auto V = C.E.convert(A->Value, DType{Pointee, Ptr.isUnsigned()}, Src);
  if (failed(V))
    return failure();
  auto BV = C.E.broadcastTo(*V, getShape(Ptr.getType()), Src);
  if (failed(BV))
    return failure();
  if (isa<RankedTensorType>(BV->getType()) !=
      isa<RankedTensorType>(Ptr.getType()))
    return (C.E.error(Src, "cannot store a tensor through a scalar "
                                  "pointer"));
  return BV;
}

Result loadBlockPointer(Ctx &C, const BoundArgs &A);
Result storeBlockPointer(Ctx &C, const BoundArgs &A);

/// Fails on the first of `Names` passed with a value (not None, an empty
/// tuple or ''): `Why` says what to use instead.
LogicalResult rejectArgs(Ctx &C, const BoundArgs &A,
                         ArrayRef<llvm::StringRef> Names,
                         const llvm::Twine &Why) {
  for (llvm::StringRef Name : Names)
    if (A.has(Name) && A.get(Name)->Value.isTruthy())
      return C.E.error(C.Site, "'" + Name + "' " + Why);
  return success();
}

Result builtinLoad(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.load",
                  {"pointer", "mask", "other", "boundary_check",
                   "padding_option", "cache_modifier", "eviction_policy",
                   "volatile"},
                  1);
  if (failed(A))
    return failure();
  if (A->get("pointer")->Value.is(TValue::Kind::BlockPtr))
    return loadBlockPointer(C, *A);
  if (failed(rejectArgs(C, *A, {"boundary_check", "padding_option"},
                        "needs a block pointer (tl.make_block_ptr); a "
                        "tensor of pointers takes a mask (and other)")))
    return failure();
  auto Ptr = requirePointer(C, A->get("pointer"));
  if (failed(Ptr))
    return failure();
  auto Mask = getMask(C, A->get("mask"), *Ptr);
  if (failed(Mask))
    return failure();
  Value Other;
  if (A->has("other")) {
    if (!*Mask)
      return C.fail("'other' needs a 'mask'");
    auto O = valueForPointer(C, A->get("other"), *Ptr);
    if (failed(O))
      return failure();
    Other = O->getValue();
  }
  auto Cache = getCache(C, A->get("cache_modifier"));
  auto Evict = getEviction(C, A->get("eviction_policy"));
  if (failed(Cache) || failed(Evict))
    return failure();
  bool Volatile = A->has("volatile") && A->get("volatile")->Value.isTruthy();
  auto Load = mlir::tle::LoadOp::create(C.B, C.L, Ptr->getValue(), *Mask, Other,
                                  *Cache, *Evict, Volatile);
  return TValue::ir(Load, Ptr->isUnsigned());
}

Result builtinStore(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.store",
                  {"pointer", "value", "mask", "boundary_check",
                   "cache_modifier", "eviction_policy"},
                  2);
  if (failed(A))
    return failure();
  if (A->get("pointer")->Value.is(TValue::Kind::BlockPtr))
    return storeBlockPointer(C, *A);
  if (failed(rejectArgs(C, *A, {"boundary_check", "padding_option"},
                        "needs a block pointer (tl.make_block_ptr); a "
                        "tensor of pointers takes a mask (and other)")))
    return failure();
  auto Ptr = requirePointer(C, A->get("pointer"));
  if (failed(Ptr))
    return failure();
  auto V = valueForPointer(C, A->get("value"), *Ptr);
  auto Mask = getMask(C, A->get("mask"), *Ptr);
  if (failed(V) || failed(Mask))
    return failure();
  auto Cache = getCache(C, A->get("cache_modifier"));
  auto Evict = getEviction(C, A->get("eviction_policy"));
  if (failed(Cache) || failed(Evict))
    return failure();
  mlir::tle::StoreOp::create(C.B, C.L, Ptr->getValue(), V->getValue(), *Mask,
                       *Cache, *Evict);
  return TValue::none();
}

FailureOr<mlir::tle::MemSemantic> getSem(Ctx &C, const CallArg *A) {
  using S = mlir::tle::MemSemantic;
  return getKeyword(C, A, "sem", S::AcqRel,
                    {{"relaxed", S::Relaxed},
                     {"acquire", S::Acquire},
                     {"release", S::Release},
                     {"acq_rel", S::AcqRel}},
                    "memory semantic", "relaxed, acquire, release or acq_rel");
}

FailureOr<mlir::tle::MemScope> getScope(Ctx &C, const CallArg *A) {
  using S = mlir::tle::MemScope;
  return getKeyword(C, A, "scope", S::Device,
                    {{"cta", S::Block},
                     {"block", S::Block},
                     {"cluster", S::Cluster},
                     {"gpu", S::Device},
                     {"device", S::Device},
                     {"sys", S::System},
                     {"system", S::System}},
                    "scope", "cta, cluster, gpu or sys");
}

Result atomicRMW(Emitter &E, CallArgs &Args, const Node *Site,
                 llvm::StringRef Fn, mlir::tle::RMWKind IntKind,
                 std::optional<mlir::tle::RMWKind> FloatKind) {
  Ctx C(E, Args, Site);
  auto A = C.bind(Fn, {"pointer", "val", "mask", "sem", "scope"}, 2);
  if (failed(A))
    return failure();
  auto Ptr = requirePointer(C, A->get("pointer"));
  if (failed(Ptr))
    return failure();
  auto V = valueForPointer(C, A->get("val"), *Ptr);
  auto Mask = getMask(C, A->get("mask"), *Ptr);
  auto Sem = getSem(C, A->get("sem"));
  auto Scope = getScope(C, A->get("scope"));
  if (failed(V) || failed(Mask) || failed(Sem) || failed(Scope))
    return failure();
  mlir::tle::RMWKind Kind = IntKind;
  Type Elem = getScalarType(V->getType());
  if (isFloatType(Elem)) {
    if (!FloatKind)
      return C.fail(Fn + " needs integer values, got " + V->describe());
    Kind = *FloatKind;
  } else if (A->get("pointer")->Value.isUnsigned()) {
    if (Kind == mlir::tle::RMWKind::Max)
      Kind = mlir::tle::RMWKind::UMax;
    if (Kind == mlir::tle::RMWKind::Min)
      Kind = mlir::tle::RMWKind::UMin;
  }
  auto Op = mlir::tle::AtomicRMWOp::create(C.B, C.L, V->getType(), Kind,
                                     Ptr->getValue(), V->getValue(), *Mask,
                                     *Sem, *Scope);
  return TValue::ir(Op, V->isUnsigned());
}

#define TLE_ATOMIC(Name, IntKind, FloatKind)                                   \
  Result builtinAtomic##Name(Emitter &E, CallArgs &Args, const Node *Site) {   \
    return atomicRMW(E, Args, Site, "tl.atomic_" #Name, IntKind, FloatKind);   \
  }
TLE_ATOMIC(add, mlir::tle::RMWKind::Add, mlir::tle::RMWKind::FAdd)
TLE_ATOMIC(max, mlir::tle::RMWKind::Max, mlir::tle::RMWKind::Max)
TLE_ATOMIC(min, mlir::tle::RMWKind::Min, mlir::tle::RMWKind::Min)
TLE_ATOMIC(and, mlir::tle::RMWKind::And, std::nullopt)
TLE_ATOMIC(or, mlir::tle::RMWKind::Or, std::nullopt)
TLE_ATOMIC(xor, mlir::tle::RMWKind::Xor, std::nullopt)
TLE_ATOMIC(xchg, mlir::tle::RMWKind::Xchg, mlir::tle::RMWKind::Xchg)
#undef TLE_ATOMIC

Result builtinAtomicCas(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.atomic_cas", {"pointer", "cmp", "val", "sem", "scope"},
                  3);
  if (failed(A))
    return failure();
  auto Ptr = requirePointer(C, A->get("pointer"));
  if (failed(Ptr))
    return failure();
  auto Cmp = valueForPointer(C, A->get("cmp"), *Ptr);
  auto V = valueForPointer(C, A->get("val"), *Ptr);
  auto Sem = getSem(C, A->get("sem"));
  auto Scope = getScope(C, A->get("scope"));
  if (failed(Cmp) || failed(V) || failed(Sem) || failed(Scope))
    return failure();
  return TValue::ir(mlir::tle::AtomicCASOp::create(C.B, C.L, Ptr->getValue(),
                                                   Cmp->getValue(),
                                                   V->getValue(), *Sem, *Scope),
                    V->isUnsigned());
}

Result builtinDot(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.dot",
                  {"input", "other", "acc", "input_precision", "allow_tf32",
                   "max_num_imprecise_acc", "out_dtype"},
                  2);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("input"), "input", Site);
  auto Y = E.requireTensor(A->get("other"), "other", Site);
  if (failed(X) || failed(Y))
    return failure();
  Type XE = getScalarType(X->getType()), YE = getScalarType(Y->getType());
  auto XT = cast<RankedTensorType>(X->getType());
  auto YT = cast<RankedTensorType>(Y->getType());
  if (XT.getRank() != YT.getRank() || XT.getRank() < 2 || XT.getRank() > 3)
    return C.fail("tl.dot needs two 2-D (or 3-D batched) tensors, got " +
                  X->describe() + " and " + Y->describe());
  if (XT.getShape().back() != YT.getShape()[YT.getRank() - 2])
    return C.fail("tl.dot: the inner dimensions differ: " + X->describe() +
                  " and " + Y->describe());
  for (int64_t D : {XT.getShape()[XT.getRank() - 2], XT.getShape().back(),
                    YT.getShape().back()})
    if (D < 16)
      return C.fail("tl.dot needs every dimension to be at least 16, got " +
                    X->describe() + " and " + Y->describe());
  Value XV = X->getValue(), YV = Y->getValue();
  if (XE != YE && !(isFp8Type(XE) && isFp8Type(YE))) {
    // Mixed operands compute in the promoted type, as Triton does.
    auto T = E.promote(*X, *Y, false, Site);
    if (failed(T))
      return failure();
    auto CX = E.convert(*X, *T, Site), CY = E.convert(*Y, *T, Site);
    if (failed(CX) || failed(CY))
      return failure();
    XV = CX->getValue();
    YV = CY->getValue();
    XE = YE = T->Type;
  }
  DType Out{C.B.getF32Type()};
  if (A->has("out_dtype")) {
    auto T = E.requireDType(A->get("out_dtype"), "out_dtype", Site);
    if (failed(T))
      return failure();
    Out = *T;
  }
  if (isIntType(XE))
    Out = DType{C.B.getI32Type()};
  SmallVector<int64_t> Shape(XT.getShape().drop_back());
  Shape.push_back(YT.getShape().back());
  Value Acc;
  if (A->has("acc")) {
    auto AccV = E.requireTensor(A->get("acc"), "acc", Site);
    if (failed(AccV))
      return failure();
    if (getShape(AccV->getType()) != ArrayRef<int64_t>(Shape))
      return C.fail("tl.dot: the accumulator " + AccV->describe() +
                    " does not have the result shape");
    Acc = AccV->getValue();
  } else {
    Acc = E.splatConstant(TValue::integer(0), Out, Shape, Site);
  }
  auto Precision = mlir::tle::InputPrecision::TF32;
  if (A->has("input_precision")) {
    auto P = E.requireStr(A->get("input_precision"), "input_precision", Site);
    if (failed(P))
      return failure();
    auto R = llvm::StringSwitch<std::optional<mlir::tle::InputPrecision>>(*P)
                 .Case("tf32", mlir::tle::InputPrecision::TF32)
                 .Case("tf32x3", mlir::tle::InputPrecision::TF32x3)
                 .Case("ieee", mlir::tle::InputPrecision::IEEE)
                 .Default(std::nullopt);
    if (!R)
      return C.fail("unknown input_precision '" + *P +
                    "' (expected tf32, tf32x3 or ieee)");
    Precision = *R;
  } else if (A->has("allow_tf32") &&
             !A->get("allow_tf32")->Value.isTruthy()) {
    Precision = mlir::tle::InputPrecision::IEEE;
  }
  int64_t MaxImprecise = 0;
  if (A->has("max_num_imprecise_acc")) {
    auto N = E.requireInt(A->get("max_num_imprecise_acc"),
                          "max_num_imprecise_acc", Site);
    if (failed(N))
      return failure();
    MaxImprecise = *N;
  }
  return TValue::ir(mlir::tle::DotOp::create(C.B, C.L, XV, YV, Acc, Precision,
                                       MaxImprecise));
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

Result builtinReshape(Emitter &E, CallArgs &Args, const Node *Site) {
  // tl.reshape(x, shape, can_reorder=False) or x.reshape(d0, d1, ...):
  // can_reorder is keyword-only, every positional after x is a dimension.
  CallArgs Folded = Args;
  if (Args.Positional.size() > 2) {
    std::vector<TValue> Dims;
    for (const CallArg &D : llvm::drop_begin(Args.Positional))
      Dims.push_back(D.Value);
    Folded.Positional = {
        Args.Positional[0],
        CallArg{TValue::tuple(std::move(Dims)), Args.Positional[1].Source}};
  }
  Ctx C(E, Folded, Site);
  auto A = C.bind("tl.reshape", {"input", "shape", "can_reorder"}, 2);
  if (failed(A))
    return failure();
  auto X = E.requireIR(A->get("input"), "input", Site);
  if (failed(X))
    return failure();
  CallArg ShapeArg = *A->get("shape");
  auto Shape = E.requireShape(&ShapeArg, "shape", Site);
  if (failed(Shape))
    return failure();
  int64_t N = 1, M = 1;
  for (int64_t D : getShape(X->getType()))
    N *= D;
  for (int64_t D : *Shape)
    M *= D;
  if (N != M)
    return C.fail("cannot reshape " + X->describe() + " (" + llvm::Twine(N) +
                  " elements) into " + llvm::Twine(M) + " elements");
  Value In = X->getValue();
  if (!isa<RankedTensorType>(In.getType()))
    return E.broadcastTo(*X, *Shape, Site);
  bool Reorder = A->has("can_reorder") && A->get("can_reorder")->Value.isTruthy();
  auto Type = RankedTensorType::get(*Shape, getScalarType(In.getType()));
  return TValue::ir(mlir::tle::ReshapeOp::create(C.B, C.L, Type, In, Reorder),
                    X->isUnsigned());
}

Result builtinRavel(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.ravel", {"x"}, 1);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("x"), "x", Site);
  if (failed(X))
    return failure();
  int64_t N = 1;
  for (int64_t D : getShape(X->getType()))
    N *= D;
  auto Type = RankedTensorType::get({N}, getScalarType(X->getType()));
  return TValue::ir(
      mlir::tle::ReshapeOp::create(C.B, C.L, Type, X->getValue(), true),
      X->isUnsigned());
}

Result builtinTrans(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.trans", {"input", "*dims"}, 1);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("input"), "input", Site);
  if (failed(X))
    return failure();
  auto T = cast<RankedTensorType>(X->getType());
  SmallVector<int32_t> Order;
  std::vector<TValue> Dims;
  if (A->Rest.size() == 1 && A->Rest[0].Value.is(TValue::Kind::Tuple))
    Dims = A->Rest[0].Value.getElements();
  else
    for (const CallArg &R : A->Rest)
      Dims.push_back(R.Value);
  for (const TValue &D : Dims) {
    if (!D.is(TValue::Kind::Int))
      return C.fail("dims must be constexpr ints, got " + D.describe());
    Order.push_back(D.getInt());
  }
  if (Order.empty()) {
    if (T.getRank() != 2)
      return C.fail("tl.trans without dims needs a 2-D tensor, got " +
                    X->describe());
    Order = {1, 0};
  }
  if (static_cast<int64_t>(Order.size()) != T.getRank())
    return C.fail("dims has " + llvm::Twine(Order.size()) +
                  " entries for a tensor of rank " + llvm::Twine(T.getRank()));
  SmallVector<int64_t> Shape;
  for (int32_t D : Order) {
    if (D < 0 || D >= T.getRank())
      return C.fail("dims must be a permutation of 0.." +
                    llvm::Twine(T.getRank() - 1));
    Shape.push_back(T.getDimSize(D));
  }
  return TValue::ir(mlir::tle::TransOp::create(C.B, C.L, T.clone(Shape),
                                         X->getValue(), Order),
                    X->isUnsigned());
}

Result builtinPermute(Emitter &E, CallArgs &Args, const Node *Site) {
  return builtinTrans(E, Args, Site);
}

Result builtinExpandDims(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.expand_dims", {"input", "axis"}, 2);
  if (failed(A))
    return failure();
  auto X = E.requireIR(A->get("input"), "input", Site);
  if (failed(X))
    return failure();
  std::vector<int64_t> Axes;
  const TValue &AxisV = A->get("axis")->Value;
  if (AxisV.is(TValue::Kind::Tuple)) {
    for (const TValue &V : AxisV.getElements())
      Axes.push_back(V.is(TValue::Kind::Int) ? V.getInt() : INT64_MIN);
  } else {
    auto I = E.requireInt(A->get("axis"), "axis", Site);
    if (failed(I))
      return failure();
    Axes.push_back(*I);
  }
  TValue V = *X;
  for (int64_t Axis : Axes) {
    int64_t Rank = getShape(V.getType()).size();
    if (Axis < 0)
      Axis += Rank + 1;
    if (Axis < 0 || Axis > Rank)
      return C.fail("axis is out of range for a tensor of rank " +
                    llvm::Twine(Rank));
    Value In = V.getValue();
    if (!isa<RankedTensorType>(In.getType()))
      In = mlir::tle::SplatOp::create(C.B, C.L, RankedTensorType::get({}, In.getType()),
                                In);
    auto T = cast<RankedTensorType>(In.getType());
    SmallVector<int64_t> Shape(T.getShape());
    Shape.insert(Shape.begin() + Axis, 1);
    V = TValue::ir(mlir::tle::ExpandDimsOp::create(C.B, C.L, T.clone(Shape), In,
                                             C.B.getI32IntegerAttr(Axis)),
                   V.isUnsigned());
  }
  return V;
}

Result builtinBroadcastTo(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.broadcast_to", {"input", "shape", "*dims"}, 2);
  if (failed(A))
    return failure();
  CallArg ShapeArg = *A->get("shape");
  if (!A->Rest.empty()) {
    std::vector<TValue> Dims{ShapeArg.Value};
    for (const CallArg &R : A->Rest)
      Dims.push_back(R.Value);
    ShapeArg.Value = TValue::tuple(Dims);
  }
  auto Shape = E.requireShape(&ShapeArg, "shape", Site);
  if (failed(Shape))
    return failure();
  return E.broadcastTo(A->get("input")->Value, *Shape, Site);
}

Result builtinBroadcast(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.broadcast", {"input", "other"}, 2);
  if (failed(A))
    return failure();
  TValue X = A->get("input")->Value, Y = A->get("other")->Value;
  if (failed(E.broadcastPair(X, Y, Site)))
    return failure();
  return TValue::tuple({X, Y});
}

Result builtinJoin(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.join", {"a", "b"}, 2);
  if (failed(A))
    return failure();
  TValue X = A->get("a")->Value, Y = A->get("b")->Value;
  if (failed(E.broadcastPair(X, Y, Site)))
    return failure();
  if (X.getType() != Y.getType())
    return C.fail("tl.join needs operands of one type, got " + X.describe() +
                  " and " + Y.describe());
  Value XV = X.getValue(), YV = Y.getValue();
  if (!isa<RankedTensorType>(XV.getType())) {
    auto T = RankedTensorType::get({}, XV.getType());
    XV = mlir::tle::SplatOp::create(C.B, C.L, T, XV);
    YV = mlir::tle::SplatOp::create(C.B, C.L, T, YV);
  }
  auto T = cast<RankedTensorType>(XV.getType());
  SmallVector<int64_t> Shape(T.getShape());
  Shape.push_back(2);
  return TValue::ir(mlir::tle::JoinOp::create(C.B, C.L, T.clone(Shape), XV, YV),
                    X.isUnsigned());
}

/// tl.interleave(a, b): the two tensors' elements alternating along their
/// last dimension, tl.join(a, b) reshaped to twice that dimension (two
/// scalars give the joined pair).
Result builtinInterleave(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.interleave", {"a", "b"}, 2);
  if (failed(A))
    return failure();
  CallArgs Pair;
  Pair.Positional = {*A->get("a"), *A->get("b")};
  Result Joined = builtinJoin(E, Pair, Site);
  if (failed(Joined))
    return failure();
  auto T = cast<RankedTensorType>(Joined->getType());
  if (T.getRank() == 1)
    return Joined;
  SmallVector<int64_t> Shape(T.getShape().drop_back());
  Shape.back() *= 2;
  return TValue::ir(mlir::tle::ReshapeOp::create(C.B, C.L, T.clone(Shape),
                                                 Joined->getValue(),
                                                 /*allow_reorder=*/false),
                    Joined->isUnsigned());
}

Result builtinSplit(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.split", {"a"}, 1);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("a"), "a", Site);
  if (failed(X))
    return failure();
  auto T = cast<RankedTensorType>(X->getType());
  if (T.getShape().back() != 2)
    return C.fail("tl.split needs a last dimension of size 2, got " +
                  X->describe());
  auto Half = T.clone(T.getShape().drop_back());
  auto Op = mlir::tle::SplitOp::create(C.B, C.L, Half, Half, X->getValue());
  return TValue::tuple({TValue::ir(Op.getLhs(), X->isUnsigned()),
                        TValue::ir(Op.getRhs(), X->isUnsigned())});
}

Result builtinCat(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.cat", {"input", "other", "can_reorder"}, 2);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("input"), "input", Site);
  auto Y = E.requireTensor(A->get("other"), "other", Site);
  if (failed(X) || failed(Y))
    return failure();
  auto XT = cast<RankedTensorType>(X->getType());
  auto YT = cast<RankedTensorType>(Y->getType());
  if (XT.getElementType() != YT.getElementType() ||
      XT.getShape().drop_front() != YT.getShape().drop_front())
    return C.fail("tl.cat operands differ in more than dimension 0: " +
                  X->describe() + " and " + Y->describe());
  SmallVector<int64_t> Shape(XT.getShape());
  Shape[0] += YT.getDimSize(0);
  return TValue::ir(mlir::tle::CatOp::create(C.B, C.L, XT.clone(Shape),
                                       X->getValue(), Y->getValue()),
                    X->isUnsigned());
}

Result builtinCast(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.cast",
                  {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2);
  if (failed(A))
    return failure();
  auto T = E.requireDType(A->get("dtype"), "dtype", Site);
  if (failed(T))
    return failure();
  bool Bitcast = A->has("bitcast") && A->get("bitcast")->Value.isTruthy();
  auto R = E.convert(A->get("input")->Value, *T, Site, Bitcast);
  if (failed(R) || !A->has("fp_downcast_rounding"))
    return R;
  auto Mode = E.requireStr(A->get("fp_downcast_rounding"),
                           "fp_downcast_rounding", Site);
  if (failed(Mode))
    return failure();
  if (*Mode != "rtne" && *Mode != "rtz")
    return C.fail("fp_downcast_rounding must be 'rtne' or 'rtz', got '" +
                  *Mode + "'");
  if (*Mode == "rtz") {
    // Round toward zero needs the explicit conversion op.
    auto In = E.toIR(A->get("input")->Value, Site);
    if (failed(In))
      return failure();
    if (!isFloatType(getScalarType(In->getType())) || !isFloatType(T->Type))
      return C.fail("fp_downcast_rounding applies to float conversions");
    auto Op = mlir::tle::FpToFpOp::create(
        C.B, C.L, withElementType(In->getType(), T->Type), In->getValue(),
        nullptr);
    Op.setRounding(mlir::tle::RoundingMode::RTZ);
    return TValue::ir(Op);
  }
  return R;
}

Result builtinWhere(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.where", {"condition", "x", "y"}, 3);
  if (failed(A))
    return failure();
  return E.where(A->get("condition")->Value, A->get("x")->Value,
                 A->get("y")->Value, Site);
}

Result builtinHistogram(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.histogram", {"input", "num_bins", "mask"}, 2);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("input"), "input", Site);
  auto N = E.requireInt(A->get("num_bins"), "num_bins", Site);
  if (failed(X) || failed(N))
    return failure();
  if (A->has("mask"))
    return C.fail("tl.histogram with a mask is not supported yet");
  if (getShape(X->getType()).size() != 1 ||
      !isIntType(getScalarType(X->getType())))
    return C.fail("tl.histogram needs a 1-D integer tensor, got " +
                  X->describe());
  auto Type = RankedTensorType::get({*N}, C.B.getI32Type());
  return TValue::ir(mlir::tle::HistogramOp::create(C.B, C.L, Type, X->getValue()));
}

/// tl.gather(src, index, axis): src's elements at `index` along `axis`.
Result builtinGather(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.gather", {"src", "index", "axis"}, 3);
  if (failed(A))
    return failure();
  auto Src = E.requireTensor(A->get("src"), "src", Site);
  auto Index = E.requireTensor(A->get("index"), "index", Site);
  auto Axis = E.requireInt(A->get("axis"), "axis", Site);
  if (failed(Src) || failed(Index) || failed(Axis))
    return failure();
  ArrayRef<int64_t> SrcShape = getShape(Src->getType()),
                    IndexShape = getShape(Index->getType());
  int64_t Rank = SrcShape.size();
  if (!isIntType(getScalarType(Index->getType())) ||
      isBoolType(getScalarType(Index->getType())))
    return C.fail("tl.gather: the index must be an integer tensor, got " +
                  Index->describe());
  if (static_cast<int64_t>(IndexShape.size()) != Rank)
    return C.fail("tl.gather: the index must have the source's rank (" +
                  llvm::Twine(Rank) + "), got " + Index->describe());
  int64_t Dim = *Axis < 0 ? *Axis + Rank : *Axis;
  if (Dim < 0 || Dim >= Rank)
    return C.fail("tl.gather: axis " + llvm::Twine(*Axis) +
                  " is out of range for rank " + llvm::Twine(Rank));
  for (int64_t D = 0; D < Rank; ++D)
    if (D != Dim && IndexShape[D] != SrcShape[D])
      return C.fail("tl.gather: the index must match the source along every "
                    "axis but " +
                    llvm::Twine(Dim) + "; got " + Index->describe() + " for " +
                    Src->describe());
  auto Type = RankedTensorType::get(IndexShape, getScalarType(Src->getType()));
  return TValue::ir(mlir::tle::GatherOp::create(C.B, C.L, Type, Src->getValue(),
                                                Index->getValue(), Dim),
                    Src->isUnsigned());
}

//===----------------------------------------------------------------------===//
// Hints, debugging and compile-time checks
//===----------------------------------------------------------------------===//

/// tl.multiple_of / max_contiguous / max_constancy record their facts on the
/// op defining the value (or the kernel argument), as Triton does.
Result hint(Emitter &E, CallArgs &Args, const Node *Site, llvm::StringRef Fn,
            llvm::StringRef AttrName) {
  Ctx C(E, Args, Site);
  auto A = C.bind(Fn, {"input", "values"}, 2);
  if (failed(A))
    return failure();
  auto X = E.requireIR(A->get("input"), "input", Site);
  if (failed(X))
    return failure();
  std::vector<int64_t> Values;
  const TValue &V = A->get("values")->Value;
  if (V.is(TValue::Kind::Int)) {
    Values.push_back(V.getInt());
  } else if (V.is(TValue::Kind::Tuple)) {
    for (const TValue &I : V.getElements()) {
      if (!I.is(TValue::Kind::Int))
        return C.fail(Fn + ": values must be constexpr ints");
      Values.push_back(I.getInt());
    }
  } else {
    return C.fail(Fn + ": values must be a constexpr int or tuple of ints");
  }
  size_t Rank = std::max<size_t>(1, getShape(X->getType()).size());
  if (Values.size() == 1 && Rank > 1)
    Values.assign(Rank, Values[0]);
  if (Values.size() != Rank)
    return C.fail(Fn + ": expected " + llvm::Twine(Rank) + " values, got " +
                  llvm::Twine(Values.size()));
  SmallVector<int32_t> V32(Values.begin(), Values.end());
  Attribute Attr = C.B.getDenseI32ArrayAttr(V32);
  Value In = X->getValue();
  if (Operation *Def = In.getDefiningOp()) {
    Def->setDiscardableAttr(AttrName, Attr);
  } else if (auto Arg = dyn_cast<BlockArgument>(In)) {
    if (auto Fn = dyn_cast<FunctionOpInterface>(Arg.getOwner()->getParentOp()))
      Fn.setArgAttr(Arg.getArgNumber(), AttrName, Attr);
  }
  return *X;
}

Result builtinMultipleOf(Emitter &E, CallArgs &Args, const Node *Site) {
  return hint(E, Args, Site, "tl.multiple_of", "tle.divisibility");
}
Result builtinMaxContiguous(Emitter &E, CallArgs &Args, const Node *Site) {
  return hint(E, Args, Site, "tl.max_contiguous", "tle.contiguity");
}
Result builtinMaxConstancy(Emitter &E, CallArgs &Args, const Node *Site) {
  return hint(E, Args, Site, "tl.max_constancy", "tle.constancy");
}

Result builtinAssume(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.assume", {"cond"}, 1);
  if (failed(A))
    return failure();
  const TValue &Cond = A->get("cond")->Value;
  if (Cond.isConstexpr())
    return TValue::none();
  auto B1 = E.convert(Cond, DType{C.B.getI1Type()}, Site);
  if (failed(B1))
    return failure();
  if (isa<RankedTensorType>(B1->getType()))
    return C.fail("tl.assume needs a scalar condition");
  mlir::tle::AssumeOp::create(C.B, C.L, B1->getValue());
  return TValue::none();
}

Result builtinDebugBarrier(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  if (failed(C.bind("tl.debug_barrier", {}, 0)))
    return failure();
  mlir::tle::DebugBarrierOp::create(C.B, C.L);
  return TValue::none();
}

Result builtinStaticAssert(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.static_assert", {"cond", "msg"}, 1);
  if (failed(A))
    return failure();
  const TValue &Cond = A->get("cond")->Value;
  if (!Cond.isConstexpr())
    return C.fail("tl.static_assert needs a compile-time condition, got " +
                  Cond.describe());
  if (!Cond.isTruthy()) {
    std::string Msg;
    if (A->has("msg") && A->get("msg")->Value.is(TValue::Kind::Str))
      Msg = ": " + A->get("msg")->Value.getStr().str();
    return C.fail("static assertion failed" + Msg);
  }
  return TValue::none();
}

/// tl.static_print(*values, sep=" "): Python's print at compile time, as a
/// note at the call (values without a Python text, tiles, are described).
Result builtinStaticPrint(Emitter &E, CallArgs &Args, const Node *Site) {
  // The values are positional, the options keyword-only, as print's.
  CallArgs Options;
  Options.Keywords = Args.Keywords;
  Ctx C(E, Options, Site);
  auto A = C.bind("tl.static_print", {"sep", "end", "file", "flush"}, 0);
  if (failed(A))
    return failure();
  std::string Sep = " ";
  if (A->has("sep")) {
    auto S = E.requireStr(A->get("sep"), "sep", Site);
    if (failed(S))
      return failure();
    Sep = *S;
  }
  std::string Text;
  for (auto [I, V] : llvm::enumerate(Args.Positional)) {
    if (I)
      Text += Sep;
    std::optional<std::string> Python = getPythonText(V.Value, 0);
    Text += Python ? *Python : V.Value.describe();
  }
  E.note(Site, "static_print: " + Text);
  return TValue::none();
}

Result builtinDeviceAssert(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.device_assert", {"cond", "msg", "mask"}, 1);
  if (failed(A))
    return failure();
  auto Cond = E.convert(A->get("cond")->Value, DType{C.B.getI1Type()}, Site);
  if (failed(Cond))
    return failure();
  std::string Msg = "device assertion failed";
  if (A->has("msg")) {
    auto M = E.requireStr(A->get("msg"), "msg", Site);
    if (failed(M))
      return failure();
    Msg = *M;
  }
  mlir::tle::AssertOp::create(C.B, C.L, Cond->getValue(), Msg);
  return TValue::none();
}

Result builtinDevicePrint(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.device_print", {"prefix", "*args", "hex"}, 1);
  if (failed(A))
    return failure();
  auto Prefix = E.requireStr(A->get("prefix"), "prefix", Site);
  if (failed(Prefix))
    return failure();
  SmallVector<Value> Values;
  for (const CallArg &R : A->Rest) {
    auto V = E.toIR(R.Value, R.Source ? R.Source : Site);
    if (failed(V))
      return failure();
    Values.push_back(V->getValue());
  }
  bool Hex = A->has("hex") && A->get("hex")->Value.isTruthy();
  mlir::tle::PrintOp::create(C.B, C.L, *Prefix, Hex, Values);
  return TValue::none();
}

Result builtinConstexpr(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.constexpr", {"value"}, 1);
  if (failed(A))
    return failure();
  return A->get("value")->Value;
}

/// tl.dtype(name): the dtype Triton names "int32", "uint8", "fp16", ...
/// (its own names only: tl.dtype("float16") fails in Triton too).
Result builtinDTypeByName(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.dtype", {"name"}, 1);
  if (failed(A))
    return failure();
  auto Name = E.requireStr(A->get("name"), "name", Site);
  if (failed(Name))
    return failure();
  static constexpr llvm::StringLiteral TritonNames[] = {
      "int1",    "int8",   "int16",  "int32",  "int64",
      "uint8",   "uint16", "uint32", "uint64", "fp8e5",
      "fp8e4nv", "fp16",   "bf16",   "fp32",   "fp64"};
  std::optional<DType> T;
  if (llvm::is_contained(TritonNames, *Name))
    T = lookupDType(*Name, C.B.getContext());
  if (!T)
    return E.error(Site, "tl.dtype: unknown dtype name '" + *Name +
                             "' (expected one of int1, int8, ..., uint64, "
                             "fp8e5, fp8e4nv, fp16, bf16, fp32, fp64)");
  return TValue::dtype(T->Type, T->IsUnsigned);
}

Result builtinCdiv(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.cdiv", {"x", "div"}, 2);
  if (failed(A))
    return failure();
  const TValue &X = A->get("x")->Value, &D = A->get("div")->Value;
  auto Sum = E.binaryOp(BinaryOpKind::Add, X, D, Site);
  if (failed(Sum))
    return failure();
  auto Minus = E.binaryOp(BinaryOpKind::Sub, *Sum, TValue::integer(1), Site);
  if (failed(Minus))
    return failure();
  return E.binaryOp(BinaryOpKind::FloorDiv, *Minus, D, Site);
}

/// triton.language.standard._log2(i): floor(log2(i)) of a compile-time
/// integer (0 for i <= 1), a helper of Triton's standard library that
/// kernels import (FlagGems' bitonic sort).
Result builtinLog2Constexpr(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl._log2", {"i"}, 1);
  if (failed(A))
    return failure();
  auto I = E.requireInt(A->get("i"), "i", Site);
  if (failed(I))
    return failure();
  int64_t Log2 = 0;
  for (int64_t N = *I; N > 1; N >>= 1)
    ++Log2;
  return TValue::integer(Log2);
}

/// tl.pointer_type(element_ty): the dtype of global-memory pointers to
/// element_ty (for casting an int64 address: `x.to(tl.pointer_type(T))`).
/// `const` is a hint of Triton's that TLE does not use.
Result builtinPointerType(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A =
      C.bind("tl.pointer_type", {"element_ty", "address_space", "const"}, 1);
  if (failed(A))
    return failure();
  auto Elem = E.requireDType(A->get("element_ty"), "element_ty", Site);
  if (failed(Elem))
    return failure();
  if (A->has("address_space")) {
    auto Space = E.requireInt(A->get("address_space"), "address_space", Site);
    if (failed(Space))
      return failure();
    if (*Space != 1)
      return C.fail("tl.pointer_type: only global memory (address_space=1) "
                    "is supported, got " +
                    llvm::Twine(*Space));
  }
  return TValue::dtype(mlir::tle::PointerType::get(Elem->Type),
                       Elem->IsUnsigned);
}

/// tl.core.get_int_dtype(bitwidth, signed): the integer dtype of that width.
Result builtinGetIntDtype(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.core.get_int_dtype", {"bitwidth", "signed"}, 2);
  if (failed(A))
    return failure();
  auto Bits = E.requireInt(A->get("bitwidth"), "bitwidth", Site);
  if (failed(Bits))
    return failure();
  const TValue &Signed = A->get("signed")->Value;
  if (!Signed.isConstexpr())
    return E.error(Site, "tl.core.get_int_dtype needs a compile-time 'signed'");
  if (!llvm::is_contained({1, 8, 16, 32, 64}, *Bits))
    return E.error(Site, "no integer dtype of " + llvm::Twine(*Bits) +
                             " bits (1, 8, 16, 32 or 64)");
  return TValue::dtype(C.B.getIntegerType(unsigned(*Bits)),
                       /*IsUnsigned=*/*Bits != 1 && !Signed.isTruthy());
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

/// One value per dimension of a block (`Rank` of them) from a tuple
/// argument (or one value for one dimension), converted to T. Where
/// `NoNarrowing`, a run-time value wider than T is an error rather than
/// truncated.
LogicalResult tensorDims(Ctx &C, const CallArg *Arg, llvm::StringRef Name,
                         DType T, size_t Rank, SmallVectorImpl<Value> &Out,
                         bool NoNarrowing = false) {
  const TValue &V = Arg->Value;
  std::vector<TValue> Elts =
      V.is(TValue::Kind::Tuple) ? V.getElements() : std::vector<TValue>{V};
  for (const TValue &D : Elts) {
    if (NoNarrowing && D.is(TValue::Kind::IR) &&
        isa<IntegerType>(D.getType()) &&
        D.getType().getIntOrFloatBitWidth() > T.Type.getIntOrFloatBitWidth())
      return C.E.error(C.Site, Name + " values must have at most " +
                                   llvm::Twine(T.Type.getIntOrFloatBitWidth()) +
                                   " bits, got " + D.describe());
    auto I = C.E.convert(D, T, C.Site);
    if (failed(I))
      return failure();
    Out.push_back(I->getValue());
  }
  if (Out.size() != Rank)
    return C.E.error(C.Site, Name + " has " + llvm::Twine(Out.size()) +
                                 " entries but block_shape has " +
                                 llvm::Twine(Rank));
  return success();
}

/// A padding_option: zero (also for '' and when absent) or NaN.
FailureOr<mlir::tle::PaddingOption> getPadding(Ctx &C, const CallArg *Arg) {
  if (!Arg)
    return mlir::tle::PaddingOption::Zero;
  auto P = C.E.requireStr(Arg, "padding_option", C.Site);
  if (failed(P))
    return failure();
  if (*P == "nan")
    return mlir::tle::PaddingOption::NaN;
  if (*P != "zero" && !P->empty())
    return C.E.error(C.Site, "padding_option must be 'zero' or 'nan', got '" +
                                 *P + "'");
  return mlir::tle::PaddingOption::Zero;
}

/// What a tensor descriptor or a block pointer describes: its base, the
/// tensor's shape and strides, and its type (the block).
struct DescribedTensor {
  Value Base;
  bool IsUnsigned = false; ///< The elements' signedness (the base's).
  SmallVector<Value> Shape, Strides;
  mlir::tle::TensorDescType Type;
};

/// The `base`, `shape`, `strides` and `block_shape` arguments; a 64-bit
/// shape is an error where `NoNarrowing` (Triton's block pointers have
/// 64-bit shapes, TLE's descriptors 32-bit ones).
FailureOr<DescribedTensor> getDescribedTensor(Ctx &C, const BoundArgs &A,
                                              bool NoNarrowing) {
  const TValue &Base = A.get("base")->Value;
  if (!Base.is(TValue::Kind::IR) || !isPointerType(Base.getType()))
    return C.E.error(C.Site,
                     "base must be a scalar pointer, got " + Base.describe());
  auto Block = C.E.requireShape(A.get("block_shape"), "block_shape", C.Site);
  if (failed(Block))
    return failure();
  DescribedTensor T;
  T.Base = Base.getValue();
  T.IsUnsigned = Base.isUnsigned();
  if (failed(tensorDims(C, A.get("shape"), "shape", DType{C.B.getI32Type()},
                        Block->size(), T.Shape, NoNarrowing)) ||
      failed(tensorDims(C, A.get("strides"), "strides", DType{C.B.getI64Type()},
                        Block->size(), T.Strides)))
    return failure();
  Type Elem = cast<mlir::tle::PointerType>(Base.getType()).getPointeeType();
  T.Type = mlir::tle::TensorDescType::get(C.B.getContext(),
                                          RankedTensorType::get(*Block, Elem));
  return T;
}

Result builtinMakeTensorDescriptor(Emitter &E, CallArgs &Args,
                                   const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.make_tensor_descriptor",
                  {"base", "shape", "strides", "block_shape", "padding_option"},
                  4);
  if (failed(A))
    return failure();
  auto T = getDescribedTensor(C, *A, /*NoNarrowing=*/false);
  auto Padding = getPadding(C, A->get("padding_option"));
  if (failed(T) || failed(Padding))
    return failure();
  return TValue::ir(mlir::tle::MakeTensorDescOp::create(C.B, C.L, T->Type,
                                                        T->Base, T->Shape,
                                                        T->Strides, *Padding),
                    T->IsUnsigned);
}

FailureOr<SmallVector<Value>> descriptorOffsets(Ctx &C, const CallArg *A,
                                                size_t Rank) {
  SmallVector<Value> Offsets;
  std::vector<TValue> Elts = A->Value.is(TValue::Kind::Tuple)
                                 ? A->Value.getElements()
                                 : std::vector<TValue>{A->Value};
  for (const TValue &V : Elts) {
    auto I = C.E.convert(V, DType{C.B.getI32Type()}, C.Site);
    if (failed(I))
      return failure();
    Offsets.push_back(I->getValue());
  }
  if (Offsets.size() != Rank)
    return (C.E.error(C.Site, "expected " + llvm::Twine(Rank) +
                                         " offsets, got " +
                                         llvm::Twine(Offsets.size())));
  return Offsets;
}

Result builtinDescriptorLoad(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("desc.load", {"desc", "offsets"}, 2);
  if (failed(A))
    return failure();
  auto Desc = cast<mlir::tle::TensorDescType>(A->get("desc")->Value.getType());
  auto Offsets = descriptorOffsets(C, A->get("offsets"),
                                   Desc.getBlockType().getRank());
  if (failed(Offsets))
    return failure();
  return TValue::ir(mlir::tle::DescriptorLoadOp::create(
                        C.B, C.L, Desc.getBlockType(),
                        A->get("desc")->Value.getValue(), *Offsets,
                        /*boundary_check=*/nullptr),
                    A->get("desc")->Value.isUnsigned());
}

Result builtinDescriptorStore(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("desc.store", {"desc", "offsets", "value"}, 3);
  if (failed(A))
    return failure();
  auto Desc = cast<mlir::tle::TensorDescType>(A->get("desc")->Value.getType());
  auto Offsets = descriptorOffsets(C, A->get("offsets"),
                                   Desc.getBlockType().getRank());
  if (failed(Offsets))
    return failure();
  auto V = E.convert(A->get("value")->Value,
                     DType{Desc.getBlockType().getElementType(),
                           A->get("desc")->Value.isUnsigned()},
                     Site);
  if (failed(V))
    return failure();
  auto BV = E.broadcastTo(*V, Desc.getBlockType().getShape(), Site);
  if (failed(BV))
    return failure();
  mlir::tle::DescriptorStoreOp::create(
      C.B, C.L, A->get("desc")->Value.getValue(), BV->getValue(), *Offsets,
      /*boundary_check=*/nullptr);
  return TValue::none();
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//
//
// Triton 3.6's tl.make_block_ptr (removed in later Tritons, still common in
// real kernels) is a tensor descriptor and run-time offsets: tl.advance
// moves the offsets, and loads and stores through it are descriptor loads
// and stores at them, so block pointers share the descriptors' lowering
// (tensor copies where the target has them).

/// Dimensions of a block of `Rank` dimensions: an int or a tuple of them,
/// each from 0 to Rank - 1.
FailureOr<SmallVector<int64_t>> blockDims(Ctx &C, const CallArg *Arg,
                                          llvm::StringRef What, size_t Rank) {
  std::vector<TValue> Elts = Arg->Value.is(TValue::Kind::Tuple)
                                 ? Arg->Value.getElements()
                                 : std::vector<TValue>{Arg->Value};
  SmallVector<int64_t> Dims;
  for (const TValue &D : Elts) {
    if (!D.is(TValue::Kind::Int) || D.getInt() < 0 ||
        D.getInt() >= int64_t(Rank))
      return C.E.error(C.Site, What +
                                   " must list dimensions of the block (0 "
                                   "to " +
                                   llvm::Twine(Rank - 1) + "), got " +
                                   D.describe());
    if (llvm::is_contained(Dims, D.getInt()))
      return C.E.error(C.Site, What + " lists dimension " +
                                   llvm::Twine(D.getInt()) + " twice");
    Dims.push_back(D.getInt());
  }
  return Dims;
}

Result builtinMakeBlockPtr(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind(
      "tl.make_block_ptr",
      {"base", "shape", "strides", "offsets", "block_shape", "order"}, 6);
  if (failed(A))
    return failure();
  auto T = getDescribedTensor(C, *A, /*NoNarrowing=*/true);
  if (failed(T))
    return failure();
  size_t Rank = T->Type.getBlockType().getRank();
  SmallVector<Value> Offsets;
  if (failed(tensorDims(C, A->get("offsets"), "offsets",
                        DType{C.B.getI32Type()}, Rank, Offsets,
                        /*NoNarrowing=*/true)))
    return failure();
  // The memory order is a layout hint; it must still be a permutation.
  auto Order = blockDims(C, A->get("order"), "order", Rank);
  if (failed(Order))
    return failure();
  if (Order->size() != Rank)
    return C.fail("order must be a permutation of the " + llvm::Twine(Rank) +
                  " dimensions of block_shape");
  Value Desc = mlir::tle::MakeTensorDescOp::create(
      C.B, C.L, T->Type, T->Base, T->Shape, T->Strides,
      mlir::tle::PaddingOption::Zero);
  std::vector<TValue> OffsetValues;
  for (Value V : Offsets)
    OffsetValues.push_back(TValue::ir(V));
  return TValue::blockPointer(Desc, std::move(OffsetValues), T->IsUnsigned);
}

Result builtinAdvance(Emitter &E, CallArgs &Args, const Node *Site) {
  Ctx C(E, Args, Site);
  auto A = C.bind("tl.advance", {"base", "offsets"}, 2);
  if (failed(A))
    return failure();
  const TValue &Ptr = A->get("base")->Value;
  if (!Ptr.is(TValue::Kind::BlockPtr))
    return C.fail("tl.advance needs a block pointer (tl.make_block_ptr), got " +
                  Ptr.describe());
  auto Deltas =
      descriptorOffsets(C, A->get("offsets"), Ptr.getElements().size());
  if (failed(Deltas))
    return failure();
  std::vector<TValue> Offsets;
  for (auto [Offset, Delta] : llvm::zip(Ptr.getElements(), *Deltas))
    Offsets.push_back(
        TValue::ir(arith::AddIOp::create(C.B, C.L, Offset.getValue(), Delta)));
  return TValue::blockPointer(Ptr.getValue(), std::move(Offsets),
                              Ptr.isUnsigned());
}

/// How a load or store through a block pointer accesses its descriptor.
struct BlockPointerAccess {
  Value Desc;
  SmallVector<Value> Offsets;
  /// boundary_check's dimensions; null where it lists them all (the
  /// descriptors' default).
  DenseI32ArrayAttr Checked;
};

/// The access through block pointer `Ptr` that checks the dimensions
/// `BoundaryCheck` lists (Triton masks and pads no other) and pads with
/// `Padding`: the block pointer's descriptor, or for NaN padding a copy of
/// it made next to it.
FailureOr<BlockPointerAccess>
getBlockPointerAccess(Ctx &C, const TValue &Ptr, const CallArg *BoundaryCheck,
                      mlir::tle::PaddingOption Padding) {
  auto Make = Ptr.getValue().getDefiningOp<mlir::tle::MakeTensorDescOp>();
  size_t Rank = Ptr.getElements().size();
  BlockPointerAccess Access{Ptr.getValue(), {}, {}};
  for (const TValue &Offset : Ptr.getElements())
    Access.Offsets.push_back(Offset.getValue());
  SmallVector<int32_t> Checked;
  if (BoundaryCheck && BoundaryCheck->Value.isTruthy()) {
    auto Dims = blockDims(C, BoundaryCheck, "boundary_check", Rank);
    if (failed(Dims))
      return failure();
    Checked.assign(Dims->begin(), Dims->end());
  }
  if (Checked.size() != Rank)
    Access.Checked = C.B.getDenseI32ArrayAttr(Checked);
  if (Padding == Make.getPadding() || Checked.empty())
    return Access;
  OpBuilder::InsertionGuard Guard(C.B);
  C.B.setInsertionPointAfter(Make);
  Access.Desc = mlir::tle::MakeTensorDescOp::create(
      C.B, Make.getLoc(), Make.getType(), Make.getBase(), Make.getShape(),
      Make.getStrides(), Padding);
  return Access;
}

Result loadBlockPointer(Ctx &C, const BoundArgs &A) {
  if (failed(rejectArgs(C, A, {"mask", "other"},
                        "does not apply to a block pointer; use "
                        "boundary_check (and padding_option)")))
    return failure();
  auto Padding = getPadding(C, A.get("padding_option"));
  if (failed(Padding))
    return failure();
  auto Access = getBlockPointerAccess(C, A.get("pointer")->Value,
                                      A.get("boundary_check"), *Padding);
  if (failed(Access))
    return failure();
  auto DescType = cast<mlir::tle::TensorDescType>(Access->Desc.getType());
  return TValue::ir(mlir::tle::DescriptorLoadOp::create(
                        C.B, C.L, DescType.getBlockType(), Access->Desc,
                        Access->Offsets, Access->Checked),
                    A.get("pointer")->Value.isUnsigned());
}

Result storeBlockPointer(Ctx &C, const BoundArgs &A) {
  if (failed(rejectArgs(C, A, {"mask"},
                        "does not apply to a block pointer; use "
                        "boundary_check")))
    return failure();
  auto Access =
      getBlockPointerAccess(C, A.get("pointer")->Value, A.get("boundary_check"),
                            mlir::tle::PaddingOption::Zero);
  if (failed(Access))
    return failure();
  RankedTensorType Block =
      cast<mlir::tle::TensorDescType>(Access->Desc.getType()).getBlockType();
  auto V = C.E.convert(
      A.get("value")->Value,
      DType{Block.getElementType(), A.get("pointer")->Value.isUnsigned()},
      C.Site);
  if (failed(V))
    return failure();
  auto BV = C.E.broadcastTo(*V, Block.getShape(), C.Site);
  if (failed(BV))
    return failure();
  mlir::tle::DescriptorStoreOp::create(C.B, C.L, Access->Desc, BV->getValue(),
                                       Access->Offsets, Access->Checked);
  return TValue::none();
}
} // namespace

void ::tle::frontend::registerLanguageBuiltins(
    llvm::StringMap<BuiltinFn> &Table) {
  Table["tl.program_id"] = builtinProgramId;
  Table["tl.num_programs"] = builtinNumPrograms;
  Table["tl.arange"] = builtinArange;
  Table["tl.zeros"] = builtinZeros;
  Table["tl.full"] = builtinFull;
  Table["tl.zeros_like"] = builtinZerosLike;
  Table["tl.load"] = builtinLoad;
  Table["tl.store"] = builtinStore;
  Table["tl.atomic_add"] = builtinAtomicadd;
  Table["tl.atomic_max"] = builtinAtomicmax;
  Table["tl.atomic_min"] = builtinAtomicmin;
  Table["tl.atomic_and"] = builtinAtomicand;
  Table["tl.atomic_or"] = builtinAtomicor;
  Table["tl.atomic_xor"] = builtinAtomicxor;
  Table["tl.atomic_xchg"] = builtinAtomicxchg;
  Table["tl.atomic_cas"] = builtinAtomicCas;
  Table["tl.dot"] = builtinDot;
  Table["tl.reshape"] = builtinReshape;
  Table["tl.view"] = builtinReshape;
  Table["tl.ravel"] = builtinRavel;
  Table["tl.trans"] = builtinTrans;
  Table["tl.permute"] = builtinPermute;
  Table["tl.expand_dims"] = builtinExpandDims;
  Table["tl.broadcast_to"] = builtinBroadcastTo;
  Table["tl.broadcast"] = builtinBroadcast;
  Table["tl.join"] = builtinJoin;
  Table["tl.split"] = builtinSplit;
  Table["tl.interleave"] = builtinInterleave;
  Table["tl.cat"] = builtinCat;
  Table["tl.cast"] = builtinCast;
  Table["tl.where"] = builtinWhere;
  Table["tl.histogram"] = builtinHistogram;
  Table["tl.gather"] = builtinGather;
  Table["tl.multiple_of"] = builtinMultipleOf;
  Table["tl.max_contiguous"] = builtinMaxContiguous;
  Table["tl.max_constancy"] = builtinMaxConstancy;
  Table["tl.assume"] = builtinAssume;
  Table["tl.debug_barrier"] = builtinDebugBarrier;
  Table["tl.static_assert"] = builtinStaticAssert;
  Table["tl.static_print"] = builtinStaticPrint;
  Table["tl.device_assert"] = builtinDeviceAssert;
  Table["tl.device_print"] = builtinDevicePrint;
  Table["tl.constexpr"] = builtinConstexpr;
  Table["tl.dtype"] = builtinDTypeByName;
  Table["tl.cdiv"] = builtinCdiv;
  Table["tl._log2"] = builtinLog2Constexpr;
  Table["tl.get_int_dtype"] = builtinGetIntDtype;
  Table["tl.pointer_type"] = builtinPointerType;
  Table["tl.make_block_ptr"] = builtinMakeBlockPtr;
  Table["tl.advance"] = builtinAdvance;
  Table["tl.make_tensor_descriptor"] = builtinMakeTensorDescriptor;
  Table["tl.descriptor.load"] = builtinDescriptorLoad;
  Table["tl.descriptor.store"] = builtinDescriptorStore;
}
