//===- Semantics.cpp - Triton's typing, casting and broadcasting rules ----===//
//
// Mirrors triton/language/semantic.py so that kernels compute in the same
// types as under Triton: Python scalars are "weak" (they do not widen a
// tile of their kind), fp16/bf16 division computes in fp32, integer `//` and
// `%` truncate toward zero.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Emitter.h"

#include "dialects/TLE/TLEDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include <cmath>

using namespace mlir;
using namespace ::tle::frontend;

/// The dtype a constexpr number has when it meets a tile.
static DType scalarDType(const TValue &V, MLIRContext *Ctx) {
  Builder Bld(Ctx);
  switch (V.getKind()) {
  case TValue::Kind::Bool:
    return {Bld.getI1Type()};
  case TValue::Kind::Int:
    // Triton's to_tensor: int32, then uint32 for [2^31, 2^32), then int64,
    // then uint64 for [2^63, 2^64).
    if (V.isUnsigned())
      return {Bld.getI64Type(), /*IsUnsigned=*/true};
    if (V.getInt() >= INT32_MIN && V.getInt() <= INT32_MAX)
      return {Bld.getI32Type()};
    if (V.getInt() > INT32_MAX && V.getInt() <= UINT32_MAX)
      return {Bld.getI32Type(), /*IsUnsigned=*/true};
    return {Bld.getI64Type()};
  default:
    return {Bld.getF32Type()};
  }
}

static DType dtypeOf(const TValue &V, MLIRContext *Ctx) {
  if (V.is(TValue::Kind::IR))
    return {getScalarType(V.getType()), V.isUnsigned()};
  return scalarDType(V, Ctx);
}

/// Triton's type kinds (dtype.KIND: bool < integral < floating), ordered: a
/// Python scalar of a kind at most the tile's kind does not take part in
/// promotion (uint8 tile - 1 stays uint8, as in Triton).
static int kindRank(DType T) {
  if (isBoolType(T.Type))
    return 0;
  if (isIntType(T.Type))
    return 1;
  return 2;
}

static unsigned widthOf(Type T) { return T.getIntOrFloatBitWidth(); }

FailureOr<TValue> Emitter::toIR(const TValue &V, const Node *Site) {
  if (V.is(TValue::Kind::IR))
    return V;
  if (!V.isNumber())
    return error(Site, "expected a tensor or a number, got " + V.describe());
  DType T = scalarDType(V, &Context);
  Location L = loc(Site);
  if (V.is(TValue::Kind::Float))
    return TValue::ir(arith::ConstantOp::create(
        B, L, B.getFloatAttr(T.Type, V.getFloat())));
  int64_t I = V.is(TValue::Kind::Bool) ? V.getBool() : V.getInt();
  return TValue::ir(
      arith::ConstantOp::create(B, L, B.getIntegerAttr(T.Type, I)));
}

FailureOr<Value> Emitter::toIRValue(const TValue &V, const Node *Site) {
  auto R = toIR(V, Site);
  if (failed(R))
    return failure();
  return R->getValue();
}

Value Emitter::trueDivide(Value X, Value Y, Location L) {
  auto Flags = getScalarType(X.getType()).isF32()
                   ? arith::FastMathFlags::afn
                   : arith::FastMathFlags::none;
  return arith::DivFOp::create(B, L, X, Y, Flags);
}

Value Emitter::splatConstant(const TValue &V, DType Elem,
                             ArrayRef<int64_t> Shape, const Node *Site) {
  TypedAttr Scalar;
  if (isFloatType(Elem.Type))
    Scalar = B.getFloatAttr(Elem.Type, V.getNumber());
  else
    Scalar = B.getIntegerAttr(
        Elem.Type, V.is(TValue::Kind::Float) ? static_cast<int64_t>(V.getFloat())
                   : V.is(TValue::Kind::Bool) ? V.getBool()
                                              : V.getInt());
  Location L = loc(Site);
  if (Shape.empty())
    return arith::ConstantOp::create(B, L, Scalar);
  auto Type = RankedTensorType::get(Shape, Elem.Type);
  return arith::ConstantOp::create(B, L, SplatElementsAttr::get(Type, Scalar));
}

