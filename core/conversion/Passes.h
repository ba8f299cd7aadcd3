//===- Passes.h - Layout assignment and distribution ------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The vendor-neutral path from tile IR to per-thread code:
//
//   tle-assign-layouts  every tensor gets a #tle.blocked / #tle.slice encoding
//   tle-remove-layout-conversions
//                       conversions of cheap values (indices, masks) become
//                       the values rebuilt in the wanted layout
//   tle-pipeline-loads  loads of later iterations issued ahead as
//                       asynchronous copies into block-level rings
//   tle-distribute      tensors become per-thread scalars in the LLVM dialect,
//                       target-specific ops come from a backend::TargetInfo
//
// lowerToDistributedIR runs both and finishes with the upstream conversions to
// the LLVM dialect; it is what the target compile path calls for a backend
// that accepts Stage::DistributedIR.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_CONVERSION_PASSES_H
#define TLE_CORE_CONVERSION_PASSES_H

#include "core/conversion/LayoutConversionCounts.h"
#include "core/conversion/OptimizationToggles.h"
#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class PassManager;
} // namespace mlir

namespace mlir::tle {
class AxisInfoResult;
} // namespace mlir::tle

namespace tle {
namespace conversion {

/// The attribute naming the matrix instruction layout assignment tiled a
/// tl.dot with.
inline constexpr llvm::StringLiteral kMatrixInstructionAttr =
    "tle.matrix_instruction";
/// The N it is issued with, for instructions of variable N (i64).
inline constexpr llvm::StringLiteral kMatrixNAttr = "tle.matrix_n";
/// Set (unit) when that instruction reads A and B from block-level memory.
inline constexpr llvm::StringLiteral kMatrixBlockOperandsAttr =
    "tle.matrix_block_operands";
/// Set (unit) besides it when the instruction reads only K-major operands
/// (MatrixFragments::KMajorOperandsOnly): software pipelining stages only
/// tiles whose contiguous dimension is K.
inline constexpr llvm::StringLiteral kMatrixKMajorAttr = "tle.matrix_k_major";
/// Set (unit) besides it when A stays in registers, in the unit's A layout
/// (an A computed in the kernel, such as attention's P).
inline constexpr llvm::StringLiteral kMatrixRegisterAAttr =
    "tle.matrix_register_a";

/// Set (unit) on a tl.debug_barrier that software pipelining places between
/// a ring slot's reads and its refill: distribution drops it where a block
/// barrier that stays already separates the two.
inline constexpr llvm::StringLiteral kSlotReleaseAttr = "tle.slot_release";

/// Scratch slices of consecutive ops alternate between the buffer's start
/// and the end of the previous op's slices while both fit in this many
/// bytes: the ops then touch apart bytes and need no barrier between them
/// (a row's two reductions in softmax). The scratch grows by at most this.
inline constexpr uint64_t kScratchAlternationBytes = 1024;

/// Warps per program (i32) on the module: the front end's num_warps until
/// layout assignment, then the warps of the whole block (warp_specialize
/// partitions included).
inline constexpr llvm::StringLiteral kNumWarpsAttr = "tle.num_warps";
/// Triton's num_warps when a module does not say.
inline constexpr unsigned kDefaultNumWarps = 4;

/// The module's kNumWarpsAttr, kDefaultNumWarps when absent.
inline unsigned getNumWarps(mlir::ModuleOp module) {
  if (auto attr = module->getAttrOfType<mlir::IntegerAttr>(kNumWarpsAttr))
    return attr.getInt();
  return kDefaultNumWarps;
}

/// A matrix instruction of the description that the backend can emit, with
/// the fragments it reported for it.
struct MatrixUnit {
  hwdesc::MatrixInstruction Instr;
  backend::MatrixFragments Fragments;
};

struct AssignLayoutsOptions {
  /// Warps per program; 0 takes the module's `tle.num_warps` (default 4).
  unsigned NumWarps = 0;
  /// Lanes per warp (subgroup, wavefront).
  unsigned WarpSize = 32;
  /// Widest vector memory access of one thread, in bytes.
  unsigned VectorBytes = 16;
  /// Matrix instructions tl.dot may be tiled with, preferred first; tl.dot
  /// falls back to FMA when none fits.
  std::vector<MatrixUnit> MatrixUnits;
  /// If set, counts the conversions inserted (Assigned).
  LayoutConversionCounts *ConversionCounts = nullptr;
};

std::unique_ptr<mlir::Pass>
createAssignLayoutsPass(const AssignLayoutsOptions &Options = {});

/// Carries a loop's pointer tiles that advance by a uniform step as one
/// scalar base, their offsets computed before the loop (LoopPointerBases.cpp).
std::unique_ptr<mlir::Pass> createLoopPointerBasesPass();
void registerLoopPointerBasesPass();

/// Lowers math ops whose LLVM intrinsics GPU targets cannot select (acos,
/// sinh, ...) to C library calls (MathToLibrary.cpp).
std::unique_ptr<mlir::Pass> createMathToLibraryPass();
void registerMathToLibraryPass();

/// Rebuilds the sources of layout conversions that are cheap to compute
/// again directly in the wanted layout (RemoveLayoutConversions.cpp). If
/// Counts is set, counts the conversions it removes.
std::unique_ptr<mlir::Pass>
createRemoveLayoutConversionsPass(LayoutConversionCounts *Counts = nullptr);
void registerRemoveLayoutConversionsPass();

struct PipelineLoadsOptions {
  /// Stages of every loop; 0 takes the loop's or the module's
  /// `tle.num_stages` (default 3).
  unsigned NumStages = 0;
  /// Bytes of block-level memory a block may use: the rings of a loop, the
  /// function's other buffers and a bound of its scratch together; 0: no
  /// limit.
  uint64_t SharedMemoryLimit = 0;
  /// Waits whose threads read back only their own copies skip the block
  /// barrier (OptimizationToggles::OwnSlotWaits).
  bool OwnSlotWaits = true;
  /// The scratch bound leaves room for tle-distribute's alternation
  /// (OptimizationToggles::ScratchAlternation).
  bool ScratchAlternation = false;
  /// If set, counts the conversions of loads that become ring reads.
  LayoutConversionCounts *ConversionCounts = nullptr;
};

/// Software pipelining: loads converted to another layout are copied
/// asynchronously into rings of block-level memory, stages ahead
/// (PipelineLoads.cpp).
std::unique_ptr<mlir::Pass>
createPipelineLoadsPass(const PipelineLoadsOptions &Options = {});
void registerPipelineLoadsPass();

struct DistributeOptions {
  /// Widest vector memory access of one thread, in bytes.
  unsigned VectorBytes = 16;
  /// One row of the block-level memory's banks, in bytes (banks times bank
  /// width in the description); each local buffer of a row or more starts
  /// on a row. 0 if unknown.
  unsigned BlockMemoryRowBytes = 0;
  /// The matrix units layout assignment was given; a tl.dot tiled with one
  /// names it in its `tle.matrix_instruction` attribute.
  std::vector<MatrixUnit> MatrixUnits;
  /// Native languages the chip accepts in tle_raw variants (the
  /// description's `raw.languages`); variants with inline-assembly
  /// constraints in one of them are inlined.
  std::vector<std::string> RawLanguages;
  /// Layout conversions inside warps by lane shuffles, not through
  /// block-level memory (OptimizationToggles::WarpExchanges).
  bool WarpExchanges = true;
  /// Consecutive small scratch users take apart bytes
  /// (OptimizationToggles::ScratchAlternation).
  bool ScratchAlternation = false;
  /// Warp partials of a reduction combined by lane shuffles
  /// (OptimizationToggles::ShuffledPartials).
  bool ShuffledPartials = false;
  /// A pipelined loop's refill issued right after the barrier that stays
  /// and already releases its slot (OptimizationToggles::EarlyRefill).
  bool EarlyRefill = true;
  /// Tensor maps of descriptor arguments built by the launcher and passed
  /// by value (OptimizationToggles::LaunchTensorMaps), where the target
  /// supports it (TargetInfo::supportsLaunchTensorMaps).
  bool LaunchTensorMaps = true;
  /// If set, counts the conversions distributed, by how (Free,
  /// RegisterSelects, WarpExchanges, ThroughBlockMemory).
  LayoutConversionCounts *ConversionCounts = nullptr;
  /// Adds the dialects the TargetInfo creates ops of (loaded before the pass
  /// runs, as passes may not load dialects while running).
  std::function<void(mlir::DialectRegistry &)> TargetDialects;
};

/// The pass keeps a reference to Target, which must outlive it.
std::unique_ptr<mlir::Pass>
createDistributePass(const backend::TargetInfo &Target,
                     const DistributeOptions &Options = {});

/// Registers tle-assign-layouts with tle-opt's pass registry. tle-distribute
/// needs a TargetInfo and is registered by whoever owns one (tests/lib).
void registerAssignLayoutsPass();

/// Bytes of one element of a tile of `T` in memory (pointers: 8).
unsigned getElementBytes(mlir::Type T);
/// Bytes of a tensor (or scalar) type's elements; 0 for elements that are
/// neither numbers nor pointers.
uint64_t getTensorBytes(mlir::Type T);

/// Elements per vector access through the pointer tile `Ptr` along dimension
/// Dim: bounded by contiguity, alignment, MaxBytes and the constancy of
/// `Mask` (if set); a power of two.
unsigned getVectorWidthAlong(const mlir::tle::AxisInfoResult &Axis,
                             mlir::Value Ptr, mlir::Value Mask, unsigned Dim,
                             unsigned MaxBytes);

struct LoweringOptions {
  /// Overrides the module's `tle.num_warps` when non-zero.
  unsigned NumWarps = 0;
  OptimizationToggles Optimizations;
  /// Called on the pipeline's pass manager before it runs, e.g. by tlec to
  /// add timing (--time-passes) or IR printing (--print-ir-after).
  std::function<void(mlir::PassManager &)> InstrumentPassManager;
  /// If set, counts what becomes of the layout conversions.
  LayoutConversionCounts *ConversionCounts = nullptr;
};

/// Tile IR -> distributed IR: layouts, distribution through Target, then
/// scf/arith/math/cf to the LLVM dialect. On return Module holds llvm.func
/// kernels marked `tle.kernel` and carries `tle.num_warps` (i32) and
/// `tle.shared_memory` (i64, bytes). Errors are emitted on the module's
/// context diagnostics.
mlir::LogicalResult lowerToDistributedIR(mlir::ModuleOp Module,
                                         const backend::TargetInfo &Target,
                                         const hwdesc::HwDesc &Desc,
                                         const LoweringOptions &Options = {});

} // namespace conversion
} // namespace tle

#endif // TLE_CORE_CONVERSION_PASSES_H
