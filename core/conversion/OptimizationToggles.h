//===- OptimizationToggles.h - Optimizations by name ------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Optimizations of the lowering and the backends that can be switched off one
// at a time (tlec --disable-opt=NAME), so that what each gives can be
// measured on its own, and those off by default because they measured slower
// that can be switched on (tlec --enable-opt=NAME) to measure them again.
// Kept free of MLIR headers: the driver and tlec include it.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_CONVERSION_OPTIMIZATIONTOGGLES_H
#define TLE_CORE_CONVERSION_OPTIMIZATIONTOGGLES_H

#include "llvm/ADT/StringRef.h"

namespace tle::conversion {

struct OptimizationToggles {
  /// tle-remove-layout-conversions: rebuild cheap values in the layout their
  /// users need instead of converting them through block-level memory.
  bool RemoveLayoutConversions = true;
  /// tle-pipeline-loads: loads of later loop iterations in flight through
  /// block-level rings (num_stages).
  bool PipelineLoads = true;
  /// tle-loop-pointer-bases: a loop carries one base per pointer tile that
  /// advances by a uniform step, not a pointer per element.
  bool LoopPointerBases = true;
  /// loop-invariant-code-motion: tiles that do not change between
  /// iterations (a row's column offsets and mask) are computed once before
  /// the loop, not in every iteration and carried by the pipeliner.
  bool LoopInvariantCodeMotion = true;
  /// tensor copies (TMA): descriptor tiles that software pipelining stages
  /// for a matrix unit are copied through tensor maps, not by every thread
  /// with cp.async (targets with supportsTensorCopies).
  bool TensorCopies = true;
  /// launch-tensor-maps: the tensor map of a descriptor argument
  /// (tensordesc<...>) is built by the launcher on the host and passed by
  /// value after the kernel's arguments, not written by every program into
  /// global scratch (targets whose runtime builds maps).
  bool LaunchTensorMaps = true;
  /// own-slot-waits: in a pipelined loop whose threads each read back only
  /// the elements they copied (softmax's rows), the wait for the copies has
  /// no block barrier. On by default since session 24: softmax measured at
  /// or above the form with the barrier at 9 of 10 shapes over two H200
  /// runs, by up to 5% at rows of 1024 (bench/RESULTS-h200.md, sessions 23
  /// and 24); sessions 12 and 20 had measured it slower, before the next
  /// row's copies moved up to the row max's barrier.
  bool OwnSlotWaits = true;
  /// warp-exchanges: a layout conversion in which no element leaves its
  /// warp moves values by lane shuffles, not through block-level memory and
  /// barriers (fp8 attention's P, accumulator to the next product's A).
  bool WarpExchanges = true;
  /// scratch-alternation: consecutive small ops that exchange values
  /// through the block's scratch (a row's max, then its sum) take apart
  /// bytes, so no barrier need separate the first's reads from the
  /// second's writes; off, they share bytes behind more barriers (softmax:
  /// 4 per row instead of 2). Off by default since session 26: timed as
  /// CUDA-graph replays, softmax rows of 1024 and 4096 ran 2% faster
  /// without it, in two runs (bench/RESULTS-h200.md); a barrier at the
  /// row's end alone gave nothing.
  bool ScratchAlternation = false;
  /// shuffled-partials: a reduction across warps reads one warp partial per
  /// lane and combines them by xor shuffles, as Triton does, instead of
  /// every thread reading all of them (softmax at 8 warps: one 4-byte read
  /// and three shuffles per reduction instead of two 16-byte reads), where
  /// as many lane bits as warp bits lie along the axis. Lanes then combine
  /// in mirrored orders, as within a warp and in Triton. Off by default:
  /// timed in session 29 (H100, CUDA-graph replays) it changed nothing
  /// beyond noise: softmax 4096x1024 0.978 either way, layer norm and RMS
  /// norm within 1% both ways (bench/RESULTS-h200.md).
  bool ShuffledPartials = false;
  /// early-refill: where a barrier that stays already releases a pipelined
  /// loop's slot (a softmax row's first reduction), the copies refilling it
  /// are issued right after that barrier, so more copies are in flight
  /// while the body works on; off, they stay at the end of the body, after
  /// the row's store, where Triton issues them. On: session 30 timed both
  /// within 1-2% of each other either way (bench/RESULTS-h200.md).
  bool EarlyRefill = true;
  /// occupancy (backends): the kernel fitted in fewer registers when that
  /// lets more blocks reside on one processor without spilling
  /// (backend::CompileOptions::RaiseOccupancy).
  bool Occupancy = true;
  /// mma-residency (backends): a kernel built around the matrix unit's
  /// asynchronous MMAs resides at most as many blocks per processor as the
  /// backend finds worth it, fewer than its resources would allow (NVIDIA:
  /// on the H100, not the H200, 2 per SM for wgmma kernels that would fit
  /// 3, through the launch's shared memory;
  /// backend::CompileOptions::HoldMmaResidency).
  bool MmaResidency = true;

  /// Calls F(name, enabled) for every optimization: what disable() takes and
  /// what a compiled binary depends on (the driver's cache key).
  template <typename Fn> void forEach(Fn &&F) { forEachIn(*this, F); }
  template <typename Fn> void forEach(Fn &&F) const { forEachIn(*this, F); }

  /// Switches the optimization called Name off (or on); false if there is
  /// none.
  bool disable(llvm::StringRef Name) { return set(Name, false); }
  bool enable(llvm::StringRef Name) { return set(Name, true); }
  /// Whether there is an optimization called Name.
  static bool isKnown(llvm::StringRef Name) {
    return OptimizationToggles().disable(Name);
  }
  /// The names disable() and enable() take, for help and error messages.
  static constexpr const char *Names =
      "remove-layout-conversions, pipeline-loads, loop-pointer-bases, "
      "loop-invariant-code-motion, tensor-copies, launch-tensor-maps, "
      "own-slot-waits, "
      "warp-exchanges, scratch-alternation, shuffled-partials, "
      "early-refill, occupancy, mma-residency";
  /// Those off by default, which enable() is for.
  static constexpr const char *OffByDefaultNames =
      "scratch-alternation, shuffled-partials";

private:
  bool set(llvm::StringRef Name, bool On) {
    bool Found = false;
    forEach([&](llvm::StringRef Each, bool &Enabled) {
      if (Each == Name) {
        Enabled = On;
        Found = true;
      }
    });
    return Found;
  }
  template <typename Self, typename Fn> static void forEachIn(Self &T, Fn &F) {
    F("remove-layout-conversions", T.RemoveLayoutConversions);
    F("pipeline-loads", T.PipelineLoads);
    F("loop-pointer-bases", T.LoopPointerBases);
    F("loop-invariant-code-motion", T.LoopInvariantCodeMotion);
    F("tensor-copies", T.TensorCopies);
    F("launch-tensor-maps", T.LaunchTensorMaps);
    F("own-slot-waits", T.OwnSlotWaits);
    F("warp-exchanges", T.WarpExchanges);
    F("scratch-alternation", T.ScratchAlternation);
    F("shuffled-partials", T.ShuffledPartials);
    F("early-refill", T.EarlyRefill);
    F("occupancy", T.Occupancy);
    F("mma-residency", T.MmaResidency);
  }
};

} // namespace tle::conversion

#endif // TLE_CORE_CONVERSION_OPTIMIZATIONTOGGLES_H