Result Emitter::convert(const TValue &V, DType To, const Node *Site,
                     bool Bitcast) {
  if (V.isNumber() && !Bitcast && !isPointerType(To.Type))
    return TValue::ir(splatConstant(V, To, {}, Site), To.IsUnsigned);
  auto In = toIR(V, Site);
  if (failed(In))
    return failure();
  Value X = In->getValue();
  Type From = getScalarType(X.getType());
  bool FromUnsigned = In->isUnsigned();
  Type Target = withElementType(X.getType(), To.Type);
  Location L = loc(Site);
  if (From == To.Type)
    return TValue::ir(X, To.IsUnsigned);
  if (Bitcast) {
    if (widthOf(isPointerType(From) ? B.getI64Type() : From) !=
        widthOf(isPointerType(To.Type) ? B.getI64Type() : To.Type))
      return error(Site, "cannot bitcast " + getDTypeName(From, FromUnsigned) +
                             " to " + getDTypeName(To.Type, To.IsUnsigned) +
                             ": the bit widths differ");
    return TValue::ir(mlir::tle::BitcastOp::create(B, L, Target, X), To.IsUnsigned);
  }
  if (isPointerType(From) || isPointerType(To.Type)) {
    if (isPointerType(From) && isPointerType(To.Type))
      return TValue::ir(mlir::tle::BitcastOp::create(B, L, Target, X),
                        To.IsUnsigned);
    if (isPointerType(From) && To.Type.isInteger(64))
      return TValue::ir(mlir::tle::PtrToIntOp::create(B, L, Target, X),
                        To.IsUnsigned);
    if (From.isInteger(64) && isPointerType(To.Type))
      return TValue::ir(mlir::tle::IntToPtrOp::create(B, L, Target, X),
                        To.IsUnsigned);
    return error(Site, "cannot convert " + getDTypeName(From, FromUnsigned) +
                           " to " + getDTypeName(To.Type, To.IsUnsigned) +
                           " (pointers convert only to and from int64)");
  }
  Value R;
  if (isIntType(From) && isIntType(To.Type)) {
    if (isBoolType(To.Type)) {
      Value Zero = splatConstant(TValue::integer(0), {From},
                                 getShape(X.getType()), Site);
      R = arith::CmpIOp::create(B, L, arith::CmpIPredicate::ne, X, Zero);
    } else if (widthOf(From) > widthOf(To.Type)) {
      R = arith::TruncIOp::create(B, L, Target, X);
    } else if (FromUnsigned || isBoolType(From)) {
      R = arith::ExtUIOp::create(B, L, Target, X);
    } else {
      R = arith::ExtSIOp::create(B, L, Target, X);
    }
  } else if (isIntType(From) && isFloatType(To.Type)) {
    if (FromUnsigned || isBoolType(From))
      R = arith::UIToFPOp::create(B, L, Target, X);
    else
      R = arith::SIToFPOp::create(B, L, Target, X);
  } else if (isFloatType(From) && isIntType(To.Type)) {
    if (isBoolType(To.Type)) {
      Value Zero = splatConstant(TValue::floating(0), {From},
                                 getShape(X.getType()), Site);
      R = arith::CmpFOp::create(B, L, arith::CmpFPredicate::UNE, X, Zero);
    } else if (To.IsUnsigned) {
      R = arith::FPToUIOp::create(B, L, Target, X);
    } else {
      R = arith::FPToSIOp::create(B, L, Target, X);
    }
  } else if (isFloatType(From) && isFloatType(To.Type)) {
    if (isFp8Type(From) || isFp8Type(To.Type)) {
      std::optional<mlir::tle::RoundingMode> Rounding;
      if (widthOf(To.Type) < widthOf(From))
        Rounding = mlir::tle::RoundingMode::RTNE;
      auto Op = mlir::tle::FpToFpOp::create(B, L, Target, X, nullptr);
      if (Rounding)
        Op.setRounding(*Rounding);
      R = Op;
    } else if (widthOf(To.Type) > widthOf(From)) {
      R = arith::ExtFOp::create(B, L, Target, X);
    } else if (widthOf(To.Type) < widthOf(From)) {
      R = arith::TruncFOp::create(B, L, Target, X);
    } else {
      // fp16 <-> bf16: go through fp32.
      Value Wide = arith::ExtFOp::create(
          B, L, withElementType(X.getType(), B.getF32Type()), X);
      R = arith::TruncFOp::create(B, L, Target, Wide);
    }
  } else {
    return error(Site, "cannot convert " + getDTypeName(From, FromUnsigned) +
                           " to " + getDTypeName(To.Type, To.IsUnsigned));
  }
  return TValue::ir(R, To.IsUnsigned);
}

Result Emitter::broadcastTo(const TValue &V, ArrayRef<int64_t> Shape,
                            const Node *Site) {
  auto In = toIR(V, Site);
  if (failed(In))
    return failure();
  Value X = In->getValue();
  Location L = loc(Site);
  auto Tensor = dyn_cast<RankedTensorType>(X.getType());
  if (!Tensor) {
    if (Shape.empty())
      return *In;
    return TValue::ir(mlir::tle::SplatOp::create(
                          B, L, RankedTensorType::get(Shape, X.getType()), X),
                      In->isUnsigned());
  }
  if (Tensor.getShape() == Shape)
    return *In;
  auto Fail = [&]() {
    std::string Want = "[";
    for (auto [I, D] : llvm::enumerate(Shape))
      Want += (I ? ", " : "") + std::to_string(D);
    return error(Site, "cannot broadcast " +
                           getTypeName(Tensor, In->isUnsigned()) +
                           " to shape " + Want + "]");
  };
  if (Tensor.getRank() > static_cast<int64_t>(Shape.size()))
    return Fail();
  while (Tensor.getRank() < static_cast<int64_t>(Shape.size())) {
    SmallVector<int64_t> NewShape{1};
    llvm::append_range(NewShape, Tensor.getShape());
    Tensor = Tensor.clone(NewShape);
    X = mlir::tle::ExpandDimsOp::create(B, L, Tensor, X, B.getI32IntegerAttr(0));
  }
  for (auto [From, To] : llvm::zip(Tensor.getShape(), Shape))
    if (From != To && From != 1)
      return Fail();
  return TValue::ir(mlir::tle::BroadcastOp::create(B, L, Tensor.clone(Shape), X),
                    In->isUnsigned());
}

LogicalResult Emitter::broadcastAll(MutableArrayRef<TValue> Values,
                                    const Node *Site) {
  if (Values.empty())
    return success();
  // The common shape, as the pairwise rule grows it.
  TValue Common = Values.front();
  for (TValue &V : Values.drop_front())
    if (failed(broadcastPair(Common, V, Site)))
      return failure();
  SmallVector<int64_t> Shape(getShape(Common.getType()));
  bool Tiles = isa<RankedTensorType>(Common.getType());
  for (TValue &V : Values) {
    auto B = Tiles ? broadcastTo(V, Shape, Site) : toIR(V, Site);
    if (failed(B))
      return failure();
    V = *B;
  }
  return success();
}

