//===- DistributeCommon.h - Shared pieces of tle-distribute -----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// What the distribution patterns share: the pass state, the 1:N type
// converter, the pattern base class, index and scratch-memory helpers, and
// one populate function per pattern file. Private to core/conversion: it pulls
// in the dialect-conversion headers, which nothing outside should need.
//
// Pattern files, by concept:
//   DistributeFunc.cpp        functions, returns, grid queries, barriers
//   DistributeElementwise.cpp arith/math per register, constants, casts
//   DistributeLayout.cpp      make_range, splat, broadcast, expand_dims,
//                             convert_layout
//   DistributeMemory.cpp      addptr, vectorized loads and stores
//   DistributeReduce.cpp      reductions
//   DistributeScan.cpp        scans (tl.cumsum, associative_scan, tle.cumsum)
//   DistributeDot.cpp         tl.dot through the FMA fallback
//   DistributeAtomic.cpp      tl.atomic_* through the target
//   DistributeHistogram.cpp   tl.histogram
//   DistributeShape.cpp       trans, reshape, join, split, cat, sub-tiles
//   DistributeLocal.cpp       tle_struct local buffers
//   DistributeAsyncCopy.cpp   pipelined loops' copies into buffer slots,
//                             tle.gpu.copy
//   DistributeBarriers.cpp    barrier objects (tle.gpu.alloc_barrier, ...)
//   DistributeWarpSpecialize.cpp
//                             warp_specialize partitions and the target as
//                             seen from inside one
//   DistributeRaw.cpp         tle_raw.call as inline assembly
//   SinkScratchBarriers.cpp   scratch-release barriers moved to where the
//                             next op needs them
//   Distribute.cpp            the pass
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_CONVERSION_DISTRIBUTECOMMON_H
#define TLE_CORE_CONVERSION_DISTRIBUTECOMMON_H

#include "core/conversion/Passes.h"
#include "dialects/TLE/TLEDialect.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tle {
class AxisInfoResult;
} // namespace mlir::tle

