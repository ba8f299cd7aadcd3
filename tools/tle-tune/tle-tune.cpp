//===- tle-tune.cpp - Autotune kernels over real shapes -------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle-tune space   SPEC --target CHIP          enumerate and prune the space
// tle-tune compile SPEC --target CHIP -o DIR   compile it into a candidate bundle
// tle-tune run     DIR --shapes F --db F       measure (tuner or exhaustive) on
//                                               the device, through its plugin
// tle-tune compare / report / pick --db F      read the results back
//
// Compilation happens here, ahead of time, because the machine that measures
// may have no LLVM 22 (the H200 machine has none): `compile` runs tlec once
// per config and writes binaries plus an index; `run` on the device (built
// statically as bench/bin/tle-tune-nvidia) only loads and times them.
// docs/tune.md describes the flow, the formats and the search.
//
//===----------------------------------------------------------------------===//

#include "tools/tle-tune/TleTune.h"

#include "core/frontend/AST.h"
#include "core/frontend/Diagnostics.h"
#include "core/frontend/Module.h"
#include "core/frontend/Parser.h"
#include "core/hwdesc/HwDesc.h"
#include "core/plugins/PluginHost.h"
#include "core/runtime/OpenDevice.h"
#include "core/tune/CandidateBundle.h"
#include "core/tune/ResultsDB.h"
#include "core/tune/TuneSpec.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>

using namespace llvm;
using namespace tle;
using namespace tle::tune;

namespace {

cl::SubCommand SpaceCmd("space", "Enumerate a kernel's config space and "
                                 "prune it against a hardware description");
cl::SubCommand CompileCmd("compile", "Compile the surviving configs into a "
                                     "candidate bundle (runs tlec)");

cl::opt<std::string> SpecFile(cl::Positional, cl::desc("<tuning spec>"),
                              cl::Required, cl::sub(SpaceCmd),
                              cl::sub(CompileCmd));
cl::opt<std::string> Target("target", cl::desc("Hardware description"),
                            cl::Required, cl::sub(SpaceCmd),
                            cl::sub(CompileCmd));
cl::opt<bool> PrintAll("print", cl::desc("List every config with its fate"),
                       cl::sub(SpaceCmd), cl::sub(CompileCmd));
cl::opt<std::string> OutDir("o", cl::desc("Candidate bundle directory"),
                            cl::Required, cl::sub(CompileCmd));
cl::opt<unsigned> Jobs("j", cl::desc("tlec processes at once"), cl::init(2),
                       cl::sub(CompileCmd));
cl::opt<std::string> TlecPath("tlec", cl::desc("tlec to run (default: the "
                                               "one beside tle-tune)"),
                              cl::sub(CompileCmd));
cl::opt<std::string> FailDB("db",
                            cl::desc("Also record configs that were pruned, "
                                     "failed to compile or exceed resources "
                                     "in this results file"),
                            cl::sub(CompileCmd));
cl::opt<unsigned> Limit("limit",
                        cl::desc("Compile at most this many configs (the "
                                 "first ones; 0: all)"),
                        cl::init(0), cl::sub(CompileCmd));
cl::list<std::string> ExtraConfigs("extra-config",
                                   cl::desc("Add one config (NAME=V,...) to "
                                            "the space"),
                                   cl::sub(SpaceCmd), cl::sub(CompileCmd));

int fail(const Twine &Msg) {
  errs() << "tle-tune: error: " << Msg << "\n";
  return 1;
}

/// The axes of the kernel's @triton.autotune configs: each parameter with an
/// integer value, num_warps and num_stages.
Expected<std::vector<Axis>> autotuneAxes(StringRef Source, StringRef Kernel,
                                         unsigned &NumConfigs) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Source);
  if (!Buf)
    return createStringError(formatv("cannot read '{0}': {1}", Source,
                                     Buf.getError().message())
                                 .str());
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(std::move(*Buf), SMLoc());
  frontend::DiagnosticEngine Diags(SM);
  Diags.setOutputStream(&errs());
  std::unique_ptr<frontend::Module> M = frontend::parseModule(SM, ID, Diags);
  if (!M || Diags.hasErrors())
    return createStringError(formatv("cannot parse '{0}'", Source).str());
  const frontend::FunctionDef *F = M->lookupFunction(Kernel);
  if (!F || !F->isJit())
    return createStringError(
        formatv("'{0}' has no jit function '{1}'", Source, Kernel).str());
  std::vector<Axis> Axes;
  NumConfigs = 0;
  if (!F->Autotune)
    return Axes;
  auto Add = [&](StringRef Name, const frontend::Expr *E) {
    const auto *C = dyn_cast_or_null<frontend::ConstantExpr>(E);
    if (!C || !C->isInt() || C->IntOverflow)
      return;
    std::vector<Axis> One = {{Name.str(), {static_cast<int64_t>(C->Int)}}};
    Axes = mergeAxes(Axes, One);
  };
  for (const frontend::AutotuneConfig &C : F->Autotune->Configs) {
    ++NumConfigs;
    if (C.Kwargs)
      for (size_t I = 0; I < C.Kwargs->Keys.size(); ++I)
        if (const auto *K =
                dyn_cast_or_null<frontend::ConstantExpr>(C.Kwargs->Keys[I]))
          if (K->isString())
            Add(K->Str, C.Kwargs->Values[I]);
    for (const frontend::Keyword &K : C.Options)
      if (K.Arg == "num_warps" || K.Arg == "num_stages")
        Add(K.Arg, K.Value);
  }
  return Axes;
}