LogicalResult Emitter::broadcastPair(TValue &Lhs, TValue &Rhs,
                                     const Node *Site) {
  auto LhsIR = toIR(Lhs, Site), RhsIR = toIR(Rhs, Site);
  if (failed(LhsIR) || failed(RhsIR))
    return failure();
  Lhs = *LhsIR;
  Rhs = *RhsIR;
  ArrayRef<int64_t> A = getShape(Lhs.getType()), C = getShape(Rhs.getType());
  bool LhsTensor = isa<RankedTensorType>(Lhs.getType());
  bool RhsTensor = isa<RankedTensorType>(Rhs.getType());
  if (!LhsTensor && !RhsTensor)
    return success();
  SmallVector<int64_t> Shape;
  size_t Rank = std::max(A.size(), C.size());
  for (size_t I = 0; I < Rank; ++I) {
    int64_t DA = I + A.size() >= Rank ? A[I + A.size() - Rank] : 1;
    int64_t DC = I + C.size() >= Rank ? C[I + C.size() - Rank] : 1;
    if (DA != DC && DA != 1 && DC != 1) {
      auto Str = [](ArrayRef<int64_t> S) {
        std::string R = "[";
        for (auto [I, D] : llvm::enumerate(S))
          R += (I ? ", " : "") + std::to_string(D);
        return R + "]";
      };
      return error(Site, "incompatible shapes for broadcasting: " + Str(A) +
                             " and " + Str(C));
    }
    Shape.push_back(DA == 1 ? DC : DA);
  }
  auto NewLhs = broadcastTo(Lhs, Shape, Site);
  auto NewRhs = broadcastTo(Rhs, Shape, Site);
  if (failed(NewLhs) || failed(NewRhs))
    return failure();
  Lhs = *NewLhs;
  Rhs = *NewRhs;
  return success();
}

/// Triton's computation_type_impl: A and C with whether each is a Python
/// scalar (whose kind alone may not widen a tile).
static FailureOr<DType> promoteTypes(DType A, bool AScalar, DType C,
                                     bool CScalar, bool DivOrMod, Builder &B,
                                     llvm::function_ref<LogicalResult(
                                         const llvm::Twine &)>
                                         Error) {
  Type F32 = B.getF32Type();
  auto IsHalf = [](Type T) { return T.isF16() || T.isBF16(); };
  if (AScalar != CScalar) {
    DType Scalar = AScalar ? A : C, Tile = AScalar ? C : A;
    if (kindRank(Scalar) <= kindRank(Tile)) {
      if (DivOrMod && IsHalf(Tile.Type))
        return DType{F32};
      return Tile;
    }
  }
  if (A.Type.isF64() || C.Type.isF64())
    return DType{B.getF64Type()};
  if (A.Type.isF32() || C.Type.isF32())
    return DType{F32};
  if (A.Type.isF16() || C.Type.isF16())
    return DivOrMod ? DType{F32} : DType{B.getF16Type()};
  if (A.Type.isBF16() && C.Type.isBF16())
    return DivOrMod ? DType{F32} : DType{B.getBF16Type()};
  if (A.Type.isBF16() || C.Type.isBF16())
    return DType{F32};
  if (isFp8Type(A.Type) && isFp8Type(C.Type))
    return A.Type == C.Type ? A : DType{B.getF16Type()};
  if (isFp8Type(A.Type) || isFp8Type(C.Type))
    return DType{B.getF16Type()};
  if (!isIntType(A.Type) || !isIntType(C.Type))
    return Error("unsupported operand types " +
                 getDTypeName(A.Type, A.IsUnsigned) + " and " +
                 getDTypeName(C.Type, C.IsUnsigned));
  if (DivOrMod && A.IsUnsigned != C.IsUnsigned)
    return Error("cannot use / // or % on " +
                 getDTypeName(A.Type, A.IsUnsigned) + " and " +
                 getDTypeName(C.Type, C.IsUnsigned) +
                 ": their signedness differs; cast one of them first");
  unsigned WA = widthOf(A.Type), WC = widthOf(C.Type);
  if (A.IsUnsigned == C.IsUnsigned)
    return WA > WC ? A : C;
  if (A.IsUnsigned)
    return WA >= WC ? A : C;
  return WC >= WA ? C : A;
}

/// Triton's check of a Python int taking an operation's integer type: a
/// negative one cannot meet an unsigned tile, and it must fit the type
/// (uint32 tile + -1 and int32 tile + 5000000000 are errors, not wrapped).
static LogicalResult
checkScalarFits(const TValue &V, DType T,
                function_ref<LogicalResult(const Twine &)> Error) {
  if (!V.is(TValue::Kind::Int) || !isIntType(T.Type))
    return success();
  APInt Value = V.getWideInt();
  if ((T.IsUnsigned || isBoolType(T.Type)) && Value.isNegative())
    return Error("cannot perform a binary operation between an unsigned "
                 "tensor and a negative scalar (" +
                 toString(Value, 10, /*Signed=*/true) +
                 "); cast one of them explicitly");
  if (!holdsInteger(T, Value))
    return Error("scalar " + toString(Value, 10, /*Signed=*/true) +
                 " is out of range for type " +
                 getDTypeName(T.Type, T.IsUnsigned));
  return success();
}

