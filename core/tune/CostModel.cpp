//===- CostModel.cpp - Learned ranking of candidates (XGBoost) ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/CostModel.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

#ifdef TLE_HAVE_XGBOOST
#include <xgboost/c_api.h>
#endif

using namespace llvm;

namespace tle {
namespace tune {

#ifdef TLE_HAVE_XGBOOST
struct CostModel::Booster {
  BoosterHandle H = nullptr;
  ~Booster() {
    if (H)
      XGBoosterFree(H);
  }
};

static Error xgbError(StringRef Call) {
  return createStringError(
      formatv("xgboost: {0}: {1}", Call, XGBGetLastError()).str());
}

/// One row-major float matrix handed to XGBoost.
static Expected<DMatrixHandle>
makeMatrix(const std::vector<std::vector<float>> &Rows) {
  size_t Cols = Rows.empty() ? 0 : Rows.front().size();
  std::vector<float> Flat;
  Flat.reserve(Rows.size() * Cols);
  for (const std::vector<float> &R : Rows)
    Flat.insert(Flat.end(), R.begin(), R.end());
  DMatrixHandle M = nullptr;
  if (XGDMatrixCreateFromMat(Flat.data(), Rows.size(), Cols, NAN, &M) != 0)
    return xgbError("XGDMatrixCreateFromMat");
  return M;
}
#else
struct CostModel::Booster {};
#endif

CostModel::CostModel(size_t MinRows, unsigned Rounds, unsigned MaxDepth,
                     double Eta)
    : MinRows(MinRows), Rounds(Rounds), MaxDepth(MaxDepth), Eta(Eta) {}
CostModel::~CostModel() = default;

bool CostModel::hasXGBoost() {
#ifdef TLE_HAVE_XGBOOST
  return true;
#else
  return false;
#endif
}

void CostModel::addRow(std::vector<float> Features, double Target,
                       float Weight) {
  X.push_back(std::move(Features));
  Y.push_back(static_cast<float>(Target));
  W.push_back(Weight);
}

Error CostModel::train() {
#ifdef TLE_HAVE_XGBOOST
  if (Y.size() < MinRows)
    return Error::success();
  Expected<DMatrixHandle> M = makeMatrix(X);
  if (!M)
    return M.takeError();
  auto FreeM = [&] { XGDMatrixFree(*M); };
  if (XGDMatrixSetFloatInfo(*M, "label", Y.data(), Y.size()) != 0 ||
      XGDMatrixSetFloatInfo(*M, "weight", W.data(), W.size()) != 0) {
    Error E = xgbError("XGDMatrixSetFloatInfo");
    FreeM();
    return E;
  }
  auto NewB = std::make_unique<Booster>();
  DMatrixHandle Train[] = {*M};
  if (XGBoosterCreate(Train, 1, &NewB->H) != 0) {
    Error E = xgbError("XGBoosterCreate");
    FreeM();
    return E;
  }
  // Tens to tens of thousands of rows (a training file of an exhaustive
  // run): shrinkage and histogram splits, which train on 17000 rows in
  // about a second where exact splits took seven; one thread and a fixed
  // seed make training repeatable.
  std::string Depth = std::to_string(MaxDepth);
  std::string EtaS = formatv("{0}", Eta).str();
  const char *Params[][2] = {{"objective", "reg:squarederror"},
                             {"max_depth", Depth.c_str()},
                             {"eta", EtaS.c_str()},
                             {"min_child_weight", "1"},
                             {"subsample", "1"},
                             {"lambda", "1"},
                             {"tree_method", "hist"},
                             {"nthread", "1"},
                             {"seed", "0"},
                             {"verbosity", "0"}};
  for (auto &P : Params)
    if (XGBoosterSetParam(NewB->H, P[0], P[1]) != 0) {
      Error E = xgbError("XGBoosterSetParam");
      FreeM();
      return E;
    }
  for (unsigned I = 0; I < Rounds; ++I)
    if (XGBoosterUpdateOneIter(NewB->H, static_cast<int>(I), *M) != 0) {
      Error E = xgbError("XGBoosterUpdateOneIter");
      FreeM();
      return E;
    }
  FreeM();
  B = std::move(NewB);
  Trained = true;
#endif
  return Error::success();
}

Expected<std::vector<double>>
CostModel::predict(const std::vector<std::vector<float>> &Rows) const {
  std::vector<double> Out;
  if (!Trained) {
    for (const std::vector<float> &R : Rows)
      Out.push_back(R.empty() ? 0.0 : R.back());
    return Out;
  }
#ifdef TLE_HAVE_XGBOOST
  Expected<DMatrixHandle> M = makeMatrix(Rows);
  if (!M)
    return M.takeError();
  bst_ulong Len = 0;
  const float *Result = nullptr;
  if (XGBoosterPredict(B->H, *M, /*option_mask=*/0, /*ntree_limit=*/0,
                       /*training=*/0, &Len, &Result) != 0) {
    Error E = xgbError("XGBoosterPredict");
    XGDMatrixFree(*M);
    return std::move(E);
  }
  for (bst_ulong I = 0; I < Len; ++I)
    Out.push_back(Result[I]);
  XGDMatrixFree(*M);
#endif
  return Out;
}

} // namespace tune
} // namespace tle
