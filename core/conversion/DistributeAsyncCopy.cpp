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
// with the block barrier that publishes the slot (none where each thread
// reads only its own copies); local_load reads a slot in
// the layout its user needs (matrix tile loads for dot operands). The
// user's tle.gpu.copy into a buffer shares the copy code.
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

/// Index of `index` (a slot's tile index) in the buffer, slot first; the
/// index itself for a buffer without slots (no `slot`).
SmallVector<Value> withSlot(Value slot, ArrayRef<Value> index) {
  SmallVector<Value> full;
  if (slot)
    full.push_back(slot);
  full.append(index.begin(), index.end());
  return full;
}

/// Writes each thread's part of the tile at `ptr` (distributed as `ptrs`,
/// `masks`) into the buffer at `base`, at the tile's index (after `slot`,
/// when the buffer has slots). Vectors go through the target's asynchronous
/// copies where `allowAsync` and the target has them for their size, else
/// as loads and stores; returns whether copies were started.
FailureOr<bool> copyTileToBuffer(ConversionPatternRewriter &rewriter,
                                 Location loc, DistributeState &st,
                                 Operation *op, Value ptr, Value mask,
                                 ValueRange ptrs, ValueRange masks,
                                 BufferType bufferType, Value base, Value slot,
                                 bool allowAsync, Type elem) {
  auto ptrType = dyn_cast<RankedTensorType>(ptr.getType());
  if (!ptrType)
    return op->emitError("copying a scalar into a buffer is not supported");
  BufferAddressing addressing(bufferType);
  if (scratchType(elem) != elem)
    return op->emitError("copying ") << elem << " into a buffer is not "
                                               "supported";
  unsigned bytes = typeBytes(elem);
  ArrayRef<int64_t> shape = ptrType.getShape();
  auto layout = getDistributedLayout(ptrType);
  unsigned slotDims = slot ? 1 : 0;

  // A vector moves as one piece when its elements are contiguous in the
  // buffer too and the padding does not split it. A mask that may differ
  // inside a vector takes the one-piece copy when all of it is on and
  // element copies otherwise (the ragged last tile).
  VectorPlan plan = planVectorAccess(st, ptr, mask);
  unsigned vec = plan.vec;
  if (addressing.fastest() != layout.getRegisterOrder()[0] + slotDims ||
      (addressing.padInterval > 0 && addressing.padInterval % vec != 0))
    vec = 1;
  bool async = allowAsync && st.target.supportsAsyncCopy(vec * bytes);
  if (!async && !plan.maskUniform)
    vec = 1;

  auto indices =
      emitIndices(rewriter, loc, st.target, ptrType.getEncoding(), shape);
  if (failed(indices))
    return op->emitError("cannot compute the indices of this layout");
  // Registers a constant distance from register 0 in the buffer too (a
  // tile's rows a whole swizzle period apart) address from its pointer:
  // one live pointer instead of one per copy.
  std::optional<SmallVector<SmallVector<int64_t>>> deltas;
  if (slot)
    deltas = getRegisterIndexDeltas(ptrType.getEncoding(), shape);
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
  return async;
}

struct AsyncCopyConversion : DistPattern<tle_struct::AsyncCopyOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::AsyncCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BufferType bufferType = op.getBuffer().getType();
    Type elem = getTypeConverter()->convertType(bufferType.getElementType());
    FailureOr<bool> copied = copyTileToBuffer(
        rewriter, op.getLoc(), st, op, op.getPtr(), op.getMask(),
        adaptor.getPtr(), op.getMask() ? adaptor.getMask() : ValueRange(),
        bufferType, adaptor.getBuffer().front(), adaptor.getSlot().front(),
        /*allowAsync=*/true, elem);
    if (failed(copied))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// tle.gpu.copy. Into a buffer: with a barrier object tracking it, the