Expected<DeviceFacts> deviceFacts(StringRef TargetName, StringRef InputType) {
  std::vector<std::string> Path = hwdesc::getDefaultSearchPath();
  std::optional<std::string> File = hwdesc::findTarget(TargetName, Path);
  if (!File)
    return createStringError(
        formatv("no hardware description named '{0}'", TargetName).str());
  hwdesc::LoadOptions LO;
  LO.SearchPath = Path;
  std::vector<hwdesc::Diagnostic> Diags;
  std::unique_ptr<hwdesc::HwDesc> D = hwdesc::loadFile(*File, LO, Diags);
  if (!D) {
    std::string Msg = formatv("cannot load '{0}'", *File).str();
    for (const hwdesc::Diagnostic &Dg : Diags)
      Msg += "\n  " + Dg.Message;
    return createStringError(Msg);
  }
  DeviceFacts F;
  F.Name = D->Name;
  F.ProcessorCount = D->ProcessorCount;
  F.WarpSize = D->getWarpSize() ? D->getWarpSize() : 32;
  if (const hwdesc::ParallelLevel *B =
          D->getParallelLevel(hwdesc::LevelKind::Block)) {
    if (B->MaxThreads)
      F.MaxThreadsPerBlock = B->MaxThreads;
    if (B->MaxResident)
      F.MaxBlocksPerProcessor = B->MaxResident;
  }
  if (const hwdesc::ParallelLevel *W =
          D->getParallelLevel(hwdesc::LevelKind::Warp))
    if (W->MaxResident)
      F.MaxWarpsPerProcessor = W->MaxResident;
  const hwdesc::Limits &L = D->getLimits();
  if (L.RegistersPerThread)
    F.RegistersPerThread = L.RegistersPerThread;
  if (L.RegistersPerBlock)
    F.RegistersPerBlock = L.RegistersPerBlock;
  if (L.RegistersPerProcessor)
    F.RegistersPerProcessor = L.RegistersPerProcessor;
  F.SharedPerBlockOptin = static_cast<int64_t>(L.SharedPerBlockOptin);
  F.SharedPerProcessor = static_cast<int64_t>(L.SharedPerProcessor);
  // The preferred instruction for the input type decides where the operands
  // are read from.
  std::vector<const hwdesc::MatrixInstruction *> Units =
      D->getMatrixInstructions(InputType);
  F.MatrixOperandsInBlockMemory =
      !Units.empty() && Units.front()->Level == hwdesc::IssueLevel::Warpgroup;
  auto It = D->Compute.MatrixRates.find(InputType);
  if (It != D->Compute.MatrixRates.end())
    F.PeakMatrixFlops = It->second;
  else if (auto V = D->Compute.VectorRates.find("fp32");
           V != D->Compute.VectorRates.end())
    F.PeakMatrixFlops = V->second;
  for (const hwdesc::MemoryLevel &M : D->MemoryLevels)
    if (M.Kind == hwdesc::MemoryKind::Global && M.Bandwidth > 0) {
      F.MemoryBandwidth = M.Bandwidth;
      break;
    }
  return F;
}

