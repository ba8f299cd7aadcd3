//===- DistributeTensorCopy.cpp - Tensor maps and tensor copies -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Tensor copies (TargetInfo::supportsTensorCopies; Hopper's TMA) that
// software pipelining made for descriptor tiles. A kernel with tensor maps
// takes one more argument after its own: global memory of
// `tle.global_scratch` bytes per program, which the launcher provides
// (the manifest's global_scratch_bytes); map i of the kernel lives at byte
// (linear program id * that + i * map bytes). tle_struct.tensor_map has
// the block's first warp write its map there through a staging copy in
// block-level scratch, then synchronizes the block. tle_struct.
// async_tensor_copy is issued by the block's first thread: one arrival on
// the slot's barrier expecting the tile's bytes, then one copy per
// swizzle panel of the tile.
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

/// The block's linear program id as an i64.
FailureOr<Value> getLinearProgramId(OpBuilder &b, Location loc,
                                    const ::tle::backend::TargetInfo &target) {
  Value linear;
  for (int axis = 2; axis >= 0; --axis) {
    FailureOr<Value> id = target.getProgramId(b, loc, axis);
    if (failed(id))
      return failure();
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), *id);
    if (!linear) {
      linear = wide;
      continue;
    }
    FailureOr<Value> count = target.getNumPrograms(b, loc, axis);
    if (failed(count))
      return failure();
    linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, linear,
            arith::ExtUIOp::create(b, loc, b.getI64Type(), *count)),
        wide);
  }
  return linear;
}

struct TensorMapConversion : DistPattern<tle_struct::TensorMapOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::TensorMapOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned mapBytes = st.target.getTensorMapBytes();
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    auto scratchIt = st.globalScratch.find(func);
    Value scratch =
        scratchIt == st.globalScratch.end() ? Value() : scratchIt->second;
    auto index = st.tensorMapIndex.find(op);
    if (!st.target.supportsTensorCopies() || !mapBytes || !scratch ||
        index == st.tensorMapIndex.end())
      return op.emitError("tensor maps need a target with tensor copies, in "
                          "a kernel");
    auto perProgram = func->getAttrOfType<IntegerAttr>(kGlobalScratchAttr);
    FailureOr<Value> program = getLinearProgramId(rewriter, loc, st.target);
    if (failed(program))
      return failure();
    Value offset = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, *program,
                              arith::ConstantIntOp::create(
                                  rewriter, loc, perProgram.getInt(), 64)),
        arith::ConstantIntOp::create(rewriter, loc,
                                     int64_t(index->second) * mapBytes, 64));
    Value map = LLVM::GEPOp::create(rewriter, loc, scratch.getType(),
                                    rewriter.getI8Type(), scratch,
                                    ArrayRef<LLVM::GEPArg>{offset});
    FailureOr<Value> staging =
        allocScratch(rewriter, loc, st, rewriter.getI8Type(), mapBytes,
                     /*alignment=*/mapBytes);
    if (failed(staging))
      return failure();

    ::tle::backend::TensorMapDesc desc;
    desc.Base = adaptor.getBase().front();
    auto pointee = cast<PointerType>(op.getBase().getType()).getPointeeType();
    desc.ElementType = getTypeConverter()->convertType(pointee);
    unsigned rank = op.getShape().size();
    for (unsigned d = rank; d-- > 0;) {
      desc.Sizes.push_back(adaptor.getShape()[d].front());
      desc.Box.push_back(op.getBox()[d]);
      if (d + 1 < rank)
        desc.Strides.push_back(arith::MulIOp::create(
            rewriter, loc, adaptor.getStrides()[d].front(),
            arith::ConstantIntOp::create(rewriter, loc, typeBytes(pointee),
                                         64)));
    }
    desc.SwizzleBytes = op.getSwizzle();

    FailureOr<Value> tid = st.target.getThreadId(rewriter, loc, 0);
    if (failed(tid))
      return failure();
    Value firstWarp =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, *tid,
                              i32Const(rewriter, loc, st.target.getWarpSize()));
    LogicalResult written = success();
    scf::IfOp::create(rewriter, loc, firstWarp, [&](OpBuilder &b, Location l) {
      written = st.target.emitTensorMapInit(b, l, map, *staging, desc, *tid);
      scf::YieldOp::create(b, l);
    });
    if (failed(written) ||
        failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    releaseScratch(st);
    rewriter.replaceOp(op, map);
    return success();
  }
};

struct AsyncTensorCopyConversion : DistPattern<tle_struct::AsyncTensorCopyOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::AsyncTensorCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BufferType type = op.getBuffer().getType();
    BufferAddressing addressing(type);
    ArrayRef<int64_t> slotShape = type.getShape().drop_front();
    // The tile's contiguous dimension is the slot's fastest one.
    unsigned inner = addressing.fastest() - 1;
    if (slotShape.size() != 2 || inner != (op.getTransposed() ? 0u : 1u))
      return op.emitError("a tensor copy lands its tile's contiguous "
                          "dimension along the slot's fastest one");
    Type elem = getTypeConverter()->convertType(type.getElementType());
    unsigned elemBytes = typeBytes(elem);
    int64_t panels = slotShape[inner] / addressing.panelColumns;
    int64_t bytes = slotShape[0] * slotShape[1] * elemBytes;

    Value base = adaptor.getBuffer().front();
    Value slot = adaptor.getSlot().front();
    Value barrier = LLVM::GEPOp::create(
        rewriter, loc, adaptor.getBarrier().front().getType(),
        rewriter.getI64Type(), adaptor.getBarrier().front(),
        ArrayRef<LLVM::GEPArg>{slot});
    Value map = adaptor.getMap().front();
    Value row = adaptor.getIndices()[0].front();
    Value col = adaptor.getIndices()[1].front();

    // The first copies into a ring (before its loop, where the pipeliner
    // put them next to the ring's allocation) may follow ordinary accesses
    // to the same bytes: in a persistent kernel's tile loop, the previous
    // tile's scratch.
    Operation *ring = op.getBuffer().getDefiningOp();
    bool ordered = !ring || ring->getBlock() == op->getBlock();
    auto issue = [&](OpBuilder &b) {
      LogicalResult issued =
          st.target.emitBarrierExpectBytes(b, loc, barrier, bytes);
      for (int64_t p = 0; p < panels && succeeded(issued); ++p) {
        SmallVector<Value> start{slot, i32Const(b, loc, 0),
                                 i32Const(b, loc, 0)};
        start[inner + 1] = i32Const(b, loc, p * addressing.panelColumns);
        Value dst = scratchPtr(b, loc, base, elem,
                               addressing.unswizzledOffset(b, loc, start));
        Value panelCol = arith::AddIOp::create(
            b, loc, col, i32Const(b, loc, p * addressing.panelColumns));
        issued = st.target.emitTensorCopy(b, loc, dst, map, {panelCol, row},
                                          barrier, ordered && p == 0);
      }
      return issued;
    };
    if (failed(
            inFirstThread(rewriter, loc, st, issue,
                          op.getPred() ? adaptor.getPred().front() : Value())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateTensorCopyPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  // Each kernel's maps in order: their places in its global scratch, whose
  // size the function's conversion takes from the count.
  st.module.walk([&](FunctionOpInterface func) {
    unsigned next = 0;
    func.walk(
        [&](tle_struct::TensorMapOp map) { st.tensorMapIndex[map] = next++; });
    if (next)
      st.tensorMapCount[func] = next;
  });
  patterns.add<TensorMapConversion, AsyncTensorCopyConversion>(
      tc, patterns.getContext(), st);
}
