//===- TargetInfo.h - Hooks for distributing tiles to threads ---*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The core's distribution pass turns tile ops into per-thread code. Whatever
// differs between chips at that level -- how to read ids, synchronize, move
// values between lanes, address each memory level, and which atomics and
// matrix instructions exist -- is asked of the backend through this
// interface. Sizes and limits are not here: they come from the hardware
// description, which the TargetInfo was created for.
//
// Emitters return failure after emitting an error at Loc when the chip or the
// plugin cannot express the request; the pass then stops with that message.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_BACKEND_TARGETINFO_H
#define TLE_BACKEND_TARGETINFO_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>

namespace tle {
namespace hwdesc {
struct MatrixInstruction;
} // namespace hwdesc

namespace backend {

/// Which threads a barrier synchronizes.
enum class BarrierScope { Warp, Block, Cluster };

enum class ShuffleKind { Xor, Up, Down, Index };

/// Which lane and register of one matrix instruction hold which element of
/// an operand tile: the tile offset (row, column) that each bit of the
/// register index and each bit of the lane index adds (xor), as in
/// #tle.linear. Register order is the instruction's operand order.
struct MatrixFragmentLayout {
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>> Registers;
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>> Lanes;
  /// For instructions issued by several warps together (a warpgroup): the
  /// offset each bit of the warp index inside the group adds.
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>> Warps;
};

/// The fragments of A (M x K), B (K x N) and C/D (M x N) of one instruction
/// issued by one warp (or the warps of C.Warps together).
struct MatrixFragments {
  MatrixFragmentLayout A, B, C;
  /// The instruction reads A and B from block-level memory (see
  /// BlockMatrixOperand); B is then empty, and A is empty unless the
  /// instruction also takes A from registers in that fragment
  /// (emitRegisterAMatrixMultiply; Hopper's wgmma, 16- and 8-bit types).
  bool OperandsInBlockMemory = false;
  /// With OperandsInBlockMemory: the instruction reads only K-major
  /// operands (BlockMatrixOperand::MajorMN false; Hopper's wgmma for 8-bit
  /// types has no transpose).
  bool KMajorOperandsOnly = false;
  /// Nonzero: the instruction may be issued with any N that is a multiple of
  /// NGranule up to the description's N. C then describes N = NGranule, and
  /// a wider instruction's registers continue with (0, NGranule),
  /// (0, 2 * NGranule), ... as further register bits.
  int64_t NGranule = 0;
};

/// An operand tile of a matrix instruction in block-level memory, in the
/// swizzled layout of #tle_struct.layout (`swizzle` bytes wide panels of
/// rows, 16-byte chunks xor-ed with the row phase).
struct BlockMatrixOperand {
  /// Block-level address of the tile's first element, before the swizzle,
  /// is Address + ByteOffset: the instructions of one tl.dot share Address
  /// and differ in the constant ByteOffset (a multiple of 16), so a
  /// backend can build one descriptor and add constants to it.
  mlir::Value Address;
  int64_t ByteOffset = 0;
  /// 32, 64 or 128.
  unsigned SwizzleBytes = 0;
  /// The contiguous dimension is M (of A) or N (of B) instead of K.
  bool MajorMN = false;
  /// Bytes between consecutive groups of 8 rows of a panel.
  uint64_t RowGroupStride = 0;
  /// Bytes between consecutive panels.
  uint64_t PanelStride = 0;
};

/// A tensor map (NVIDIA's CUtensorMap): how a tensor copy addresses a
/// strided tensor in global memory and lays its box out in block-level
/// memory. Dimensions are listed innermost first.
struct TensorMapDesc {
  /// Global address of element 0.
  mlir::Value Base;
  /// Elements per dimension (i32).
  llvm::SmallVector<mlir::Value> Sizes;
  /// Bytes between consecutive elements of dimensions 1.. (i64); the
  /// innermost dimension is contiguous.
  llvm::SmallVector<mlir::Value> Strides;
  /// The box one copy moves, elements per dimension.
  llvm::SmallVector<int64_t> Box;
  mlir::Type ElementType;
  /// The box lands as rows of Box[0] elements, 16-byte chunks xor-ed with
  /// the row phase over SwizzleBytes (the swizzle of #tle_struct.layout);
  /// 0: plain rows.
  unsigned SwizzleBytes = 0;
};

enum class AtomicKind {
  Add,
  FAdd,
  Min,
  Max,
  UMin,
  UMax,
  And,
  Or,
  Xor,
  Exchange,
  CompareExchange
};

class TargetInfo {
public:
  virtual ~TargetInfo() = default;