namespace tle::conversion::distribute {

/// State shared by all patterns of one run of the pass.
struct DistributeState {
  const backend::TargetInfo &target;
  const mlir::tle::AxisInfoResult &axis;
  unsigned vectorBytes;
  mlir::ModuleOp module;
  /// The matrix units of layout assignment (tl.dot names its instruction).
  llvm::ArrayRef<MatrixUnit> matrixUnits;
  /// Block-level scratch: one buffer that ops take slices of. Where the op
  /// being converted started taking slices (0, or after the previous op's
  /// slices: kScratchAlternationBytes, with scratchAlternation), the end of
  /// what it took, and the most any op took (the buffer's size).
  uint64_t scratchOpBegin = 0;
  uint64_t scratchInUse = 0;
  uint64_t scratchBytes = 0;
  unsigned scratchAddressSpace = 0;
  /// Threads of one program (num_warps x warp size).
  unsigned threadsPerBlock = 0;
  /// Layout conversions inside warps by lane shuffles
  /// (OptimizationToggles::WarpExchanges).
  bool warpExchanges = true;
  /// Whether consecutive small scratch users alternate between two places
  /// (OptimizationToggles::ScratchAlternation).
  bool scratchAlternation = false;
  /// Whether a reduction's warp partials are read one per lane and combined
  /// by shuffles (OptimizationToggles::ShuffledPartials).
  bool shuffledPartials = false;
  /// If set, layout conversions are counted by how they are distributed.
  LayoutConversionCounts *conversionCounts = nullptr;
  /// Native languages the chip accepts in tle_raw variants.
  std::vector<std::string> rawLanguages;
  /// Block-level globals that live as long as the kernel (local buffers),
  /// with their sizes in bytes; the pass places them after the scratch in
  /// the kernel's one array of dynamic block-level memory.
  struct BlockGlobal {
    std::string name;
    uint64_t bytes, alignment;
    /// The op that allocated it (not to be dereferenced after conversion).
    mlir::Operation *origin = nullptr;
  };
  llvm::SmallVector<BlockGlobal> blockGlobals;
  /// The op being converted (set by a rewrite listener), and the ops whose
  /// conversion took scratch: local buffers whose lifetime none of them
  /// falls in may share the scratch's memory. `scratchUserUnknown` is set
  /// when scratch was taken outside a known op.
  mlir::Operation *currentOp = nullptr;
  llvm::DenseSet<mlir::Operation *> scratchUsers;
  bool scratchUserUnknown = false;
  /// Scratch of the warp_specialize partitions after the first, by
  /// partition index: they run beside the first (and each other), so each
  /// takes its slices from its own buffer (`__tle_scratch_p<index>`).
  struct PartitionScratch {
    uint64_t inUse = 0, bytes = 0, alignment = 16;
  };
  std::map<unsigned, PartitionScratch> partitionScratch;
  /// Tensor maps (tle_struct.tensor_map): each one's place in its kernel's
  /// global scratch, how many each function has, and each converted kernel's
  /// scratch pointer (its last argument).
  std::map<mlir::Operation *, unsigned> tensorMapIndex;
  std::map<mlir::Operation *, unsigned> tensorMapCount;
  std::map<mlir::Operation *, mlir::Value> globalScratch;
  /// Maps of descriptor arguments that the launcher builds
  /// (TargetInfo::supportsLaunchTensorMaps): each one's index among its
  /// kernel's, each kernel's descriptions of them (kLaunchTensorMapsAttr)
  /// and, once converted, its arguments that carry them.
  bool launchTensorMaps = false;
  std::map<mlir::Operation *, unsigned> launchTensorMapIndex;
  std::map<mlir::Operation *, mlir::ArrayAttr> launchTensorMapSpecs;
  std::map<mlir::Operation *, llvm::SmallVector<mlir::Value>>
      launchTensorMapArgs;
};

/// On a distributed kernel: the tensor maps the launcher builds from its
/// arguments and passes by value after them, one dictionary each: `base`,
/// `shape`, `strides` (indices of the kernel's own arguments; the strides
/// all but the last), `box`, `element` (the element type's --signature
/// name) and `swizzle` (bytes).
inline constexpr llvm::StringLiteral kLaunchTensorMapsAttr =
    "tle.launch_tensor_maps";
/// On each argument of a distributed kernel that carries such a map.
inline constexpr llvm::StringLiteral kLaunchTensorMapArgAttr =
    "tle.launch_tensor_map";

/// On a distributed kernel: the bytes of global scratch each program takes
/// (tensor maps), passed as a pointer after the kernel's own arguments.
inline constexpr llvm::StringLiteral kGlobalScratchAttr = "tle.global_scratch";

/// The warps one partition of a tle.gpu.warp_specialize runs on; recorded
/// (kPartitionAttr: index, first warp, warps) on the scf.if that runs it.
struct WarpPartition {
  unsigned index = 0, firstWarp = 0, numWarps = 0;
};
inline constexpr llvm::StringLiteral kPartitionAttr = "tle.partition";
/// The partition the op being converted (else the builder's insertion
/// point) is in; std::nullopt outside warp_specialize.
std::optional<WarpPartition> getEnclosingPartition(const DistributeState &st,
                                                   mlir::OpBuilder &b);
/// Threads that run the code at b's insertion point together: the
/// partition's, or the block's.
unsigned getThreadsInGroup(const DistributeState &st, mlir::OpBuilder &b);

/// The target as seen from inside a warp_specialize partition: thread ids
/// count from the partition's first thread and block barriers synchronize
/// the partition's warps only (a group barrier per partition). Being the
/// one way distribution reaches the plugin, it also marks what
/// sinkScratchBarriers must know of the plugin's ops: block barriers
/// (kBlockBarrierAttr), what async copies touch, and shuffles that move
/// registers only (kBlockAccessAttr).
/// Everything else goes to the plugin's TargetInfo unchanged; a hook added
/// to backend::TargetInfo must be forwarded here.
class PartitionAwareTarget : public backend::TargetInfo {
public:
  explicit PartitionAwareTarget(const backend::TargetInfo &inner)
      : inner(inner) {}
  void setState(const DistributeState *state) { st = state; }
  const backend::TargetInfo &getInner() const { return inner; }