/// The spec, the description's facts and every config with its prune
/// verdict: what both subcommands start from.
struct Space {
  TuneSpec Spec;
  DeviceFacts Device;
  std::vector<Axis> Axes;
  unsigned AutotuneConfigs = 0;
  std::vector<Candidate> Configs;
};

Expected<Space> buildSpace() {
  Space S;
  Expected<TuneSpec> Spec = TuneSpec::load(SpecFile);
  if (!Spec)
    return Spec.takeError();
  S.Spec = std::move(*Spec);
  Expected<DeviceFacts> D = deviceFacts(Target, S.Spec.InputType);
  if (!D)
    return D.takeError();
  S.Device = std::move(*D);
  Expected<std::vector<Axis>> Auto =
      autotuneAxes(S.Spec.Source, S.Spec.Kernel, S.AutotuneConfigs);
  if (!Auto)
    return Auto.takeError();
  if (!S.Spec.UseAutotune) {
    Auto->clear();
    S.AutotuneConfigs = 0;
  }
  S.Axes = mergeAxes(*Auto, S.Spec.Generator);
  std::vector<Config> All = enumerateSpace(S.Axes);
  for (const std::string &Extra : ExtraConfigs) {
    Expected<Config> C = Config::parseKey(Extra);
    if (!C)
      return C.takeError();
    // In the axes' parameter order, so that its key matches the others'.
    Config Ordered = All.empty() ? *C : All.front();
    for (const auto &[N, V] : C->Params)
      Ordered.set(N, V);
    Ordered.NumWarps = C->NumWarps;
    Ordered.NumStages = C->NumStages;
    if (llvm::none_of(All, [&](const Config &O) { return O == Ordered; }))
      All.push_back(std::move(Ordered));
  }
  for (Config &C : All) {
    Candidate Cand;
    Cand.Cfg = std::move(C);
    Cand.Threads = Cand.Cfg.NumWarps * S.Device.WarpSize;
    Cand.Reason = pruneReason(Cand.Cfg, S.Spec.Model, S.Device);
    Cand.Status = Cand.Reason.empty() ? CandidateStatus::Ok
                                      : CandidateStatus::Pruned;
    S.Configs.push_back(std::move(Cand));
  }
  return S;
}

void printAxes(const Space &S) {
  outs() << formatv("kernel {0} in {1}: {2} autotune configs\n",
                    S.Spec.Kernel, S.Spec.Source, S.AutotuneConfigs);
  for (const Axis &A : S.Axes) {
    outs() << "  axis " << A.Name << ":";
    for (int64_t V : A.Values)
      outs() << " " << V;
    outs() << "\n";
  }
  outs() << formatv("device {0}: {1} processors, {2} threads/block, {3} "
                    "registers/thread, {4} bytes shared/block\n",
                    S.Device.Name, S.Device.ProcessorCount,
                    S.Device.MaxThreadsPerBlock, S.Device.RegistersPerThread,
                    S.Device.SharedPerBlockOptin);
}

int runSpace() {
  Expected<Space> S = buildSpace();
  if (!S)
    return fail(toString(S.takeError()));
  printAxes(*S);
  size_t Pruned = 0;
  StringMap<unsigned> Why;
  for (const Candidate &C : S->Configs) {
    if (C.Status == CandidateStatus::Pruned) {
      ++Pruned;
      ++Why[StringRef(C.Reason).split(':').first];
    }
    if (PrintAll)
      outs() << "  " << C.Cfg.key() << ": "
             << (C.Reason.empty() ? "ok" : "pruned: " + C.Reason) << "\n";
  }
  outs() << formatv("space: {0} configs, {1} pruned before compiling, {2} to "
                    "compile\n",
                    S->Configs.size(), Pruned, S->Configs.size() - Pruned);
  std::vector<std::string> Reasons;
  for (auto &E : Why)
    Reasons.push_back(E.getKey().str());
  llvm::sort(Reasons);
  for (const std::string &R : Reasons)
    outs() << formatv("  pruned for {0}: {1}\n", R, Why[R]);
  return 0;
}

/// The line of tlec's output that says why this config failed: the first
/// error that is not about the whole run (plugins tlec skipped, "nothing
/// written"), followed by the source line it points at when there is one.
std::string firstError(StringRef Log) {
  SmallVector<StringRef, 16> Lines;
  Log.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I].trim();
    if (!L.contains("error:") || L.contains("plugin ABI") ||
        L.contains("nothing written to"))
      continue;
    std::string Msg = L.str();
    if (I + 1 < Lines.size() && !Lines[I + 1].contains("error:") &&
        !Lines[I + 1].trim().empty())
      Msg += " | " + Lines[I + 1].trim().str();
    return Msg;
  }
  for (StringRef L : Lines)
    if (L.contains("error:"))
      return L.trim().str();
  return Log.trim().empty() ? "tlec failed without a message"
                            : Lines.front().trim().str();
}

