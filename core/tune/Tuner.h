//===- Tuner.h - Tune a candidate bundle over shapes ------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Runs one of two modes over a list of shapes and writes every measurement
// to the results database as it is made:
//  - exhaustive: every Ok candidate of the bundle, for every shape;
//  - tuner: per shape, rank the candidates with the cost model (trained on
//    this run's earlier measurements), measure a few, continue with the
//    genetic search (Search.h) within the shape's budget.
// A measurement already in the database (same kernel, device, shape, mode
// and config) is reused rather than made again, so a run stopped by its time
// budget, a crash or a lost machine resumes where it stopped: the model is
// retrained on the same data in the same order, so the search makes the
// same choices up to the first measurement that is missing. A candidate that
// fails to launch or gives a wrong result is recorded with its message and
// the run goes on.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_TUNER_H
#define TLE_CORE_TUNE_TUNER_H

#include "core/tune/CandidateBundle.h"
#include "core/tune/ResultsDB.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <variant>
#include <vector>

namespace tle {
namespace tune {

/// Measures one candidate for one shape. An error is a failed measurement
/// (recorded, not fatal); Status says how to record it.
class Measurer {
public:
  virtual ~Measurer() = default;
  struct Failure {
    std::string Status; ///< "launch-failed" or "wrong-result"
    std::string Message;
  };
  /// Milliseconds per launch, or a failure.
  virtual std::variant<double, Failure> measure(const Candidate &C,
                                                const Shape &S) = 0;
};

struct RunOptions {
  std::string Mode = "tuner"; ///< "tuner" or "exhaustive"
  /// Tuner: measurements per shape, and how many go to the top-ranked.
  unsigned Budget = 4;
  unsigned TopK = 2;
  /// Tuner: the first WarmShapes shapes get WarmBudget measurements each, to
  /// give the cost model data to learn from.
  unsigned WarmShapes = 2;
  unsigned WarmBudget = 12;
  /// Stop (resumably) after this many seconds or new measurements; 0: none.
  double TimeBudgetSeconds = 0;
  unsigned MaxMeasurements = 0;
  /// Print a progress bar (on a terminal) or a line per shape.
  bool Progress = true;
  bool ProgressIsTerminal = false;
};

struct RunSummary {
  unsigned Shapes = 0, ShapesDone = 0;
  /// New measurements made by this run, and records reused from the
  /// database.
  unsigned Measured = 0, Reused = 0, Failed = 0;
  bool StoppedByBudget = false;
  /// Tuner: whether the cost model was trained (XGBoost) at the last shape.
  bool ModelTrained = false;
};

llvm::Expected<RunSummary> runTuning(const CandidateBundle &B,
                                     llvm::ArrayRef<Shape> Shapes,
                                     ResultsDB &DB, Measurer &M,
                                     const RunOptions &Opts,
                                     llvm::raw_ostream &Log);

/// Reads a shape list: one shape per line, either "M=..,N=..,K=.." or
/// whitespace/comma separated integers in the order of Names; '#' starts a
/// comment; any further columns after the integers are ignored (sources).
llvm::Expected<std::vector<Shape>> readShapes(llvm::StringRef Path,
                                              llvm::ArrayRef<std::string> Names);

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_TUNER_H