  unsigned getWarpSize() const override;
  std::optional<unsigned>
  getAddressSpace(llvm::StringRef level) const override;
  mlir::FailureOr<mlir::Value> getProgramId(mlir::OpBuilder &b,
                                            mlir::Location loc,
                                            unsigned axis) const override;
  mlir::FailureOr<mlir::Value> getNumPrograms(mlir::OpBuilder &b,
                                              mlir::Location loc,
                                              unsigned axis) const override;
  mlir::FailureOr<mlir::Value> getThreadId(mlir::OpBuilder &b,
                                           mlir::Location loc,
                                           unsigned axis) const override;
  mlir::LogicalResult emitBarrier(mlir::OpBuilder &b, mlir::Location loc,
                                  backend::BarrierScope scope) const override;
  mlir::FailureOr<mlir::Value>
  shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
          mlir::Value offset, backend::ShuffleKind kind) const override;
  bool supportsAtomic(backend::AtomicKind kind, mlir::Type elementType,
                      unsigned addressSpace) const override;
  mlir::FailureOr<mlir::Value> emitAtomic(mlir::OpBuilder &b,
                                          mlir::Location loc,
                                          backend::AtomicKind kind,
                                          mlir::Value ptr, mlir::Value operand,
                                          mlir::Value compare) const override;
  mlir::FailureOr<mlir::Value>
  emitPackedTruncF(mlir::OpBuilder &b, mlir::Location loc, mlir::Value low,
                   mlir::Value high, mlir::Type resultElem) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitFloat8Conversion(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::ValueRange in, mlir::Type from,
                       mlir::Type to) const override;
  std::optional<backend::MatrixFragments>
  getMatrixFragments(const hwdesc::MatrixInstruction &instr) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixMultiply(mlir::OpBuilder &b, mlir::Location loc,
                     const hwdesc::MatrixInstruction &instr, mlir::ValueRange a,
                     mlir::ValueRange bOperand,
                     mlir::ValueRange c) const override;
  bool supportsMatrixTileLoads() const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixTileLoad(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value rowAddress, unsigned numTiles,
                     bool transpose) const override;
  bool supportsMatrixTileStores() const override;
  mlir::LogicalResult emitMatrixTileStore(mlir::OpBuilder &b,
                                          mlir::Location loc,
                                          mlir::Value rowAddress,
                                          mlir::ValueRange tiles,
                                          bool transpose) const override;
  bool supportsAsyncCopy(unsigned bytes) const override;
  mlir::LogicalResult emitAsyncCopy(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value dst, mlir::Value src,
                                    unsigned bytes,
                                    mlir::Value pred) const override;
  mlir::LogicalResult emitAsyncCommit(mlir::OpBuilder &b,
                                      mlir::Location loc) const override;
  mlir::LogicalResult emitAsyncWait(mlir::OpBuilder &b, mlir::Location loc,
                                    unsigned pending) const override;
  bool supportsBarrierObjects() const override;
  mlir::LogicalResult emitBarrierInit(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value address,
                                      unsigned count) const override;
  mlir::LogicalResult emitBarrierInval(mlir::OpBuilder &b, mlir::Location loc,
                                       mlir::Value address) const override;
  mlir::LogicalResult emitBarrierArrive(mlir::OpBuilder &b, mlir::Location loc,
                                        mlir::Value address,
                                        unsigned count) const override;
  mlir::LogicalResult emitBarrierWait(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value address,
                                      mlir::Value parity) const override;
  mlir::LogicalResult emitAsyncCopyArrive(mlir::OpBuilder &b,
                                          mlir::Location loc,
                                          mlir::Value address) const override;
  bool supportsTensorCopies() const override;
  unsigned getTensorMapBytes() const override;
  bool supportsLaunchTensorMaps() const override;
  unsigned getLaunchTensorMapAlignment() const override;
  mlir::LogicalResult emitTensorMapInit(mlir::OpBuilder &b, mlir::Location loc,
                                        mlir::Value map, mlir::Value staging,
                                        const backend::TensorMapDesc &desc,
                                        mlir::Value laneId) const override;
  mlir::LogicalResult emitTensorCopy(mlir::OpBuilder &b, mlir::Location loc,
                                     mlir::Value dst, mlir::Value map,
                                     mlir::ValueRange coords,
                                     mlir::Value barrier,
                                     bool afterOrdinaryAccesses) const override;
  mlir::LogicalResult emitBarrierExpectBytes(mlir::OpBuilder &b,
                                             mlir::Location loc,
                                             mlir::Value barrier,
                                             unsigned bytes) const override;
  unsigned getNumGroupBarriers() const override;
  mlir::LogicalResult emitGroupBarrier(mlir::OpBuilder &b, mlir::Location loc,
                                       unsigned id,
                                       unsigned numThreads) const override;
  mlir::LogicalResult
  emitMatrixOperandsStored(mlir::OpBuilder &b,
                           mlir::Location loc) const override;
  mlir::LogicalResult emitMatrixFence(mlir::OpBuilder &b,
                                      mlir::Location loc) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitBlockMatrixMultiply(mlir::OpBuilder &b, mlir::Location loc,
                          const hwdesc::MatrixInstruction &instr, int64_t n,
                          const backend::BlockMatrixOperand &a,
                          const backend::BlockMatrixOperand &bOperand,
                          mlir::ValueRange c) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitRegisterAMatrixMultiply(mlir::OpBuilder &b, mlir::Location loc,
                              const hwdesc::MatrixInstruction &instr, int64_t n,
                              mlir::ValueRange aRegisters,
                              const backend::BlockMatrixOperand &bOperand,
                              mlir::ValueRange c) const override;
  mlir::LogicalResult emitMatrixCommit(mlir::OpBuilder &b,
                                       mlir::Location loc) const override;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixWait(mlir::OpBuilder &b, mlir::Location loc, unsigned pending,
                 mlir::ValueRange accumulators) const override;

private:
  const backend::TargetInfo &inner;
  const DistributeState *st = nullptr;
};

