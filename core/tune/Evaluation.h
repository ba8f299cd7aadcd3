//===- Evaluation.h - Compare modes, pick configs, report -------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// What is read back from a results database:
//  - the comparison the issue asks for: per shape, the tuner's pick (its
//    fastest measured config) timed by the exhaustive run, over the
//    exhaustive best; their geometric mean; configurations measured by each
//    mode (failures included);
//  - the config to compile for a shape (the tuner's or the exhaustive
//    mode's best, for the shape itself or the nearest tuned shape);
//  - an HTML page with an SVG plot of best-found vs measurements spent.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_EVALUATION_H
#define TLE_CORE_TUNE_EVALUATION_H

#include "core/tune/ConfigSpace.h"
#include "core/tune/ResultsDB.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tle {
namespace tune {

struct ShapeComparison {
  std::string Shape;
  double ExhaustiveBest = 0;
  std::string ExhaustiveConfig;
  std::string TunerConfig;
  /// The tuner's pick as timed by the exhaustive run (0 when that run did
  /// not time it) and as timed by the tuner itself.
  double TunerPickExhaustive = 0, TunerPickOwn = 0;
  unsigned ExhaustiveMeasured = 0, TunerMeasured = 0;
};

struct Comparison {
  std::vector<ShapeComparison> Rows;
  /// Over the shapes both modes finished.
  double GeoMeanRatio = 0;
  unsigned Compared = 0;
  unsigned ExhaustiveMeasured = 0, TunerMeasured = 0;
};

Comparison compareModes(const ResultsDB &DB, llvm::StringRef Kernel,
                        llvm::StringRef Device);
void printComparison(const Comparison &C, llvm::raw_ostream &OS);

/// The (kernel, device) of the records when there is exactly one pair.
llvm::Expected<std::pair<std::string, std::string>>
soleKernelDevice(const ResultsDB &DB);

struct Pick {
  Record Best;
  /// The shape the record is for (the asked one or the nearest).
  std::string FromShape;
  bool Exact = true;
};

/// The fastest ok record for Kernel/Device at S in the tuner mode, else the
/// exhaustive mode; with Nearest, the nearest tuned shape (sum of |log2|
/// ratios of the sizes) when S itself was not tuned.
std::optional<Pick> pickConfig(const ResultsDB &DB, llvm::StringRef Kernel,
                               llvm::StringRef Device, const Shape &S,
                               bool Nearest);

/// Writes an HTML report (inline SVG, no scripts) for Kernel/Device.
llvm::Error writeReport(const ResultsDB &DB, llvm::StringRef Kernel,
                        llvm::StringRef Device, llvm::StringRef Path);

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_EVALUATION_H
