//===- BuiltinsMath.cpp - triton.language: math, reductions and scans -----===//

#include "core/frontend/lower/Builtins.h"
#include "core/frontend/lower/Emitter.h"

#include "dialects/TLE/TLEDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace ::tle::frontend;

namespace {
/// Builds the combined values of one reduction or scan step from the
/// accumulated (first half) and new (second half) block arguments.
using CombineFn =
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;

Result floatOperand(Emitter &E, const CallArg *A, llvm::StringRef Fn,
                    const Node *Site) {
  auto X = E.requireIR(A, "x", Site);
  if (failed(X))
    return failure();
  if (!isFloatType(getScalarType(X->getType())))
    return (E.error(A->Source ? A->Source : Site,
                           Fn + " expects a floating-point argument, got " +
                               X->describe() + "; convert it with .to()"));
  return X;
}

/// The one floating-point argument `x` of a unary math builtin.
Result unaryFloatOperand(Emitter &E, CallArgs &Args, const Node *Site,
                         llvm::StringRef Fn) {
  auto A = E.bind(Args, {"x"}, 1, Fn, Site);
  if (failed(A))
    return failure();
  return floatOperand(E, A->get("x"), Fn, Site);
}

/// `afn` where Triton computes an fp32 function approximately: tl.exp,
/// tl.sqrt and tl.rsqrt are ex2.approx (of x * log2(e)), sqrt.approx and
/// rsqrt.approx on NVIDIA, a few instructions where the exact ones take
/// several more. Their libdevice namesakes and tl.sqrt_rn stay exact.
arith::FastMathFlags approximateFlags(Value X, bool Approximate) {
  return Approximate && getScalarType(X.getType()).isF32()
             ? arith::FastMathFlags::afn
             : arith::FastMathFlags::none;
}

template <typename OpT>
Result unaryFloat(Emitter &E, CallArgs &Args, const Node *Site,
                  llvm::StringRef Fn, bool Approximate = false) {
  auto X = unaryFloatOperand(E, Args, Site, Fn);
  if (failed(X))
    return failure();
  Value V = X->getValue();
  return TValue::ir(OpT::create(E.getBuilder(), E.loc(Site), V,
                                approximateFlags(V, Approximate)));
}

/// e^x, approximate for tl.exp (see approximateFlags).
Value emitExp(OpBuilder &B, Location L, Value X, bool Approximate) {
  return math::ExpOp::create(B, L, X, approximateFlags(X, Approximate));
}

Result builtinExp(Emitter &E, CallArgs &Args, const Node *Site) {
  return unaryFloat<math::ExpOp>(E, Args, Site, "tl.exp",
                                 /*Approximate=*/true);
}
Result builtinLibdeviceExp(Emitter &E, CallArgs &Args, const Node *Site) {
  return unaryFloat<math::ExpOp>(E, Args, Site, "libdevice.exp");
}
Result builtinSqrt(Emitter &E, CallArgs &Args, const Node *Site) {
  return unaryFloat<math::SqrtOp>(E, Args, Site, "tl.sqrt",
                                  /*Approximate=*/true);
}
Result builtinSqrtRn(Emitter &E, CallArgs &Args, const Node *Site) {
  return unaryFloat<math::SqrtOp>(E, Args, Site, "tl.sqrt_rn");
}
Result builtinLibdeviceSqrt(Emitter &E, CallArgs &Args, const Node *Site) {
  return unaryFloat<math::SqrtOp>(E, Args, Site, "libdevice.sqrt");
}
Result builtinRsqrt(Emitter &E, CallArgs &Args, const Node *Site) {
  return unaryFloat<math::RsqrtOp>(E, Args, Site, "tl.rsqrt",
                                   /*Approximate=*/true);
}

#define TLE_UNARY_FLOAT(Name, OpT)                                             \
  Result builtin_##Name(Emitter &E, CallArgs &Args, const Node *Site) {        \
    return unaryFloat<OpT>(E, Args, Site, "tl." #Name);                        \
  }
TLE_UNARY_FLOAT(exp2, math::Exp2Op)
TLE_UNARY_FLOAT(log, math::LogOp)
TLE_UNARY_FLOAT(log2, math::Log2Op)
TLE_UNARY_FLOAT(log1p, math::Log1pOp)
TLE_UNARY_FLOAT(sin, math::SinOp)
TLE_UNARY_FLOAT(cos, math::CosOp)
TLE_UNARY_FLOAT(tan, math::TanOp)
TLE_UNARY_FLOAT(tanh, math::TanhOp)
TLE_UNARY_FLOAT(erf, math::ErfOp)
TLE_UNARY_FLOAT(floor, math::FloorOp)
TLE_UNARY_FLOAT(ceil, math::CeilOp)
TLE_UNARY_FLOAT(trunc, math::TruncOp)
TLE_UNARY_FLOAT(acos, math::AcosOp)
TLE_UNARY_FLOAT(asin, math::AsinOp)
TLE_UNARY_FLOAT(atan, math::AtanOp)
TLE_UNARY_FLOAT(sinh, math::SinhOp)
TLE_UNARY_FLOAT(cosh, math::CoshOp)
TLE_UNARY_FLOAT(asinh, math::AsinhOp)
TLE_UNARY_FLOAT(acosh, math::AcoshOp)
TLE_UNARY_FLOAT(atanh, math::AtanhOp)
#undef TLE_UNARY_FLOAT

Result builtinAbs(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x"}, 1, "tl.abs", Site);
  if (failed(A))
    return failure();
  auto X = E.requireIR(A->get("x"), "x", Site);
  if (failed(X))
    return failure();
  if (isFloatType(getScalarType(X->getType())))
    return TValue::ir(
        math::AbsFOp::create(E.getBuilder(), E.loc(Site), X->getValue()));
  if (!isIntType(getScalarType(X->getType())))
    return E.error(Site, "tl.abs needs numbers, got " + X->describe());
  if (X->isUnsigned())
    return X;
  return TValue::ir(
      math::AbsIOp::create(E.getBuilder(), E.loc(Site), X->getValue()));
}

Result builtinSigmoid(Emitter &E, CallArgs &Args, const Node *Site) {
  auto X = unaryFloatOperand(E, Args, Site, "tl.sigmoid");
  if (failed(X))
    return failure();
  // 1 / (1 + tl.exp(-x)), as triton.language.standard.sigmoid.
  OpBuilder &B = E.getBuilder();
  Location L = E.loc(Site);
  Value Neg = arith::NegFOp::create(B, L, X->getValue());
  Value Exp = emitExp(B, L, Neg, /*Approximate=*/true);
  DType T{getScalarType(X->getType())};
  Value One = E.splatConstant(TValue::floating(1.0), T,
                              getShape(X->getType()), Site);
  Value Den = arith::AddFOp::create(B, L, One, Exp);
  return TValue::ir(E.trueDivide(One, Den, L));
}

/// maximum/minimum of two promoted operands (NaN-ignoring for floats, as
/// Triton's default propagate_nan=NONE).
Value emitMinMax(OpBuilder &B, Location L, Value X, Value Y, bool IsMax,
                 bool IsUnsigned, bool PropagateNan) {
  if (isFloatType(getScalarType(X.getType()))) {
    if (PropagateNan)
      return IsMax ? Value(arith::MaximumFOp::create(B, L, X, Y))
                   : Value(arith::MinimumFOp::create(B, L, X, Y));
    return IsMax ? Value(arith::MaxNumFOp::create(B, L, X, Y))
                 : Value(arith::MinNumFOp::create(B, L, X, Y));
  }
  if (IsUnsigned)
    return IsMax ? Value(arith::MaxUIOp::create(B, L, X, Y))
                 : Value(arith::MinUIOp::create(B, L, X, Y));
  return IsMax ? Value(arith::MaxSIOp::create(B, L, X, Y))
               : Value(arith::MinSIOp::create(B, L, X, Y));
}

bool propagatesNan(const BoundArgs &A) {
  const CallArg *P = A.get("propagate_nan");
  if (!P)
    return false;
  if (P->Value.is(TValue::Kind::Str))
    return P->Value.getStr() == "all" || P->Value.getStr() == "ALL";
  return P->Value.isTruthy();
}

/// X and Y converted to their promoted type T and broadcast to one shape.
LogicalResult convertPair(Emitter &E, TValue &X, TValue &Y, DType T,
                          const Node *Site) {
  auto CX = E.convert(X, T, Site), CY = E.convert(Y, T, Site);
  if (failed(CX) || failed(CY))
    return failure();
  X = *CX;
  Y = *CY;
  return E.broadcastPair(X, Y, Site);
}

/// Binds `Fn(x, y)` and converts both to their promoted type, which it
/// returns.
FailureOr<DType> bindPromotedPair(Emitter &E, CallArgs &Args, StringRef Fn,
                                  const Node *Site, TValue &X, TValue &Y) {
  auto A = E.bind(Args, {"x", "y"}, 2, Fn, Site);
  if (failed(A))
    return failure();
  X = A->get("x")->Value;
  Y = A->get("y")->Value;
  auto T = E.promote(X, Y, false, Site);
  if (failed(T) || failed(convertPair(E, X, Y, *T, Site)))
    return failure();
  return *T;
}

Result minMax(Emitter &E, CallArgs &Args, const Node *Site, bool IsMax) {
  llvm::StringRef Fn = IsMax ? "tl.maximum" : "tl.minimum";
  auto A = E.bind(Args, {"x", "y", "propagate_nan"}, 2, Fn, Site);
  if (failed(A))
    return failure();
  TValue X = A->get("x")->Value, Y = A->get("y")->Value;
  auto T = E.promote(X, Y, false, Site);
  if (failed(T))
    return failure();
  if (failed(convertPair(E, X, Y, *T, Site)))
    return failure();
  return TValue::ir(emitMinMax(E.getBuilder(), E.loc(Site), X.getValue(),
                               Y.getValue(), IsMax, T->IsUnsigned,
                               propagatesNan(*A)),
                    T->IsUnsigned);
}

/// tl.umulhi(x, y): the high half of the integers' full product, taken as
/// unsigned whatever their type's signedness (Triton's tt.mulhiui: int32 -1
/// times -1 gives 0xFFFFFFFE), for Philox random numbers among others.
Result builtinUmulhi(Emitter &E, CallArgs &Args, const Node *Site) {
  TValue X, Y;
  FailureOr<DType> T = bindPromotedPair(E, Args, "tl.umulhi", Site, X, Y);
  if (failed(T))
    return failure();
  if (!isIntType(T->Type))
    return E.error(Site, "tl.umulhi needs integer operands");
  OpBuilder &B = E.getBuilder();
  Location L = E.loc(Site);
  Value High = arith::MulUIExtendedOp::create(B, L, X.getValue(), Y.getValue())
                   .getHigh();
  return TValue::ir(High, T->IsUnsigned);
}

Result builtinMaximum(Emitter &E, CallArgs &Args, const Node *Site) {
  return minMax(E, Args, Site, true);
}
Result builtinMinimum(Emitter &E, CallArgs &Args, const Node *Site) {
  return minMax(E, Args, Site, false);
}

Result builtinClamp(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x", "min", "max", "propagate_nan"}, 3, "tl.clamp",
                  Site);
  if (failed(A))
    return failure();
  CallArgs Lo;
  Lo.Positional = {*A->get("x"), *A->get("min")};
  auto Low = minMax(E, Lo, Site, true);
  if (failed(Low))
    return failure();
  CallArgs Hi;
  Hi.Positional = {CallArg{*Low, Site}, *A->get("max")};
  return minMax(E, Hi, Site, false);
}