/// Maps `tensor<S x T, #layout>` to the N scalars of T that one thread holds
/// (register order of the layout) and `!tle.ptr` to `!llvm.ptr` in the
/// address space of its memory level.
class DistributeTypeConverter : public mlir::TypeConverter {
public:
  DistributeTypeConverter(mlir::MLIRContext *ctx,
                          const backend::TargetInfo &target);
};

/// Base of the patterns that need the pass state.
template <typename Op>
struct DistPattern : public mlir::OpConversionPattern<Op> {
  DistPattern(const mlir::TypeConverter &tc, mlir::MLIRContext *ctx,
              DistributeState &st, mlir::PatternBenefit benefit = 1)
      : mlir::OpConversionPattern<Op>(tc, ctx, benefit), st(st) {}
  DistributeState &st;
};

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// `elems` as one vector value (the value itself when there is one).
mlir::Value packVector(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::ValueRange elems);

/// Bytes of one element of `t` in memory (pointers are 8).
unsigned typeBytes(mlir::Type t);

/// (lane, warp) of this thread as i32 values.
mlir::FailureOr<std::pair<mlir::Value, mlir::Value>>
getLaneAndWarp(mlir::OpBuilder &b, mlir::Location loc,
               const backend::TargetInfo &target, unsigned warpSize);

/// Per-dimension coordinates of `linear` (an i32 value) in a box of `sizes`,
/// order[0] fastest.
llvm::SmallVector<mlir::Value> delinearizeValue(mlir::OpBuilder &b,
                                                mlir::Location loc,
                                                mlir::Value linear,
                                                llvm::ArrayRef<unsigned> sizes,
                                                llvm::ArrayRef<unsigned> order);

/// The tensor index of every register of this thread: result[reg][dim] (i32).
mlir::FailureOr<llvm::SmallVector<llvm::SmallVector<mlir::Value>>>
emitIndices(mlir::OpBuilder &b, mlir::Location loc,
            const backend::TargetInfo &target, mlir::Attribute layoutAttr,
            llvm::ArrayRef<int64_t> shape);

/// For each register, its tensor index minus register 0's, where that
/// difference is the same in every thread (no wrap-around inside the
/// tensor; a linear layout's register bits disjoint from its lane and warp
/// bits); std::nullopt otherwise.
std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>>
getRegisterIndexDeltas(mlir::Attribute layoutAttr,
                       llvm::ArrayRef<int64_t> shape);

/// For each register of this thread's part of `value` (a tile), the first
/// register whose element lies in the same run of equal values in every
/// thread, where the axis analysis proves such runs (constancy); a register
/// maps to itself otherwise. std::nullopt when no register repeats another.
/// Elementwise ops compute each run once: `offsets < n` with n divisible by
/// 16 is one comparison per 4 contiguous elements, as Triton's vectorized
/// masks.
std::optional<llvm::SmallVector<unsigned>>
getConstantRunLeaders(const mlir::tle::AxisInfoResult &axis, mlir::Value value);

