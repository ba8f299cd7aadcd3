//===- CandidateBundle.cpp - Compiled candidates of a config space --------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/CandidateBundle.h"

#include "core/runtime/Runtime.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tle {
namespace tune {

StringRef toString(CandidateStatus S) {
  switch (S) {
  case CandidateStatus::Ok:
    return "ok";
  case CandidateStatus::Pruned:
    return "pruned";
  case CandidateStatus::CompileFailed:
    return "compile-failed";
  case CandidateStatus::ExceedsResources:
    return "exceeds-resources";
  case CandidateStatus::Duplicate:
    return "duplicate";
  }
  return "?";
}

std::optional<CandidateStatus> parseCandidateStatus(StringRef S) {
  for (CandidateStatus C :
       {CandidateStatus::Ok, CandidateStatus::Pruned,
        CandidateStatus::CompileFailed, CandidateStatus::ExceedsResources,
        CandidateStatus::Duplicate})
    if (toString(C) == S)
      return C;
  return std::nullopt;
}

std::vector<size_t> CandidateBundle::okCandidates() const {
  std::vector<size_t> Out;
  for (size_t I = 0; I < Candidates.size(); ++I)
    if (Candidates[I].Status == CandidateStatus::Ok)
      Out.push_back(I);
  return Out;
}

size_t CandidateBundle::count(CandidateStatus S) const {
  return llvm::count_if(Candidates,
                        [&](const Candidate &C) { return C.Status == S; });
}

int CandidateBundle::findOk(StringRef Key) const {
  for (size_t I = 0; I < Candidates.size(); ++I)
    if (Candidates[I].Status == CandidateStatus::Ok &&
        Candidates[I].Cfg.key() == Key)
      return static_cast<int>(I);
  return -1;
}

json::Value CandidateBundle::toJSON() const {
  json::Array Ax;
  for (const Axis &A : Axes) {
    json::Array Vals;
    for (int64_t V : A.Values)
      Vals.push_back(V);
    Ax.push_back(json::Object{{"name", A.Name}, {"values", std::move(Vals)}});
  }
  json::Array Cands;
  for (const Candidate &C : Candidates) {
    json::Object O{{"config", C.Cfg.key()},
                   {"status", toString(C.Status)}};
    if (!C.Reason.empty())
      O["reason"] = C.Reason;
    if (!C.File.empty()) {
      O["file"] = C.File;
      O["entry"] = C.Entry;
      O["hash"] = C.Hash;
    }
    if (!C.SameAs.empty())
      O["same_binary_as"] = C.SameAs;
    if (C.Threads)
      O["threads"] = C.Threads;
    if (C.Registers || C.SharedBytes || C.SpillBytes) {
      O["registers"] = C.Registers;
      O["spill_bytes"] = C.SpillBytes;
      O["shared_bytes"] = C.SharedBytes;
      O["dynamic_shared_bytes"] = C.DynamicShared;
    }
    if (C.GlobalScratch)
      O["global_scratch_bytes"] = C.GlobalScratch;
    runtime::writeLaunchTensorMaps(O, C.TensorMaps);
    Cands.push_back(std::move(O));
  }
  json::Object Counts;
  for (CandidateStatus S :
       {CandidateStatus::Ok, CandidateStatus::Pruned,
        CandidateStatus::CompileFailed, CandidateStatus::ExceedsResources,
        CandidateStatus::Duplicate})
    Counts[toString(S)] = static_cast<int64_t>(count(S));
  return json::Object{{"format", "tle-tune-candidates"},
                      {"version", 1},
                      {"kernel", Kernel},
                      {"device", Device.toJSON()},
                      {"model", modelToJSON(Model)},
                      {"launch", Launch.toJSON()},
                      {"axes", std::move(Ax)},
                      {"counts", std::move(Counts)},
                      {"candidates", std::move(Cands)}};
}

Expected<CandidateBundle> CandidateBundle::fromJSON(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O || O->getString("format") != StringRef("tle-tune-candidates"))
    return createStringError("not a tle-tune candidate index");
  if (O->getInteger("version") != 1)
    return createStringError("candidate index: unsupported version");
  CandidateBundle B;
  if (std::optional<StringRef> K = O->getString("kernel"))
    B.Kernel = K->str();
  const json::Value *Dev = O->get("device");
  const json::Value *Model = O->get("model");
  const json::Value *Launch = O->get("launch");
  if (!Dev || !Model || !Launch)
    return createStringError(
        "candidate index: 'device', 'model' and 'launch' are required");
  Expected<DeviceFacts> D = DeviceFacts::fromJSON(*Dev);
  if (!D)
    return D.takeError();
  B.Device = std::move(*D);
  Expected<KernelModel> M = modelFromJSON(*Model);
  if (!M)
    return M.takeError();
  B.Model = std::move(*M);
  Expected<LaunchSpec> L = LaunchSpec::fromJSON(*Launch);
  if (!L)
    return L.takeError();
  B.Launch = std::move(*L);
  if (const json::Array *Ax = O->getArray("axes"))
    for (const json::Value &AV : *Ax) {
      const json::Object *AO = AV.getAsObject();
      if (!AO || !AO->getString("name") || !AO->getArray("values"))
        return createStringError("candidate index: bad axis");
      Axis A{AO->getString("name")->str(), {}};
      for (const json::Value &I : *AO->getArray("values"))
        A.Values.push_back(I.getAsInteger().value_or(0));
      B.Axes.push_back(std::move(A));
    }
  const json::Array *Cands = O->getArray("candidates");
  if (!Cands)
    return createStringError("candidate index: 'candidates' is required");
  for (const json::Value &CV : *Cands) {
    const json::Object *CO = CV.getAsObject();
    if (!CO || !CO->getString("config") || !CO->getString("status"))
      return createStringError(
          "candidate index: a candidate needs 'config' and 'status'");
    Expected<Config> Cfg = Config::parseKey(*CO->getString("config"));
    if (!Cfg)
      return Cfg.takeError();
    std::optional<CandidateStatus> St =
        parseCandidateStatus(*CO->getString("status"));
    if (!St)
      return createStringError(formatv("candidate index: unknown status '{0}'",
                                       *CO->getString("status"))
                                   .str());
    Candidate C;
    C.Cfg = std::move(*Cfg);
    C.Status = *St;
    auto Str = [&](StringRef K) {
      return CO->getString(K).value_or("").str();
    };
    auto Int = [&](StringRef K) { return CO->getInteger(K).value_or(0); };
    C.Reason = Str("reason");
    C.File = Str("file");
    C.Entry = Str("entry");
    C.Hash = Str("hash");
    C.SameAs = Str("same_binary_as");
    C.Threads = Int("threads");
    C.Registers = Int("registers");
    C.SpillBytes = Int("spill_bytes");
    C.SharedBytes = Int("shared_bytes");
    C.DynamicShared = Int("dynamic_shared_bytes");
    C.GlobalScratch = Int("global_scratch_bytes");
    Expected<std::vector<backend::LaunchTensorMap>> Maps =
        runtime::readLaunchTensorMaps(*CO);
    if (!Maps)
      return createStringError("candidate index: " +
                               toString(Maps.takeError()));
    C.TensorMaps = std::move(*Maps);
    if (C.Status == CandidateStatus::Ok && (C.File.empty() || C.Entry.empty()))
      return createStringError(formatv("candidate index: ok candidate '{0}' "
                                       "has no file or entry",
                                       C.Cfg.key())
                                   .str());
    B.Candidates.push_back(std::move(C));
  }
  return B;
}