/// tl.math.div_rn(x, y) and tl.fdiv(x, y, ieee_rounding): division rounded
/// to nearest (exact), or `/`'s when ieee_rounding is false.
Result divide(Emitter &E, CallArgs &Args, const Node *Site, llvm::StringRef Fn,
              bool Exact) {
  auto A = Exact ? E.bind(Args, {"x", "y"}, 2, Fn, Site)
                 : E.bind(Args, {"x", "y", "ieee_rounding"}, 2, Fn, Site);
  if (failed(A))
    return failure();
  if (const CallArg *Ieee = A->get("ieee_rounding"))
    Exact = Ieee->Value.isTruthy();
  TValue X = A->get("x")->Value, Y = A->get("y")->Value;
  auto T = E.promote(X, Y, false, Site);
  if (failed(T) || !isFloatType(T->Type))
    return (E.error(Site, Fn + " needs floating-point operands"));
  if (failed(convertPair(E, X, Y, *T, Site)))
    return failure();
  Location L = E.loc(Site);
  if (Exact)
    return TValue::ir(arith::DivFOp::create(E.getBuilder(), L, X.getValue(),
                                            Y.getValue()));
  return TValue::ir(E.trueDivide(X.getValue(), Y.getValue(), L));
}
Result builtinDivRn(Emitter &E, CallArgs &Args, const Node *Site) {
  return divide(E, Args, Site, "tl.math.div_rn", true);
}
Result builtinFdiv(Emitter &E, CallArgs &Args, const Node *Site) {
  return divide(E, Args, Site, "tl.fdiv", false);
}

