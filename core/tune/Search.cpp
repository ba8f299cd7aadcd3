//===- Search.cpp - Ranked measurements, then a genetic search ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/Search.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <numeric>

using namespace llvm;

namespace tle {
namespace tune {

std::vector<Config> geneticChildren(ArrayRef<Config> Parents,
                                    ArrayRef<Axis> Axes) {
  std::vector<Config> Out;
  // Mutation: one axis of a parent moved one value up or down its list.
  for (size_t P = 0; P < std::min<size_t>(2, Parents.size()); ++P)
    for (const Axis &A : Axes) {
      std::optional<int64_t> V = Parents[P].get(A.Name);
      if (!V)
        continue;
      auto It = llvm::find(A.Values, *V);
      if (It == A.Values.end())
        continue;
      size_t I = It - A.Values.begin();
      for (int D : {-1, 1}) {
        if ((D < 0 && I == 0) || I + D >= A.Values.size())
          continue;
        Config C = Parents[P];
        C.set(A.Name, A.Values[I + D]);
        Out.push_back(std::move(C));
      }
    }
  // Crossover: every mix of two parents' axis values (2^axes children; the
  // axes are few).
  for (size_t P = 0; P < std::min<size_t>(3, Parents.size()); ++P)
    for (size_t Q = P + 1; Q < std::min<size_t>(3, Parents.size()); ++Q) {
      size_t N = Axes.size();
      if (N > 12)
        continue;
      for (uint64_t Mask = 1; Mask + 1 < (uint64_t(1) << N); ++Mask) {
        Config C = Parents[P];
        for (size_t I = 0; I < N; ++I)
          if (Mask & (uint64_t(1) << I))
            if (std::optional<int64_t> V = Parents[Q].get(Axes[I].Name))
              C.set(Axes[I].Name, *V);
        Out.push_back(std::move(C));
      }
    }
  return Out;
}

SearchResult searchShape(ArrayRef<Config> Candidates, ArrayRef<Axis> Axes,
                         ArrayRef<double> Predicted, const SearchOptions &Opts,
                         MeasureFn Measure) {
  SearchResult R;
  size_t N = Candidates.size();
  std::vector<size_t> Order(N);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Predicted[A] < Predicted[B];
  });
  StringMap<size_t> ByKey;
  for (size_t I = 0; I < N; ++I)
    ByKey[Candidates[I].key()] = I;
  std::vector<bool> Measured(N, false);
  unsigned Budget = std::min<unsigned>(Opts.Budget, N);

  // How each measured candidate was reached: the axis a mutation moved and
  // in which direction, so that a move that found a new best is tried once
  // more in the same direction before the model chooses (pattern search: a
  // biased model alone would keep pulling the search back to its own
  // optimum).
  struct Move {
    int Axis = -1;
    int Dir = 0;
  };
  std::vector<Move> Moves(N);
  auto Run = [&](size_t I, const char *Phase) {
    Measured[I] = true;
    std::optional<double> T = Measure(I);
    R.Steps.push_back({I, T, Phase});
    if (T && (R.Best < 0 || *T < R.BestTime)) {
      R.Best = static_cast<int>(I);
      R.BestTime = *T;
    }
  };
  auto NextRanked = [&]() -> std::optional<size_t> {
    for (size_t I : Order)
      if (!Measured[I])
        return I;
    return std::nullopt;
  };

  for (size_t I : Opts.Seeds)
    if (I < N && !Measured[I] && R.Steps.size() < Budget)
      Run(I, "seed");
  unsigned TopK = std::max(1u, std::min(Opts.TopK, Budget));
  for (unsigned I = 0; I < TopK && R.Steps.size() < std::max(Budget, 1u);
       ++I)
    if (std::optional<size_t> Next = NextRanked())
      Run(*Next, "ranked");

  while (R.Steps.size() < Budget) {
    // Population: the fastest measured configs, best first.
    std::vector<const SearchStep *> Ok;
    for (const SearchStep &S : R.Steps)
      if (S.Time)
        Ok.push_back(&S);
    llvm::stable_sort(Ok, [](const SearchStep *A, const SearchStep *B) {
      return *A->Time < *B->Time;
    });
    std::vector<Config> Parents;
    for (size_t I = 0; I < std::min<size_t>(3, Ok.size()); ++I)
      Parents.push_back(Candidates[Ok[I]->Candidate]);
    std::optional<size_t> Pick;
    if (R.Best >= 0 && Moves[R.Best].Axis >= 0) {
      const Axis &A = Axes[Moves[R.Best].Axis];
      int Dir = Moves[R.Best].Dir;
      Config C = Candidates[R.Best];
      auto It = llvm::find(A.Values, *C.get(A.Name));
      size_t VI = It - A.Values.begin();
      if (It != A.Values.end() && !(Dir < 0 && VI == 0) &&
          VI + Dir < A.Values.size()) {
        C.set(A.Name, A.Values[VI + Dir]);
        auto KIt = ByKey.find(C.key());
        if (KIt != ByKey.end() && !Measured[KIt->second]) {
          Moves[KIt->second] = Moves[R.Best];
          Run(KIt->second, "genetic");
          continue;
        }
      }
    }
    for (const Config &C : geneticChildren(Parents, Axes)) {
      auto It = ByKey.find(C.key());
      if (It == ByKey.end() || Measured[It->second])
        continue;
      if (!Pick || Predicted[It->second] < Predicted[*Pick])
        Pick = It->second;
    }
    if (Pick) {
      // Record the move when the child is a one-axis mutation of the best.
      if (R.Best >= 0)
        for (size_t AI = 0; AI < Axes.size(); ++AI) {
          std::optional<int64_t> From = Candidates[R.Best].get(Axes[AI].Name);
          std::optional<int64_t> To = Candidates[*Pick].get(Axes[AI].Name);
          if (From == To)
            continue;
          Config Probe = Candidates[R.Best];
          Probe.set(Axes[AI].Name, *To);
          if (Probe.key() == Candidates[*Pick].key())
            Moves[*Pick] = {static_cast<int>(AI), *To > *From ? 1 : -1};
          break;
        }
      Run(*Pick, "genetic");
      continue;
    }
    std::optional<size_t> Next = NextRanked();
    if (!Next)
      break;
    Run(*Next, "ranked");
  }
  return R;
}

} // namespace tune
} // namespace tle