FailureOr<DType> Emitter::promote(const TValue &Lhs, const TValue &Rhs,
                                  bool DivOrMod, const Node *Site) {
  auto Error = [&](const llvm::Twine &Msg) { return error(Site, Msg); };
  auto T =
      promoteTypes(dtypeOf(Lhs, &Context), Lhs.isNumber(),
                   dtypeOf(Rhs, &Context), Rhs.isNumber(), DivOrMod, B, Error);
  if (failed(T) || failed(checkScalarFits(Lhs, *T, Error)) ||
      failed(checkScalarFits(Rhs, *T, Error)))
    return failure();
  return T;
}

FailureOr<DType> Emitter::promote(DType Lhs, const TValue &Rhs, bool DivOrMod,
                                  const Node *Site) {
  auto Error = [&](const llvm::Twine &Msg) { return error(Site, Msg); };
  auto T = promoteTypes(Lhs, /*AScalar=*/false, dtypeOf(Rhs, &Context),
                        Rhs.isNumber(), DivOrMod, B, Error);
  if (failed(T) || failed(checkScalarFits(Rhs, *T, Error)))
    return failure();
  return T;
}

FailureOr<DType> Emitter::promoteLoopBounds(ArrayRef<TValue> Bounds,
                                            const Node *Site) {
  // Triton's visit_For makes each bound a tensor and promotes their integer
  // types: a Python int takes its to_tensor type and is never checked
  // against the others (range(n - 1, -1, -1) with a uint32 n is uint32).
  std::optional<DType> T;
  for (const TValue &Bound : Bounds) {
    DType BoundType = dtypeOf(Bound, &Context);
    if (!isIntType(BoundType.Type))
      return error(Site,
                   "range() bounds must be integers, got " + Bound.describe());
    if (!T) {
      T = BoundType;
      continue;
    }
    auto Promoted =
        promoteTypes(*T, /*AScalar=*/false, BoundType, /*CScalar=*/false,
                     /*DivOrMod=*/false, B,
                     [&](const Twine &Msg) { return error(Site, Msg); });
    if (failed(Promoted))
      return failure();
    T = *Promoted;
  }
  return *T;
}

/// Python's integer arithmetic on two constexpr ints, exact in 128 bits: a
/// result outside int64 and uint64 is an error (Python's ints are unbounded,
/// TLE's constexpr ints 64-bit), never a wrapped value.
static std::optional<TValue> foldIntBinary(BinaryOpKind Op, const APInt &L,
                                           const APInt &R, std::string &Err) {
  auto overflow = [&]() -> std::optional<TValue> {
    Err = "constexpr integer overflow: " + toString(L, 10, /*Signed=*/true) +
          " " + getSpelling(Op).str() + " " + toString(R, 10, true) +
          " does not fit in 64 bits";
    return std::nullopt;
  };
  auto result = [&](const APInt &V) -> std::optional<TValue> {
    if (std::optional<TValue> Int = TValue::integer(V))
      return Int;
    return overflow();
  };
  bool Overflow = false;
  switch (Op) {
  case BinaryOpKind::Add:
    return result(L + R); // 65-bit operands: no 128-bit overflow.
  case BinaryOpKind::Sub:
    return result(L - R);
  case BinaryOpKind::Mult: {
    APInt P = L.smul_ov(R, Overflow);
    return Overflow ? overflow() : result(P);
  }
  case BinaryOpKind::FloorDiv:
  case BinaryOpKind::Mod: {
    APInt Q = L.sdiv(R);
    if (!L.srem(R).isZero() && L.isNegative() != R.isNegative())
      Q -= 1; // Python floors.
    return result(Op == BinaryOpKind::FloorDiv ? Q : L - Q * R);
  }
  case BinaryOpKind::Pow: {
    // |L| <= 1 never overflows, whatever the exponent; otherwise at most 64
    // multiplications come before a result beyond 64 bits.
    if (L.isZero() || L.isOne())
      return result(R.isZero() ? APInt(128, 1) : L);
    if (L.isAllOnes())
      return result(R[0] ? L : APInt(128, 1));
    APInt P(128, 1);
    for (APInt I(128, 0); I.slt(R); ++I) {
      P = P.smul_ov(L, Overflow);
      if (Overflow || !TValue::integer(P))
        return overflow();
    }
    return result(P);
  }
  case BinaryOpKind::LShift:
  case BinaryOpKind::RShift: {
    if (R.isNegative()) {
      Err = "negative shift count " + toString(R, 10, true);
      return std::nullopt;
    }
    unsigned Amount = R.ult(127) ? R.getZExtValue() : 127;
    if (Op == BinaryOpKind::RShift) // Python floors: -5 >> 70 is -1.
      return result(L.ashr(Amount));
    if (L.isZero())
      return result(L);
    APInt Shifted = L.shl(Amount);
    if (Amount > 64 || Shifted.ashr(Amount) != L)
      return overflow();
    return result(Shifted);
  }
  case BinaryOpKind::BitAnd:
    return result(L & R);
  case BinaryOpKind::BitOr:
    return result(L | R);
  case BinaryOpKind::BitXor:
    return result(L ^ R);
  default:
    return std::nullopt;
  }
}