  /// Lanes per warp (subgroup, wavefront) that distribution plans for.
  virtual unsigned getWarpSize() const = 0;

  /// The address space of the memory level named Level (a level or alias of
  /// the description: "global", "shared", "block"); std::nullopt if the chip
  /// has no such level.
  virtual std::optional<unsigned>
  getAddressSpace(llvm::StringRef Level) const = 0;

  /// The program (block) id along Axis (0..2) as an i32.
  virtual mlir::FailureOr<mlir::Value>
  getProgramId(mlir::OpBuilder &B, mlir::Location Loc, unsigned Axis) const = 0;
  /// The number of programs (blocks) in the grid along Axis (0..2) as an i32.
  virtual mlir::FailureOr<mlir::Value>
  getNumPrograms(mlir::OpBuilder &B, mlir::Location Loc,
                 unsigned Axis) const = 0;
  /// The thread id inside the block along Axis (0..2) as an i32.
  virtual mlir::FailureOr<mlir::Value>
  getThreadId(mlir::OpBuilder &B, mlir::Location Loc, unsigned Axis) const = 0;

  virtual mlir::LogicalResult emitBarrier(mlir::OpBuilder &B,
                                          mlir::Location Loc,
                                          BarrierScope Scope) const = 0;

  /// Exchanges Value between the lanes of a warp; Offset is the xor mask, the
  /// distance, or the source lane, depending on Kind.
  virtual mlir::FailureOr<mlir::Value>
  shuffle(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Value,
          mlir::Value Offset, ShuffleKind Kind) const = 0;

  virtual bool supportsAtomic(AtomicKind Kind, mlir::Type ElementType,
                              unsigned AddressSpace) const = 0;
  /// Performs Kind at Ptr with Operand (and Compare for CompareExchange) and
  /// returns the old value.
  virtual mlir::FailureOr<mlir::Value>
  emitAtomic(mlir::OpBuilder &B, mlir::Location Loc, AtomicKind Kind,
             mlir::Value Ptr, mlir::Value Operand,
             mlir::Value Compare = {}) const = 0;

  /// Narrows two f32 values to a vector of two ResultElem (f16 or bf16),
  /// rounding to nearest even, with one instruction where the chip has one
  /// (NVIDIA's cvt.rn.f16x2.f32); element 0 is Low. failure() (emitting
  /// nothing) leaves one conversion per value.
  virtual mlir::FailureOr<mlir::Value>
  emitPackedTruncF(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Low,
                   mlir::Value High, mlir::Type ResultElem) const {
    return mlir::failure();
  }

  /// Converts In, elements of From, to To where one side is an 8-bit float
  /// (f8E4M3FN or f8E5M2, each element its byte as an i8) and the other
  /// f16, bf16 or f32, with the chip's own instructions: rounding to nearest
  /// even, saturating to the largest finite value (infinities too), every
  /// NaN to the format's NaN 0x7F and back to an unsigned quiet NaN, as
  /// distribution's portable conversion does. failure() (emitting nothing)
  /// leaves that portable conversion, in integer arithmetic.
  virtual mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitFloat8Conversion(mlir::OpBuilder &B, mlir::Location Loc,
                       mlir::ValueRange In, mlir::Type From,
                       mlir::Type To) const {
    return mlir::failure();
  }

  /// The fragment layouts of Instr, a matrix instruction of the description,
  /// if this backend can emit it; layout assignment then tiles tl.dot with
  /// it. std::nullopt keeps tl.dot on the FMA fallback.
  virtual std::optional<MatrixFragments>
  getMatrixFragments(const hwdesc::MatrixInstruction &Instr) const {
    return std::nullopt;
  }

