//===- DistributeBarriers.cpp - Barrier objects ---------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle.gpu.alloc_barrier / barrier_arrive / barrier_wait. Where the target
// has barrier objects (TargetInfo::supportsBarrierObjects) a barrier is 8
// bytes of block-level memory (an array of them for a pipe's slots, `num`,
// indexed by arrive and wait) that the block's first thread initializes
// (published by a block barrier); an arrive is a barrier of the arriving
// threads -- the block, or its warp_specialize partition -- so that their
// writes are ordered before it, then one arrival of `count` from their first
// thread; a wait has every thread wait for the phase's parity. Without
// barrier objects the block runs as one role: an arrive does nothing and a
// wait is a block barrier, which orders everything before it (copies into
// buffers included: they complete before the next op there). barrier_inval
// synchronizes the block and has the first thread invalidate each barrier,
// so that an allocation in a loop body sets them up again.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;

namespace {

/// The `index`-th barrier of an array of them (8 bytes each).
Value barrierAt(OpBuilder &b, Location loc, Value base, Value index) {
  if (!index)
    return base;
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI64Type(), base,
                             ArrayRef<LLVM::GEPArg>{index});
}
Value barrierAt(OpBuilder &b, Location loc, Value base, unsigned index) {
  if (index == 0)
    return base;
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI64Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(index)});
}

struct BarrierAllocConversion : DistPattern<tle_struct::BarrierAllocOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::BarrierAllocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return op.emitError() << "barriers at scope '"
                            << op.getType().getScope().getValue()
                            << "' are not supported (only 'block')";
    if (!st.target.supportsBarrierObjects()) {
      rewriter.replaceOp(op, LLVM::ZeroOp::create(rewriter, loc, type));
      return success();
    }
    unsigned as = cast<LLVM::LLVMPointerType>(type).getAddressSpace();
    unsigned num = op.getNum();
    FailureOr<Value> address =
        allocBlockGlobal(rewriter, loc, st, "__tle_barrier_",
                         rewriter.getI64Type(), num, as, /*alignment=*/8);
    if (failed(address))
      return failure();
    st.blockGlobals.back().origin = op;
    if (failed(inFirstThread(rewriter, loc, st, [&](OpBuilder &b) {
          for (unsigned i = 0; i < num; ++i)
            if (failed(st.target.emitBarrierInit(
                    b, loc, barrierAt(b, loc, *address, i), op.getCount())))
              return failure();
          return success();
        })))
      return failure();
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    rewriter.replaceOp(op, *address);
    return success();
  }
};

struct BarrierInvalConversion : DistPattern<tle_struct::BarrierInvalOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::BarrierInvalOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (st.target.supportsBarrierObjects() &&
        (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)) ||
         failed(inFirstThread(rewriter, loc, st, [&](OpBuilder &b) {
           for (auto [barrier, base] :
                llvm::zip(op.getBarriers(), adaptor.getBarriers())) {
             // The allocation is still in the IR (replaced ops are erased
             // when the conversion ends): it says how many there are.
             unsigned num =
                 barrier.getDefiningOp<tle_struct::BarrierAllocOp>().getNum();
             for (unsigned i = 0; i < num; ++i)
               if (failed(st.target.emitBarrierInval(
                       b, loc, barrierAt(b, loc, base.front(), i))))
                 return failure();
           }
           return success();
         }))))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierArriveConversion : DistPattern<tle_struct::BarrierArriveOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::BarrierArriveOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (st.target.supportsBarrierObjects()) {
      Value address = barrierAt(
          rewriter, loc, adaptor.getBarrier().front(),
          op.getIndex() ? adaptor.getIndex().front() : Value());
      if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)) ||
          failed(inFirstThread(rewriter, loc, st, [&](OpBuilder &b) {
            return st.target.emitBarrierArrive(b, loc, address, op.getCount());
          })))
        return failure();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierWaitConversion : DistPattern<tle_struct::BarrierWaitOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::BarrierWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!st.target.supportsBarrierObjects()) {
      if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }
    Value parity = arith::AndIOp::create(
        rewriter, loc, adaptor.getPhase().front(), i32Const(rewriter, loc, 1));
    Value address =
        barrierAt(rewriter, loc, adaptor.getBarrier().front(),
                  op.getIndex() ? adaptor.getIndex().front() : Value());
    if (failed(st.target.emitBarrierWait(rewriter, loc, address, parity)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateBarrierPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<BarrierAllocConversion, BarrierInvalConversion,
               BarrierArriveConversion, BarrierWaitConversion>(
      tc, patterns.getContext(), st);
}
