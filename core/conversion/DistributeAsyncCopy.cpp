//===- DistributeAsyncCopy.cpp - Copies into buffer slots, slot reads -----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The ops software pipelining leaves in a loop (tle-pipeline-loads):
// tle_struct.async_copy writes each thread's vectors of a tile into a slot of
// a block-level ring buffer, through the target's asynchronous copies where
// it has them for the vector's size, else as a load and a store;
// async_commit / async_wait close and wait for copy groups, and the wait ends
// with the block barrier that publishes the slot; local_load reads a slot in
// the layout its user needs (matrix tile loads for dot operands).
//
//===----------------------------------------------------------------------===//

#include "core/conversion/BufferAddressing.h"
#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using mlir::tle_struct::BufferType;
using ::tle::backend::BarrierScope;

namespace {

bool hasAsyncCopies(const ::tle::backend::TargetInfo &target) {
  return target.supportsAsyncCopy(4) || target.supportsAsyncCopy(8) ||
         target.supportsAsyncCopy(16);
}

/// Index of `index` (a slot's tile index) in the buffer, slot first.
SmallVector<Value> withSlot(Value slot, ArrayRef<Value> index) {
  SmallVector<Value> full{slot};
  full.append(index.begin(), index.end());
  return full;
}

struct AsyncCopyConversion : DistPattern<tle_struct::AsyncCopyOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::AsyncCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = dyn_cast<RankedTensorType>(op.getPtr().getType());
    if (!ptrType)
      return op.emitError("async_copy of a scalar is not supported");
    BufferType bufferType = op.getBuffer().getType();
    BufferAddressing addressing(bufferType);
    Type elem = getTypeConverter()->convertType(bufferType.getElementType());
    if (scratchType(elem) != elem)
      return op.emitError("async_copy of ") << elem << " is not supported";
    unsigned bytes = typeBytes(elem);
    ArrayRef<int64_t> shape = ptrType.getShape();
    auto layout = getDistributedLayout(ptrType);

    // A vector moves as one piece when its elements are contiguous in the
    // buffer too and the padding does not split it. A mask that may differ
    // inside a vector takes the one-piece copy when all of it is on and
    // element copies otherwise (the ragged last tile).
    VectorPlan plan = planVectorAccess(st, op.getPtr(), op.getMask());
    unsigned vec = plan.vec;
    if (addressing.fastest() != layout.getRegisterOrder()[0] + 1 ||
        (addressing.padInterval > 0 && addressing.padInterval % vec != 0))
      vec = 1;
    bool async = st.target.supportsAsyncCopy(vec * bytes);
    if (!async && !plan.maskUniform)
      vec = 1;