/// Python's semantics for constexpr arithmetic.
static std::optional<TValue> foldBinary(BinaryOpKind Op, const TValue &L,
                                        const TValue &R, std::string &Err) {
  if (L.is(TValue::Kind::Str) && R.is(TValue::Kind::Str) &&
      Op == BinaryOpKind::Add)
    return TValue::string(L.getStr().str() + R.getStr().str());
  if (L.is(TValue::Kind::Tuple) && R.is(TValue::Kind::Tuple) &&
      Op == BinaryOpKind::Add) {
    std::vector<TValue> Elts = L.getElements();
    llvm::append_range(Elts, R.getElements());
    return TValue::tuple(std::move(Elts));
  }
  // Repetition: [2] * n, n * "ab" (a count below one gives an empty one).
  if (Op == BinaryOpKind::Mult &&
      (L.is(TValue::Kind::Tuple) || L.is(TValue::Kind::Str) ||
       R.is(TValue::Kind::Tuple) || R.is(TValue::Kind::Str))) {
    bool SeqLeft = L.is(TValue::Kind::Tuple) || L.is(TValue::Kind::Str);
    const TValue &Seq = SeqLeft ? L : R, &Count = SeqLeft ? R : L;
    if (!Count.is(TValue::Kind::Int) && !Count.is(TValue::Kind::Bool))
      return std::nullopt;
    APInt Wide = Count.getWideInt();
    size_t Length = Seq.is(TValue::Kind::Str) ? Seq.getStr().size()
                                              : Seq.getElements().size();
    if (Length == 0)
      return Seq;
    constexpr uint64_t MaxLength = 1 << 20;
    int64_t N = Wide.isNegative() ? 0 : Wide.getLimitedValue(MaxLength + 1);
    if (static_cast<uint64_t>(N) > MaxLength / Length) {
      Err = "sequence repetition longer than " + std::to_string(MaxLength) +
            " elements in a jit function";
      return std::nullopt;
    }
    if (Seq.is(TValue::Kind::Str)) {
      std::string Out;
      for (int64_t I = 0; I < N; ++I)
        Out += Seq.getStr();
      return TValue::string(Out);
    }
    std::vector<TValue> Elts;
    for (int64_t I = 0; I < N; ++I)
      llvm::append_range(Elts, Seq.getElements());
    return TValue::tuple(std::move(Elts));
  }
  if (!L.isNumber() || !R.isNumber())
    return std::nullopt;
  bool IsFloat = L.is(TValue::Kind::Float) || R.is(TValue::Kind::Float);
  double FL = L.getNumber(), FR = R.getNumber();
  switch (Op) {
  case BinaryOpKind::MatMult:
    Err = "'@' is not supported; use tl.dot";
    return std::nullopt;
  case BinaryOpKind::Div:
  case BinaryOpKind::FloorDiv:
  case BinaryOpKind::Mod:
    if (FR == 0) {
      Err = "division by zero in a constexpr expression";
      return std::nullopt;
    }
    break;
  case BinaryOpKind::LShift:
  case BinaryOpKind::RShift:
  case BinaryOpKind::BitAnd:
  case BinaryOpKind::BitOr:
  case BinaryOpKind::BitXor:
    if (IsFloat) {
      Err = "bitwise operators need integers";
      return std::nullopt;
    }
    // Python's bool & bool (and |, ^) stays a bool.
    if (Op != BinaryOpKind::LShift && Op != BinaryOpKind::RShift &&
        L.is(TValue::Kind::Bool) && R.is(TValue::Kind::Bool)) {
      std::optional<TValue> Int =
          foldIntBinary(Op, L.getWideInt(), R.getWideInt(), Err);
      return TValue::boolean(Int->getInt() != 0);
    }
    break;
  default:
    break;
  }
  // True division and a negative integer exponent give floats, as in Python.
  if (Op == BinaryOpKind::Div)
    return TValue::floating(FL / FR);
  if (IsFloat || (Op == BinaryOpKind::Pow && R.getWideInt().isNegative())) {
    switch (Op) {
    case BinaryOpKind::Add:
      return TValue::floating(FL + FR);
    case BinaryOpKind::Sub:
      return TValue::floating(FL - FR);
    case BinaryOpKind::Mult:
      return TValue::floating(FL * FR);
    case BinaryOpKind::Pow:
      return TValue::floating(std::pow(FL, FR));
    case BinaryOpKind::FloorDiv:
    case BinaryOpKind::Mod: {
      double Q = std::floor(FL / FR);
      return Op == BinaryOpKind::FloorDiv ? TValue::floating(Q)
                                          : TValue::floating(FL - Q * FR);
    }
    default:
      return std::nullopt;
    }
  }
  return foldIntBinary(Op, L.getWideInt(), R.getWideInt(), Err);
}

