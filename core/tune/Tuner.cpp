//===- Tuner.cpp - Tune a candidate bundle over shapes --------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/Tuner.h"
#include "core/tune/CostModel.h"
#include "core/tune/Features.h"
#include "core/tune/Search.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <cmath>

using namespace llvm;

namespace tle {
namespace tune {

namespace {

/// A progress bar on a terminal ("\r" redraws), else one line per shape so
/// that logs stay readable.
class Progress {
public:
  Progress(raw_ostream &OS, bool Enabled, bool Terminal, unsigned Total,
           StringRef Mode)
      : OS(OS), Enabled(Enabled), Terminal(Terminal), Total(Total),
        Mode(Mode.str()), Start(std::chrono::steady_clock::now()) {}

  void update(unsigned Done, unsigned Measured, unsigned Reused,
              unsigned Failed, StringRef Shape) {
    if (!Enabled)
      return;
    double Elapsed = seconds();
    double Eta = Done ? Elapsed / Done * (Total - Done) : 0;
    constexpr unsigned Width = 30;
    unsigned Filled = Total ? Width * Done / Total : Width;
    std::string Bar(Filled, '#');
    Bar.append(Width - Filled, '.');
    OS << formatv("{0}[{1}] {2} {3}/{4} shapes, {5} measured, {6} reused, "
                  "{7} failed, {8:f1} s, eta {9:f0} s  {10}",
                  Terminal ? "\r" : "", Bar, Mode, Done, Total, Measured,
                  Reused, Failed, Elapsed, Eta, Terminal ? "" : Shape);
    if (!Terminal)
      OS << "\n";
    OS.flush();
  }
  void finish() {
    if (Enabled && Terminal)
      OS << "\n";
  }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Start)
        .count();
  }

private:
  raw_ostream &OS;
  bool Enabled, Terminal;
  unsigned Total;
  std::string Mode;
  std::chrono::steady_clock::time_point Start;
};

} // namespace

Expected<std::vector<Shape>> readShapes(StringRef Path,
                                        ArrayRef<std::string> Names) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(formatv("cannot read shapes '{0}': {1}", Path,
                                     Buf.getError().message())
                                 .str());
  std::vector<Shape> Out;
  SmallVector<StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (size_t L = 0; L < Lines.size(); ++L) {
    StringRef Line = Lines[L].split('#').first.trim();
    if (Line.empty())
      continue;
    auto Where = [&] { return formatv("{0}:{1}", Path, L + 1).str(); };
    StringRef First = Line.split(' ').first.split('\t').first;
    if (First.contains('=')) {
      Expected<Shape> S = Shape::parseKey(First);
      if (!S)
        return createStringError(Where() + ": " + toString(S.takeError()));
      Out.push_back(std::move(*S));
      continue;
    }
    SmallVector<StringRef, 8> Fields;
    SplitString(Line, Fields, " \t,");
    if (Fields.size() < Names.size())
      return createStringError(formatv("{0}: expected {1} sizes ({2})",
                                       Where(), Names.size(),
                                       join(Names, ", "))
                                   .str());
    Shape S;
    for (size_t I = 0; I < Names.size(); ++I) {
      int64_t V = 0;
      if (Fields[I].getAsInteger(10, V) || V <= 0)
        return createStringError(
            formatv("{0}: {1} must be a positive integer, got '{2}'", Where(),
                    Names[I], Fields[I])
                .str());
      S.Dims.emplace_back(Names[I], V);
    }
    Out.push_back(std::move(S));
  }
  if (Out.empty())
    return createStringError(
        formatv("shapes '{0}': no shapes in the file", Path).str());
  return Out;
}

/// The timed records of DB for B's kernel and device, each with the bundle
/// candidate it measured (the database's config keys are canonical,
/// Config::key, so they match the bundle's directly).
static std::vector<std::pair<const Record *, size_t>>
getBundleRecords(const CandidateBundle &B, const ResultsDB &DB) {
  StringMap<size_t> OkByKey;
  for (size_t CI : B.okCandidates())
    OkByKey[B.Candidates[CI].Cfg.key()] = CI;
  std::vector<std::pair<const Record *, size_t>> Out;
  for (const Record &R : DB.records()) {
    if (!R.isOk() || R.Kernel != B.Kernel || R.Device != B.Device.Name ||
        R.TimeMs <= 0)
      continue;
    auto It = OkByKey.find(R.Config);
    if (It != OkByKey.end())
      Out.emplace_back(&R, It->second);
  }
  return Out;
}

