//===- DistributeLocal.cpp - tle_struct local buffers ---------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tle_struct.alloc at a block-level memory level becomes an
// `llvm.mlir.global` in that level's address space (shared memory on a GPU),
// one per allocation, counted into the kernel's `tle.shared_memory`; the
// buffer value is its address. An initial value is written by all threads
// of the block together, followed by a barrier. tle_struct.local_ptr turns
// indices into addresses under the buffer's layout (dimension order and
// padding), so ordinary loads, stores and atomics reach the buffer.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/BufferAddressing.h"
#include "core/conversion/DistributeCommon.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using mlir::tle_struct::BufferType;
using ::tle::backend::BarrierScope;

namespace {

struct AllocConversion : DistPattern<tle_struct::AllocOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::AllocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BufferType type = op.getType();
    StringRef level = type.getMemoryLevel().getValue();
    std::optional<unsigned> as = st.target.getAddressSpace(level);
    std::optional<unsigned> blockAs = st.target.getAddressSpace("block");
    if (!blockAs)
      blockAs = st.target.getAddressSpace("shared");
    if (!as || as != blockAs)
      return op.emitError() << "local buffers at memory level '" << level
                            << "' are not supported by distribution yet "
                               "(only the block level)";
    Type elem = getTypeConverter()->convertType(type.getElementType());
    BufferAddressing addressing(type);
    int64_t span = addressing.span(type);
    FailureOr<Value> base = allocBlockGlobal(
        rewriter, loc, st, "__tle_local_", scratchType(elem), span, *as,
        addressing.swizzle > 0 ? kBlockMemoryAlignment : 16);
    if (failed(base))
      return failure();
    st.blockGlobals.back().origin = op;
    if (auto init = op.getInitAttr()) {
      // Every thread of the block (or partition) writes every
      // num_threads-th element.
      FailureOr<Value> tid = st.target.getThreadId(rewriter, loc, 0);
      if (failed(tid))
        return failure();
      Value value =
          arith::ConstantOp::create(rewriter, loc, elem, cast<TypedAttr>(init));
      Value threads = i32Const(rewriter, loc, getThreadsInGroup(st, rewriter));
      scf::ForOp::create(rewriter, loc, *tid, i32Const(rewriter, loc, span),
                         threads, ValueRange(),
                         [&](OpBuilder &b, Location l, Value i, ValueRange) {
                           storeScratch(b, l, *base, i, value);
                           scf::YieldOp::create(b, l);
                         });
      if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
        return failure();
    }
    rewriter.replaceOp(op, *base);
    return success();
  }
};

struct LocalPtrConversion : DistPattern<tle_struct::LocalPtrOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::LocalPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BufferType type = op.getBuffer().getType();
    BufferAddressing addressing(type);
    Value base = adaptor.getBuffer().front();
    Type elem =
        scratchType(getTypeConverter()->convertType(type.getElementType()));
    Type resultType = op.getResult().getType();

    // The index of every register: from the operands, or the register's own
    // position in the result when the whole buffer is addressed.
    SmallVector<SmallVector<Value>> indices;
    if (!op.getIndices().empty()) {
      unsigned n = 1;
      for (ValueRange range : adaptor.getIndices())
        n = std::max<unsigned>(n, range.size());
      for (unsigned i = 0; i < n; ++i) {
        SmallVector<Value> index;
        for (ValueRange range : adaptor.getIndices())
          index.push_back(intToI32(rewriter, loc,
                                   range.size() == 1 ? range[0] : range[i],
                                   /*isSigned=*/true));
        indices.push_back(index);
      }
    } else if (auto tensor = dyn_cast<RankedTensorType>(resultType)) {
      auto own = emitIndices(rewriter, loc, st.target, tensor.getEncoding(),
                             tensor.getShape());
      if (failed(own))
        return op.emitError("cannot compute the indices of this layout");
      indices = std::move(*own);
    } else {
      indices.push_back({});
    }
    SmallVector<Value> ptrs;
    for (ArrayRef<Value> index : indices)
      ptrs.push_back(scratchPtr(rewriter, loc, base, elem,
                                addressing.offset(rewriter, loc, index)));
    rewriter.replaceOpWithMultiple(op, {ptrs});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateLocalBufferPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<AllocConversion, LocalPtrConversion>(tc, patterns.getContext(),
                                                    st);
}