Result Emitter::binaryOp(BinaryOpKind Op, const TValue &Lhs, const TValue &Rhs,
                         const Node *Site) {
  if (Lhs.isConstexpr() && Rhs.isConstexpr()) {
    std::string Err;
    if (auto Folded = foldBinary(Op, Lhs, Rhs, Err))
      return *Folded;
    if (!Err.empty())
      return error(Site, Err);
    return error(Site, "unsupported operand types for '" + getSpelling(Op) +
                           "': " + Lhs.describe() + " and " + Rhs.describe());
  }
  for (const TValue *V : {&Lhs, &Rhs})
    if (!V->is(TValue::Kind::IR) && !V->isNumber())
      return error(Site, "unsupported operand for '" + getSpelling(Op) +
                             "': " + V->describe());
  Location L = loc(Site);
  DType LT = dtypeOf(Lhs, &Context), RT = dtypeOf(Rhs, &Context);

  // Pointer arithmetic: pointer +/- integer offsets.
  if (isPointerType(LT.Type) || isPointerType(RT.Type)) {
    bool Swap = isPointerType(RT.Type);
    const TValue &Ptr = Swap ? Rhs : Lhs, &Off = Swap ? Lhs : Rhs;
    DType OffT = Swap ? LT : RT;
    if (!(Op == BinaryOpKind::Add || (Op == BinaryOpKind::Sub && !Swap)) ||
        !isIntType(OffT.Type))
      return error(Site, "unsupported pointer arithmetic: " + Lhs.describe() +
                             " " + getSpelling(Op) + " " + Rhs.describe());
    TValue P = Ptr, O = Off;
    if (failed(broadcastPair(P, O, Site)))
      return failure();
    Value OffV = O.getValue();
    // addptr reads its offset as signed: an unsigned one narrower than 64
    // bits is zero-extended first, as Triton's add does (a uint8 index of
    // 200 is 200, not -56).
    if (O.isUnsigned() &&
        getScalarType(OffV.getType()).getIntOrFloatBitWidth() < 64)
      OffV = arith::ExtUIOp::create(
          B, L, withElementType(OffV.getType(), B.getI64Type()), OffV);
    if (Op == BinaryOpKind::Sub) {
      Value Zero = splatConstant(TValue::integer(0),
                                 {getScalarType(OffV.getType())},
                                 getShape(OffV.getType()), Site);
      OffV = arith::SubIOp::create(B, L, Zero, OffV);
    }
    return TValue::ir(
        mlir::tle::AddPtrOp::create(B, L, P.getType(), P.getValue(), OffV),
        Ptr.isUnsigned());
  }

  bool DivOrMod = Op == BinaryOpKind::Div || Op == BinaryOpKind::FloorDiv ||
                  Op == BinaryOpKind::Mod;
  bool Bitwise = Op == BinaryOpKind::BitAnd || Op == BinaryOpKind::BitOr ||
                 Op == BinaryOpKind::BitXor || Op == BinaryOpKind::LShift ||
                 Op == BinaryOpKind::RShift;
  if (Bitwise && (!isIntType(LT.Type) || !isIntType(RT.Type)))
    return error(Site, "'" + getSpelling(Op) + "' needs integer operands, got " +
                           Lhs.describe() + " and " + Rhs.describe());
  if (Op == BinaryOpKind::MatMult)
    return error(Site, "'@' is not supported; use tl.dot");
  auto T = promote(Lhs, Rhs, DivOrMod, Site);
  if (failed(T))
    return failure();
  if (Op == BinaryOpKind::Div && isIntType(T->Type))
    T = DType{B.getF32Type()};
  if (Op == BinaryOpKind::FloorDiv && isFloatType(T->Type))
    return error(Site, "'//' needs integer operands, got " + Lhs.describe() +
                           " and " + Rhs.describe());
  auto CL = convert(Lhs, *T, Site), CR = convert(Rhs, *T, Site);
  if (failed(CL) || failed(CR))
    return failure();
  TValue A = *CL, C = *CR;
  if (failed(broadcastPair(A, C, Site)))
    return failure();
  Value X = A.getValue(), Y = C.getValue();
  bool IsFloat = isFloatType(T->Type);
  bool U = T->IsUnsigned;
  Value R;
  switch (Op) {
  case BinaryOpKind::Add:
    R = IsFloat ? Value(arith::AddFOp::create(B, L, X, Y))
                : Value(arith::AddIOp::create(B, L, X, Y));
    break;
  case BinaryOpKind::Sub:
    R = IsFloat ? Value(arith::SubFOp::create(B, L, X, Y))
                : Value(arith::SubIOp::create(B, L, X, Y));
    break;
  case BinaryOpKind::Mult:
    R = IsFloat ? Value(arith::MulFOp::create(B, L, X, Y))
                : Value(arith::MulIOp::create(B, L, X, Y));
    break;
  case BinaryOpKind::Div:
    R = trueDivide(X, Y, L);
    break;
  case BinaryOpKind::FloorDiv:
    R = U ? Value(arith::DivUIOp::create(B, L, X, Y))
          : Value(arith::DivSIOp::create(B, L, X, Y));
    break;
  case BinaryOpKind::Mod:
    R = IsFloat ? Value(arith::RemFOp::create(B, L, X, Y))
          : U   ? Value(arith::RemUIOp::create(B, L, X, Y))
                : Value(arith::RemSIOp::create(B, L, X, Y));
    break;
  case BinaryOpKind::Pow:
    if (!IsFloat)
      return error(Site, "'**' on integer tensors is not supported");
    R = math::PowFOp::create(B, L, X, Y);
    break;
  case BinaryOpKind::BitAnd:
    R = arith::AndIOp::create(B, L, X, Y);
    break;
  case BinaryOpKind::BitOr:
    R = arith::OrIOp::create(B, L, X, Y);
    break;
  case BinaryOpKind::BitXor:
    R = arith::XOrIOp::create(B, L, X, Y);
    break;
  case BinaryOpKind::LShift:
    R = arith::ShLIOp::create(B, L, X, Y);
    break;
  case BinaryOpKind::RShift:
    R = U ? Value(arith::ShRUIOp::create(B, L, X, Y))
          : Value(arith::ShRSIOp::create(B, L, X, Y));
    break;
  case BinaryOpKind::MatMult:
    llvm_unreachable("rejected above");
  }
  return TValue::ir(R, U);
}