  /// Emits one matrix instruction on per-lane fragments: A, BOperand and C
  /// hold one value per register of the layouts getMatrixFragments reported,
  /// in that order; returns the registers of D in C's order.
  virtual mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixMultiply(mlir::OpBuilder &B, mlir::Location Loc,
                     const hwdesc::MatrixInstruction &Instr,
                     mlir::ValueRange A, mlir::ValueRange BOperand,
                     mlir::ValueRange C) const = 0;

  /// Whether the chip has a warp-cooperative load of 8x8 tiles of 16-bit
  /// elements from block-level memory (NVIDIA's ldmatrix). Layout
  /// conversions into matrix-operand layouts then read scratch with it: one
  /// instruction per four tiles instead of one load per register pair.
  virtual bool supportsMatrixTileLoads() const { return false; }

  /// Loads NumTiles (1, 2 or 4) 8x8 tiles of 16-bit elements. Lane 8*i+j
  /// passes in RowAddress the address of row j of tile i: 16 contiguous,
  /// 16-byte aligned bytes in block-level memory. Returns, per tile, one i32
  /// per lane holding two elements, the first in the low half: those at
  /// (row l/4, columns 2*(l%4) and 2*(l%4)+1) of the tile for lane l, or with
  /// Transpose those at (rows 2*(l%4) and 2*(l%4)+1, column l/4).
  virtual mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixTileLoad(mlir::OpBuilder &B, mlir::Location Loc,
                     mlir::Value RowAddress, unsigned NumTiles,
                     bool Transpose) const {
    return mlir::failure();
  }

  /// Whether the chip has the store counterpart of emitMatrixTileLoad
  /// (NVIDIA's stmatrix, sm_90): layout conversions out of matrix
  /// fragments then write scratch with it.
  virtual bool supportsMatrixTileStores() const { return false; }

  /// Stores Tiles.size() (1, 2 or 4) 8x8 tiles of 16-bit elements: the
  /// inverse of emitMatrixTileLoad with the same RowAddress and Transpose;
  /// Tiles holds this lane's i32 of each tile (two elements, the first in
  /// the low half).
  virtual mlir::LogicalResult emitMatrixTileStore(mlir::OpBuilder &B,
                                                  mlir::Location Loc,
                                                  mlir::Value RowAddress,
                                                  mlir::ValueRange Tiles,
                                                  bool Transpose) const {
    return mlir::failure();
  }

  /// Whether the chip copies Bytes (4, 8 or 16) from global to block-level
  /// memory asynchronously (NVIDIA's cp.async, sm_80+). Software pipelining
  /// then keeps loads of later loop iterations in flight without registers;
  /// without it the copies run as a load and a store.
  virtual bool supportsAsyncCopy(unsigned Bytes) const { return false; }

  /// Starts copying Bytes from Src (global) to Dst (block-level memory,
  /// Bytes-aligned); when Pred is false nothing is read and Dst receives
  /// zeros. The copy joins the group the next emitAsyncCommit closes.
  virtual mlir::LogicalResult emitAsyncCopy(mlir::OpBuilder &B,
                                            mlir::Location Loc,
                                            mlir::Value Dst, mlir::Value Src,
                                            unsigned Bytes,
                                            mlir::Value Pred) const {
    return mlir::failure();
  }

  /// Closes the group of this thread's copies started since the last call.
  virtual mlir::LogicalResult emitAsyncCommit(mlir::OpBuilder &B,
                                              mlir::Location Loc) const {
    return mlir::failure();
  }

  /// Waits until at most Pending of this thread's copy groups are
  /// unfinished (the core adds the block barrier that publishes them).
  virtual mlir::LogicalResult emitAsyncWait(mlir::OpBuilder &B,
                                            mlir::Location Loc,
                                            unsigned Pending) const {
    return mlir::failure();
  }