Result builtinFma(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x", "y", "z"}, 3, "tl.fma", Site);
  if (failed(A))
    return failure();
  TValue X = A->get("x")->Value, Y = A->get("y")->Value, Z = A->get("z")->Value;
  auto T1 = E.promote(X, Y, false, Site);
  if (failed(T1))
    return failure();
  auto T = E.promote(*T1, Z, false, Site);
  if (failed(T) || !isFloatType(T->Type))
    return (E.error(Site, "tl.fma needs floating-point operands"));
  auto CX = E.convert(X, *T, Site), CY = E.convert(Y, *T, Site),
       CZ = E.convert(Z, *T, Site);
  if (failed(CX) || failed(CY) || failed(CZ))
    return failure();
  TValue P[] = {*CX, *CY, *CZ};
  if (failed(E.broadcastAll(P, Site)))
    return failure();
  return TValue::ir(math::FmaOp::create(E.getBuilder(), E.loc(Site),
                                        P[0].getValue(), P[1].getValue(),
                                        P[2].getValue()));
}

/// A libdevice function of two floating-point operands, promoted to one
/// type.
template <typename OpT>
Result binaryLibdevice(Emitter &E, CallArgs &Args, const Node *Site,
                       llvm::StringRef Fn) {
  TValue X, Y;
  FailureOr<DType> T = bindPromotedPair(E, Args, Fn, Site, X, Y);
  if (failed(T))
    return failure();
  if (!isFloatType(T->Type))
    return E.error(Site, Fn + " needs floating-point operands");
  return TValue::ir(
      OpT::create(E.getBuilder(), E.loc(Site), X.getValue(), Y.getValue()));
}

/// libdevice.pow(x, y): x to the power y.
Result builtinLibdevicePow(Emitter &E, CallArgs &Args, const Node *Site) {
  return binaryLibdevice<math::PowFOp>(E, Args, Site, "libdevice.pow");
}

/// libdevice.atan2(y, x): the angle of the point (x, y).
Result builtinLibdeviceAtan2(Emitter &E, CallArgs &Args, const Node *Site) {
  return binaryLibdevice<math::Atan2Op>(E, Args, Site, "libdevice.atan2");
}