/// Python comparison of constexprs.
static std::optional<bool> foldCompare(CmpOpKind Op, const TValue &L,
                                       const TValue &R) {
  if (Op == CmpOpKind::Is || Op == CmpOpKind::IsNot) {
    bool Same;
    if (L.is(TValue::Kind::None) || R.is(TValue::Kind::None))
      Same = L.getKind() == R.getKind();
    else if (L.is(TValue::Kind::DType) && R.is(TValue::Kind::DType))
      Same = L.getType() == R.getType() && L.isUnsigned() == R.isUnsigned();
    else if (L.isNumber() && R.isNumber())
      Same = L.getKind() == R.getKind() &&
             (L.is(TValue::Kind::Float) ? L.getFloat() == R.getFloat()
                                        : L.getWideInt() == R.getWideInt());
    else
      return std::nullopt;
    return Op == CmpOpKind::Is ? Same : !Same;
  }
  if (Op == CmpOpKind::In || Op == CmpOpKind::NotIn) {
    bool Found = false;
    if (R.is(TValue::Kind::Tuple)) {
      for (const TValue &E : R.getElements())
        if (auto Eq = foldCompare(CmpOpKind::Eq, L, E); Eq && *Eq)
          Found = true;
    } else if (R.is(TValue::Kind::Str) && L.is(TValue::Kind::Str)) {
      Found = R.getStr().contains(L.getStr());
    } else {
      return std::nullopt;
    }
    return Op == CmpOpKind::In ? Found : !Found;
  }
  int Cmp;
  if (L.isNumber() && R.isNumber() &&
      (L.is(TValue::Kind::Float) || R.is(TValue::Kind::Float))) {
    // Each operator on its own: NaN is unordered (nan == nan is False).
    double A = L.getNumber(), C = R.getNumber();
    switch (Op) {
    case CmpOpKind::Eq:
      return A == C;
    case CmpOpKind::NotEq:
      return A != C;
    case CmpOpKind::Lt:
      return A < C;
    case CmpOpKind::LtE:
      return A <= C;
    case CmpOpKind::Gt:
      return A > C;
    case CmpOpKind::GtE:
      return A >= C;
    default:
      return std::nullopt;
    }
  } else if (L.isNumber() && R.isNumber()) {
    // Exactly, not through a double (which rounds beyond 2^53).
    APInt A = L.getWideInt(), C = R.getWideInt();
    Cmp = A.slt(C) ? -1 : A.sgt(C) ? 1 : 0;
  } else if (L.is(TValue::Kind::Tuple) && R.is(TValue::Kind::Tuple) &&
             (Op == CmpOpKind::Eq || Op == CmpOpKind::NotEq)) {
    bool Same = L.getElements().size() == R.getElements().size();
    for (size_t I = 0; Same && I < L.getElements().size(); ++I) {
      std::optional<bool> Eq =
          foldCompare(CmpOpKind::Eq, L.getElements()[I], R.getElements()[I]);
      if (!Eq)
        return std::nullopt;
      Same = *Eq;
    }
    return Op == CmpOpKind::Eq ? Same : !Same;
  } else if (L.is(TValue::Kind::Str) && R.is(TValue::Kind::Str)) {
    Cmp = L.getStr().compare(R.getStr());
  } else if (Op == CmpOpKind::Eq || Op == CmpOpKind::NotEq) {
    bool Same;
    if (L.is(TValue::Kind::DType) && R.is(TValue::Kind::DType))
      Same = L.getType() == R.getType() && L.isUnsigned() == R.isUnsigned();
    else if (L.is(TValue::Kind::None) || R.is(TValue::Kind::None))
      Same = L.getKind() == R.getKind();
    else
      Same = false;
    return Op == CmpOpKind::Eq ? Same : !Same;
  } else {
    return std::nullopt;
  }
  switch (Op) {
  case CmpOpKind::Eq:
    return Cmp == 0;
  case CmpOpKind::NotEq:
    return Cmp != 0;
  case CmpOpKind::Lt:
    return Cmp < 0;
  case CmpOpKind::LtE:
    return Cmp <= 0;
  case CmpOpKind::Gt:
    return Cmp > 0;
  case CmpOpKind::GtE:
    return Cmp >= 0;
  default:
    return std::nullopt;
  }
}

