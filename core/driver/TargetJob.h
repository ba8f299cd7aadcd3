//===- TargetJob.h - Compile one kernel for one target ----------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tlec runs one job per (kernel, target) on a thread pool. A job owns its
// MLIRContext (with MLIR's own threading off: the parallelism is across
// targets), parses the kernel's tile IR from bytecode made once on the main
// thread, and reports into its result rather than to a stream, so that the
// driver prints each target's messages whole and in command-line order.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_TARGETJOB_H
#define TLE_CORE_DRIVER_TARGETJOB_H

#include "core/driver/Cache.h"
#include "core/driver/Specialization.h"
#include "core/plugins/Targets.h"

#include <optional>
#include <string>

namespace mlir {
class DefaultTimingManager;
} // namespace mlir

namespace tle {
namespace driver {

/// The stage a job stops at (tlec --emit=).
enum class EmitKind {
  /// Tile IR after the checks against the target's description.
  TileIR,
  /// What the backend receives: distributed IR (or tile IR for tile-level
  /// backends).
  GpuIR,
  /// The backend's optimized LLVM IR.
  LLVMIR,
  /// The backend's assembly (PTX, SPIR-V text, AMDGCN).
  Assembly,
  Binary,
};

/// One kernel, lowered to tile IR; shared read-only by its jobs.
struct KernelSource {
  /// The file as named on the command line; diagnostics use it.
  std::string FileName;
  std::string Text;
  std::string KernelName;
  Specialization Spec;
  /// The tile IR as MLIR bytecode, locations included.
  std::string TileIRBytecode;
};

struct JobOptions {
  EmitKind Emit = EmitKind::Binary;
  backend::CompileOptions Compile;
  /// Consulted and filled for EmitKind::Binary only; null for --no-cache.
  const CompileCache *Cache = nullptr;
  /// Set by --time-passes; each job's phases nest under "target NAME".
  mlir::DefaultTimingManager *Timing = nullptr;
  /// --print-ir-after: the argument of a core pass (e.g. tle-distribute)
  /// after which the module is printed into the job's log; the job then
  /// neither reads nor fills the cache.
  std::string PrintIRAfter;
  /// Lowering optimizations left on (tlec --disable-opt).
  conversion::OptimizationToggles Optimizations;
  /// Stamps of the compiler's own files (getCompilerFiles()), computed once.
  std::string CompilerStamp;
  /// Refuse binaries over the target's launch limits (getLaunchLimitViolation);
  /// tlec --no-launch-limit-check keeps them (tle-tune records them itself).
  bool CheckLaunchLimits = true;
  /// Count what becomes of the layout conversions (tlec --conversion-stats);
  /// the job then neither reads nor fills the cache.
  bool ConversionStats = false;
};

struct TargetJobResult {
  /// The compiled kernel (EmitKind::Binary).
  std::optional<backend::CompiledKernel> Kernel;
  /// The requested text (other EmitKinds).
  std::string Text;
  bool FromCache = false;
  /// Source-located diagnostics, IR dumps and warnings, ready to print.
  std::string Log;
  /// Why the job failed, one line; empty on success.
  std::string Error;
  /// With JobOptions::ConversionStats, once the core distributed the kernel.
  std::optional<conversion::LayoutConversionCounts> ConversionCounts;
};

/// The cache key of Source compiled for T with Options.
std::string computeCacheKey(const KernelSource &Source,
                            const plugins::Target &T,
                            const JobOptions &Options);

/// Runs one job; safe to call from several threads at once.
TargetJobResult runTargetJob(const KernelSource &Source,
                             const plugins::Target &T,
                             const JobOptions &Options);

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_TARGETJOB_H