/// libdevice.fmod(x, y): x - trunc(x / y) * y, the sign of x (C's fmod).
Result builtinLibdeviceFmod(Emitter &E, CallArgs &Args, const Node *Site) {
  return binaryLibdevice<arith::RemFOp>(E, Args, Site, "libdevice.fmod");
}

/// libdevice.rint(x): x rounded to the nearest integer, halfway cases to
/// even.
Result builtinLibdeviceRint(Emitter &E, CallArgs &Args, const Node *Site) {
  return unaryFloat<math::RoundEvenOp>(E, Args, Site, "libdevice.rint");
}

/// libdevice's classification functions (isnan, isinf, finitef,
/// isfinited): an int32 that is 1 where the class holds and 0 elsewhere, as
/// the __nv_ functions return it.
enum class FloatClass { NaN, Infinite, Finite };
Result classify(Emitter &E, CallArgs &Args, const Node *Site,
                llvm::StringRef Fn, FloatClass Class) {
  auto X = unaryFloatOperand(E, Args, Site, Fn);
  if (failed(X))
    return failure();
  OpBuilder &B = E.getBuilder();
  Location L = E.loc(Site);
  Value V = X->getValue();
  Value Holds;
  if (Class == FloatClass::NaN) {
    Holds = arith::CmpFOp::create(B, L, arith::CmpFPredicate::UNO, V, V);
  } else {
    Type Elem = getScalarType(V.getType());
    TypedAttr Inf = B.getFloatAttr(
        Elem, APFloat::getInf(cast<FloatType>(Elem).getFloatSemantics()));
    Value InfV =
        isa<RankedTensorType>(V.getType())
            ? Value(arith::ConstantOp::create(
                  B, L,
                  DenseElementsAttr::get(cast<ShapedType>(V.getType()), Inf)))
            : Value(arith::ConstantOp::create(B, L, Inf));
    Value Magnitude = math::AbsFOp::create(B, L, V);
    // Ordered comparisons: NaN is neither infinite nor finite.
    Holds = arith::CmpFOp::create(B, L,
                                  Class == FloatClass::Infinite
                                      ? arith::CmpFPredicate::OEQ
                                      : arith::CmpFPredicate::ONE,
                                  Magnitude, InfV);
  }
  Type I32 = B.getI32Type();
  if (auto Tensor = dyn_cast<RankedTensorType>(V.getType()))
    I32 = RankedTensorType::get(Tensor.getShape(), I32);
  return TValue::ir(arith::ExtUIOp::create(B, L, I32, Holds));
}
Result builtinLibdeviceIsnan(Emitter &E, CallArgs &Args, const Node *Site) {
  return classify(E, Args, Site, "libdevice.isnan", FloatClass::NaN);
}
Result builtinLibdeviceIsinf(Emitter &E, CallArgs &Args, const Node *Site) {
  return classify(E, Args, Site, "libdevice.isinf", FloatClass::Infinite);
}
Result builtinLibdeviceIsfinite(Emitter &E, CallArgs &Args, const Node *Site) {
  return classify(E, Args, Site, "libdevice.finitef / isfinited",
                  FloatClass::Finite);
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

/// Flattens `V` to 1-D (for axis=None reductions).
Value flatten(Emitter &E, Value V, const Node *Site) {
  auto T = cast<RankedTensorType>(V.getType());
  if (T.getRank() == 1)
    return V;
  return mlir::tle::ReshapeOp::create(E.getBuilder(), E.loc(Site),
                                RankedTensorType::get({T.getNumElements()},
                                                      T.getElementType()),
                                V, /*allow_reorder=*/true);
}

/// Reduces `Inputs` (same shape) along `Axis` (None: all elements).
FailureOr<std::vector<TValue>>
reduce(Emitter &E, std::vector<TValue> Inputs, std::optional<int64_t> Axis,
       bool KeepDims, const Node *Site,
       llvm::function_ref<LogicalResult(Block &)> BuildCombiner) {
  OpBuilder &B = E.getBuilder();
  Location L = E.loc(Site);
  SmallVector<Value> Srcs;
  for (const TValue &In : Inputs) {
    Value V = In.getValue();
    if (!Axis)
      V = flatten(E, V, Site);
    Srcs.push_back(V);
  }
  int64_t Ax = Axis.value_or(0);
  auto SrcType = cast<RankedTensorType>(Srcs[0].getType());
  SmallVector<Type> ResultTypes, ElemTypes;
  SmallVector<int64_t> Shape(SrcType.getShape());
  Shape.erase(Shape.begin() + Ax);
  for (Value S : Srcs) {
    Type Elem = getScalarType(S.getType());
    ElemTypes.push_back(Elem);
    ResultTypes.push_back(Shape.empty() ? Elem
                                        : Type(RankedTensorType::get(Shape,
                                                                     Elem)));
  }
  auto Op = mlir::tle::ReduceOp::create(B, L, ResultTypes, Srcs, Ax);
  SmallVector<Type> ArgTypes(ElemTypes);
  ArgTypes.append(ElemTypes);
  SmallVector<Location> Locs(ArgTypes.size(), L);
  Block *Body = B.createBlock(&Op.getCombineOp(), {}, ArgTypes, Locs);
  B.setInsertionPointAfter(Op);
  if (failed(BuildCombiner(*Body)))
    return failure();
  std::vector<TValue> Results;
  for (auto [I, R] : llvm::enumerate(Op.getResults())) {
    TValue V = TValue::ir(R, Inputs[I].isUnsigned());
    if (KeepDims) {
      SmallVector<int64_t> Kept(Axis ? SrcType.getShape()
                                     : ArrayRef<int64_t>());
      if (Axis)
        Kept[Ax] = 1;
      else
        Kept.assign(getShape(Inputs[I].getType()).size(), 1);
      Value In = R;
      if (!isa<RankedTensorType>(In.getType()))
        In = mlir::tle::SplatOp::create(B, L, RankedTensorType::get({}, In.getType()),
                                  In);
      auto Flat = cast<RankedTensorType>(In.getType());
      V = TValue::ir(mlir::tle::ReshapeOp::create(B, L, Flat.clone(Kept), In, false),
                     Inputs[I].isUnsigned());
    }
    Results.push_back(V);
  }
  return Results;
}

/// Simple combiners: a binary op applied to (acc, new).
LogicalResult simpleCombiner(Emitter &E, Block &Body, const Node *Site,
                             CombineFn Fn) {
  OpBuilder::InsertionGuard G(E.getBuilder());
  E.getBuilder().setInsertionPointToStart(&Body);
  SmallVector<Value> R =
      Fn(E.getBuilder(), E.loc(Site), Body.getArguments());
  mlir::tle::ReduceReturnOp::create(E.getBuilder(), E.loc(Site), R);
  return success();
}

FailureOr<std::pair<TValue, std::optional<int64_t>>>
reductionInput(Emitter &E, const BoundArgs &A, const Node *Site,
               llvm::StringRef Fn) {
  auto X = E.requireTensor(A.get("input"), "input", Site);
  if (failed(X))
    return failure();
  int64_t Rank = getShape(X->getType()).size();
  std::optional<int64_t> Axis;
  if (const CallArg *Ax = A.get("axis"); Ax && !Ax->Value.is(TValue::Kind::None)) {
    auto I = E.requireInt(Ax, "axis", Site);
    if (failed(I))
      return failure();
    int64_t V = *I < 0 ? *I + Rank : *I;
    if (V < 0 || V >= Rank)
      return (E.error(Ax->Source ? Ax->Source : Site,
                             Fn + ": axis " + llvm::Twine(*I) +
                                 " is out of range for a tensor of rank " +
                                 llvm::Twine(Rank)));
    Axis = V;
  }
  return std::make_pair(*X, Axis);
}

bool keepDims(const BoundArgs &A) {
  return A.has("keep_dims") && A.get("keep_dims")->Value.isTruthy();
}

Result builtinSum(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"input", "axis", "keep_dims", "dtype"}, 1, "tl.sum",
                  Site);
  if (failed(A))
    return failure();
  auto In = reductionInput(E, *A, Site, "tl.sum");
  if (failed(In))
    return failure();
  TValue X = In->first;
  Type Elem = getScalarType(X.getType());
  OpBuilder &B = E.getBuilder();
  // Triton sums narrow integers in 32 bits and halves in fp32.
  DType Acc{Elem, X.isUnsigned()};
  if (A->has("dtype")) {
    auto T = E.requireDType(A->get("dtype"), "dtype", Site);
    if (failed(T))
      return failure();
    Acc = *T;
  } else if (isIntType(Elem) && Elem.getIntOrFloatBitWidth() < 32) {
    Acc = DType{B.getI32Type(), X.isUnsigned()};
  } else if (isFloatType(Elem) && Elem.getIntOrFloatBitWidth() < 32) {
    Acc = DType{B.getF32Type()};
  }
  auto C = E.convert(X, Acc, Site);
  if (failed(C))
    return failure();
  bool IsFloat = isFloatType(Acc.Type);
  auto R = reduce(E, {*C}, In->second, keepDims(*A), Site, [&](Block &Body) {
    return simpleCombiner(E, Body, Site,
                          [&](OpBuilder &B, Location L, ValueRange V) {
                            Value S = IsFloat ? Value(arith::AddFOp::create(
                                                    B, L, V[0], V[1]))
                                              : Value(arith::AddIOp::create(
                                                    B, L, V[0], V[1]));
                            return SmallVector<Value>{S};
                          });
  });
  if (failed(R))
    return failure();
  return (*R)[0];
}