std::string readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

/// Reads tlec's manifest for the one target into C (file copied into Out).
Error collect(Candidate &C, StringRef WorkDir, StringRef Kernel,
              StringRef Out, size_t Index, const DeviceFacts &D) {
  SmallString<256> Manifest(WorkDir);
  sys::path::append(Manifest, Kernel, "manifest.json");
  Expected<json::Value> V = json::parse(readFile(Manifest));
  if (!V)
    return createStringError(formatv("'{0}': {1}", Manifest,
                                     toString(V.takeError()))
                                 .str());
  const json::Array *Targets =
      V->getAsObject() ? V->getAsObject()->getArray("targets") : nullptr;
  const json::Object *T =
      Targets && !Targets->empty() ? (*Targets)[0].getAsObject() : nullptr;
  if (!T || !T->getString("binary"))
    return createStringError(
        formatv("'{0}' names no binary", Manifest).str());
  StringRef Binary = *T->getString("binary");
  C.Entry = T->getString("entry").value_or(Kernel).str();
  C.Hash = T->getString("binary_sha256").value_or("").str();
  C.Threads = T->getInteger("threads_per_block").value_or(C.Threads);
  C.DynamicShared = T->getInteger("shared_memory_bytes").value_or(0);
  C.GlobalScratch = T->getInteger("global_scratch_bytes").value_or(0);
  Expected<std::vector<backend::LaunchTensorMap>> Maps =
      runtime::readLaunchTensorMaps(*T);
  if (!Maps)
    return Maps.takeError();
  C.TensorMaps = std::move(*Maps);
  C.SharedBytes = C.DynamicShared;
  if (const json::Object *R = T->getObject("resources")) {
    C.Registers = R->getInteger("registers").value_or(0);
    C.SpillBytes = R->getInteger("spill_store_bytes").value_or(0) +
                   R->getInteger("spill_load_bytes").value_or(0);
    C.SharedBytes += R->getInteger("static_shared_memory_bytes").value_or(0);
  }
  C.File = formatv("c{0}{1}", Index, sys::path::extension(Binary)).str();
  SmallString<256> From(WorkDir), To(Out);
  sys::path::append(From, Kernel, Binary);
  sys::path::append(To, C.File);
  if (std::error_code EC = sys::fs::copy_file(From, To))
    return createStringError(
        formatv("cannot copy '{0}': {1}", From, EC.message()).str());
  std::string Over =
      checkCompiledResources(C.Threads, C.Registers, C.SharedBytes, D);
  if (!Over.empty()) {
    // Recorded with the numbers; its binary is not carried.
    C.Status = CandidateStatus::ExceedsResources;
    C.Reason = Over;
    sys::fs::remove(To);
    C.File.clear();
  }
  return Error::success();
}

