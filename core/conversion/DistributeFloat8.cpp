//===- DistributeFloat8.cpp - Conversions to and from 8-bit floats --------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle.fp_to_fp with an 8-bit float on either side (x.to(tl.float8e4nv) and
// back), one element at a time in integer arithmetic, so that every target
// has it: an 8-bit float is its byte in distributed IR (no target has the
// type). Narrowing goes through f32 and rounds to nearest even (or toward
// zero, fp_downcast_rounding="rtz"), saturating to the largest finite value
// (infinities too), every NaN to the format's NaN 0x7F, as Triton's NVIDIA
// lowering does (cvt.rn.satfinite); widening is exact, a NaN giving the
// unsigned quiet NaN. Formats: float8e4nv (E4M3FN: bias 7, no infinities)
// and float8e5 (E5M2: bias 15). A target with conversion instructions
// (TargetInfo::emitFloat8Conversion: NVIDIA's cvt.rn.satfinite.e4m3x2.f32
// and cvt.rn.f16x2.e4m3x2 on sm_89 and later) converts to nearest even with
// them instead.
//
// No target computes in 8-bit floats: before the conversion, widenFloat8-
// Arithmetic rewrites every other arith and math op on them (x + y on two
// float8e5 tiles, as Triton keeps it) into the op on f32 between an
// arith.extf of each 8-bit operand and an arith.truncf of each 8-bit
// result, which the patterns below then lower; reductions and scans over
// them run on f32 values, each combining step still rounded to the 8-bit
// type.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"
#include "dialects/TLE/TLEDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;