  /// Barrier objects (tle_struct.barrier, tle.gpu.alloc_barrier): 8 bytes,
  /// 8-byte aligned, in block-level memory. A phase completes when the
  /// expected number of arrivals was made (and, with emitAsyncCopyArrive,
  /// the tracked copies landed); waiters name the phase by its parity.
  /// Without them (the default) the core runs a block as one role: an
  /// arrive does nothing and a wait is a block barrier.
  virtual bool supportsBarrierObjects() const { return false; }
  /// Sets up the object at Address to expect Count arrivals per phase; one
  /// thread calls it, the core publishes it with a block barrier.
  virtual mlir::LogicalResult emitBarrierInit(mlir::OpBuilder &B,
                                              mlir::Location Loc,
                                              mlir::Value Address,
                                              unsigned Count) const {
    return mlir::failure();
  }
  /// Arrives Count times, releasing this thread's earlier writes (the core
  /// lets one thread arrive, after a barrier of the threads it speaks for).
  virtual mlir::LogicalResult emitBarrierArrive(mlir::OpBuilder &B,
                                                mlir::Location Loc,
                                                mlir::Value Address,
                                                unsigned Count) const {
    return mlir::failure();
  }
  /// Blocks until the phase whose parity is Parity (an i32, 0 or 1) has
  /// completed; acquires what the arrivals released.
  virtual mlir::LogicalResult emitBarrierWait(mlir::OpBuilder &B,
                                              mlir::Location Loc,
                                              mlir::Value Address,
                                              mlir::Value Parity) const {
    return mlir::failure();
  }
  /// Ends the object's lifetime so that emitBarrierInit may set it up again
  /// (a barrier allocated in a loop body); one thread calls it once no
  /// thread waits on it and no arrival or copy is pending (the core
  /// synchronizes the block first).
  virtual mlir::LogicalResult emitBarrierInval(mlir::OpBuilder &B,
                                               mlir::Location Loc,
                                               mlir::Value Address) const {
    return mlir::failure();
  }
  /// Makes the current phase of the object at Address also wait for this
  /// thread's asynchronous copies started so far (emitAsyncCopy), without
  /// changing the arrivals it expects.
  virtual mlir::LogicalResult emitAsyncCopyArrive(mlir::OpBuilder &B,
                                                  mlir::Location Loc,
                                                  mlir::Value Address) const {
    return mlir::failure();
  }

  /// Tensor copies (NVIDIA's TMA, sm_90): one thread copies a box of a
  /// strided global tensor into block-level memory through a tensor map,
  /// and the copy completes on a barrier object (emitBarrierExpectBytes).
  /// Software pipelining then stages descriptor tiles (tl.make_tensor_
  /// descriptor) without per-thread addresses. Maps live in global memory
  /// the launcher gives each program (the manifest's global_scratch_bytes).
  virtual bool supportsTensorCopies() const { return false; }
  /// Bytes of one tensor map; maps are aligned to this in global memory.
  virtual unsigned getTensorMapBytes() const { return 0; }
  /// Whether the launcher may build the map of a descriptor argument on the
  /// host (Runtime::encodeTensorMap) and pass it by value after the
  /// kernel's arguments: an argument of getTensorMapBytes bytes, aligned to
  /// getLaunchTensorMapAlignment, that emitTensorCopy reads through its
  /// generic address. The distributed kernel marks such arguments
  /// `tle.launch_tensor_map` (llvm.byval, llvm.align).
  virtual bool supportsLaunchTensorMaps() const { return false; }
  virtual unsigned getLaunchTensorMapAlignment() const { return 0; }
  /// Writes the map of Desc to Map (global memory) through Staging
  /// (getTensorMapBytes bytes of block-level memory, as aligned). Every
  /// thread of the block's first warp calls it (LaneId: its lane); the core
  /// then synchronizes the block, and the block's first thread copies
  /// through the map (emitTensorCopy).
  virtual mlir::LogicalResult
  emitTensorMapInit(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Map,
                    mlir::Value Staging, const TensorMapDesc &Desc,
                    mlir::Value LaneId) const {
    return mlir::failure();
  }
  /// Starts copying the box at Coords (i32 element coordinates, innermost
  /// first; elements outside the tensor read as zero) of the map at Map to
  /// Dst (block-level, aligned to 1024 bytes for swizzled boxes); the copy
  /// completes on the barrier object at Barrier. One thread calls it.
  /// With AfterOrdinaryAccesses, ordinary loads and stores may have touched
  /// Dst's bytes or set the barrier up before (ordered with this thread by
  /// a block barrier): the backend orders them before the copy (NVIDIA:
  /// fence.proxy.async; the first copies into a ring).
  virtual mlir::LogicalResult
  emitTensorCopy(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Dst,
                 mlir::Value Map, mlir::ValueRange Coords, mlir::Value Barrier,
                 bool AfterOrdinaryAccesses) const {
    return mlir::failure();
  }
  /// Arrives once on the barrier object at Barrier and makes its current
  /// phase also wait for Bytes more bytes of tensor copies.
  virtual mlir::LogicalResult emitBarrierExpectBytes(mlir::OpBuilder &B,
                                                     mlir::Location Loc,
                                                     mlir::Value Barrier,
                                                     unsigned Bytes) const {
    return mlir::failure();
  }

