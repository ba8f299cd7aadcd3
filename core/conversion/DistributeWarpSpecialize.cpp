//===- DistributeWarpSpecialize.cpp - warp_specialize partitions ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle.gpu.warp_specialize runs partition i on its own warps: the block has
// the partitions' warps one after the other, and partition i's code runs
// under `if first_i <= warp < first_i + warps_i` (an scf.if marked with
// kPartitionAttr). Code inside a partition was laid out for the partition's
// warps (tle-assign-layouts), so PartitionAwareTarget shows it thread ids
// counted from the partition's first thread and turns its block barriers
// into a group barrier of its warps (id 1 + i); partitions after the first
// take scratch from their own buffers (allocScratch). All threads meet in a
// block barrier after the partitions.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;
using ::tle::backend::TargetInfo;

namespace tle::conversion::distribute {

std::optional<WarpPartition> getEnclosingPartition(const DistributeState &st,
                                                   OpBuilder &b) {
  // The op being converted is in place; a block a body builder is filling
  // may not be attached yet, so the insertion point is only the fallback
  // (for code created outside patterns).
  Operation *op = st.currentOp;
  if (!op && b.getInsertionBlock())
    op = b.getInsertionBlock()->getParentOp();
  for (; op; op = op->getParentOp())
    if (auto attr = op->getAttrOfType<DenseI32ArrayAttr>(kPartitionAttr)) {
      ArrayRef<int32_t> v = attr.asArrayRef();
      return WarpPartition{unsigned(v[0]), unsigned(v[1]), unsigned(v[2])};
    }
  return std::nullopt;
}

unsigned getThreadsInGroup(const DistributeState &st, OpBuilder &b) {
  if (std::optional<WarpPartition> p = getEnclosingPartition(st, b))
    return p->numWarps * st.target.getWarpSize();
  return st.threadsPerBlock;
}

FailureOr<Value> PartitionAwareTarget::getThreadId(OpBuilder &b, Location loc,
                                                   unsigned axis) const {
  FailureOr<Value> tid = inner.getThreadId(b, loc, axis);
  if (failed(tid) || axis != 0 || !st)
    return tid;
  std::optional<WarpPartition> p = getEnclosingPartition(*st, b);
  if (!p || p->firstWarp == 0)
    return tid;
  return arith::SubIOp::create(
             b, loc, *tid, i32Const(b, loc, p->firstWarp * getWarpSize()))
      .getResult();
}

LogicalResult PartitionAwareTarget::emitBarrier(OpBuilder &b, Location loc,
                                                BarrierScope scope) const {
  if (scope != BarrierScope::Block)
    return inner.emitBarrier(b, loc, scope);
  std::optional<WarpPartition> p;
  if (st)
    p = getEnclosingPartition(*st, b);
  return markEmitted(b, kBlockBarrierAttr, [&] {
    if (!p)
      return inner.emitBarrier(b, loc, scope);
    return inner.emitGroupBarrier(b, loc, 1 + p->index,
                                  p->numWarps * getWarpSize());
  });
}

// Everything else is the plugin's.
unsigned PartitionAwareTarget::getWarpSize() const {
  return inner.getWarpSize();
}
std::optional<unsigned>
PartitionAwareTarget::getAddressSpace(StringRef level) const {
  return inner.getAddressSpace(level);
}
FailureOr<Value> PartitionAwareTarget::getProgramId(OpBuilder &b, Location loc,
                                                    unsigned axis) const {
  return inner.getProgramId(b, loc, axis);
}
FailureOr<Value> PartitionAwareTarget::getNumPrograms(OpBuilder &b,
                                                      Location loc,
                                                      unsigned axis) const {
  return inner.getNumPrograms(b, loc, axis);
}
FailureOr<Value> PartitionAwareTarget::shuffle(OpBuilder &b, Location loc,
                                               Value value, Value offset,
                                               backend::ShuffleKind kind) const {
  FailureOr<Value> moved;
  SmallVector<Operation *> emitted;
  if (failed(collectEmitted(
          b,
          [&] {
            moved = inner.shuffle(b, loc, value, offset, kind);
            return LogicalResult(moved);
          },
          emitted)))
    return failure();
  // A shuffle moves registers between lanes (NVIDIA's shfl.sync, which MLIR
  // sees no effects of). One that a plugin emulates through memory (loads,
  // stores, calls) keeps what those ops say.
  bool registersOnly = llvm::all_of(emitted, [](Operation *op) {
    if (isMemoryEffectFree(op))
      return true;
    return op->getNumRegions() == 0 && !isa<CallOpInterface>(op) &&
           !isa<MemoryEffectOpInterface>(op) &&
           llvm::none_of(op->getOperandTypes(),
                         [](Type t) { return isa<LLVM::LLVMPointerType>(t); });
  });
  if (registersOnly)
    for (Operation *op : emitted)
      if (!isMemoryEffectFree(op))
        op->setAttr(kBlockAccessAttr, b.getArrayAttr({}));
  return moved;
}
bool PartitionAwareTarget::supportsAtomic(backend::AtomicKind kind,
                                          Type elementType,
                                          unsigned addressSpace) const {
  return inner.supportsAtomic(kind, elementType, addressSpace);
}
FailureOr<Value> PartitionAwareTarget::emitAtomic(OpBuilder &b, Location loc,
                                                  backend::AtomicKind kind,
                                                  Value ptr, Value operand,
                                                  Value compare) const {
  return inner.emitAtomic(b, loc, kind, ptr, operand, compare);
}
FailureOr<Value> PartitionAwareTarget::emitPackedTruncF(OpBuilder &b,
                                                        Location loc, Value low,
                                                        Value high,
                                                        Type resultElem) const {
  return inner.emitPackedTruncF(b, loc, low, high, resultElem);
}
FailureOr<SmallVector<Value>> PartitionAwareTarget::emitFloat8Conversion(
    OpBuilder &b, Location loc, ValueRange in, Type from, Type to) const {
  return inner.emitFloat8Conversion(b, loc, in, from, to);
}
std::optional<backend::MatrixFragments>
PartitionAwareTarget::getMatrixFragments(
    const hwdesc::MatrixInstruction &instr) const {
  return inner.getMatrixFragments(instr);
}
FailureOr<SmallVector<Value>> PartitionAwareTarget::emitMatrixMultiply(
    OpBuilder &b, Location loc, const hwdesc::MatrixInstruction &instr,
    ValueRange a, ValueRange bOperand, ValueRange c) const {
  return inner.emitMatrixMultiply(b, loc, instr, a, bOperand, c);
}
bool PartitionAwareTarget::supportsMatrixTileLoads() const {
  return inner.supportsMatrixTileLoads();
}
FailureOr<SmallVector<Value>>
PartitionAwareTarget::emitMatrixTileLoad(OpBuilder &b, Location loc,
                                         Value rowAddress, unsigned numTiles,
                                         bool transpose) const {
  return inner.emitMatrixTileLoad(b, loc, rowAddress, numTiles, transpose);
}
bool PartitionAwareTarget::supportsMatrixTileStores() const {
  return inner.supportsMatrixTileStores();
}
LogicalResult PartitionAwareTarget::emitMatrixTileStore(OpBuilder &b,
                                                        Location loc,
                                                        Value rowAddress,
                                                        ValueRange tiles,
                                                        bool transpose) const {
  return inner.emitMatrixTileStore(b, loc, rowAddress, tiles, transpose);
}
bool PartitionAwareTarget::supportsAsyncCopy(unsigned bytes) const {
  return inner.supportsAsyncCopy(bytes);
}
LogicalResult PartitionAwareTarget::emitAsyncCopy(OpBuilder &b, Location loc,
                                                  Value dst, Value src,
                                                  unsigned bytes,
                                                  Value pred) const {
  auto emit = [&] {
    return inner.emitAsyncCopy(b, loc, dst, src, bytes, pred);
  };
  std::optional<StringRef> global = getBlockGlobal(dst);
  if (!global)
    return emit();
  SmallVector<Operation *> emitted;
  if (failed(collectEmitted(b, emit, emitted)))
    return failure();
  auto access = b.getArrayAttr(FlatSymbolRefAttr::get(b.getContext(), *global));
  for (Operation *op : emitted) {
    op->setAttr(kBlockAccessAttr, access);
    op->setAttr(kAsyncCopyAttr, b.getUnitAttr());
  }
  return success();
}
LogicalResult PartitionAwareTarget::emitAsyncCommit(OpBuilder &b,
                                                    Location loc) const {
  return markEmitted(
      b, kBlockAccessAttr, [&] { return inner.emitAsyncCommit(b, loc); },
      b.getArrayAttr({}));
}
LogicalResult PartitionAwareTarget::emitAsyncWait(OpBuilder &b, Location loc,
                                                  unsigned pending) const {
  // It lands this thread's copies, touching nothing else.
  return markEmitted(
      b, kBlockAccessAttr, [&] { return inner.emitAsyncWait(b, loc, pending); },
      b.getArrayAttr({}));
}
bool PartitionAwareTarget::supportsBarrierObjects() const {
  return inner.supportsBarrierObjects();
}
LogicalResult PartitionAwareTarget::emitBarrierInit(OpBuilder &b, Location loc,
                                                    Value address,
                                                    unsigned count) const {
  return inner.emitBarrierInit(b, loc, address, count);
}
LogicalResult PartitionAwareTarget::emitBarrierInval(OpBuilder &b, Location loc,
                                                     Value address) const {
  return inner.emitBarrierInval(b, loc, address);
}
LogicalResult PartitionAwareTarget::emitBarrierArrive(OpBuilder &b,
                                                      Location loc,
                                                      Value address,
                                                      unsigned count) const {
  return inner.emitBarrierArrive(b, loc, address, count);
}
LogicalResult PartitionAwareTarget::emitBarrierWait(OpBuilder &b, Location loc,
                                                    Value address,
                                                    Value parity) const {
  return inner.emitBarrierWait(b, loc, address, parity);
}
LogicalResult PartitionAwareTarget::emitAsyncCopyArrive(OpBuilder &b,
                                                        Location loc,
                                                        Value address) const {
  return inner.emitAsyncCopyArrive(b, loc, address);
}
bool PartitionAwareTarget::supportsTensorCopies() const {
  return inner.supportsTensorCopies();
}
unsigned PartitionAwareTarget::getTensorMapBytes() const {
  return inner.getTensorMapBytes();
}
bool PartitionAwareTarget::supportsLaunchTensorMaps() const {
  return inner.supportsLaunchTensorMaps();
}
unsigned PartitionAwareTarget::getLaunchTensorMapAlignment() const {
  return inner.getLaunchTensorMapAlignment();
}
LogicalResult PartitionAwareTarget::emitTensorMapInit(
    OpBuilder &b, Location loc, Value map, Value staging,
    const backend::TensorMapDesc &desc, Value laneId) const {
  return inner.emitTensorMapInit(b, loc, map, staging, desc, laneId);
}
LogicalResult PartitionAwareTarget::emitTensorCopy(
    OpBuilder &b, Location loc, Value dst, Value map, ValueRange coords,
    Value barrier, bool afterOrdinaryAccesses) const {
  return inner.emitTensorCopy(b, loc, dst, map, coords, barrier,
                              afterOrdinaryAccesses);
}
LogicalResult PartitionAwareTarget::emitBarrierExpectBytes(
    OpBuilder &b, Location loc, Value barrier, unsigned bytes) const {
  return inner.emitBarrierExpectBytes(b, loc, barrier, bytes);
}
unsigned PartitionAwareTarget::getNumGroupBarriers() const {
  return inner.getNumGroupBarriers();
}
LogicalResult PartitionAwareTarget::emitGroupBarrier(OpBuilder &b, Location loc,
                                                     unsigned id,
                                                     unsigned numThreads) const {
  return inner.emitGroupBarrier(b, loc, id, numThreads);
}
LogicalResult PartitionAwareTarget::emitMatrixOperandsStored(OpBuilder &b,
                                                             Location loc) const {
  return inner.emitMatrixOperandsStored(b, loc);
}
LogicalResult PartitionAwareTarget::emitMatrixFence(OpBuilder &b,
                                                    Location loc) const {
  return inner.emitMatrixFence(b, loc);
}
FailureOr<SmallVector<Value>> PartitionAwareTarget::emitBlockMatrixMultiply(
    OpBuilder &b, Location loc, const hwdesc::MatrixInstruction &instr,
    int64_t n, const backend::BlockMatrixOperand &a,
    const backend::BlockMatrixOperand &bOperand, ValueRange c) const {
  return inner.emitBlockMatrixMultiply(b, loc, instr, n, a, bOperand, c);
}
FailureOr<SmallVector<Value>> PartitionAwareTarget::emitRegisterAMatrixMultiply(
    OpBuilder &b, Location loc, const hwdesc::MatrixInstruction &instr,
    int64_t n, ValueRange aRegisters,
    const backend::BlockMatrixOperand &bOperand, ValueRange c) const {
  return inner.emitRegisterAMatrixMultiply(b, loc, instr, n, aRegisters,
                                           bOperand, c);
}
LogicalResult PartitionAwareTarget::emitMatrixCommit(OpBuilder &b,
                                                     Location loc) const {
  return inner.emitMatrixCommit(b, loc);
}
FailureOr<SmallVector<Value>>
PartitionAwareTarget::emitMatrixWait(OpBuilder &b, Location loc,
                                     unsigned pending,
                                     ValueRange accumulators) const {
  return inner.emitMatrixWait(b, loc, pending, accumulators);
}

} // namespace tle::conversion::distribute