/// An integer as i32: truncated when wider, extended (with its sign when
/// `isSigned`) when narrower.
mlir::Value intToI32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                     bool isSigned);

/// Row-major linear index of `index` in `shape` (i32).
mlir::Value linearizeIndex(mlir::OpBuilder &b, mlir::Location loc,
                           llvm::ArrayRef<mlir::Value> index,
                           llvm::ArrayRef<int64_t> shape);

/// Storage type of an element in scratch memory (i1 is kept as i8).
mlir::Type scratchType(mlir::Type t);

/// The address space of the block level, or an error at loc.
mlir::FailureOr<unsigned> getBlockAddressSpace(mlir::Location loc,
                                               DistributeState &st);

/// The symbol of the block-level scratch buffer.
inline constexpr llvm::StringLiteral kScratchSymbol = "__tle_scratch";
/// A slice of the block-level scratch buffer for `count` elements of
/// `elemType`, apart from the slices taken since the last releaseScratch,
/// `alignment` bytes aligned (the buffer itself is kBlockMemoryAlignment
/// aligned). Its address op carries kScratchSliceAttr.
mlir::FailureOr<mlir::Value> allocScratch(mlir::OpBuilder &b,
                                          mlir::Location loc,
                                          DistributeState &st,
                                          mlir::Type elemType, uint64_t count,
                                          uint64_t alignment = 16);
/// Alignment of the kernel's block-level memory and of swizzled buffers in
/// it (the swizzle pattern of matrix-operand layouts repeats every 1024
/// bytes).
inline constexpr uint64_t kBlockMemoryAlignment = 1024;
/// The scratch of warp_specialize partition `index` (> 0); the pass places
/// it apart from the first partition's.
std::string getPartitionScratchSymbol(unsigned index);
/// Lets the next op reuse the scratch buffer from its start. Call it after
/// the block barrier that ends an op's last scratch access.
void releaseScratch(DistributeState &st);
/// On the getelementptr that allocScratch returns: the bytes of the scratch
/// the slice spans, [begin, end) (DenseI64ArrayAttr), which tell
/// sinkScratchBarriers that two slices are apart.
inline constexpr llvm::StringLiteral kScratchSliceAttr = "tle.scratch_slice";

/// Runs `body` in the first thread of the block (or partition) only, and
/// there only where `alsoIf` (an i1), when given, holds.
mlir::LogicalResult
inFirstThread(mlir::OpBuilder &b, mlir::Location loc, DistributeState &st,
              llvm::function_ref<mlir::LogicalResult(mlir::OpBuilder &)> body,
              mlir::Value alsoIf = {});
/// Marks the ops of a scratch-release barrier, which sinkScratchBarriers
/// may move down to the next access of block-level memory.
inline constexpr llvm::StringLiteral kScratchReleaseAttr =
    "tle.scratch_release";
/// Marks the ops of every block barrier (PartitionAwareTarget::emitBarrier
/// marks them; an async wait's marks the wait too): a release barrier that
/// reaches one merges into it.
inline constexpr llvm::StringLiteral kBlockBarrierAttr = "tle.block_barrier";
/// Marks target ops whose effects on block-level memory MLIR cannot see
/// (NVIDIA's cp.async): an array of the block-level globals they may touch,
/// empty for none (PartitionAwareTarget marks the async copies it emits).
inline constexpr llvm::StringLiteral kBlockAccessAttr = "tle.block_access";
/// Marks the ops of an asynchronous copy into block-level memory besides
/// kBlockAccessAttr: its writes land at a wait, not at a barrier.
inline constexpr llvm::StringLiteral kAsyncCopyAttr = "tle.async_copy";
/// Runs `emit` and appends the ops it creates at b's insertion point to
/// `emitted`.
mlir::LogicalResult
collectEmitted(mlir::OpBuilder &b,
               llvm::function_ref<mlir::LogicalResult()> emit,
               llvm::SmallVectorImpl<mlir::Operation *> &emitted);