Expected<unsigned> addTrainingRows(CostModel &Model, const CandidateBundle &B,
                                  const ResultsDB &DB) {
  // (shape, config) -> sum of log times and count, in first-seen order so
  // that the rows (and the trained model) do not depend on hashing.
  struct Acc {
    std::string Shape;
    size_t Candidate;
    double SumLog = 0;
    unsigned N = 0;
  };
  std::vector<Acc> Rows;
  StringMap<size_t> RowOf;
  for (auto [Rec, Candidate] : getBundleRecords(B, DB)) {
    const Record &R = *Rec;
    std::string Key = R.Shape + " " + R.Config;
    auto [Pos, New] = RowOf.try_emplace(Key, Rows.size());
    if (New)
      Rows.push_back({R.Shape, Candidate});
    Acc &A = Rows[Pos->second];
    A.SumLog += std::log(R.TimeMs * 1e-3);
    ++A.N;
  }
  StringMap<std::pair<Shape, ShapeWork>> Shapes;
  for (const Acc &A : Rows) {
    auto SIt = Shapes.find(A.Shape);
    if (SIt == Shapes.end()) {
      Expected<Shape> S = Shape::parseKey(A.Shape);
      if (!S)
        return S.takeError();
      ShapeWork W = evalWork(B.Launch, *S);
      SIt = Shapes.try_emplace(A.Shape, std::make_pair(*S, W)).first;
    }
    const auto &[S, W] = SIt->second;
    Model.addRow(computeFeatures(S, W, B.Candidates[A.Candidate], B.Model,
                                 B.Device),
                 A.SumLog / A.N - std::log(rooflineSeconds(W, B.Device)));
  }
  return static_cast<unsigned>(Rows.size());
}

Expected<std::vector<std::pair<Shape, size_t>>>
bestPerShape(const CandidateBundle &B, const ResultsDB &DB) {
  std::vector<std::pair<Shape, size_t>> Out;
  std::vector<double> BestTime;
  StringMap<size_t> Pos;
  for (auto [Rec, Candidate] : getBundleRecords(B, DB)) {
    const Record &R = *Rec;
    auto [P, New] = Pos.try_emplace(R.Shape, Out.size());
    if (New) {
      Expected<Shape> S = Shape::parseKey(R.Shape);
      if (!S)
        return S.takeError();
      Out.emplace_back(std::move(*S), Candidate);
      BestTime.push_back(R.TimeMs);
    } else if (R.TimeMs < BestTime[P->second]) {
      Out[P->second].second = Candidate;
      BestTime[P->second] = R.TimeMs;
    }
  }
  return Out;
}

