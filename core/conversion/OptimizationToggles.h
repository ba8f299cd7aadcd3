//===- OptimizationToggles.h - Lowering optimizations by name ---*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Optimizations of the lowering that can be switched off one at a time
// (tlec --disable-opt=NAME), so that what each gives can be measured on its
// own. Kept free of MLIR headers: the driver and tlec include it.
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

  /// Switches off the optimization called Name; false if there is none.
  bool disable(llvm::StringRef Name) {
    if (Name == "remove-layout-conversions") {
      RemoveLayoutConversions = false;
      return true;
    }
    if (Name == "pipeline-loads") {
      PipelineLoads = false;
      return true;
    }
    return false;
  }
  /// The names disable() takes, for help and error messages.
  static constexpr const char *Names =
      "remove-layout-conversions, pipeline-loads";
};

} // namespace tle::conversion

#endif // TLE_CORE_CONVERSION_OPTIMIZATIONTOGGLES_H
