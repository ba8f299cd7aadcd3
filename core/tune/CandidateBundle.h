//===- CandidateBundle.h - Compiled candidates of a config space -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The candidate bundle is what `tle-tune compile` writes on the development
// machine (which has LLVM 22 and tlec) and what the measuring binary reads on
// the device (which has neither): a directory with index.json and one binary
// per distinct compiled candidate. The index records every config of the
// enlarged space with its fate -- pruned before compiling (and why), failed
// to compile (tlec's message), exceeds the device's resources after
// compiling (the assembler's numbers), the same binary as another config, or
// ok -- plus the device facts, the resource model and the launch spec.
// docs/tune.md describes the format.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_CANDIDATEBUNDLE_H
#define TLE_CORE_TUNE_CANDIDATEBUNDLE_H

#include "core/tune/ConfigSpace.h"
#include "core/tune/TuneSpec.h"

#include "tle/Backend/Runtime.h"

#include <string>
#include <vector>

namespace tle {
namespace tune {

/// The fate of one config; only Ok candidates are measured.
enum class CandidateStatus { Ok, Pruned, CompileFailed, ExceedsResources,
                             Duplicate };
llvm::StringRef toString(CandidateStatus S);
std::optional<CandidateStatus> parseCandidateStatus(llvm::StringRef S);

struct Candidate {
  Config Cfg;
  CandidateStatus Status = CandidateStatus::Ok;
  /// Why it is not Ok (prune reason, compiler message, resource excess).
  std::string Reason;
  /// Binary file name inside the bundle (Ok candidates).
  std::string File;
  /// Entry point in the binary.
  std::string Entry;
  /// Content hash of the binary (hex), to spot identical binaries.
  std::string Hash;
  /// Duplicate: the config key whose binary this config shares.
  std::string SameAs;
  int64_t Threads = 0;
  /// What the assembler reported, 0 when unknown.
  int64_t Registers = 0;
  int64_t SpillBytes = 0;
  /// Static plus dynamic shared memory; DynamicShared is what the launch
  /// must ask for.
  int64_t SharedBytes = 0;
  int64_t DynamicShared = 0;
  /// Global memory per program the launch passes after the arguments.
  int64_t GlobalScratch = 0;
  /// Tensor maps the launch builds from the arguments (the manifest's
  /// tensor_maps).
  std::vector<backend::LaunchTensorMap> TensorMaps;
};

struct CandidateBundle {
  std::string Kernel;
  DeviceFacts Device;
  KernelModel Model;
  LaunchSpec Launch;
  std::vector<Axis> Axes;
  std::vector<Candidate> Candidates;
  /// Where the bundle was loaded from (binaries are relative to it).
  std::string Dir;

  /// Indices of the Ok candidates, in index order.
  std::vector<size_t> okCandidates() const;
  /// Counts by status.
  size_t count(CandidateStatus S) const;
  /// The Ok candidate with this config key, or -1.
  int findOk(llvm::StringRef Key) const;

  llvm::json::Value toJSON() const;
  static llvm::Expected<CandidateBundle> fromJSON(const llvm::json::Value &V);
  /// Reads Dir/index.json.
  static llvm::Expected<CandidateBundle> load(llvm::StringRef Dir);
  /// Writes Dir/index.json (through a temporary file and a rename).
  llvm::Error save(llvm::StringRef Dir) const;
};

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_CANDIDATEBUNDLE_H