/// Runs `emit` and marks every op it creates at b's insertion point with
/// `attr` = `value` (a unit attribute when null).
mlir::LogicalResult markEmitted(mlir::OpBuilder &b, llvm::StringRef attr,
                                llvm::function_ref<mlir::LogicalResult()> emit,
                                mlir::Attribute value = {});
/// The block-level global (the scratch, a local buffer) whose address `ptr`
/// is derived from through getelementptr, if it can be told.
std::optional<llvm::StringRef> getBlockGlobal(mlir::Value ptr);
/// Bytes of a block-level global: all of it, or [begin, end).
struct BlockRegion {
  llvm::StringRef global;
  uint64_t begin = 0, end = UINT64_MAX;
};
/// getBlockGlobal, narrowed to a scratch slice where `ptr` is derived from
/// one (kScratchSliceAttr).
std::optional<BlockRegion> getBlockRegion(mlir::Value ptr);
/// Ends an op's use of the scratch: a block barrier (marked
/// kScratchReleaseAttr) after its last scratch access, then releaseScratch;
/// where this op began at the start and took at most
/// kScratchAlternationBytes, the next op's slices start after its slices.
mlir::LogicalResult emitScratchRelease(mlir::OpBuilder &b, mlir::Location loc,
                                       DistributeState &st);
/// After distribution, places the barriers that only order block-level
/// memory accesses (see SinkScratchBarriers.cpp): a slot-release barrier
/// (kSlotReleaseAttr) is dropped where a barrier that stays already
/// separates the accesses before it from those after it; a scratch-release
/// barrier moves down its block past the ops that touch no block-level
/// memory its accesses do (through pointers of `globalAddressSpace`, or
/// other block-level globals than theirs; `scratchSharers` names the local
/// buffers placed in the scratch's bytes), into the next barrier it meets,
/// and is dropped at a kernel's end or at the end of a loop body whose next
/// iteration and following code meet a barrier first. With `earlyRefill`,
/// the copies after a dropped slot release move up to just after the
/// barrier that releases the slot; without, they stay where they were.
/// Then clears the marks.
void sinkScratchBarriers(mlir::ModuleOp module,
                         std::optional<unsigned> globalAddressSpace,
                         const llvm::StringSet<> &scratchSharers,
                         bool earlyRefill);

/// A new global of `count` elements of `elemType` in address space `as`,
/// named `prefix` + a number, counted into the kernel's block-level bytes;
/// returns its address.
mlir::FailureOr<mlir::Value>
allocBlockGlobal(mlir::OpBuilder &b, mlir::Location loc, DistributeState &st,
                 llvm::StringRef prefix, mlir::Type elemType, uint64_t count,
                 unsigned as, uint64_t alignment = 16);

mlir::Value scratchPtr(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                       mlir::Type elemType, mlir::Value index);
void storeScratch(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                  mlir::Value index, mlir::Value value);
mlir::Value loadScratch(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value base, mlir::Value index, mlir::Type type);

/// Registers per vector access: the widest power of two that the layout keeps
/// contiguous in every thread (consecutive registers, consecutive indices
/// along the fastest register dimension, aligned) and that the axis analysis
/// allows for the pointer. `maskUniform` tells whether the mask is known to
/// be the same on all lanes of such a vector.
struct VectorPlan {
  unsigned vec = 1;
  bool maskUniform = true;
};
VectorPlan planVectorAccess(DistributeState &st, mlir::Value ptr,
                            mlir::Value mask);

/// Reads a tile of `shape` in `layout` from block-level memory where
/// dimension `contiguous` is contiguous (rows 16-byte aligned) and
/// `ptrAt(index, elemType)` addresses an element: with the target's matrix
/// tile loads where the layout allows, else in vectors along `contiguous`.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
readBlockTile(mlir::OpBuilder &b, mlir::Location loc, DistributeState &st,
              mlir::tle::DistributedLayoutAttrInterface layout,
              llvm::ArrayRef<int64_t> shape, mlir::Type elem,
              unsigned contiguous,
              llvm::function_ref<mlir::Value(llvm::ArrayRef<mlir::Value>,
                                             mlir::Type)>
                  ptrAt);

