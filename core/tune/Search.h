//===- Search.h - Ranked measurements, then a genetic search ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The search for one shape, independent of devices and models: candidates
// (configs that compiled), a predicted cost for each (lower is faster), a
// measurement budget and a function that measures one candidate. It
// measures the seeds it is given (if any), then the TopK best-predicted
// candidates, then spends the rest of the
// budget on a surrogate-assisted genetic search from the measured best: the
// population is the fastest measured configs; when the best was found by a
// mutation, the same move is tried once more first (a pattern step, so that
// a biased model cannot pull the search back to its own optimum); otherwise
// children are mutations (one axis moved to a neighbouring value) of the
// best two and crossovers (each axis from either parent) of the best three,
// and of the children that are candidates and not yet measured, the one the
// model predicts fastest is measured next (one child per generation, since
// budgets are a handful of measurements). With no child left it falls back
// to the next candidate in predicted order. Failed measurements count
// against the budget.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_SEARCH_H
#define TLE_CORE_TUNE_SEARCH_H

#include "core/tune/ConfigSpace.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <vector>

namespace tle {
namespace tune {

struct SearchOptions {
  /// Measurements for this shape, failures included.
  unsigned Budget = 4;
  /// How many of them go to the best-predicted candidates before the
  /// genetic search starts (at least 1).
  unsigned TopK = 2;
  /// Candidates measured first, before the ranked ones, e.g. the best
  /// configs of the nearest shapes of a training run (they count against
  /// the budget; duplicates and out-of-range indices are skipped).
  std::vector<size_t> Seeds;
};

struct SearchStep {
  size_t Candidate;
  /// Measured time, or none when the measurement failed.
  std::optional<double> Time;
  /// "seed", "ranked" or "genetic": which phase chose it.
  const char *Phase;
};

struct SearchResult {
  /// Index into the candidates of the fastest measured one, or -1.
  int Best = -1;
  double BestTime = 0;
  std::vector<SearchStep> Steps;
};

using MeasureFn = llvm::function_ref<std::optional<double>(size_t)>;

SearchResult searchShape(llvm::ArrayRef<Config> Candidates,
                         llvm::ArrayRef<Axis> Axes,
                         llvm::ArrayRef<double> Predicted,
                         const SearchOptions &Opts, MeasureFn Measure);

/// The genetic search's children of the given parents (mutations of the
/// first two, crossovers of the first three), as configs; exposed for tests.
std::vector<Config> geneticChildren(llvm::ArrayRef<Config> Parents,
                                    llvm::ArrayRef<Axis> Axes);

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_SEARCH_H