    auto indices =
        emitIndices(rewriter, loc, st.target, ptrType.getEncoding(), shape);
    if (failed(indices))
      return op.emitError("cannot compute the indices of this layout");
    Value base = adaptor.getBuffer().front();
    Value slot = adaptor.getSlot().front();
    ValueRange ptrs = adaptor.getPtr();
    ValueRange masks = op.getMask() ? adaptor.getMask() : ValueRange();
    // Registers a constant distance from register 0 in the buffer too (a
    // tile's rows a whole swizzle period apart) address from its pointer:
    // one live pointer instead of one per copy.
    auto deltas = getRegisterIndexDeltas(ptrType.getEncoding(), shape);
    auto fullDst = [&](OpBuilder &b, unsigned reg) {
      return scratchPtr(
          b, loc, base, elem,
          addressing.offset(b, loc, withSlot(slot, (*indices)[reg])));
    };
    Value firstDst = fullDst(rewriter, 0);
    auto dstOf = [&](OpBuilder &b, unsigned reg) -> Value {
      std::optional<int64_t> delta;
      if (deltas)
        delta = addressing.constantDelta((*deltas)[reg]);
      if (!delta)
        return fullDst(b, reg);
      if (*delta == 0)
        return firstDst;
      return LLVM::GEPOp::create(b, loc, firstDst.getType(), elem, firstDst,
                                 ArrayRef<LLVM::GEPArg>{int32_t(*delta)});
    };
    // Load-or-zero and store of `count` registers from `first`.
    auto copySync = [&](OpBuilder &b, unsigned first, unsigned count,
                        Value pred) {
      Type type = count == 1 ? elem : Type(VectorType::get(count, elem));
      Value value = scf::IfOp::create(
                        b, loc, pred,
                        [&](OpBuilder &tb, Location l) {
                          scf::YieldOp::create(
                              tb, l,
                              Value(LLVM::LoadOp::create(
                                  tb, l, type, ptrs[first], count * bytes)));
                        },
                        [&](OpBuilder &eb, Location l) {
                          scf::YieldOp::create(
                              eb, l, Value(LLVM::ZeroOp::create(eb, l, type)));
                        })
                        .getResult(0);
      LLVM::StoreOp::create(b, loc, value, dstOf(b, first), count * bytes);
    };
    Value on =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1);
    for (unsigned g = 0; g < ptrs.size(); g += vec) {
      if (!async) {
        copySync(rewriter, g, vec, masks.empty() ? on : masks[g]);
        continue;
      }
      if (masks.empty() || plan.maskUniform) {
        if (failed(st.target.emitAsyncCopy(rewriter, loc, dstOf(rewriter, g),
                                           ptrs[g], vec * bytes,
                                           masks.empty() ? on : masks[g])))
          return failure();
        continue;
      }
      Value all = masks[g];
      for (unsigned i = 1; i < vec; ++i)
        all = arith::AndIOp::create(rewriter, loc, all, masks[g + i]);
      LogicalResult copied = success();
      scf::IfOp::create(
          rewriter, loc, all,
          [&](OpBuilder &b, Location l) {
            copied = st.target.emitAsyncCopy(b, loc, dstOf(b, g), ptrs[g],
                                             vec * bytes, on);
            scf::YieldOp::create(b, l);
          },
          [&](OpBuilder &b, Location l) {
            for (unsigned i = 0; i < vec; ++i)
              copySync(b, g + i, 1, masks[g + i]);
            scf::YieldOp::create(b, l);
          });
      if (failed(copied))
        return failure();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitConversion : DistPattern<tle_struct::AsyncCommitOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::AsyncCommitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (hasAsyncCopies(st.target) &&
        failed(st.target.emitAsyncCommit(rewriter, op.getLoc())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitConversion : DistPattern<tle_struct::AsyncWaitOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::AsyncWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (hasAsyncCopies(st.target) &&
        failed(st.target.emitAsyncWait(rewriter, op.getLoc(), op.getPending())))
      return failure();
    if (failed(
            st.target.emitBarrier(rewriter, op.getLoc(), BarrierScope::Block)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadConversion : DistPattern<tle_struct::LocalLoadOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::LocalLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BufferType bufferType = op.getBuffer().getType();
    BufferAddressing addressing(bufferType);
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type elem = getTypeConverter()->convertType(resultType.getElementType());
    if (addressing.fastest() == 0)
      return op.emitError("local_load needs a buffer whose slot dimension is "
                          "not the contiguous one");
    Value base = adaptor.getBuffer().front();
    Value slot = adaptor.getSlot().front();
    auto ptrAt = [&](ArrayRef<Value> index, Type type) {
      return scratchPtr(
          rewriter, loc, base, type,
          addressing.offset(rewriter, loc, withSlot(slot, index)));
    };
    auto values = readBlockTile(
        rewriter, loc, st, getDistributedLayout(resultType),
        resultType.getShape(), elem, addressing.fastest() - 1, ptrAt);
    if (failed(values))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*values});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateAsyncCopyPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<AsyncCopyConversion, AsyncCommitConversion, AsyncWaitConversion,
               LocalLoadConversion>(tc, patterns.getContext(), st);
}