namespace {

/// The 8-bit formats: mantissa bits, exponent bias, the f32 bit pattern of
/// the largest finite value, and whether all-ones exponents are infinities
/// and NaNs (E5M2) or the format has only the one NaN 0x7F (E4M3FN).
struct Float8Format {
  unsigned MantissaBits;
  int Bias;
  uint32_t MaxFiniteBits;
  bool IEEELike;
};

std::optional<Float8Format> getFloat8Format(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Float8Format{3, 7, 0x43E00000u /*448*/, false};
  if (isa<Float8E5M2Type>(type))
    return Float8Format{2, 15, 0x47600000u /*57344*/, true};
  return std::nullopt;
}

struct ElementBuilder {
  OpBuilder &b;
  Location loc;
  Value i32(int64_t v) { return i32Const(b, loc, v); }
  Value f32(float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value and_(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value or_(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value shl(Value x, int64_t n) {
    return arith::ShLIOp::create(b, loc, x, i32(n));
  }
  Value shr(Value x, int64_t n) {
    return arith::ShRUIOp::create(b, loc, x, i32(n));
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value bits(Value f) {
    return arith::BitcastOp::create(b, loc, b.getI32Type(), f);
  }
  Value real(Value i) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), i);
  }
};

/// The byte of the 8-bit float nearest to f (f32).
Value encode(ElementBuilder &k, Value f, const Float8Format &fmt,
             bool towardZero) {
  using P = arith::CmpIPredicate;
  Value bits = k.bits(f);
  Value sign = k.and_(k.shr(bits, 24), k.i32(0x80));
  Value abs = k.and_(bits, k.i32(0x7FFFFFFF));
  Value isNaN = k.cmp(P::ugt, abs, k.i32(0x7F800000));
  Value sat = arith::MinUIOp::create(k.b, k.loc, abs,
                                     k.i32(int64_t(fmt.MaxFiniteBits)));
  // Normal: round the f32 exponent and mantissa to MantissaBits bits in
  // place (a carry moves into the exponent), then rebias the exponent.
  unsigned shift = 23 - fmt.MantissaBits;
  Value kept = sat;
  if (!towardZero)
    kept = k.add(sat, k.add(k.i32((1 << (shift - 1)) - 1),
                            k.and_(k.shr(sat, shift), k.i32(1))));
  Value normal =
      k.sub(k.shr(kept, shift), k.i32((127 - fmt.Bias) << fmt.MantissaBits));
  // Subnormal: the value in units of the smallest subnormal, rounded to an
  // integer (adding 2^23 rounds to nearest even in f32); the next one up
  // is the smallest normal's code.
  Value units = arith::MulFOp::create(
      k.b, k.loc, k.real(sat),
      k.f32(std::ldexp(1.0f, fmt.Bias - 1 + int(fmt.MantissaBits))));
  if (!towardZero)
    units = arith::SubFOp::create(
        k.b, k.loc, arith::AddFOp::create(k.b, k.loc, units, k.f32(8388608.0f)),
        k.f32(8388608.0f));
  Value subnormal =
      arith::FPToUIOp::create(k.b, k.loc, k.b.getI32Type(), units);
  Value isSubnormal =
      k.cmp(P::ult, sat, k.i32(int64_t(127 + 1 - fmt.Bias) << 23));
  Value code = k.or_(sign, k.select(isSubnormal, subnormal, normal));
  // Every NaN becomes the format's 0x7F, its sign dropped, as cvt.rn.satfinite.
  code = k.select(isNaN, k.i32(0x7F), code);
  return arith::TruncIOp::create(k.b, k.loc, k.b.getI8Type(), code);
}

/// The f32 value of the 8-bit float whose byte is `byte` (exact).
Value decode(ElementBuilder &k, Value byte, const Float8Format &fmt) {
  using P = arith::CmpIPredicate;
  Value b = arith::ExtUIOp::create(k.b, k.loc, k.b.getI32Type(), byte);
  unsigned expBits = 7 - fmt.MantissaBits;
  Value sign = k.shl(k.and_(b, k.i32(0x80)), 24);
  Value exp = k.and_(k.shr(b, fmt.MantissaBits), k.i32((1 << expBits) - 1));
  Value man = k.and_(b, k.i32((1 << fmt.MantissaBits) - 1));
  Value normal = k.or_(k.shl(k.add(exp, k.i32(127 - fmt.Bias)), 23),
                       k.shl(man, 23 - fmt.MantissaBits));
  Value subnormal = k.bits(arith::MulFOp::create(
      k.b, k.loc, arith::UIToFPOp::create(k.b, k.loc, k.b.getF32Type(), man),
      k.f32(std::ldexp(1.0f, 1 - fmt.Bias - int(fmt.MantissaBits)))));
  Value abs = k.select(k.cmp(P::eq, exp, k.i32(0)), subnormal, normal);
  Value low7 = k.and_(b, k.i32(0x7F));
  Value isNaN;
  if (fmt.IEEELike) {
    Value top = k.cmp(P::eq, exp, k.i32((1 << expBits) - 1));
    abs = k.select(top, k.i32(0x7F800000), abs);
    isNaN = k.and_(top, k.cmp(P::ne, man, k.i32(0)));
  } else {
    isNaN = k.cmp(P::eq, low7, k.i32(0x7F));
  }
  // A NaN widens to the canonical quiet NaN without its sign, as
  // cvt.rn.f16x2.e4m3x2 does.
  return k.real(k.select(isNaN, k.i32(0x7FC00000), k.or_(sign, abs)));
}

} // namespace

auto ::tle::conversion::distribute::convertFloat8(
    const backend::TargetInfo &target, Operation *op, OpBuilder &b,
    ValueRange in, Type from, Type to, bool towardZero)
    -> FailureOr<SmallVector<Value>> {
  std::optional<Float8Format> fromFp8 = getFloat8Format(from);
  std::optional<Float8Format> toFp8 = getFloat8Format(to);
  auto isWide = [](Type t) {
    return isa<Float16Type, BFloat16Type, Float32Type>(t);
  };
  if ((!fromFp8 && !toFp8) || (fromFp8 && !isWide(to) && !toFp8) ||
      (toFp8 && !isWide(from) && !fromFp8))
    return op->emitError() << "converting " << from << " to " << to
                           << " is not supported by distribution yet "
                              "(8-bit floats: float8e4nv and float8e5, from "
                              "and to fp16, bf16 and fp32)";
  // The chip's own conversion rounds to nearest even only.
  if (!towardZero)
    if (FailureOr<SmallVector<Value>> native =
            target.emitFloat8Conversion(b, op->getLoc(), in, from, to);
        succeeded(native))
      return native;
  ElementBuilder k{b, op->getLoc()};
  SmallVector<Value> values;
  for (Value v : in) {
    Value f32 = v;
    if (fromFp8)
      f32 = decode(k, v, *fromFp8);
    else if (!from.isF32())
      f32 = arith::ExtFOp::create(b, op->getLoc(), b.getF32Type(), v);
    Value out = f32;
    if (toFp8)
      out = encode(k, f32, *toFp8, towardZero);
    else if (!to.isF32())
      // Every 8-bit float is exact in fp16 and bf16.
      out = arith::TruncFOp::create(b, op->getLoc(), to, f32);
    values.push_back(out);
  }
  return values;
}

namespace {

struct FpToFpConversion : DistPattern<FpToFpOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(FpToFpOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> values =
        convertFloat8(st.target, op, rewriter, adaptor.getSrc(),
                      getElementTypeOrSelf(op.getSrc().getType()),
                      getElementTypeOrSelf(op.getResult().getType()),
                      op.getRounding() == RoundingMode::RTZ);
    if (failed(values))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*values});
    return success();
  }
};