std::vector<size_t> nearestBest(const Shape &S,
                                ArrayRef<std::pair<Shape, size_t>> Known,
                                unsigned Count) {
  auto Distance = [&](const Shape &T) {
    double D = 0;
    for (const auto &[Name, V] : S.Dims) {
      std::optional<int64_t> W = T.get(Name);
      D += W && *W > 0 ? std::fabs(std::log2(double(V) / double(*W))) : 1e9;
    }
    return D;
  };
  std::vector<std::pair<double, size_t>> Order;
  for (size_t I = 0; I < Known.size(); ++I)
    Order.emplace_back(Distance(Known[I].first), I);
  // Ties keep the file order, so the seeds do not depend on sorting.
  std::stable_sort(Order.begin(), Order.end(),
                   [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<size_t> Out;
  for (const auto &[D, I] : Order) {
    if (Out.size() >= Count)
      break;
    if (llvm::find(Out, Known[I].second) == Out.end())
      Out.push_back(Known[I].second);
  }
  return Out;
}

Expected<RunSummary> runTuning(const CandidateBundle &B, ArrayRef<Shape> Shapes,
                               ResultsDB &DB, Measurer &M,
                               const RunOptions &Opts, raw_ostream &Log) {
  if (Opts.Mode != "tuner" && Opts.Mode != "exhaustive")
    return createStringError(
        formatv("unknown mode '{0}' (tuner or exhaustive)", Opts.Mode).str());
  std::vector<size_t> Ok = B.okCandidates();
  if (Ok.empty())
    return createStringError("the bundle has no candidate that compiled");
  RunSummary Sum;
  Sum.Shapes = Shapes.size();
  Progress Bar(errs(), Opts.Progress, Opts.ProgressIsTerminal, Shapes.size(),
               Opts.Mode);
  CostModel Model(/*MinRows=*/8, Opts.ModelRounds, Opts.ModelDepth,
                  Opts.ModelEta);
  if (Opts.Mode == "tuner" && Opts.TrainDB) {
    Expected<unsigned> N = addTrainingRows(Model, B, *Opts.TrainDB);
    if (!N)
      return N.takeError();
    Sum.TrainRows = *N;
  }
  std::vector<std::pair<Shape, size_t>> Known;
  if (Opts.Mode == "tuner" && Opts.TrainDB && Opts.Seeds > 0) {
    Expected<std::vector<std::pair<Shape, size_t>>> K =
        bestPerShape(B, *Opts.TrainDB);
    if (!K)
      return K.takeError();
    Known = std::move(*K);
  }
  bool Trained = false;
  bool Stop = false;

  // Measures candidate CI for shape S, or reuses the database's record.
  auto MeasureOne = [&](size_t CI, const Shape &S) -> std::optional<double> {
    const Candidate &C = B.Candidates[CI];
    std::string SK = S.key(), CK = C.Cfg.key();
    if (const Record *R =
            DB.find(B.Kernel, B.Device.Name, SK, Opts.Mode, CK)) {
      ++Sum.Reused;
      return R->isOk() ? std::optional<double>(R->TimeMs) : std::nullopt;
    }
    if ((Opts.TimeBudgetSeconds > 0 &&
         Bar.seconds() >= Opts.TimeBudgetSeconds) ||
        (Opts.MaxMeasurements > 0 && Sum.Measured >= Opts.MaxMeasurements)) {
      Stop = true;
      return std::nullopt;
    }
    Record Rec{B.Kernel, B.Device.Name, SK, Opts.Mode, CK, "ok", 0, ""};
    std::variant<double, Measurer::Failure> Res = M.measure(C, S);
    if (auto *T = std::get_if<double>(&Res)) {
      Rec.TimeMs = *T;
    } else {
      auto &F = std::get<Measurer::Failure>(Res);
      Rec.Status = F.Status;
      Rec.Detail = F.Message;
      ++Sum.Failed;
    }
    ++Sum.Measured;
    if (Error E = DB.append(Rec)) {
      Log << "tle-tune: error: " << toString(std::move(E)) << "\n";
      Stop = true;
      return std::nullopt;
    }
    // The time as the database holds it (printed with 9 digits), so that a
    // resumed run, which reads it back, makes the same choices.
    const Record &Stored = DB.records().back();
    return Stored.isOk() ? std::optional<double>(Stored.TimeMs) : std::nullopt;
  };

  for (size_t SI = 0; SI < Shapes.size() && !Stop; ++SI) {
    const Shape &S = Shapes[SI];
    if (Error E = B.Launch.check(S, B.Candidates[Ok.front()].Cfg))
      return createStringError(formatv("shape {0}: {1}", S.key(),
                                       toString(std::move(E)))
                                   .str());
    if (Opts.Mode == "exhaustive") {
      for (size_t CI : Ok) {
        MeasureOne(CI, S);
        if (Stop)
          break;
      }
    } else {
      ShapeWork W = evalWork(B.Launch, S);
      double Roof = rooflineSeconds(W, B.Device);
      std::vector<Config> Cands;
      std::vector<std::vector<float>> Feats;
      for (size_t CI : Ok) {
        Cands.push_back(B.Candidates[CI].Cfg);
        Feats.push_back(
            computeFeatures(S, W, B.Candidates[CI], B.Model, B.Device));
      }
      // Trained once before the first shape, then after every shape unless
      // Retrain is off (a model trained on a training file stays put).
      if (!Trained || Opts.Retrain) {
        if (Error E = Model.train())
          Log << "tle-tune: warning: cost model not trained, ranking with "
                 "the analytic estimate: "
              << toString(std::move(E)) << "\n";
        Trained = Model.isTrained();
      }
      Expected<std::vector<double>> Pred = Model.predict(Feats);
      if (!Pred)
        return Pred.takeError();
      SearchOptions SO;
      SO.Budget = SI < Opts.WarmShapes ? Opts.WarmBudget : Opts.Budget;
      SO.TopK = Opts.TopK;
      if (!Known.empty()) {
        // Seeds are indices into Ok, as the search's candidates are.
        for (size_t CI : nearestBest(S, Known, Opts.Seeds))
          if (auto It = llvm::find(Ok, CI); It != Ok.end())
            SO.Seeds.push_back(It - Ok.begin());
      }
      SearchResult R = searchShape(
          Cands, B.Axes, *Pred, SO,
          [&](size_t I) { return MeasureOne(Ok[I], S); });
      // What this shape taught the model, for the shapes after it.
      for (const SearchStep &St : R.Steps)
        if (St.Time)
          Model.addRow(Feats[St.Candidate],
                       std::log(*St.Time * 1e-3 / Roof), Opts.OwnWeight);
      Sum.ModelTrained = Model.isTrained();
    }
    if (Stop)
      break;
    ++Sum.ShapesDone;
    Bar.update(Sum.ShapesDone, Sum.Measured, Sum.Reused, Sum.Failed, S.key());
  }
  Bar.finish();
  Sum.StoppedByBudget = Stop;
  return Sum;
}

} // namespace tune
} // namespace tle