namespace {

struct WarpSpecializeConversion
    : DistPattern<tle_struct::WarpSpecializeOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::WarpSpecializeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int32_t> numWarps = op.getPartitionNumWarps();
    if (getEnclosingPartition(st, rewriter))
      return op.emitError("warp_specialize inside a warp_specialize partition "
                          "is not supported");
    unsigned groupBarriers = st.target.getNumGroupBarriers();
    if (groupBarriers == 0)
      return op.emitError("warp_specialize needs barriers for groups of "
                          "warps, and this target has none: its warps cannot "
                          "run different partitions");
    // Partitions talk through barrier objects; without them arrive and
    // wait would only synchronize a partition with itself.
    if (!st.target.supportsBarrierObjects())
      return op.emitError("warp_specialize needs barrier objects (e.g. "
                          "mbarrier, NVIDIA sm_80+) for its partitions to "
                          "wait on each other, and this target has none");
    if (numWarps.size() > groupBarriers)
      return op.emitError() << "warp_specialize with " << numWarps.size()
                            << " partitions: the target has " << groupBarriers
                            << " group barriers, one per partition";
    unsigned warpSize = st.target.getWarpSize();
    int64_t totalWarps = 0;
    for (int32_t n : numWarps)
      totalWarps += n;
    if (totalWarps * warpSize != st.threadsPerBlock)
      return op.emitError() << "the partitions take " << totalWarps
                            << " warps but the block has "
                            << st.threadsPerBlock / warpSize
                            << " (tle-assign-layouts sizes the block)";