/// arith.extf / arith.truncf with an 8-bit float on one side (the FMA
/// fallback of a tl.dot on 8-bit operands widens them), as fp_to_fp with
/// rounding to nearest even.
template <typename Op> struct Float8CastConversion : DistPattern<Op> {
  Float8CastConversion(const TypeConverter &tc, MLIRContext *ctx,
                       DistributeState &st)
      : DistPattern<Op>(tc, ctx, st, /*benefit=*/3) {}
  LogicalResult
  matchAndRewrite(Op op, typename DistPattern<Op>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    Type to = getElementTypeOrSelf(op.getType());
    if (!getFloat8Format(from) && !getFloat8Format(to))
      return failure();
    FailureOr<SmallVector<Value>> values =
        convertFloat8(this->st.target, op, rewriter, adaptor.getIn(), from, to,
                      /*towardZero=*/false);
    if (failed(values))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*values});
    return success();
  }
};

/// `type` (a scalar or a tensor) with f32 in place of an 8-bit float.
Type widened(Type type) {
  Type f32 = Float32Type::get(type.getContext());
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return getFloat8Format(tensor.getElementType()) ? tensor.clone(f32) : type;
  return getFloat8Format(type) ? f32 : type;
}

/// `value` as `type`: widened or narrowed when they differ.
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (getFloat8Format(getElementTypeOrSelf(type)))
    return arith::TruncFOp::create(b, loc, type, value);
  return arith::ExtFOp::create(b, loc, type, value);
}

bool onFloat8(Operation *op) {
  auto isFloat8 = [](Type t) {
    return getFloat8Format(getElementTypeOrSelf(t)).has_value();
  };
  return llvm::any_of(op->getOperandTypes(), isFloat8) ||
         llvm::any_of(op->getResultTypes(), isFloat8);
}

/// A copy of `op` on f32 in place of 8-bit floats: its 8-bit operands
/// widened, its results of the widened types, its regions empty.
Operation *createWidened(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(castTo(b, loc, operand, widened(operand.getType())));
  SmallVector<Type> resultTypes;
  for (Type type : op->getResultTypes())
    resultTypes.push_back(widened(type));
  OperationState state(loc, op->getName(), operands, resultTypes,
                       op->getAttrs());
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    state.addRegion();
  return b.create(state);
}

/// Replaces `op` by `wide`, its results narrowed back to `op`'s types.
void replaceNarrowed(OpBuilder &b, Operation *op, Operation *wide) {
  b.setInsertionPointAfter(wide);
  for (auto [result, wideResult] :
       llvm::zip(op->getResults(), wide->getResults()))
    result.replaceAllUsesWith(
        castTo(b, op->getLoc(), wideResult, result.getType()));
  op->erase();
}

/// A reduction or scan over 8-bit floats as one over f32: the combiner takes
/// and yields f32, narrowing its arguments where its body starts (exact:
/// they were 8-bit floats) and widening what it yields, so that each step
/// still rounds to the 8-bit type; the results are narrowed back.
void widenCombinerOp(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Operation *wide = createWidened(b, op);
  Region &body = wide->getRegion(0);
  body.takeBody(op->getRegion(0));
  Block &block = body.front();
  OpBuilder inner = OpBuilder::atBlockBegin(&block);
  for (BlockArgument arg : block.getArguments()) {
    Type narrow = arg.getType();
    if (!getFloat8Format(narrow))
      continue;
    arg.setType(widened(narrow));
    Value narrowed = arith::TruncFOp::create(inner, loc, narrow, arg);
    arg.replaceAllUsesExcept(narrowed, narrowed.getDefiningOp());
  }
  Operation *yield = block.getTerminator();
  inner.setInsertionPoint(yield);
  for (OpOperand &yielded : yield->getOpOperands())
    yielded.set(
        castTo(inner, loc, yielded.get(), widened(yielded.get().getType())));
  replaceNarrowed(b, op, wide);
}

} // namespace

void ::tle::conversion::distribute::widenFloat8Arithmetic(ModuleOp module) {
  SmallVector<Operation *> combiners;
  module.walk([&](Operation *op) {
    if (isa<ReduceOp, ScanOp>(op) && onFloat8(op))
      combiners.push_back(op);
  });
  for (Operation *op : combiners)
    widenCombinerOp(op);
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    // Casts are lowered as such; a select, a bitcast and a constant move
    // the bytes.
    if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
        !isa<arith::ExtFOp, arith::TruncFOp, arith::SelectOp, arith::BitcastOp,
             arith::ConstantOp>(op) &&
        op->getNumRegions() == 0 && onFloat8(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    replaceNarrowed(b, op, createWidened(b, op));
  }
}

void ::tle::conversion::distribute::populateFloat8Patterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<FpToFpConversion, Float8CastConversion<arith::ExtFOp>,
               Float8CastConversion<arith::TruncFOp>>(tc, patterns.getContext(),
                                                      st);
}
