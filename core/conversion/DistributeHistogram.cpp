//===- DistributeHistogram.cpp - tl.histogram through block-level atomics -===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle.histogram counts into a zeroed block-level scratch array with one
// atomic add per element (by its owner only, so replicated copies count
// once; values outside [0, bins) are ignored), then every thread reads the
// bins its result registers hold.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::AtomicKind;
using ::tle::backend::BarrierScope;

namespace {

struct HistogramConversion : DistPattern<HistogramOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(HistogramOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType src = op.getSrc().getType(), dst = op.getType();
    Type i32 = rewriter.getI32Type();
    int64_t bins = dst.getDimSize(0);
    auto base = allocScratch(rewriter, loc, st, i32, bins);
    if (failed(base))
      return failure();
    unsigned as =
        cast<LLVM::LLVMPointerType>(base->getType()).getAddressSpace();
    if (!st.target.supportsAtomic(AtomicKind::Add, i32, as))
      return op.emitError() << "tle.histogram needs atomic add on i32 in "
                               "address space "
                            << as << ", which the target does not support";
    auto dstIdx = emitIndices(rewriter, loc, st.target, dst.getEncoding(),
                              dst.getShape());
    auto owners = emitOwnerMasks(rewriter, loc, st.target, src.getEncoding(),
                                 src.getShape());
    if (failed(dstIdx) || failed(owners))
      return failure();
    Value zero = i32Const(rewriter, loc, 0);
    for (auto &index : *dstIdx)
      storeScratch(rewriter, loc, *base, index[0], zero);
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    Value one = i32Const(rewriter, loc, 1);
    for (auto [value, owner] : llvm::zip(adaptor.getSrc(), *owners)) {
      Type type = value.getType();
      Value inRange = arith::AndIOp::create(
          rewriter, loc,
          arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::sge, value,
              arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getIntegerAttr(type, 0))),
          arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::slt, value,
              arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getIntegerAttr(type, bins))));
      if (owner)
        inRange = arith::AndIOp::create(rewriter, loc, inRange, owner);
      Value bin = intToI32(rewriter, loc, value, /*isSigned=*/true);
      bool failedAtomic = false;
      scf::IfOp::create(rewriter, loc, inRange, [&](OpBuilder &b, Location l) {
        failedAtomic |= failed(st.target.emitAtomic(
            b, l, AtomicKind::Add, scratchPtr(b, l, *base, i32, bin), one));
        scf::YieldOp::create(b, l);
      });
      if (failedAtomic)
        return failure();
    }
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    SmallVector<Value> counts;
    for (auto &index : *dstIdx)
      counts.push_back(loadScratch(rewriter, loc, *base, index[0], i32));
    if (failed(emitScratchRelease(rewriter, loc, st)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {counts});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateHistogramPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<HistogramConversion>(tc, patterns.getContext(), st);
}
