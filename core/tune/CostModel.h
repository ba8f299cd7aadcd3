//===- CostModel.h - Learned ranking of candidates (XGBoost) ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Gradient-boosted trees (XGBoost's C API, Debian's libxgboost-dev) fitted to
// the measured runs: the target is log(measured time / roofline time), so
// that shapes whose times differ by orders of magnitude share one scale and
// the model learns how far each config stays from the roofline. Until it has
// MinRows measurements, or where the build has no XGBoost, predictions are
// the analytic estimate (the last feature), so the tuner always ranks.
// Training is single-threaded with a fixed seed: the same data gives the
// same model, which is what lets a resumed search replay its own choices.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_COSTMODEL_H
#define TLE_CORE_TUNE_COSTMODEL_H

#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace tle {
namespace tune {

class CostModel {
public:
  explicit CostModel(size_t MinRows = 8, unsigned Rounds = 60,
                     unsigned MaxDepth = 5, double Eta = 0.15);
  ~CostModel();

  /// True when the build links XGBoost.
  static bool hasXGBoost();

  /// Adds a training row: features, the target (log time over roofline)
  /// and its weight (a row of weight w counts like w copies of it).
  void addRow(std::vector<float> Features, double Target, float Weight = 1);
  size_t numRows() const { return Y.size(); }

  /// Fits the trees to every row so far. Without enough rows (or XGBoost)
  /// it does nothing and isTrained() stays false; an XGBoost failure is an
  /// error (the tuner then goes on with the analytic prior).
  llvm::Error train();
  bool isTrained() const { return Trained; }

  /// Predicted targets, lower is faster. Untrained: the analytic feature.
  llvm::Expected<std::vector<double>>
  predict(const std::vector<std::vector<float>> &Rows) const;

private:
  size_t MinRows;
  unsigned Rounds, MaxDepth;
  double Eta;
  std::vector<std::vector<float>> X;
  std::vector<float> Y, W;
  bool Trained = false;
  struct Booster;
  std::unique_ptr<Booster> B;
};

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_COSTMODEL_H