int runCompile() {
  Expected<Space> S = buildSpace();
  if (!S)
    return fail(toString(S.takeError()));
  printAxes(*S);
  std::string Tlec = TlecPath;
  if (Tlec.empty()) {
    std::string Self = sys::fs::getMainExecutable(
        "tle-tune", reinterpret_cast<void *>(&runCompile));
    SmallString<256> P(sys::path::parent_path(Self));
    sys::path::append(P, "tlec");
    Tlec = std::string(P);
  }
  if (!sys::fs::can_execute(Tlec))
    return fail(formatv("cannot run tlec at '{0}' (--tlec)", Tlec));
  if (std::error_code EC = sys::fs::create_directories(OutDir))
    return fail(formatv("cannot create '{0}': {1}", OutDir, EC.message()));
  SmallString<256> Work(OutDir);
  sys::path::append(Work, ".work");
  sys::fs::remove_directories(Work);
  if (std::error_code EC = sys::fs::create_directories(Work))
    return fail(formatv("cannot create '{0}': {1}", Work, EC.message()));

  std::vector<size_t> ToCompile;
  for (size_t I = 0; I < S->Configs.size(); ++I)
    if (S->Configs[I].Status == CandidateStatus::Ok &&
        (!Limit || ToCompile.size() < Limit))
      ToCompile.push_back(I);
  for (size_t I = 0; I < S->Configs.size(); ++I)
    if (S->Configs[I].Status == CandidateStatus::Ok &&
        !llvm::is_contained(ToCompile, I)) {
      S->Configs[I].Status = CandidateStatus::Pruned;
      S->Configs[I].Reason = "not compiled (--limit)";
    }

  struct Job {
    size_t Index;
    sys::ProcessInfo PI;
    std::string Dir, Log;
  };
  std::deque<Job> Running;
  size_t Next = 0, Done = 0;
  bool Terminal = sys::Process::StandardErrIsDisplayed();
  auto Finish = [&](Job &J) {
    std::string Msg;
    sys::ProcessInfo R = sys::Wait(J.PI, std::nullopt, &Msg);
    Candidate &C = S->Configs[J.Index];
    if (R.ReturnCode != 0) {
      C.Status = CandidateStatus::CompileFailed;
      std::string Log = readFile(J.Log);
      C.Reason = R.ReturnCode < 0 ? "tlec crashed or could not start: " + Msg
                                  : firstError(Log);
      // The work directory's path is noise in a recorded message.
      size_t At;
      while ((At = C.Reason.find(J.Dir)) != std::string::npos)
        C.Reason.replace(At, J.Dir.size(), "<out>");
    } else if (Error E = collect(C, J.Dir, S->Spec.Kernel, OutDir, J.Index,
                                 S->Device)) {
      C.Status = CandidateStatus::CompileFailed;
      C.Reason = toString(std::move(E));
    }
    ++Done;
    if (Terminal)
      errs() << formatv("\rcompile: {0}/{1}", Done, ToCompile.size());
    else if (Done % 25 == 0 || Done == ToCompile.size())
      errs() << formatv("compile: {0}/{1}\n", Done, ToCompile.size());
  };
  while (Next < ToCompile.size() || !Running.empty()) {
    while (Next < ToCompile.size() && Running.size() < std::max(1u, Jobs.getValue())) {
      size_t I = ToCompile[Next++];
      const Candidate &C = S->Configs[I];
      Job J;
      J.Index = I;
      SmallString<256> D(Work);
      sys::path::append(D, "c" + std::to_string(I));
      J.Dir = std::string(D);
      J.Log = J.Dir + ".log";
      std::vector<std::string> Args = {Tlec, S->Spec.Source, "--kernel",
                                       S->Spec.Kernel, "--target", Target};
      for (const auto &[N, V] : S->Spec.Defines)
        Args.insert(Args.end(), {"-D", N + "=" + V});
      for (const auto &[N, V] : C.Cfg.Params)
        Args.insert(Args.end(), {"-D", N + "=" + std::to_string(V)});
      Args.insert(Args.end(),
                  {"--num-warps", std::to_string(C.Cfg.NumWarps),
                   "--num-stages", std::to_string(C.Cfg.NumStages), "-o", J.Dir,
                   // Over-limit binaries are recorded as exceeding
                   // resources (collect), not as failing to compile.
                   "--no-launch-limit-check"});
      if (!S->Spec.Signature.empty())
        Args.insert(Args.end(), {"--signature", S->Spec.Signature});
      std::vector<StringRef> Refs(Args.begin(), Args.end());
      std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(J.Log),
                                              StringRef(J.Log)};
      std::string Msg;
      bool Failed = false;
      J.PI = sys::ExecuteNoWait(Tlec, Refs, std::nullopt, Redirects, 0, &Msg,
                                &Failed);
      if (Failed) {
        S->Configs[I].Status = CandidateStatus::CompileFailed;
        S->Configs[I].Reason = "cannot run tlec: " + Msg;
        ++Done;
        continue;
      }
      Running.push_back(std::move(J));
    }
    if (!Running.empty()) {
      Finish(Running.front());
      Running.pop_front();
    }
  }
  if (Terminal && !ToCompile.empty())
    errs() << "\n";

  // Configs whose binaries are byte-identical are one candidate: the first
  // keeps the binary, the others point to it and are not measured.
  StringMap<std::string> ByHash;
  for (Candidate &C : S->Configs) {
    if (C.Status != CandidateStatus::Ok || C.Hash.empty())
      continue;
    auto [It, New] = ByHash.try_emplace(C.Hash, C.Cfg.key());
    if (!New) {
      SmallString<256> F(OutDir);
      sys::path::append(F, C.File);
      sys::fs::remove(F);
      C.Status = CandidateStatus::Duplicate;
      C.SameAs = It->second;
      C.File.clear();
    }
  }
  sys::fs::remove_directories(Work);

  CandidateBundle B;
  B.Kernel = S->Spec.Kernel;
  B.Device = S->Device;
  B.Model = S->Spec.Model;
  B.Launch = S->Spec.Launch;
  B.Axes = S->Axes;
  B.Candidates = S->Configs;
  if (Error E = B.save(OutDir))
    return fail(toString(std::move(E)));

  if (!FailDB.empty()) {
    Expected<ResultsDB> DB = ResultsDB::open(FailDB);
    if (!DB)
      return fail(toString(DB.takeError()));
    for (const Candidate &C : B.Candidates) {
      if (C.Status == CandidateStatus::Ok ||
          C.Status == CandidateStatus::Duplicate)
        continue;
      Record R{B.Kernel, B.Device.Name, "*", "compile", C.Cfg.key(),
               toString(C.Status).str(), 0, C.Reason};
      if (Error E = DB->append(R))
        return fail(toString(std::move(E)));
    }
  }
  // Every config with --print; otherwise each failure, or, when there are
  // many, one line per distinct message with a count and an example.
  std::vector<const Candidate *> Failed;
  for (const Candidate &C : B.Candidates)
    if (C.Status == CandidateStatus::CompileFailed ||
        C.Status == CandidateStatus::ExceedsResources)
      Failed.push_back(&C);
  auto PrintOne = [](const Candidate &C) {
    outs() << "  " << C.Cfg.key() << ": " << toString(C.Status)
           << (C.Reason.empty() ? "" : ": " + C.Reason)
           << (C.SameAs.empty() ? "" : " (same binary as " + C.SameAs + ")")
           << "\n";
  };
  if (PrintAll) {
    for (const Candidate &C : B.Candidates)
      PrintOne(C);
  } else if (Failed.size() <= 20) {
    for (const Candidate *C : Failed)
      PrintOne(*C);
  } else {
    // Messages name the config's values rarely; group by the message.
    MapVector<StringRef, std::pair<unsigned, const Candidate *>> ByReason;
    for (const Candidate *C : Failed) {
      auto &E = ByReason[C->Reason];
      if (!E.first++)
        E.second = C;
    }
    for (auto &[Reason, E] : ByReason)
      outs() << formatv("  {0} x{1} (e.g. {2}): {3}\n",
                        toString(E.second->Status), E.first,
                        E.second->Cfg.key(), Reason);
  }
  outs() << formatv("compile: {0} configs: {1} pruned before compiling, {2} "
                    "compiled ({3} distinct binaries, {4} duplicates), {5} "
                    "failed to compile, {6} exceed resources -> {7} "
                    "candidates in {8}\n",
                    B.Candidates.size(), B.count(CandidateStatus::Pruned),
                    ToCompile.size(),
                    B.count(CandidateStatus::Ok) +
                        B.count(CandidateStatus::ExceedsResources),
                    B.count(CandidateStatus::Duplicate),
                    B.count(CandidateStatus::CompileFailed),
                    B.count(CandidateStatus::ExceedsResources),
                    B.count(CandidateStatus::Ok), OutDir);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // The subcommands have the options; LLVM's own stay out of --help.
  cl::OptionCategory TopLevel("tle-tune");
  cl::HideUnrelatedOptions(TopLevel);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tle-tune: autotune a kernel over real shapes (docs/tune.md)\n");
  if (SpaceCmd)
    return runSpace();
  if (CompileCmd)
    return runCompile();
  // `run` measures on the bundle's device through its plugin's runtime
  // (e.g. cpu-spirv on PoCL here); the host outlives every device it opens.
  plugins::PluginHost Host;
  for (const std::string &Dir : plugins::getDefaultPluginSearchPath())
    Host.addDirectory(Dir, /*MustExist=*/false);
  int RC = tunetool::runSharedCommand(
      [&](const CandidateBundle &B) { return runtime::openDevice(B.Device.Name, Host); });
  if (RC >= 0)
    return RC;
  errs() << "tle-tune: error: name a subcommand: space, compile, run, "
            "compare, report, pick (--help)\n";
  return 1;
}
