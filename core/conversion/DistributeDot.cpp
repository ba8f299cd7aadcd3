//===- DistributeDot.cpp - tl.dot through the FMA fallback ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;

namespace {

/// tl.dot on the FMA units, correct on every target: layout assignment gives
/// each thread whole rows of A and whole columns of B for the elements of C
/// it owns, so every C register is a chain of K fused multiply-adds over
/// registers the thread already holds. Matrix units replace this per target.
struct DotConversion : DistPattern<DotOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                     dType = op.getD().getType();
    auto a = dyn_cast<BlockedLayoutAttr>(aType.getEncoding());
    auto b = dyn_cast<BlockedLayoutAttr>(bType.getEncoding());
    auto d = dyn_cast<BlockedLayoutAttr>(dType.getEncoding());
    int64_t k = aType.getShape().back();
    if (!a || !b || !d || dType.getRank() != 2)
      return op.emitError()
             << "tle.dot with operand layouts " << aType.getEncoding()
             << " and " << bType.getEncoding()
             << " is not supported by distribution yet";
    SmallVector<unsigned> eptA = a.getElemsPerThread(aType.getShape());
    SmallVector<unsigned> eptB = b.getElemsPerThread(bType.getShape());
    SmallVector<unsigned> eptD = d.getElemsPerThread(dType.getShape());
    if (eptA[0] != eptD[0] || eptB[1] != eptD[1] || eptA[1] != k ||
        eptB[0] != k)
      return op.emitError() << "tle.dot operands must hold whole rows of A "
                               "and whole columns of B per thread for the "
                               "FMA fallback";
    Location loc = op.getLoc();
    Type accType = dType.getElementType();
    bool isFloat = isa<FloatType>(accType);
    // Operands are widened to the accumulator type once per register.
    auto widen = [&](ValueRange regs) {
      SmallVector<Value> out;
      for (Value v : regs) {
        if (v.getType() == accType)
          out.push_back(v);
        else if (isFloat)
          out.push_back(arith::ExtFOp::create(rewriter, loc, accType, v));
        else
          out.push_back(arith::ExtSIOp::create(rewriter, loc, accType, v));
      }
      return out;
    };
    SmallVector<Value> aRegs = widen(adaptor.getA());
    SmallVector<Value> bRegs = widen(adaptor.getB());
    SmallVector<Value> result(adaptor.getC().begin(), adaptor.getC().end());
    for (unsigned reg = 0; reg < result.size(); ++reg) {
      SmallVector<unsigned> ij = delinearize(reg, eptD, d.getOrder());
      Value acc = result[reg];
      for (unsigned kk = 0; kk < k; ++kk) {
        Value x = aRegs[linearize({ij[0], kk}, eptA, a.getOrder())];
        Value y = bRegs[linearize({kk, ij[1]}, eptB, b.getOrder())];
        if (isFloat) {
          acc = math::FmaOp::create(rewriter, loc, x, y, acc);
        } else {
          Value prod = arith::MulIOp::create(rewriter, loc, x, y);
          acc = arith::AddIOp::create(rewriter, loc, acc, prod);
        }
      }
      result[reg] = acc;
    }
    rewriter.replaceOpWithMultiple(op, {result});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateDotPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<DotConversion>(tc, patterns.getContext(), st);
}