    FailureOr<Value> tid = st.target.getThreadId(rewriter, loc, 0);
    if (failed(tid))
      return failure();
    Value warp =
        arith::DivUIOp::create(rewriter, loc, *tid, i32Const(rewriter, loc, warpSize));
    unsigned first = 0;
    for (auto [index, region] : llvm::enumerate(op.getPartitions())) {
      unsigned n = numWarps[index];
      Value inside = arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::ult, warp,
                                           i32Const(rewriter, loc, first + n));
      if (first > 0)
        inside = arith::AndIOp::create(
            rewriter, loc, inside,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                  warp, i32Const(rewriter, loc, first)));
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), inside,
                                    /*withElseRegion=*/false);
      ifOp->setAttr(kPartitionAttr,
                    rewriter.getDenseI32ArrayAttr(
                        {int32_t(index), int32_t(first), int32_t(n)}));
      Region &then = ifOp.getThenRegion();
      rewriter.eraseBlock(&then.front());
      rewriter.inlineRegionBefore(region, then, then.end());
      Operation *yield = then.front().getTerminator();
      rewriter.setInsertionPoint(yield);
      rewriter.replaceOpWithNewOp<scf::YieldOp>(yield);
      rewriter.setInsertionPointAfter(ifOp);
      first += n;
    }
    // The partitions end together: code after them may read what any wrote.
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateWarpSpecializePatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<WarpSpecializeConversion>(tc, patterns.getContext(), st);
}