/// Writes `values`, a tile of `shape` in `layout`, to block-level memory
/// where dimension `contiguous` is contiguous and `ptrAt` addresses an
/// element (the mirror of readBlockTile): with the target's matrix tile
/// stores where the layout allows, else in vectors of at most `maxVector`
/// elements along `contiguous`.
mlir::LogicalResult writeBlockTile(
    mlir::OpBuilder &b, mlir::Location loc, DistributeState &st,
    mlir::tle::DistributedLayoutAttrInterface layout,
    llvm::ArrayRef<int64_t> shape, mlir::ValueRange values, unsigned contiguous,
    unsigned maxVector,
    llvm::function_ref<mlir::Value(llvm::ArrayRef<mlir::Value>, mlir::Type)>
        ptrAt);

/// The number of consecutive registers of `layout` that every thread can
/// move as one vector of at most `maxElems` elements to or from scratch
/// contiguous along `dim`: registers r .. r+vec-1 (r a multiple of vec) hold
/// consecutive elements along `dim` starting at a multiple of vec, and every
/// lane and warp moves the index along `dim` by multiples of vec.
unsigned getScratchVectorWidth(mlir::tle::DistributedLayoutAttrInterface layout,
                               llvm::ArrayRef<int64_t> shape, unsigned dim,
                               unsigned maxElems);

/// The offsets (lane 0, warp 0) of the registers of one matrix
/// instruction's fragment, in register order.
llvm::SmallVector<std::pair<int64_t, int64_t>>
getFragmentOffsets(const backend::MatrixFragmentLayout &fragment);

/// Shuffles `v` across lanes through the target, as 32-bit pieces.
mlir::FailureOr<mlir::Value> shuffleValue(mlir::OpBuilder &b,
                                          mlir::Location loc,
                                          const backend::TargetInfo &target,
                                          mlir::Value v, mlir::Value offset,
                                          backend::ShuffleKind kind);
/// A layout conversion inside each warp by lane shuffles (see
/// DistributeWarpExchange.cpp): per round, the lane each lane reads, the word
/// of its source registers each lane publishes (`elemsPerWord` elements of
/// `elemBits`, at most 32 bits: the registers differing in the
/// register-index bits `wordBits`), and the destination registers the round
/// fills with each lane's element position in the word read (-1: the lane
/// fills that register in another round).
struct WarpExchangePlan {
  unsigned elemBits = 32, elemsPerWord = 1, srcRegs = 0, dstRegs = 0;
  llvm::SmallVector<unsigned> wordBits;
  struct Fill {
    unsigned reg;
    llvm::SmallVector<int32_t> positions;
  };
  struct Round {
    llvm::SmallVector<int32_t> srcLane, word;
    llvm::SmallVector<Fill> fills;
  };
  llvm::SmallVector<Round> rounds;

  /// The source register that is element `position` of word `word`.
  unsigned getSourceRegister(unsigned word, unsigned position) const;
};

/// The exchange converting `src` to `dst` when every element stays in its
/// warp, the same way in every warp, in at most `maxRounds` rounds;
/// std::nullopt otherwise (or for elements other than 8, 16 or 32 bits).
std::optional<WarpExchangePlan>
planWarpExchange(mlir::tle::DistributedLayoutAttrInterface src,
                 mlir::tle::DistributedLayoutAttrInterface dst,
                 llvm::ArrayRef<int64_t> shape, unsigned elemBits,
                 unsigned maxRounds);

/// The destination registers of `plan` from this thread's source registers.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
emitWarpExchange(mlir::OpBuilder &b, mlir::Location loc, DistributeState &st,
                 const WarpExchangePlan &plan, mlir::ValueRange src,
                 mlir::Type elem, unsigned warpSize);

/// Xor-shuffles `v` across lanes through the target, as 32-bit pieces.
mlir::FailureOr<mlir::Value> shuffleXor(mlir::OpBuilder &b, mlir::Location loc,
                                        const backend::TargetInfo &target,
                                        mlir::Value v, unsigned offset);

/// Per register of this thread, whether it holds the canonical copy of its
/// element: a layout whose tile is larger than the tensor replicates
/// elements over lanes, warps or registers, and side effects that must
/// happen once per element (atomics) are guarded by this. A null Value
/// means always.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
emitOwnerMasks(mlir::OpBuilder &b, mlir::Location loc,
               const backend::TargetInfo &target, mlir::Attribute layoutAttr,
               llvm::ArrayRef<int64_t> shape);