Result Emitter::compare(CmpOpKind Op, const TValue &Lhs, const TValue &Rhs,
                        const Node *Site) {
  if (Lhs.isConstexpr() && Rhs.isConstexpr()) {
    if (auto Folded = foldCompare(Op, Lhs, Rhs))
      return TValue::boolean(*Folded);
    return error(Site, "cannot compare " + Lhs.describe() + " and " +
                           Rhs.describe() + " with '" + getSpelling(Op) + "'");
  }
  // A runtime value is never None (a pointer argument Triton would have
  // received as None is a constexpr None here): `ptr is None` is decided at
  // compile time, as Triton decides it.
  if ((Op == CmpOpKind::Is || Op == CmpOpKind::IsNot) &&
      (Lhs.is(TValue::Kind::None) || Rhs.is(TValue::Kind::None)))
    return TValue::boolean(Op == CmpOpKind::IsNot);
  if (Op == CmpOpKind::Is || Op == CmpOpKind::IsNot || Op == CmpOpKind::In ||
      Op == CmpOpKind::NotIn)
    return error(Site, "'" + getSpelling(Op) +
                           "' needs compile-time operands; got " +
                           Lhs.describe() + " and " + Rhs.describe());
  auto T = promote(Lhs, Rhs, /*DivOrMod=*/false, Site);
  if (failed(T))
    return failure();
  auto CL = convert(Lhs, *T, Site), CR = convert(Rhs, *T, Site);
  if (failed(CL) || failed(CR))
    return failure();
  TValue A = *CL, C = *CR;
  if (failed(broadcastPair(A, C, Site)))
    return failure();
  Location L = loc(Site);
  if (isFloatType(T->Type)) {
    arith::CmpFPredicate P;
    switch (Op) {
    case CmpOpKind::Eq:
      P = arith::CmpFPredicate::OEQ;
      break;
    case CmpOpKind::NotEq:
      P = arith::CmpFPredicate::UNE;
      break;
    case CmpOpKind::Lt:
      P = arith::CmpFPredicate::OLT;
      break;
    case CmpOpKind::LtE:
      P = arith::CmpFPredicate::OLE;
      break;
    case CmpOpKind::Gt:
      P = arith::CmpFPredicate::OGT;
      break;
    default:
      P = arith::CmpFPredicate::OGE;
      break;
    }
    return TValue::ir(
        arith::CmpFOp::create(B, L, P, A.getValue(), C.getValue()));
  }
  bool U = T->IsUnsigned;
  arith::CmpIPredicate P;
  switch (Op) {
  case CmpOpKind::Eq:
    P = arith::CmpIPredicate::eq;
    break;
  case CmpOpKind::NotEq:
    P = arith::CmpIPredicate::ne;
    break;
  case CmpOpKind::Lt:
    P = U ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CmpOpKind::LtE:
    P = U ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CmpOpKind::Gt:
    P = U ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  default:
    P = U ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return TValue::ir(arith::CmpIOp::create(B, L, P, A.getValue(), C.getValue()));
}

Result Emitter::unaryOp(UnaryOpKind Op, const TValue &V, const Node *Site) {
  if (V.isConstexpr()) {
    if (Op == UnaryOpKind::Not)
      return TValue::boolean(!V.isTruthy());
    if (!V.isNumber())
      return error(Site, "unsupported operand for unary '" + getSpelling(Op) +
                             "': " + V.describe());
    switch (Op) {
    case UnaryOpKind::UAdd:
      return V.is(TValue::Kind::Bool) ? TValue::integer(V.getBool()) : V;
    case UnaryOpKind::USub:
    case UnaryOpKind::Invert: {
      if (V.is(TValue::Kind::Float)) {
        if (Op == UnaryOpKind::Invert)
          return error(Site, "'~' needs an integer, got " + V.describe());
        return TValue::floating(-V.getFloat());
      }
      // Exactly, not through a double (which rounds beyond 2^53).
      APInt X = V.getWideInt();
      APInt R = Op == UnaryOpKind::USub ? -X : ~X;
      if (std::optional<TValue> Int = TValue::integer(R))
        return *Int;
      return error(Site, getSpelling(Op) + "(" + toString(X, 10, true) +
                             ") does not fit in 64 bits");
    }
    case UnaryOpKind::Not:
      break;
    }
  }
  if (!V.is(TValue::Kind::IR))
    return error(Site, "unsupported operand for unary '" + getSpelling(Op) +
                           "': " + V.describe());
  Value X = V.getValue();
  Type Elem = getScalarType(X.getType());
  Location L = loc(Site);
  auto Constant = [&](const TValue &C) {
    return splatConstant(C, {Elem}, getShape(X.getType()), Site);
  };
  switch (Op) {
  case UnaryOpKind::UAdd:
    return V;
  case UnaryOpKind::USub:
    if (isFloatType(Elem))
      return TValue::ir(arith::NegFOp::create(B, L, X));
    if (isIntType(Elem))
      return TValue::ir(
          arith::SubIOp::create(B, L, Constant(TValue::integer(0)), X),
          V.isUnsigned());
    break;
  case UnaryOpKind::Invert:
    if (isIntType(Elem))
      return TValue::ir(
          arith::XOrIOp::create(B, L, X, Constant(TValue::integer(-1))),
          V.isUnsigned());
    break;
  case UnaryOpKind::Not: {
    auto AsBool = convert(V, DType{B.getI1Type()}, Site);
    if (failed(AsBool))
      return failure();
    Value One = splatConstant(TValue::boolean(true), {B.getI1Type()},
                              getShape(X.getType()), Site);
    return TValue::ir(arith::XOrIOp::create(B, L, AsBool->getValue(), One));
  }
  }
  return error(Site, "unsupported operand for unary '" + getSpelling(Op) +
                         "': " + V.describe());
}

Result Emitter::where(const TValue &Cond, const TValue &X, const TValue &Y,
                      const Node *Site) {
  auto C = convert(Cond, DType{B.getI1Type()}, Site);
  if (failed(C))
    return failure();
  FailureOr<DType> T;
  DType XT = dtypeOf(X, &Context), YT = dtypeOf(Y, &Context);
  if (isPointerType(XT.Type) || isPointerType(YT.Type)) {
    // Pointers select as they are, between pointers of one type (Triton's
    // check_ptr_type_impl).
    if (XT != YT)
      return error(Site, "tl.where between pointers needs one pointer type, "
                         "got " +
                             X.describe() + " and " + Y.describe());
    T = XT;
  } else {
    T = promote(X, Y, /*DivOrMod=*/false, Site);
  }
  if (failed(T))
    return failure();
  auto CX = convert(X, *T, Site), CY = convert(Y, *T, Site);
  if (failed(CX) || failed(CY))
    return failure();
  TValue Operands[] = {*C, *CX, *CY};
  if (failed(broadcastAll(Operands, Site)))
    return failure();
  return TValue::ir(
      arith::SelectOp::create(B, loc(Site), Operands[0].getValue(),
                              Operands[1].getValue(), Operands[2].getValue()),
      T->IsUnsigned);
}