Result argReduce(Emitter &E, TValue X, std::optional<int64_t> Axis,
                 bool KeepDims, bool IsMax, const Node *Site) {
  OpBuilder &B = E.getBuilder();
  Location L = E.loc(Site);
  auto T = cast<RankedTensorType>(X.getType());
  if (!Axis) {
    X = TValue::ir(flatten(E, X.getValue(), Site), X.isUnsigned());
    T = cast<RankedTensorType>(X.getType());
    Axis = 0;
  }
  // Index along the axis, broadcast to the input shape.
  int64_t N = T.getDimSize(*Axis);
  Value Range = mlir::tle::MakeRangeOp::create(
      B, L, RankedTensorType::get({N}, B.getI32Type()), 0, N);
  SmallVector<int64_t> Shape(T.getRank(), 1);
  Shape[*Axis] = N;
  Value Idx = mlir::tle::ReshapeOp::create(
      B, L, RankedTensorType::get(Shape, B.getI32Type()), Range, false);
  auto BIdx = E.broadcastTo(TValue::ir(Idx), T.getShape(), Site);
  if (failed(BIdx))
    return failure();
  bool IsFloat = isFloatType(T.getElementType());
  bool U = X.isUnsigned();
  auto R = reduce(
      E, {X, *BIdx}, Axis, KeepDims, Site, [&](Block &Body) {
        return simpleCombiner(
            E, Body, Site, [&](OpBuilder &B, Location L, ValueRange V) {
              // (v0, i0) vs (v1, i1): keep v0 when it wins or ties with a
              // lower index (Triton's tie_break_left).
              Value V0 = V[0], I0 = V[1], V1 = V[2], I1 = V[3];
              Value Wins, Eq;
              if (IsFloat) {
                Wins = arith::CmpFOp::create(B, L,
                                             IsMax ? arith::CmpFPredicate::OGT
                                                   : arith::CmpFPredicate::OLT,
                                             V0, V1);
                Eq = arith::CmpFOp::create(B, L, arith::CmpFPredicate::OEQ, V0,
                                           V1);
              } else {
                auto P = IsMax ? (U ? arith::CmpIPredicate::ugt
                                    : arith::CmpIPredicate::sgt)
                               : (U ? arith::CmpIPredicate::ult
                                    : arith::CmpIPredicate::slt);
                Wins = arith::CmpIOp::create(B, L, P, V0, V1);
                Eq = arith::CmpIOp::create(B, L, arith::CmpIPredicate::eq, V0,
                                           V1);
              }
              Value Lower =
                  arith::CmpIOp::create(B, L, arith::CmpIPredicate::slt, I0, I1);
              Value TieLeft = arith::AndIOp::create(B, L, Eq, Lower);
              Value Keep = arith::OrIOp::create(B, L, Wins, TieLeft);
              return SmallVector<Value>{
                  arith::SelectOp::create(B, L, Keep, V0, V1),
                  arith::SelectOp::create(B, L, Keep, I0, I1)};
            });
      });
  if (failed(R))
    return failure();
  return (*R)[1];
}

