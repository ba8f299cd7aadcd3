//===- TleTune.cpp - tle-tune commands that run anywhere ------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "tools/tle-tune/TleTune.h"

#include "core/tune/CostModel.h"
#include "core/tune/DeviceMeasurer.h"
#include "core/tune/Evaluation.h"
#include "core/tune/Features.h"
#include "core/tune/Tuner.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;
using namespace tle::tune;

namespace tle {
namespace tunetool {
namespace {

cl::SubCommand RunCmd("run", "Measure a candidate bundle over shapes "
                             "(tuner or exhaustive mode) into a results file");
cl::SubCommand CompareCmd("compare", "Compare the tuner's picks with the "
                                     "exhaustive best in a results file");
cl::SubCommand ReportCmd("report", "Write an HTML report (best found vs "
                                   "measurements spent)");
cl::SubCommand SimulateCmd(
    "simulate", "Run the tuner offline: measurements are looked up in an "
                "earlier exhaustive run (--oracle) instead of made on a "
                "device; prints the comparison with the exhaustive best");
cl::SubCommand PickCmd("pick", "Print the tlec options of the best config "
                               "for a shape");

cl::opt<std::string> BundleDir(cl::Positional, cl::desc("<candidate bundle>"),
                               cl::Required, cl::sub(RunCmd),
                               cl::sub(SimulateCmd));
cl::opt<std::string> ShapesFile("shapes", cl::desc("Shape list (docs/tune.md)"),
                                cl::Required, cl::sub(RunCmd),
                                cl::sub(SimulateCmd));
cl::opt<std::string> DBFile("db", cl::desc("Results file (created if missing)"),
                            cl::Required, cl::sub(RunCmd), cl::sub(CompareCmd),
                            cl::sub(ReportCmd), cl::sub(PickCmd));
cl::opt<std::string> SimDBFile(
    "db", cl::desc("Where the simulated run's records go (default: a "
                   "temporary file, removed)"),
    cl::sub(SimulateCmd));
cl::opt<std::string> OracleFile(
    "oracle", cl::desc("Results file whose exhaustive records stand in for "
                       "the device's measurements"),
    cl::Required, cl::sub(SimulateCmd));
cl::opt<std::string> TruthFile(
    "truth", cl::desc("Results file whose exhaustive records the picks are "
                      "compared with (default: the oracle; another run of "
                      "the same exhaustive search models measurement noise)"),
    cl::sub(SimulateCmd));
cl::opt<bool> SimVerbose("v", cl::desc("Print the per-shape table"),
                         cl::sub(SimulateCmd));
cl::opt<std::string> TrainDBFile(
    "train-db",
    cl::desc("Tuner: train the cost model on this results file's "
             "measurements (earlier runs, other shapes) before the first "
             "shape"),
    cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<bool> NoRetrain("no-retrain",
                        cl::desc("Tuner: train the cost model once (on "
                                 "--train-db), not again after every shape"),
                        cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<float> OwnWeight("own-weight",
                         cl::desc("Tuner: weight of this run's measurements "
                                  "in the cost model (a --train-db row "
                                  "weighs 1)"),
                         cl::init(1), cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<unsigned> Seeds(
    "seeds",
    cl::desc("Tuner: with --train-db, first measure the fastest configs of "
             "this many nearest training shapes (distinct configs; they "
             "count against --budget)"),
    cl::init(0), cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<unsigned> ModelRounds("model-rounds",
                              cl::desc("Tuner: boosting rounds"), cl::init(60),
                              cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<unsigned> ModelDepth("model-depth", cl::desc("Tuner: tree depth"),
                             cl::init(5), cl::sub(RunCmd),
                             cl::sub(SimulateCmd));
cl::opt<double> ModelEta("model-eta", cl::desc("Tuner: shrinkage"),
                         cl::init(0.15), cl::sub(RunCmd),
                         cl::sub(SimulateCmd));
cl::opt<std::string> Mode("mode", cl::desc("tuner or exhaustive"),
                          cl::init("tuner"), cl::sub(RunCmd));
cl::opt<unsigned> Budget("budget", cl::desc("Tuner: measurements per shape"),
                         cl::init(4), cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<unsigned> TopK("top-k",
                       cl::desc("Tuner: measurements of the best-ranked "
                                "candidates before the genetic search"),
                       cl::init(2), cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<unsigned> WarmShapes("warm-shapes",
                             cl::desc("Tuner: shapes at the start that get "
                                      "--warm-budget measurements"),
                             cl::init(2), cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<unsigned> WarmBudget("warm-budget", cl::init(12), cl::sub(RunCmd), cl::sub(SimulateCmd),
                             cl::desc("Tuner: measurements per warm shape"));
cl::opt<double> TimeBudget("time-budget",
                           cl::desc("Stop after this many seconds (resumable; "
                                    "0: no limit)"),
                           cl::init(0), cl::sub(RunCmd));
cl::opt<unsigned> MaxMeasurements("max-measurements",
                                  cl::desc("Stop after this many new "
                                           "measurements (resumable; 0: no "
                                           "limit)"),
                                  cl::init(0), cl::sub(RunCmd));
cl::opt<unsigned> LimitShapes("limit-shapes",
                              cl::desc("Use only the first N shapes (0: all)"),
                              cl::init(0), cl::sub(RunCmd), cl::sub(SimulateCmd));
cl::opt<bool> Synthetic("synthetic",
                        cl::desc("Measure with a synthetic cost function "
                                 "instead of a device (tests)"),
                        cl::sub(RunCmd));
cl::opt<std::string> ExcludeFailedIn(
    "exclude-failed-in",
    cl::desc("Leave out candidates that failed (wrong result, launch "
             "failure) in this results file, e.g. a validation run"),
    cl::sub(RunCmd));
cl::opt<double> SyntheticNoise("synthetic-noise",
                              cl::desc("--synthetic: relative spread of the "
                                       "per-measurement factor"),
                              cl::init(0.2), cl::sub(RunCmd));
cl::opt<bool> NoProgress("no-progress", cl::desc("No progress output"),
                         cl::sub(RunCmd));
cl::opt<double> TargetMs("target-ms",
                         cl::desc("Device: milliseconds per timing"),
                         cl::init(1.0), cl::sub(RunCmd));
cl::opt<uint64_t> CheckLimit("check-limit",
                             cl::desc("Device: check results for shapes of at "
                                      "most this many multiply-adds"),
                             cl::init(uint64_t(1) << 27), cl::sub(RunCmd));

cl::opt<std::string> KernelName("kernel", cl::desc("Kernel (default: the "
                                                   "only one in the file)"),
                                cl::sub(CompareCmd), cl::sub(ReportCmd),
                                cl::sub(PickCmd));
cl::opt<std::string> DeviceName("device",
                                cl::desc("Device (default: the only one)"),
                                cl::sub(CompareCmd), cl::sub(ReportCmd),
                                cl::sub(PickCmd));
cl::opt<std::string> ReportOut("o", cl::desc("Output HTML file"),
                               cl::Required, cl::sub(ReportCmd));
cl::opt<std::string> PickShape("shape", cl::desc("M=..,N=..,K=.."),
                               cl::Required, cl::sub(PickCmd));
cl::opt<bool> PickNearest("nearest",
                          cl::desc("Use the nearest tuned shape when the "
                                   "shape itself was not tuned"),
                          cl::sub(PickCmd));
cl::opt<std::string> PickFormat("format", cl::desc("tlec or key"),
                                cl::init("tlec"), cl::sub(PickCmd));

int fail(const Twine &Msg) {
  errs() << "tle-tune: error: " << Msg << "\n";
  return 1;
}

/// Stands in for a device in tests: the analytic estimate, with a
/// deterministic per-(config, shape) factor in [1 - n, 1 + n]
/// (--synthetic-noise n, default 0.2) and penalties the
/// analytic estimate does not know (2 warps, GROUP_SIZE_M 1 on tall
/// shapes), so that a learned model has something to learn; every config
/// whose key hashes to 0 mod 23 fails to launch.
class SyntheticMeasurer : public Measurer {
public:
  explicit SyntheticMeasurer(const CandidateBundle &B) : B(B) {}
  std::variant<double, Failure> measure(const Candidate &C,
                                        const Shape &S) override {
    uint64_t H = fnv(C.Cfg.key());
    if (H % 23 == 0)
      return Failure{"launch-failed", "synthetic failure of " + C.Cfg.key()};
    ShapeWork W = evalWork(B.Launch, S);
    double T = analyticSeconds(S, W, C, B.Model, B.Device) * 1e3;
    double Noise = 1 - SyntheticNoise +
                   2 * SyntheticNoise *
                       double(fnv(C.Cfg.key() + S.key()) % 1000) / 1000;
    if (C.Cfg.NumWarps == 2)
      T *= 1.25;
    if (C.Cfg.get(B.Model.GroupM).value_or(8) == 1 &&
        S.get("M").value_or(0) >= 1024)
      T *= 1.15;
    return T * Noise;
  }

private:
  static uint64_t fnv(StringRef S) {
    uint64_t H = 1469598103934665603ull;
    for (unsigned char Ch : S) {
      H ^= Ch;
      H *= 1099511628211ull;
    }
    return H;
  }
  const CandidateBundle &B;
};

/// The tuner's options that run and simulate share.
RunOptions tunerOptions() {
  RunOptions Opts;
  Opts.Budget = Budget;
  Opts.TopK = TopK;
  Opts.WarmShapes = WarmShapes;
  Opts.WarmBudget = WarmBudget;
  Opts.Retrain = !NoRetrain;
  Opts.OwnWeight = OwnWeight;
  Opts.Seeds = Seeds;
  Opts.ModelRounds = ModelRounds;
  Opts.ModelDepth = ModelDepth;
  Opts.ModelEta = ModelEta;
  return Opts;
}

int runRun(const OpenDeviceFn &Open) {
  Expected<CandidateBundle> B = CandidateBundle::load(BundleDir);
  if (!B)
    return fail(toString(B.takeError()));
  Expected<std::vector<Shape>> Shapes =
      readShapes(ShapesFile, B->Launch.ShapeNames);
  if (!Shapes)
    return fail(toString(Shapes.takeError()));
  if (LimitShapes && Shapes->size() > LimitShapes)
    Shapes->resize(LimitShapes);
  if (!ExcludeFailedIn.empty()) {
    Expected<ResultsDB> Bad = ResultsDB::read(ExcludeFailedIn);
    if (!Bad)
      return fail(toString(Bad.takeError()));
    unsigned Excluded = 0;
    for (const Record &R : Bad->records())
      if (!R.isOk() && R.Kernel == B->Kernel)
        if (int I = B->findOk(R.Config); I >= 0) {
          // Not measured from here on; CompileFailed is the status that
          // says "no usable binary".
          B->Candidates[I].Status = CandidateStatus::CompileFailed;
          B->Candidates[I].Reason = "failed in " + ExcludeFailedIn + ": " +
                                    R.Status + ": " + R.Detail;
          ++Excluded;
        }
    outs() << formatv("excluded {0} candidates that failed in '{1}'\n",
                      Excluded, ExcludeFailedIn);
  }
  Expected<ResultsDB> DB = ResultsDB::open(DBFile);
  if (!DB)
    return fail(toString(DB.takeError()));
  if (DB->droppedTornLine())
    errs() << "tle-tune: note: dropped a torn last line of '" << DBFile
           << "' (an interrupted write)\n";
  RunOptions Opts = tunerOptions();
  std::optional<ResultsDB> Train;
  if (!TrainDBFile.empty()) {
    Expected<ResultsDB> T = ResultsDB::read(TrainDBFile);
    if (!T)
      return fail(toString(T.takeError()));
    Train = std::move(*T);
    Opts.TrainDB = &*Train;
  }
  Opts.Mode = Mode;
  Opts.TimeBudgetSeconds = TimeBudget;
  Opts.MaxMeasurements = MaxMeasurements;
  Opts.Progress = !NoProgress;
  Opts.ProgressIsTerminal = sys::Process::StandardErrIsDisplayed();

  // The device outlives the measurer, whose buffers and kernels it owns.
  std::unique_ptr<runtime::Device> Dev;
  std::unique_ptr<Measurer> M;
  if (Synthetic) {
    M = std::make_unique<SyntheticMeasurer>(*B);
  } else {
    if (!Open)
      return fail("this tle-tune cannot open devices; measure on the device "
                  "with bench/bin/tle-tune-nvidia (docs/tune.md), or use "
                  "--synthetic");
    Expected<std::unique_ptr<runtime::Device>> D = Open(*B);
    if (!D)
      return fail(toString(D.takeError()));
    Dev = std::move(*D);
    MeasureOptions MO;
    MO.TargetMs = TargetMs;
    MO.CheckLimit = CheckLimit;
    M = std::make_unique<DeviceMeasurer>(*Dev, *B, MO);
  }
  size_t Ok = B->okCandidates().size();
  outs() << formatv("{0}: {1} of {2} kernel '{3}' on {4}: {5} candidates that "
                    "compiled, {6} shapes, cost model: {7}\n",
                    Opts.Mode, BundleDir, B->Candidates.size(), B->Kernel,
                    B->Device.Name, Ok, Shapes->size(),
                    CostModel::hasXGBoost() ? "xgboost" : "analytic only");
  Expected<RunSummary> S = runTuning(*B, *Shapes, *DB, *M, Opts, errs());
  if (!S)
    return fail(toString(S.takeError()));
  if (Opts.TrainDB)
    outs() << formatv("{0}: cost model trained on {1} measured (shape, "
                      "config) pairs of '{2}'\n",
                      Opts.Mode, S->TrainRows, TrainDBFile);
  outs() << formatv("{0}: {1}/{2} shapes done; {3} new measurements ({4} "
                    "failed), {5} reused from '{6}'{7}{8}\n",
                    Opts.Mode, S->ShapesDone, S->Shapes, S->Measured,
                    S->Failed, S->Reused, DBFile,
                    Opts.Mode == "tuner"
                        ? (S->ModelTrained ? "; cost model trained"
                                           : "; cost model not trained yet")
                        : "",
                    S->StoppedByBudget
                        ? "; stopped by the budget, run again to resume"
                        : "");
  if (auto *DM = dynamic_cast<DeviceMeasurer *>(M.get()))
    outs() << formatv("{0}: {1:f1} s of device time in timed launches\n",
                      Opts.Mode, DM->deviceSeconds());
  return 0;
}

/// Measures by looking up an earlier exhaustive run: the offline stand-in
/// for the device that lets search strategies be compared without one.
class OracleMeasurer : public Measurer {
public:
  OracleMeasurer(const CandidateBundle &B, const ResultsDB &Oracle)
      : B(B), Oracle(Oracle) {}
  std::variant<double, Failure> measure(const Candidate &C,
                                        const Shape &S) override {
    const Record *R = Oracle.find(B.Kernel, B.Device.Name, S.key(),
                                  "exhaustive", C.Cfg.key());
    if (!R) {
      ++Missing;
      return Failure{"launch-failed", "not in the oracle"};
    }
    if (!R->isOk())
      return Failure{R->Status, R->Detail};
    return R->TimeMs;
  }
  unsigned Missing = 0;

private:
  const CandidateBundle &B;
  const ResultsDB &Oracle;
};

int runSimulate() {
  Expected<CandidateBundle> B = CandidateBundle::load(BundleDir);
  if (!B)
    return fail(toString(B.takeError()));
  Expected<std::vector<Shape>> Shapes =
      readShapes(ShapesFile, B->Launch.ShapeNames);
  if (!Shapes)
    return fail(toString(Shapes.takeError()));
  if (LimitShapes && Shapes->size() > LimitShapes)
    Shapes->resize(LimitShapes);
  Expected<ResultsDB> Oracle = ResultsDB::read(OracleFile);
  if (!Oracle)
    return fail(toString(Oracle.takeError()));
  std::optional<ResultsDB> TruthStore;
  if (!TruthFile.empty()) {
    Expected<ResultsDB> T = ResultsDB::read(TruthFile);
    if (!T)
      return fail(toString(T.takeError()));
    TruthStore = std::move(*T);
  }
  const ResultsDB &Truth = TruthStore ? *TruthStore : *Oracle;
  RunOptions Opts = tunerOptions();
  Opts.Mode = "tuner";
  Opts.Progress = false;
  std::optional<ResultsDB> Train;
  if (!TrainDBFile.empty()) {
    Expected<ResultsDB> T = ResultsDB::read(TrainDBFile);
    if (!T)
      return fail(toString(T.takeError()));
    Train = std::move(*T);
    Opts.TrainDB = &*Train;
  }
  // The simulated run writes a results file of its own, which starts with
  // the truth's exhaustive records of these shapes so that compare's code
  // does the comparison.
  SmallString<128> Path(SimDBFile);
  bool Temp = Path.empty();
  if (Temp) {
    if (std::error_code EC =
            sys::fs::createTemporaryFile("tle-tune-simulate", "tsv", Path))
      return fail("cannot create a temporary file: " + EC.message());
  } else if (sys::fs::exists(Path)) {
    return fail("'" + SimDBFile + "' exists; simulate writes a new file");
  }
  sys::fs::remove(Path);
  int RC = [&]() -> int {
    Expected<ResultsDB> DB = ResultsDB::open(Path);
    if (!DB)
      return fail(toString(DB.takeError()));
    StringSet<> Keys;
    for (const Shape &S : *Shapes)
      Keys.insert(S.key());
    unsigned Copied = 0;
    for (const Record &R : Truth.records())
      if (R.Mode == "exhaustive" && R.Kernel == B->Kernel &&
          R.Device == B->Device.Name && Keys.contains(R.Shape)) {
        if (Error E = DB->append(R))
          return fail(toString(std::move(E)));
        ++Copied;
      }
    if (!Copied)
      return fail(formatv("'{0}' has no exhaustive records of {1} on {2} for "
                          "these shapes",
                          TruthFile.empty() ? OracleFile : TruthFile,
                          B->Kernel, B->Device.Name));
    OracleMeasurer M(*B, *Oracle);
    Expected<RunSummary> S = runTuning(*B, *Shapes, *DB, M, Opts, errs());
    if (!S)
      return fail(toString(S.takeError()));
    if (M.Missing)
      errs() << formatv("tle-tune: warning: {0} measurements were not in the "
                        "oracle (counted as failures)\n",
                        M.Missing);
    Comparison C = compareModes(*DB, B->Kernel, B->Device.Name);
    // compare's table and totals; without -v only the totals (its last
    // three lines).
    std::string Table;
    raw_string_ostream TOS(Table);
    printComparison(C, TOS);
    SmallVector<StringRef, 0> Lines;
    StringRef(Table).split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (size_t L = SimVerbose ? 0 : Lines.size() - std::min<size_t>(3, Lines.size());
         L < Lines.size(); ++L)
      outs() << Lines[L] << "\n";
    if (Opts.TrainDB)
      outs() << formatv("cost model trained on {0} (shape, config) pairs of "
                        "'{1}'\n",
                        S->TrainRows, TrainDBFile);
    return C.Compared ? 0 : fail("no shape was compared");
  }();
  if (Temp)
    sys::fs::remove(Path);
  return RC;
}

Expected<std::pair<std::string, std::string>>
kernelDevice(const ResultsDB &DB) {
  if (!KernelName.empty() && !DeviceName.empty())
    return std::make_pair(KernelName.getValue(), DeviceName.getValue());
  Expected<std::pair<std::string, std::string>> KD = soleKernelDevice(DB);
  if (!KD)
    return KD.takeError();
  if (!KernelName.empty())
    KD->first = KernelName;
  if (!DeviceName.empty())
    KD->second = DeviceName;
  return KD;
}

int runCompare() {
  Expected<ResultsDB> DB = ResultsDB::read(DBFile);
  if (!DB)
    return fail(toString(DB.takeError()));
  Expected<std::pair<std::string, std::string>> KD = kernelDevice(*DB);
  if (!KD)
    return fail(toString(KD.takeError()));
  Comparison C = compareModes(*DB, KD->first, KD->second);
  outs() << "kernel " << KD->first << " on " << KD->second << "\n";
  printComparison(C, outs());
  return C.Compared ? 0 : fail("no shape has both tuner and exhaustive "
                               "results");
}

int runReport() {
  Expected<ResultsDB> DB = ResultsDB::read(DBFile);
  if (!DB)
    return fail(toString(DB.takeError()));
  Expected<std::pair<std::string, std::string>> KD = kernelDevice(*DB);
  if (!KD)
    return fail(toString(KD.takeError()));
  if (Error E = writeReport(*DB, KD->first, KD->second, ReportOut))
    return fail(toString(std::move(E)));
  outs() << "report: " << ReportOut << "\n";
  return 0;
}

int runPick() {
  Expected<ResultsDB> DB = ResultsDB::read(DBFile);
  if (!DB)
    return fail(toString(DB.takeError()));
  Expected<std::pair<std::string, std::string>> KD = kernelDevice(*DB);
  if (!KD)
    return fail(toString(KD.takeError()));
  Expected<Shape> S = Shape::parseKey(PickShape);
  if (!S)
    return fail(toString(S.takeError()));
  std::optional<Pick> P =
      pickConfig(*DB, KD->first, KD->second, *S, PickNearest);
  if (!P)
    return fail(formatv("no measured config for {0} at {1} on {2}{3}",
                        KD->first, S->key(), KD->second,
                        PickNearest ? "" : " (--nearest uses the nearest "
                                           "tuned shape)"));
  Expected<Config> C = Config::parseKey(P->Best.Config);
  if (!C)
    return fail(toString(C.takeError()));
  if (!P->Exact)
    errs() << "tle-tune: note: " << S->key() << " was not tuned; using "
           << P->FromShape << "\n";
  if (PickFormat == "key") {
    outs() << C->key() << "\n";
    return 0;
  }
  for (const auto &[N, V] : C->Params)
    outs() << "-D " << N << "=" << V << " ";
  outs() << "--num-warps " << C->NumWarps << " --num-stages " << C->NumStages
         << "\n";
  return 0;
}

} // namespace

int runSharedCommand(const OpenDeviceFn &Open) {
  if (RunCmd)
    return runRun(Open);
  if (CompareCmd)
    return runCompare();
  if (ReportCmd)
    return runReport();
  if (PickCmd)
    return runPick();
  if (SimulateCmd)
    return runSimulate();
  return -1;
}

} // namespace tunetool
} // namespace tle
