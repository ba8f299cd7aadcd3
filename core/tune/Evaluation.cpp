//===- Evaluation.cpp - Compare modes, pick configs, report ---------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/Evaluation.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <set>

using namespace llvm;

namespace tle {
namespace tune {

namespace {

/// Records grouped by shape, shapes in the order they first appear.
class ShapeGroups {
public:
  using Entry = std::pair<std::string, std::vector<const Record *>>;
  std::vector<const Record *> &operator[](StringRef Shape) {
    auto [It, New] = Index.try_emplace(Shape, Entries.size());
    if (New)
      Entries.push_back({Shape.str(), {}});
    return Entries[It->second].second;
  }
  const std::vector<const Record *> *find(StringRef Shape) const {
    auto It = Index.find(Shape);
    return It == Index.end() ? nullptr : &Entries[It->second].second;
  }
  std::vector<Entry>::const_iterator begin() const { return Entries.begin(); }
  std::vector<Entry>::const_iterator end() const { return Entries.end(); }

private:
  StringMap<size_t> Index;
  std::vector<Entry> Entries;
};

/// The records of one kernel/device grouped by shape, in file order.
struct ByShape {
  ShapeGroups Exhaustive, Tuner;
};

ByShape group(const ResultsDB &DB, StringRef Kernel, StringRef Device) {
  ByShape G;
  for (const Record &R : DB.records()) {
    if (R.Kernel != Kernel || R.Device != Device)
      continue;
    if (R.Mode == "exhaustive")
      G.Exhaustive[R.Shape].push_back(&R);
    else if (R.Mode == "tuner")
      G.Tuner[R.Shape].push_back(&R);
  }
  return G;
}

const Record *fastest(ArrayRef<const Record *> Rs) {
  const Record *Best = nullptr;
  for (const Record *R : Rs)
    if (R->isOk() && (!Best || R->TimeMs < Best->TimeMs))
      Best = R;
  return Best;
}

/// Records are appended; a config measured again (a rerun) counts once, at
/// its last time.
std::vector<const Record *> latest(ArrayRef<const Record *> Rs) {
  StringMap<size_t> Pos;
  std::vector<const Record *> Out;
  for (const Record *R : Rs) {
    auto [It, New] = Pos.try_emplace(R->Config, Out.size());
    if (New)
      Out.push_back(R);
    else
      Out[It->second] = R;
  }
  return Out;
}

} // namespace

Comparison compareModes(const ResultsDB &DB, StringRef Kernel,
                        StringRef Device) {
  ByShape G = group(DB, Kernel, Device);
  Comparison C;
  double LogSum = 0;
  for (auto &[Shape, TRs] : G.Tuner) {
    ShapeComparison Row;
    Row.Shape = Shape;
    std::vector<const Record *> T = latest(TRs);
    Row.TunerMeasured = T.size();
    C.TunerMeasured += T.size();
    if (const Record *P = fastest(T)) {
      Row.TunerConfig = P->Config;
      Row.TunerPickOwn = P->TimeMs;
    }
    if (const std::vector<const Record *> *ERs = G.Exhaustive.find(Shape)) {
      std::vector<const Record *> E = latest(*ERs);
      Row.ExhaustiveMeasured = E.size();
      if (const Record *Best = fastest(E)) {
        Row.ExhaustiveBest = Best->TimeMs;
        Row.ExhaustiveConfig = Best->Config;
      }
      for (const Record *R : E)
        if (R->isOk() && R->Config == Row.TunerConfig)
          Row.TunerPickExhaustive = R->TimeMs;
    }
    if (Row.ExhaustiveBest > 0 && Row.TunerPickExhaustive > 0) {
      LogSum += std::log(Row.TunerPickExhaustive / Row.ExhaustiveBest);
      ++C.Compared;
      C.ExhaustiveMeasured += Row.ExhaustiveMeasured;
    }
    C.Rows.push_back(std::move(Row));
  }
  C.GeoMeanRatio = C.Compared ? std::exp(LogSum / C.Compared) : 0;
  return C;
}

void printComparison(const Comparison &C, raw_ostream &OS) {
  OS << "| shape | exhaustive best ms | its config | tuner pick | pick ms "
        "(exhaustive run) | pick ms (tuner run) | pick/best | measured "
        "exhaustive | measured tuner |\n";
  OS << "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const ShapeComparison &R : C.Rows) {
    std::string Ratio = R.ExhaustiveBest > 0 && R.TunerPickExhaustive > 0
                            ? formatv("{0:f3}", R.TunerPickExhaustive /
                                                    R.ExhaustiveBest)
                                  .str()
                            : "-";
    OS << formatv("| {0} | {1:f4} | {2} | {3} | {4:f4} | {5:f4} | {6} | {7} | "
                  "{8} |\n",
                  R.Shape, R.ExhaustiveBest, R.ExhaustiveConfig, R.TunerConfig,
                  R.TunerPickExhaustive, R.TunerPickOwn, Ratio,
                  R.ExhaustiveMeasured, R.TunerMeasured);
  }
  OS << formatv("shapes compared: {0} of {1}\n", C.Compared, C.Rows.size());
  OS << formatv("geometric mean of tuner pick / exhaustive best: {0:f4}\n",
                C.GeoMeanRatio);
  unsigned TunerOnCompared = 0;
  for (const ShapeComparison &R : C.Rows)
    if (R.ExhaustiveBest > 0 && R.TunerPickExhaustive > 0)
      TunerOnCompared += R.TunerMeasured;
  OS << formatv("configurations measured: exhaustive {0}, tuner {1}, ratio "
                "{2:f1}x\n",
                C.ExhaustiveMeasured, TunerOnCompared,
                TunerOnCompared ? double(C.ExhaustiveMeasured) / TunerOnCompared
                                : 0.0);
}

Expected<std::pair<std::string, std::string>>
soleKernelDevice(const ResultsDB &DB) {
  std::set<std::pair<std::string, std::string>> Pairs;
  for (const Record &R : DB.records())
    Pairs.emplace(R.Kernel, R.Device);
  if (Pairs.size() != 1)
    return createStringError(
        formatv("the results hold {0} kernel/device pairs; name one with "
                "--kernel and --device",
                Pairs.size())
            .str());
  return *Pairs.begin();
}

std::optional<Pick> pickConfig(const ResultsDB &DB, StringRef Kernel,
                               StringRef Device, const Shape &S,
                               bool Nearest) {
  auto BestAt = [&](StringRef ShapeKey) -> const Record * {
    if (const Record *R = DB.best(Kernel, Device, ShapeKey, "tuner"))
      return R;
    return DB.best(Kernel, Device, ShapeKey, "exhaustive");
  };
  if (const Record *R = BestAt(S.key()))
    return Pick{*R, S.key(), true};
  if (!Nearest)
    return std::nullopt;
  StringSet<> Seen;
  const Record *Best = nullptr;
  double BestDist = 0;
  for (const Record &R : DB.records()) {
    if (R.Kernel != Kernel || R.Device != Device || !R.isOk() ||
        !Seen.insert(R.Shape).second)
      continue;
    Expected<Shape> Other = Shape::parseKey(R.Shape);
    if (!Other) {
      consumeError(Other.takeError());
      continue;
    }
    double Dist = 0;
    bool Same = Other->Dims.size() == S.Dims.size();
    for (size_t I = 0; Same && I < S.Dims.size(); ++I) {
      Same = Other->Dims[I].first == S.Dims[I].first;
      Dist += std::fabs(std::log2(double(Other->Dims[I].second) /
                                  double(S.Dims[I].second)));
    }
    if (!Same)
      continue;
    if (const Record *B = BestAt(R.Shape); B && (!Best || Dist < BestDist)) {
      Best = B;
      BestDist = Dist;
    }
  }
  if (!Best)
    return std::nullopt;
  return Pick{*Best, Best->Shape, false};
}

/// Geometric mean over shapes of best-so-far / reference after n
/// measurements, for n = 1..max; shapes with fewer keep their final value.
static std::vector<double>
convergence(const ShapeGroups &Mode,
            const StringMap<double> &Reference) {
  std::vector<std::vector<double>> Curves;
  size_t Longest = 0;
  for (auto &[Shape, Rs] : Mode) {
    auto Ref = Reference.find(Shape);
    if (Ref == Reference.end())
      continue;
    std::vector<double> C;
    double Best = 0;
    for (const Record *R : latest(Rs)) {
      if (R->isOk() && (Best == 0 || R->TimeMs < Best))
        Best = R->TimeMs;
      C.push_back(Best > 0 ? Best / Ref->second : 0);
    }
    Longest = std::max(Longest, C.size());
    Curves.push_back(std::move(C));
  }
  std::vector<double> Out;
  for (size_t N = 0; N < Longest; ++N) {
    double LogSum = 0;
    unsigned Count = 0;
    bool Missing = false;
    for (const std::vector<double> &C : Curves) {
      double V = C.empty() ? 0 : C[std::min(N, C.size() - 1)];
      if (V <= 0) {
        Missing = true;
        break;
      }
      LogSum += std::log(V);
      ++Count;
    }
    Out.push_back(Missing || !Count ? 0 : std::exp(LogSum / Count));
  }
  return Out;
}

Error writeReport(const ResultsDB &DB, StringRef Kernel, StringRef Device,
                  StringRef Path) {
  ByShape G = group(DB, Kernel, Device);
  // Reference per shape: the exhaustive best, else the best of any mode.
  StringMap<double> Ref;
  for (auto *M : {&G.Exhaustive, &G.Tuner})
    for (auto &[Shape, Rs] : *M)
      if (const Record *B = fastest(Rs)) {
        auto [It, New] = Ref.try_emplace(Shape, B->TimeMs);
        if (!New && M == &G.Exhaustive)
          It->second = B->TimeMs;
        else if (!New)
          It->second = std::min(It->second, B->TimeMs);
      }
  std::vector<double> Tuner = convergence(G.Tuner, Ref);
  std::vector<double> Exh = convergence(G.Exhaustive, Ref);
  Comparison C = compareModes(DB, Kernel, Device);

  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC)
    return createStringError(
        formatv("cannot write '{0}': {1}", Path, EC.message()).str());
  OS << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
     << "tle-tune: " << Kernel << " on " << Device << "</title>\n"
     << "<style>body{font-family:sans-serif;margin:2em}table{border-"
        "collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;"
        "padding:2px 6px}</style></head><body>\n";
  OS << "<h1>" << Kernel << " on " << Device << "</h1>\n";
  OS << formatv("<p>Shapes tuned: {0}; compared with the exhaustive run: {1}. "
                "Geometric mean of tuner pick / exhaustive best: <b>{2:f4}</b>."
                " Configurations measured: exhaustive {3}, tuner {4}.</p>\n",
                C.Rows.size(), C.Compared, C.GeoMeanRatio,
                C.ExhaustiveMeasured, C.TunerMeasured);
  // Plot: x = measurements spent on a shape (log scale), y = geometric mean
  // over shapes of best found so far / reference.
  const double W = 720, H = 420, L = 70, R = 20, T = 20, B = 50;
  size_t MaxN = std::max({Tuner.size(), Exh.size(), size_t(2)});
  double YMax = 1.05;
  for (const auto *Curve : {&Tuner, &Exh})
    for (double V : *Curve)
      if (V > 0)
        YMax = std::max(YMax, std::min(V, 4.0));
  auto X = [&](size_t N) {
    return L + (W - L - R) * std::log(double(N)) / std::log(double(MaxN));
  };
  auto Y = [&](double V) {
    return T + (H - T - B) * (1 - (std::min(V, YMax) - 1.0) / (YMax - 1.0));
  };
  OS << formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                "height=\"{1}\">\n",
                W, H);
  OS << formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                "fill=\"none\" stroke=\"#888\"/>\n",
                L, T, W - L - R, H - T - B);
  for (size_t N = 1; N <= MaxN; N *= 2)
    OS << formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"11\" "
                  "text-anchor=\"middle\">{2}</text>\n",
                  X(N), H - B + 15, N);
  for (double V = 1.0; V <= YMax + 1e-9; V += (YMax - 1.0) / 4)
    OS << formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"11\" "
                  "text-anchor=\"end\">{2:f2}</text>\n",
                  L - 5, Y(V) + 4, V);
  OS << formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"12\" "
                "text-anchor=\"middle\">measurements spent on a shape (log "
                "scale)</text>\n",
                (W + L) / 2, H - 10);
  OS << formatv("<text x=\"14\" y=\"{0}\" font-size=\"12\" "
                "transform=\"rotate(-90 14 {0})\" text-anchor=\"middle\">best "
                "found / exhaustive best (geo. mean)</text>\n",
                (H - B + T) / 2);
  auto Line = [&](const std::vector<double> &Curve, StringRef Color,
                  StringRef Name, double LegendY) {
    std::string Pts;
    for (size_t N = 0; N < Curve.size(); ++N)
      if (Curve[N] > 0)
        Pts += formatv("{0:f1},{1:f1} ", X(N + 1), Y(Curve[N])).str();
    if (Pts.empty())
      return;
    OS << formatv("<polyline fill=\"none\" stroke=\"{0}\" stroke-width=\"2\" "
                  "points=\"{1}\"/>\n",
                  Color, Pts);
    OS << formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"12\" "
                  "fill=\"{2}\">{3}</text>\n",
                  W - R - 260, LegendY, Color, Name);
  };
  Line(Exh, "#999", "exhaustive, in enumeration order", T + 20);
  Line(Tuner, "#c00", "tuner (ranked + genetic)", T + 36);
  OS << "</svg>\n<table><tr><th>shape</th><th>exhaustive best ms</th>"
        "<th>tuner pick</th><th>pick/best</th><th>measured (exh.)</th>"
        "<th>measured (tuner)</th></tr>\n";
  for (const ShapeComparison &Row : C.Rows)
    OS << formatv("<tr><td>{0}</td><td>{1:f4}</td><td>{2}</td><td>{3}</td>"
                  "<td>{4}</td><td>{5}</td></tr>\n",
                  Row.Shape, Row.ExhaustiveBest, Row.TunerConfig,
                  Row.ExhaustiveBest > 0 && Row.TunerPickExhaustive > 0
                      ? formatv("{0:f3}", Row.TunerPickExhaustive /
                                              Row.ExhaustiveBest)
                            .str()
                      : "-",
                  Row.ExhaustiveMeasured, Row.TunerMeasured);
  OS << "</table></body></html>\n";
  OS.close();
  if (OS.has_error()) {
    std::error_code WEC = OS.error();
    OS.clear_error();
    return createStringError(
        formatv("cannot write '{0}': {1}", Path, WEC.message()).str());
  }
  return Error::success();
}

} // namespace tune
} // namespace tle