/// Whether emitOwnerMasks knows the layout (blocked, and slices of it).
bool knowsOwners(mlir::Attribute layoutAttr);
/// emitOwnerMasks for a value of type `like`: per register of a tensor, or
/// thread 0 for a scalar, which every thread holds.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
emitValueOwners(mlir::OpBuilder &b, mlir::Location loc,
                const backend::TargetInfo &target, mlir::Type like);

//===----------------------------------------------------------------------===//
// Pattern sets
//===----------------------------------------------------------------------===//

/// Rewrites arith and math ops on 8-bit floats (other than casts, selects,
/// bitcasts and constants), reductions and scans over them to compute in
/// f32 between widening and narrowing casts (DistributeFloat8.cpp).
void widenFloat8Arithmetic(mlir::ModuleOp module);

void populateFunctionPatterns(const mlir::TypeConverter &tc,
                              mlir::RewritePatternSet &patterns,
                              DistributeState &st);
void populateElementwisePatterns(const mlir::TypeConverter &tc,
                                 mlir::RewritePatternSet &patterns,
                                 DistributeState &st);
void populateLayoutPatterns(const mlir::TypeConverter &tc,
                            mlir::RewritePatternSet &patterns,
                            DistributeState &st);
void populateMemoryPatterns(const mlir::TypeConverter &tc,
                            mlir::RewritePatternSet &patterns,
                            DistributeState &st);
void populateReducePatterns(const mlir::TypeConverter &tc,
                            mlir::RewritePatternSet &patterns,
                            DistributeState &st);
void populateDotPatterns(const mlir::TypeConverter &tc,
                         mlir::RewritePatternSet &patterns,
                         DistributeState &st);
void populateScanPatterns(const mlir::TypeConverter &tc,
                          mlir::RewritePatternSet &patterns,
                          DistributeState &st);
void populateAtomicPatterns(const mlir::TypeConverter &tc,
                            mlir::RewritePatternSet &patterns,
                            DistributeState &st);
void populateHistogramPatterns(const mlir::TypeConverter &tc,
                               mlir::RewritePatternSet &patterns,
                               DistributeState &st);
void populateGatherPatterns(const mlir::TypeConverter &tc,
                            mlir::RewritePatternSet &patterns,
                            DistributeState &st);
void populateShapePatterns(const mlir::TypeConverter &tc,
                           mlir::RewritePatternSet &patterns,
                           DistributeState &st);
void populateBlockDotPatterns(const mlir::TypeConverter &tc,
                              mlir::RewritePatternSet &patterns,
                              DistributeState &st);
/// Converts each of `in` (one thread's elements of `from`) to `to`, one of
/// them an 8-bit float (its byte in distributed IR), rounding to nearest
/// even (with the target's own instructions when it has them:
/// TargetInfo::emitFloat8Conversion) or toward zero; an error at `op` for the
/// pairs it cannot convert.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
convertFloat8(const backend::TargetInfo &target, mlir::Operation *op,
              mlir::OpBuilder &b, mlir::ValueRange in, mlir::Type from,
              mlir::Type to, bool towardZero);
void populateFloat8Patterns(const mlir::TypeConverter &tc,
                            mlir::RewritePatternSet &patterns,
                            DistributeState &st);
void populateTensorCopyPatterns(const mlir::TypeConverter &tc,
                                mlir::RewritePatternSet &patterns,
                                DistributeState &st);
void populateAsyncCopyPatterns(const mlir::TypeConverter &tc,
                               mlir::RewritePatternSet &patterns,
                               DistributeState &st);
void populateLocalBufferPatterns(const mlir::TypeConverter &tc,
                                 mlir::RewritePatternSet &patterns,
                                 DistributeState &st);
void populateRawPatterns(const mlir::TypeConverter &tc,
                         mlir::RewritePatternSet &patterns,
                         DistributeState &st);
void populateBarrierPatterns(const mlir::TypeConverter &tc,
                             mlir::RewritePatternSet &patterns,
                             DistributeState &st);
void populateWarpSpecializePatterns(const mlir::TypeConverter &tc,
                                    mlir::RewritePatternSet &patterns,
                                    DistributeState &st);

} // namespace tle::conversion::distribute

#endif // TLE_CORE_CONVERSION_DISTRIBUTECOMMON_H