Expected<CandidateBundle> CandidateBundle::load(StringRef Dir) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, "index.json");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(formatv("cannot read '{0}': {1}", Path,
                                     Buf.getError().message())
                                 .str());
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return createStringError(
        formatv("'{0}': {1}", Path, toString(V.takeError())).str());
  Expected<CandidateBundle> B = fromJSON(*V);
  if (!B)
    return createStringError(
        formatv("'{0}': {1}", Path, toString(B.takeError())).str());
  B->Dir = Dir.str();
  return B;
}

Error CandidateBundle::save(StringRef Dir) const {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError(
        formatv("cannot create '{0}': {1}", Dir, EC.message()).str());
  SmallString<256> Path(Dir), Tmp;
  sys::path::append(Path, "index.json");
  Tmp = Path;
  Tmp += ".tmp";
  {
    std::error_code EC;
    raw_fd_ostream OS(Tmp, EC);
    if (EC)
      return createStringError(
          formatv("cannot write '{0}': {1}", Tmp, EC.message()).str());
    OS << formatv("{0:2}", toJSON()) << "\n";
    OS.close();
    if (OS.has_error()) {
      std::error_code WEC = OS.error();
      OS.clear_error();
      sys::fs::remove(Tmp);
      return createStringError(
          formatv("cannot write '{0}': {1}", Tmp, WEC.message()).str());
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Path))
    return createStringError(
        formatv("cannot write '{0}': {1}", Path, EC.message()).str());
  return Error::success();
}

} // namespace tune
} // namespace tle