/// copies are asynchronous where the target can (each thread then has the
/// barrier's phase wait for its copies); otherwise they complete here and
/// a barrier of the block (partition) publishes them. Out of a buffer:
/// each register is read from the buffer and stored.
struct CopyConversion : DistPattern<tle_struct::CopyOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::CopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dstBuffer = dyn_cast<BufferType>(op.getDst().getType());
    auto srcBuffer = dyn_cast<BufferType>(op.getSrc().getType());
    if (dstBuffer && srcBuffer)
      return op.emitError("copies between two local buffers are not "
                          "supported; read one with tle.gpu.local_ptr");
    ValueRange masks = op.getMask() ? adaptor.getMask() : ValueRange();
    if (dstBuffer) {
      Type elem = getTypeConverter()->convertType(dstBuffer.getElementType());
      bool tracked = op.getBarrier() && st.target.supportsBarrierObjects();
      FailureOr<bool> async = copyTileToBuffer(
          rewriter, loc, st, op, op.getSrc(), op.getMask(), adaptor.getSrc(),
          masks, dstBuffer, adaptor.getDst().front(), Value(), tracked, elem);
      if (failed(async))
        return failure();
      if (*async) {
        if (failed(st.target.emitAsyncCopyArrive(
                rewriter, loc, adaptor.getBarrier().front())))
          return failure();
      } else if (!tracked &&
                 failed(st.target.emitBarrier(rewriter, loc,
                                              BarrierScope::Block))) {
        return failure();
      }
      rewriter.eraseOp(op);
      return success();
    }
    if (!srcBuffer)
      return op.emitError("tle.gpu.copy needs a local buffer on one side");
    auto ptrType = dyn_cast<RankedTensorType>(op.getDst().getType());
    if (!ptrType)
      return op.emitError("copying a buffer to a scalar pointer is not "
                          "supported");
    Type elem = scratchType(
        getTypeConverter()->convertType(srcBuffer.getElementType()));
    BufferAddressing addressing(srcBuffer);
    auto indices = emitIndices(rewriter, loc, st.target, ptrType.getEncoding(),
                               ptrType.getShape());
    if (failed(indices))
      return op.emitError("cannot compute the indices of this layout");
    Value base = adaptor.getSrc().front();
    ValueRange ptrs = adaptor.getDst();
    for (auto entry : llvm::enumerate(*indices)) {
      size_t reg = entry.index();
      const SmallVector<Value> &index = entry.value();
      Value from = scratchPtr(rewriter, loc, base, elem,
                              addressing.offset(rewriter, loc, index));
      auto storeOne = [&](OpBuilder &b, Location l) {
        Value v = LLVM::LoadOp::create(b, l, elem, from);
        LLVM::StoreOp::create(b, l, v, ptrs[reg]);
      };
      if (masks.empty()) {
        storeOne(rewriter, loc);
        continue;
      }
      scf::IfOp::create(rewriter, loc, masks[reg],
                        [&](OpBuilder &b, Location l) {
                          storeOne(b, l);
                          scf::YieldOp::create(b, l);
                        });
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
    // A thread's wait lands its own copies: where it reads only those
    // (own_slots), nothing synchronizes the block. Without asynchronous
    // copies the barrier stays: the refills are then stores that barrier
    // placement cannot tell from shared writes, and the release barriers
    // merge into the wait's instead of staying at the end of the body.
    if (op.getOwnSlots() && hasAsyncCopies(st.target)) {
      if (failed(
              st.target.emitAsyncWait(rewriter, op.getLoc(), op.getPending())))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }
    // The wait and the barrier after it: a release barrier that reaches the
    // wait merges into them (the wait only lands this thread's copies).
    if (failed(markEmitted(rewriter, kBlockBarrierAttr, [&] {
          if (hasAsyncCopies(st.target) &&
              failed(st.target.emitAsyncWait(rewriter, op.getLoc(),
                                             op.getPending())))
            return failure();
          return st.target.emitBarrier(rewriter, op.getLoc(),
                                       BarrierScope::Block);
        })))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The element addresses of one slot of a local buffer, for a tile read or
/// written whole (local_load, local_store).
struct SlotElements {
  OpBuilder &b;
  Location loc;
  const BufferAddressing &addressing;
  Value base, slot;

  static FailureOr<SlotElements> get(Operation *op, OpBuilder &b,
                                     const BufferAddressing &addressing,
                                     Value base, Value slot) {
    if (addressing.fastest() == 0)
      return op->emitError() << op->getName()
                             << " needs a buffer whose slot dimension is not "
                                "the contiguous one";
    return SlotElements{b, op->getLoc(), addressing, base, slot};
  }
  Value operator()(ArrayRef<Value> index, Type type) const {
    return scratchPtr(b, loc, base, type,
                      addressing.offset(b, loc, withSlot(slot, index)));
  }
};

struct LocalLoadConversion : DistPattern<tle_struct::LocalLoadOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::LocalLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BufferAddressing addressing(op.getBuffer().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type elem = getTypeConverter()->convertType(resultType.getElementType());
    FailureOr<SlotElements> ptrAt =
        SlotElements::get(op, rewriter, addressing, adaptor.getBuffer().front(),
                          adaptor.getSlot().front());
    if (failed(ptrAt))
      return failure();
    auto values = readBlockTile(
        rewriter, loc, st, getDistributedLayout(resultType),
        resultType.getShape(), elem, addressing.fastest() - 1, *ptrAt);
    if (failed(values))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*values});
    return success();
  }
};

struct LocalStoreConversion : DistPattern<tle_struct::LocalStoreOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::LocalStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BufferAddressing addressing(op.getBuffer().getType());
    auto valueType = cast<RankedTensorType>(op.getValue().getType());
    FailureOr<SlotElements> ptrAt =
        SlotElements::get(op, rewriter, addressing, adaptor.getBuffer().front(),
                          adaptor.getSlot().front());
    if (failed(ptrAt))
      return failure();
    Type elem = getTypeConverter()->convertType(valueType.getElementType());
    if (failed(writeBlockTile(
            rewriter, loc, st, getDistributedLayout(valueType),
            valueType.getShape(), adaptor.getValue(), addressing.fastest() - 1,
            std::max(1u, 16 / typeBytes(elem)), *ptrAt)))
      return failure();
    // A swizzled buffer is a matrix unit's operand: the writes become
    // visible to the unit's reads (on Hopper a proxy fence), as before a
    // tl.dot's own operand stores.
    auto layout = op.getBuffer().getType().getLayout();
    if (layout && layout.getSwizzle() > 0 &&
        failed(st.target.emitMatrixOperandsStored(rewriter, loc)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateAsyncCopyPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<AsyncCopyConversion, CopyConversion, AsyncCommitConversion,
               AsyncWaitConversion, LocalLoadConversion, LocalStoreConversion>(
      tc, patterns.getContext(), st);
}