Result minMaxReduce(Emitter &E, CallArgs &Args, const Node *Site, bool IsMax) {
  llvm::StringRef Fn = IsMax ? "tl.max" : "tl.min";
  auto A = E.bind(Args,
                  {"input", "axis", "return_indices",
                   "return_indices_tie_break_left", "keep_dims"},
                  1, Fn, Site);
  if (failed(A))
    return failure();
  auto In = reductionInput(E, *A, Site, Fn);
  if (failed(In))
    return failure();
  TValue X = In->first;
  bool U = X.isUnsigned();
  auto R = reduce(E, {X}, In->second, keepDims(*A), Site, [&](Block &Body) {
    return simpleCombiner(E, Body, Site,
                          [&](OpBuilder &B, Location L, ValueRange V) {
                            return SmallVector<Value>{
                                emitMinMax(B, L, V[0], V[1], IsMax, U, false)};
                          });
  });
  if (failed(R))
    return failure();
  if (A->has("return_indices") && A->get("return_indices")->Value.isTruthy()) {
    auto Idx = argReduce(E, X, In->second, keepDims(*A), IsMax, Site);
    if (failed(Idx))
      return failure();
    return TValue::tuple({(*R)[0], *Idx});
  }
  return (*R)[0];
}

Result builtinMax(Emitter &E, CallArgs &Args, const Node *Site) {
  return minMaxReduce(E, Args, Site, true);
}
Result builtinMin(Emitter &E, CallArgs &Args, const Node *Site) {
  return minMaxReduce(E, Args, Site, false);
}

Result argMinMax(Emitter &E, CallArgs &Args, const Node *Site, bool IsMax) {
  llvm::StringRef Fn = IsMax ? "tl.argmax" : "tl.argmin";
  auto A = E.bind(Args, {"input", "axis", "tie_break_left", "keep_dims"}, 2,
                  Fn, Site);
  if (failed(A))
    return failure();
  auto In = reductionInput(E, *A, Site, Fn);
  if (failed(In))
    return failure();
  return argReduce(E, In->first, In->second, keepDims(*A), IsMax, Site);
}

Result builtinArgmax(Emitter &E, CallArgs &Args, const Node *Site) {
  return argMinMax(E, Args, Site, true);
}
Result builtinArgmin(Emitter &E, CallArgs &Args, const Node *Site) {
  return argMinMax(E, Args, Site, false);
}