  /// Hardware barriers that synchronize a subset of the block's warps
  /// (NVIDIA's bar.sync id, count): the partitions of tle.gpu.warp_specialize
  /// run concurrently, each with its own. Ids 1 .. getNumGroupBarriers();
  /// 0 (none) means the chip cannot run partitions.
  virtual unsigned getNumGroupBarriers() const { return 0; }
  /// Waits until NumThreads threads (whole warps) reached barrier Id.
  virtual mlir::LogicalResult emitGroupBarrier(mlir::OpBuilder &B,
                                               mlir::Location Loc, unsigned Id,
                                               unsigned NumThreads) const {
    return mlir::failure();
  }

  /// Matrix instructions with operands in block-level memory
  /// (MatrixFragments::OperandsInBlockMemory) run asynchronously. The core
  /// emits, per tl.dot:
  ///   [emitMatrixOperandsStored by every thread that stored operands with
  ///    ordinary stores, then a block barrier; for operands that
  ///    asynchronous copies landed (software pipelining): the wait's block
  ///    barrier, then emitMatrixOperandsStored by every thread]
  ///   emitMatrixFence, emitBlockMatrixMultiply per instruction,
  ///   emitMatrixCommit, ... emitMatrixWait before the accumulator is used.
  /// Makes the earlier stores to block-level memory that this thread wrote
  /// or synchronized with visible to the matrix unit's operand reads.
  virtual mlir::LogicalResult
  emitMatrixOperandsStored(mlir::OpBuilder &B, mlir::Location Loc) const {
    return mlir::failure();
  }
  /// Orders earlier register writes of accumulators before the instructions.
  virtual mlir::LogicalResult emitMatrixFence(mlir::OpBuilder &B,
                                              mlir::Location Loc) const {
    return mlir::failure();
  }
  /// Starts one instruction of N columns (see MatrixFragments::NGranule) on
  /// operands in block-level memory; C holds this thread's accumulator
  /// registers of the instruction in the order of the fragment. Returns D's.
  virtual mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitBlockMatrixMultiply(mlir::OpBuilder &B, mlir::Location Loc,
                          const hwdesc::MatrixInstruction &Instr, int64_t N,
                          const BlockMatrixOperand &A,
                          const BlockMatrixOperand &BOperand,
                          mlir::ValueRange C) const {
    return mlir::failure();
  }
  /// As emitBlockMatrixMultiply with A in registers (MatrixFragments::A of
  /// a unit reading B from block-level memory): ARegisters are this
  /// thread's elements of the instruction's A tile in the fragment's
  /// register order, packed into i32 values (32 / bits elements each, the
  /// first in the lowest bits). The core packs them before
  /// emitMatrixFence, so that no register the instructions read is written
  /// after it.
  virtual mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitRegisterAMatrixMultiply(mlir::OpBuilder &B, mlir::Location Loc,
                              const hwdesc::MatrixInstruction &Instr, int64_t N,
                              mlir::ValueRange ARegisters,
                              const BlockMatrixOperand &BOperand,
                              mlir::ValueRange C) const {
    return mlir::failure();
  }
  /// Closes the group of instructions started since the last commit.
  virtual mlir::LogicalResult emitMatrixCommit(mlir::OpBuilder &B,
                                               mlir::Location Loc) const {
    return mlir::failure();
  }
  /// Waits until at most Pending groups are unfinished; Accumulators (the
  /// registers the groups write) come back in the same order, usable when
  /// Pending is 0; with groups pending they only feed later instructions.
  virtual mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitMatrixWait(mlir::OpBuilder &B, mlir::Location Loc, unsigned Pending,
                 mlir::ValueRange Accumulators) const {
    return mlir::failure();
  }
};

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_TARGETINFO_H
