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
  /// Tuner: measured runs (e.g. a shipped results file of other shapes) the
  /// cost model is trained on before the first shape; null: none, the model
  /// learns from this run only.
  const ResultsDB *TrainDB = nullptr;
  /// Tuner: retrain the model after each shape with that shape's
  /// measurements. Off, a model trained on TrainDB stays as it is (the few
  /// rows a shape adds barely move thousands of rows, and retraining on them
  /// costs seconds per shape).
  bool Retrain = true;
  /// Tuner: the weight of this run's own measurements in the model, against
  /// 1 for a TrainDB row (this run's shapes are the ones being tuned, and
  /// they are few against a training file's thousands).
  float OwnWeight = 1;
  /// Tuner: with TrainDB, measure first the fastest configs of the Seeds
  /// training shapes nearest to the shape (distinct configs, nearest first;
  /// distance: the sum of |log2| ratios of the sizes), then the ranked ones.
  unsigned Seeds = 0;
  /// Tuner: the cost model's boosting rounds, tree depth and shrinkage.
  unsigned ModelRounds = 60, ModelDepth = 5;
  double ModelEta = 0.15;
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
  /// Tuner: rows taken from RunOptions::TrainDB.
  unsigned TrainRows = 0;
};

class CostModel;

/// Adds to Model one row per (shape, config) measured ok in DB for B's
/// kernel and device whose config is one of B's Ok candidates (several
/// records of the same pair, e.g. tuner and exhaustive mode, become their
/// geometric mean). Returns the number of rows added.
llvm::Expected<unsigned> addTrainingRows(CostModel &Model,
                                         const CandidateBundle &B,
                                         const ResultsDB &DB);

llvm::Expected<RunSummary> runTuning(const CandidateBundle &B,
                                     llvm::ArrayRef<Shape> Shapes,
                                     ResultsDB &DB, Measurer &M,
                                     const RunOptions &Opts,
                                     llvm::raw_ostream &Log);

/// The fastest ok config of each shape of DB (B's kernel and device, B's
/// Ok candidates only), as (shape, index into B.Candidates), in the order
/// the shapes first appear.
llvm::Expected<std::vector<std::pair<Shape, size_t>>>
bestPerShape(const CandidateBundle &B, const ResultsDB &DB);

/// Up to Count distinct candidates (indices into B.Candidates): the best
/// configs of the shapes of Known nearest to S, nearest first.
std::vector<size_t>
nearestBest(const Shape &S, llvm::ArrayRef<std::pair<Shape, size_t>> Known,
            unsigned Count);

/// Reads a shape list: one shape per line, either "M=..,N=..,K=.." or
/// whitespace/comma separated integers in the order of Names; '#' starts a
/// comment; any further columns after the integers are ignored (sources).
llvm::Expected<std::vector<Shape>> readShapes(llvm::StringRef Path,
                                              llvm::ArrayRef<std::string> Names);

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_TUNER_H