Result builtinReduce(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"input", "axis", "combine_fn", "keep_dims"}, 3,
                  "tl.reduce", Site);
  if (failed(A))
    return failure();
  const TValue &Input = A->get("input")->Value;
  std::vector<TValue> Inputs = Input.is(TValue::Kind::Tuple)
                                   ? Input.getElements()
                                   : std::vector<TValue>{Input};
  std::optional<int64_t> Axis;
  for (const TValue &In : Inputs)
    if (!In.is(TValue::Kind::IR) || !isa<RankedTensorType>(In.getType()))
      return (E.error(Site, "tl.reduce needs tensors, got " +
                                       In.describe()));
  if (A->has("axis")) {
    auto I = E.requireInt(A->get("axis"), "axis", Site);
    if (failed(I))
      return failure();
    int64_t Rank = getShape(Inputs[0].getType()).size();
    Axis = *I < 0 ? *I + Rank : *I;
    if (*Axis < 0 || *Axis >= Rank)
      return (E.error(Site, "tl.reduce: axis is out of range"));
  }
  auto R = reduce(E, Inputs, Axis, keepDims(*A), Site, [&](Block &Body) {
    return E.lowerCombiner(A->get("combine_fn")->Value, Body, Inputs, Site,
                           [&](ValueRange V) {
                             mlir::tle::ReduceReturnOp::create(E.getBuilder(),
                                                         E.loc(Site), V);
                           });
  });
  if (failed(R))
    return failure();
  // A tuple in, a tuple out (of one tensor too), as Triton's tl.reduce.
  if (!Input.is(TValue::Kind::Tuple))
    return (*R)[0];
  return TValue::tuple(*R);
}

/// The scan axis of a tensor of `Rank` dimensions (default 0).
FailureOr<int64_t> scanAxis(Emitter &E, const BoundArgs &A, int64_t Rank,
                            const Node *Site, llvm::StringRef Fn) {
  if (!A.has("axis"))
    return int64_t(0);
  auto I = E.requireInt(A.get("axis"), "axis", Site);
  if (failed(I))
    return failure();
  int64_t Axis = *I < 0 ? *I + Rank : *I;
  if (Axis < 0 || Axis >= Rank)
    return E.error(Site, Fn + ": axis is out of range");
  return Axis;
}

/// A tle.scan of `Inputs` along `Axis` with an empty combiner block (the
/// accumulated elements, then the new ones); the builder is left after it.
std::pair<mlir::tle::ScanOp, Block *> createScan(Emitter &E,
                                                 ArrayRef<TValue> Inputs,
                                                 int64_t Axis, bool Reverse,
                                                 const Node *Site) {
  OpBuilder &B = E.getBuilder();
  Location L = E.loc(Site);
  SmallVector<Value> Srcs;
  SmallVector<Type> Elems;
  for (const TValue &In : Inputs) {
    Srcs.push_back(In.getValue());
    Elems.push_back(getScalarType(In.getType()));
  }
  auto Op = mlir::tle::ScanOp::create(B, L, ValueRange(Srcs).getTypes(), Srcs,
                                      Axis, Reverse);
  SmallVector<Type> ArgTypes(Elems);
  ArgTypes.append(Elems);
  SmallVector<Location> Locs(ArgTypes.size(), L);
  Block *Body = B.createBlock(&Op.getCombineOp(), {}, ArgTypes, Locs);
  B.setInsertionPointAfter(Op);
  return {Op, Body};
}

Result scan(Emitter &E, CallArgs &Args, const Node *Site, llvm::StringRef Fn,
            std::optional<bool> IsSum) {
  bool Generic = !IsSum;
  SmallVector<llvm::StringRef> Params = {"input", "axis"};
  if (Generic)
    Params.push_back("combine_fn");
  Params.push_back("reverse");
  if (!Generic)
    Params.push_back("dtype");
  auto A = E.bind(Args, Params, Generic ? 3 : 1, Fn, Site);
  if (failed(A))
    return failure();
  // tl.associative_scan scans a tuple of tensors together (cummax: values
  // and their indices), its combiner taking both tuples' elements.
  bool Tuple = Generic && A->get("input")->Value.is(TValue::Kind::Tuple);
  std::vector<TValue> Inputs;
  if (Tuple) {
    Inputs = A->get("input")->Value.getElements();
    for (const TValue &In : Inputs) {
      if (!In.is(TValue::Kind::IR) || !isa<RankedTensorType>(In.getType()))
        return E.error(Site, Fn + " needs tensors, got " + In.describe());
      if (getShape(In.getType()) != getShape(Inputs[0].getType()))
        return E.error(Site, Fn + ": the tensors of the tuple must have one "
                                  "shape");
    }
    if (Inputs.empty())
      return E.error(Site, Fn + " needs at least one tensor");
  } else {
    auto X = E.requireTensor(A->get("input"), "input", Site);
    if (failed(X))
      return failure();
    Inputs = {*X};
  }
  auto Axis = scanAxis(E, *A, getShape(Inputs[0].getType()).size(), Site, Fn);
  if (failed(Axis))
    return failure();
  OpBuilder &B = E.getBuilder();
  Type Elem = getScalarType(Inputs[0].getType());
  if (!Generic && isIntType(Elem) && Elem.getIntOrFloatBitWidth() < 32) {
    auto C = E.convert(Inputs[0], DType{B.getI32Type(), Inputs[0].isUnsigned()},
                       Site);
    if (failed(C))
      return failure();
    Inputs[0] = *C;
    Elem = B.getI32Type();
  }
  bool Reverse = A->has("reverse") && A->get("reverse")->Value.isTruthy();
  Location L = E.loc(Site);
  auto [Op, Body] = createScan(E, Inputs, *Axis, Reverse, Site);
  if (Generic) {
    if (failed(E.lowerCombiner(
            A->get("combine_fn")->Value, *Body, Inputs, Site,
            [&](ValueRange V) { mlir::tle::ScanReturnOp::create(B, L, V); })))
      return failure();
  } else {
    OpBuilder::InsertionGuard G(B);
    B.setInsertionPointToStart(Body);
    Value X0 = Body->getArgument(0), X1 = Body->getArgument(1);
    Value R;
    if (isFloatType(Elem))
      R = *IsSum ? Value(arith::AddFOp::create(B, L, X0, X1))
                 : Value(arith::MulFOp::create(B, L, X0, X1));
    else
      R = *IsSum ? Value(arith::AddIOp::create(B, L, X0, X1))
                 : Value(arith::MulIOp::create(B, L, X0, X1));
    mlir::tle::ScanReturnOp::create(B, L, R);
  }
  std::vector<TValue> Results;
  for (auto [Result, In] : llvm::zip(Op.getResults(), Inputs))
    Results.push_back(TValue::ir(Result, In.isUnsigned()));
  if (!Tuple)
    return Results[0];
  return TValue::tuple(Results);
}

