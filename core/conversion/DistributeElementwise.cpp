//===- DistributeElementwise.cpp - arith/math, constants, casts -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;

namespace {

struct ConstantConversion : DistPattern<arith::ConstantOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return op.emitError("non-splat tensor constants are not supported by "
                          "distribution yet");
    Type elem = getTypeConverter()->convertType(type.getElementType());
    TypedAttr value = cast<TypedAttr>(dense.getSplatValue<Attribute>());
    // A float the target has no type for (8-bit) is its bits.
    if (auto f = dyn_cast<FloatAttr>(value); f && isa<IntegerType>(elem))
      value = IntegerAttr::get(elem, f.getValue().bitcastToAPInt());
    Value scalar =
        arith::ConstantOp::create(rewriter, op.getLoc(), elem, value);
    unsigned n =
        getDistributedLayout(type).getTotalElemsPerThread(type.getShape());
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(n, scalar)});
    return success();
  }
};

/// arith and math ops on tensors: one scalar op per register, or per run
/// of registers the axis analysis proves equal (getConstantRunLeaders);
/// on scalars of types distribution converts (a select of two pointers,
/// what an `if` choosing a kernel argument folds to), the same op on the
/// converted values.
struct ElementwiseConversion : public ConversionPattern {
  ElementwiseConversion(const TypeConverter &tc, MLIRContext *ctx,
                        DistributeState &st)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/1, ctx), st(st) {
  }
  DistributeState &st;
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumRegions() != 0)
      return failure();
    if (getTypeConverter()->isLegal(op))
      return failure();
    unsigned n = 0;
    for (ValueRange range : operands)
      n = std::max<unsigned>(n, range.size());
    SmallVector<Type> resultTypes;
    for (Type t : op->getResultTypes())
      resultTypes.push_back(
          getTypeConverter()->convertType(getElementTypeOrSelf(t)));
    std::optional<SmallVector<unsigned>> leaders;
    if (op->getNumResults() == 1 &&
        isa<IntegerType>(getElementTypeOrSelf(op->getResult(0).getType())))
      leaders = getConstantRunLeaders(st.axis, op->getResult(0));
    if (leaders && leaders->size() != n)
      leaders.reset();
    SmallVector<SmallVector<Value>> results(op->getNumResults(),
                                            SmallVector<Value>(n));
    for (unsigned i = 0; i < n; ++i) {
      if (leaders && (*leaders)[i] != i)
        continue;
      SmallVector<Value> scalarOperands;
      for (ValueRange range : operands)
        scalarOperands.push_back(range.size() == 1 ? range[0] : range[i]);
      OperationState state(op->getLoc(), op->getName(), scalarOperands,
                           resultTypes, op->getAttrs());
      Operation *scalar = rewriter.create(state);
      for (unsigned r = 0; r < op->getNumResults(); ++r)
        results[r][i] = scalar->getResult(r);
    }
    if (leaders)
      for (unsigned i = 0; i < n; ++i)
        results[0][i] = results[0][(*leaders)[i]];
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

/// Narrowing f32 to a 16-bit float two registers at a time, with the
/// target's packed conversion (cvt.rn.f16x2.f32 on NVIDIA). One scalar
/// conversion per accumulator register made ptxas serialize the wgmma
/// pipeline of a matmul loop with a bf16 epilogue (C7514); LLVM splits a
/// vector fptrunc back into scalars, so the target emits the instruction.
struct PairedTruncFConversion : DistPattern<arith::TruncFOp> {
  PairedTruncFConversion(const TypeConverter &tc, MLIRContext *ctx,
                         DistributeState &st)
      : DistPattern(tc, ctx, st, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    ValueRange in = adaptor.getIn();
    if (!type || !isa<Float16Type, BFloat16Type>(type.getElementType()) ||
        !getElementTypeOrSelf(op.getIn().getType()).isF32() || in.size() % 2)
      return failure();
    if (auto mode = op.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> values;
    for (unsigned i = 0; i < in.size(); i += 2) {
      FailureOr<Value> pair = st.target.emitPackedTruncF(
          rewriter, loc, in[i], in[i + 1], type.getElementType());
      // The target has a packed conversion for all pairs or for none.
      if (failed(pair))
        return failure();
      for (unsigned j = 0; j < 2; ++j)
        values.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, *pair, i32Const(rewriter, loc, j)));
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

template <typename Op, typename LLVMOp>
struct CastConversion : DistPattern<Op> {
  using DistPattern<Op>::DistPattern;
  LogicalResult
  matchAndRewrite(Op op, typename DistPattern<Op>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elem = this->getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getResult().getType()));
    SmallVector<Value> values;
    for (Value v : adaptor.getSrc())
      values.push_back(LLVMOp::create(rewriter, op.getLoc(), elem, v));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateElementwisePatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns
      .add<ConstantConversion, CastConversion<PtrToIntOp, LLVM::PtrToIntOp>,
           CastConversion<IntToPtrOp, LLVM::IntToPtrOp>,
           CastConversion<BitcastOp, LLVM::BitcastOp>, PairedTruncFConversion>(
          tc, patterns.getContext(), st);
  patterns.add<ElementwiseConversion>(tc, patterns.getContext(), st);
}