Result builtinCumsum(Emitter &E, CallArgs &Args, const Node *Site) {
  return scan(E, Args, Site, "tl.cumsum", true);
}
Result builtinCumprod(Emitter &E, CallArgs &Args, const Node *Site) {
  return scan(E, Args, Site, "tl.cumprod", false);
}
Result builtinAssociativeScan(Emitter &E, CallArgs &Args, const Node *Site) {
  return scan(E, Args, Site, "tl.associative_scan", std::nullopt);
}
} // namespace

void ::tle::frontend::registerMathBuiltins(llvm::StringMap<BuiltinFn> &Table) {
  // Each is also reachable under triton.language.extra.libdevice (a few,
  // such as sigmoid, are not libdevice names there, which is harmless); only
  // libdevice's exp and sqrt differ (exact, see approximateFlags), so their
  // entries are replaced after the Adds.
  auto Add = [&](llvm::StringRef Name, BuiltinFn Fn) {
    Table["tl." + Name.str()] = Fn;
    Table["tl.math." + Name.str()] = Fn;
    Table["tl.libdevice." + Name.str()] = Fn;
  };
  Add("exp", builtinExp);
  Add("exp2", builtin_exp2);
  Add("log", builtin_log);
  Add("log2", builtin_log2);
  Add("log1p", builtin_log1p);
  Add("sqrt", builtinSqrt);
  Add("sqrt_rn", builtinSqrtRn);
  Add("rsqrt", builtinRsqrt);
  Add("sin", builtin_sin);
  Add("cos", builtin_cos);
  Add("tan", builtin_tan);
  Add("tanh", builtin_tanh);
  Add("erf", builtin_erf);
  Add("floor", builtin_floor);
  Add("ceil", builtin_ceil);
  Add("trunc", builtin_trunc);
  // Inverse trigonometric and hyperbolic functions: C library calls that
  // each backend maps to its device library (MathToLibrary.cpp).
  Add("acos", builtin_acos);
  Add("asin", builtin_asin);
  Add("atan", builtin_atan);
  Add("sinh", builtin_sinh);
  Add("cosh", builtin_cosh);
  Add("asinh", builtin_asinh);
  Add("acosh", builtin_acosh);
  Add("atanh", builtin_atanh);
  Add("atan2", builtinLibdeviceAtan2);
  Add("abs", builtinAbs);
  Add("sigmoid", builtinSigmoid);
  Add("div_rn", builtinDivRn);
  Add("fdiv", builtinFdiv);
  Add("maximum", builtinMaximum);
  Add("minimum", builtinMinimum);
  Add("clamp", builtinClamp);
  Add("fma", builtinFma);
  Add("umulhi", builtinUmulhi);
  Table["tl.libdevice.exp"] = builtinLibdeviceExp;
  Table["tl.libdevice.sqrt"] = builtinLibdeviceSqrt;
  Table["tl.libdevice.pow"] = builtinLibdevicePow;
  Table["tl.libdevice.fmod"] = builtinLibdeviceFmod;
  Table["tl.libdevice.rint"] = builtinLibdeviceRint;
  Table["tl.libdevice.isnan"] = builtinLibdeviceIsnan;
  Table["tl.libdevice.isinf"] = builtinLibdeviceIsinf;
  Table["tl.libdevice.finitef"] = builtinLibdeviceIsfinite;
  Table["tl.libdevice.isfinited"] = builtinLibdeviceIsfinite;
  Table["tl.max"] = builtinMax;
  Table["tl.min"] = builtinMin;
  Table["tl.sum"] = builtinSum;
  Table["tl.argmax"] = builtinArgmax;
  Table["tl.argmin"] = builtinArgmin;
  Table["tl.reduce"] = builtinReduce;
  Table["tl.cumsum"] = builtinCumsum;
  Table["tl.cumprod"] = builtinCumprod;
  Table["tl.associative_scan"] = builtinAssociativeScan;
}
