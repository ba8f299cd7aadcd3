//===- HwDesc.h - Hardware description model and queries --------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The hardware description is how the vendor-neutral core learns a chip: the
// parallel hierarchy, the memory levels that TLE-Struct names resolve to, the
// matrix instructions, limits and toolchain features. Later passes read their
// parameters from here instead of hard-coding them.
//
// This header is deliberately plain C++ plus LLVM ADT/Support: no MLIR and no
// yaml-cpp, so that plugins and tools can include it cheaply and so that the
// exception-enabled YAML parser stays confined to one translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_HWDESC_HWDESC_H
#define TLE_CORE_HWDESC_HWDESC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tle {
namespace hwdesc {

struct Node;

/// A problem found while loading a description. Rendered as
/// `FILE:LINE:COL: error: KEY.PATH: message (expected ...)`.
struct Diagnostic {
  std::string File;
  unsigned Line = 0;
  unsigned Col = 0;
  /// Dotted key path, e.g. `memory.levels[1].size`; empty for YAML syntax
  /// errors and file-level problems.
  std::string Path;
  std::string Message;
  /// What would have been accepted; empty when there is nothing useful to say.
  std::string Expected;

  std::string str() const;
};

/// The canonical TLE levels that kernels name. Parallel levels and memory
/// levels of a chip are mapped onto these.
enum class LevelKind { Grid, Cluster, Block, Warp, Thread };
enum class MemoryScope { Device, Cluster, Block, Thread };
enum class MemoryKind { Global, Cache, Shared, Scratchpad, Registers };
/// Which group of threads issues a matrix instruction collectively.
enum class IssueLevel { Thread, Warp, Warpgroup, Wavefront, Subgroup };

llvm::StringRef toString(LevelKind K);
llvm::StringRef toString(MemoryScope S);
llvm::StringRef toString(MemoryKind K);
llvm::StringRef toString(IssueLevel L);

struct ParallelLevel {
  std::string Name;
  LevelKind Kind = LevelKind::Thread;
  /// Fixed number of threads in one instance (warp: 32); 0 if not fixed.
  int64_t Size = 0;
  /// Upper bound on threads in one instance (block: 1024); 0 if unbounded.
  int64_t MaxThreads = 0;
  /// Cluster only: blocks per cluster, portable and non-portable maxima.
  int64_t MaxBlocks = 0;
  int64_t MaxBlocksNonPortable = 0;
  /// Per-dimension maxima (x, y, z); empty if not given.
  std::vector<int64_t> MaxDims;
  /// Instances resident on one processor (SM/CU/core) at once; 0 if unknown.
  int64_t MaxResident = 0;
};

struct MemoryLevel {
  std::string Name;
  MemoryScope Scope = MemoryScope::Device;
  MemoryKind Kind = MemoryKind::Global;
  /// Capacity of one instance in bytes (per SM for shared memory).
  uint64_t Size = 0;
  /// Bytes per second; 0 if unknown.
  double Bandwidth = 0;
  /// Load latency in cycles; 0 if unknown.
  int64_t LatencyCycles = 0;
  int64_t Banks = 0;
  /// Bytes per bank; 0 if unknown.
  uint64_t BankWidth = 0;
  /// The backend's address space number; -1 if not given.
  int64_t AddressSpace = -1;
  /// Required alignment of a buffer in bytes; 0 if unknown.
  uint64_t Alignment = 0;
  bool SoftwareManaged = false;
};

struct MatrixInstruction {
  std::string Name;
  int64_t M = 0, N = 0, K = 0;
  std::string AType, BType, AccType;
  IssueLevel Level = IssueLevel::Warp;
};

struct ComputeInfo {
  /// Maximum (boost) clock of the processors, in Hz.
  double Clock = 0;
  /// Base clock in Hz; 0 if unknown.
  double BaseClock = 0;
  /// Dense peak rates in operations per second, keyed by dtype.
  llvm::StringMap<double> MatrixRates;
  llvm::StringMap<double> VectorRates;
  std::vector<MatrixInstruction> MatrixInstructions;
  /// Widest vector memory access of one thread, in bytes; 0 if unknown.
  uint64_t VectorWidth = 0;
  /// Special-function units per processor; 0 if unknown.
  int64_t SfuPerProcessor = 0;
};

struct Limits {
  int64_t RegistersPerThread = 0;
  int64_t RegistersPerBlock = 0;
  int64_t RegistersPerProcessor = 0;
  /// Shared memory (or scratchpad) a block gets without opting in, in bytes.
  uint64_t SharedPerBlock = 0;
  /// Shared memory a block may opt in to; equals SharedPerBlock if not given.
  uint64_t SharedPerBlockOptin = 0;
  /// Shared memory of one processor; 0 if unknown.
  uint64_t SharedPerProcessor = 0;
};

struct Toolchain {
  std::string IsaVersion;
  std::string Triple;
  std::vector<std::string> Features;
};

/// Where one TLE level lands on this chip.
struct TleMapping {
  LevelKind Level;
  const ParallelLevel *Parallel = nullptr;
  const MemoryLevel *Memory = nullptr;
  /// The alias that selected Memory, if any.
  std::string ViaAlias;
};

/// A fully resolved (extends applied) and validated hardware description.
class HwDesc {
public:
  HwDesc();
  ~HwDesc();
  HwDesc(HwDesc &&);
  HwDesc &operator=(HwDesc &&);

  // Identity.
  std::string Name, Vendor, Backend, Arch, Description;
  /// The file this description was loaded from.
  std::string SourceFile;

  // Parallel hierarchy, outermost first.
  std::vector<ParallelLevel> ParallelLevels;
  int64_t WarpSize = 0;
  std::vector<int64_t> SubgroupSizes;
  int64_t ProcessorCount = 0;
  std::string ProcessorName;

  // Memory hierarchy, outermost first, and TLE-Struct aliases.
  std::vector<MemoryLevel> MemoryLevels;
  llvm::StringMap<std::string> MemoryAliases;

  ComputeInfo Compute;
  Limits Lim;
  Toolchain Tools;
  std::vector<std::string> RawLanguages;

  /// The memory level that `local_buffer(level=Name)` resolves to: a level
  /// of that name, or the target of an alias of that name. Null if neither.
  const MemoryLevel *getMemoryLevel(llvm::StringRef Name) const;
  const ParallelLevel *getParallelLevel(LevelKind Kind) const;
  const ParallelLevel *getParallelLevel(llvm::StringRef Name) const;
  /// Matrix instructions whose A and B operands have the given dtypes (B
  /// defaults to A) and, if AccType is non-empty, that accumulate in it.
  std::vector<const MatrixInstruction *>
  getMatrixInstructions(llvm::StringRef AType, llvm::StringRef BType = "",
                        llvm::StringRef AccType = "") const;
  int64_t getWarpSize() const { return WarpSize; }
  const Limits &getLimits() const { return Lim; }
  bool hasFeature(llvm::StringRef Feature) const;
  bool acceptsRawLanguage(llvm::StringRef Language) const;
  /// Where each of grid/device, cluster, block, warp and thread lands.
  std::vector<TleMapping> getTleMapping() const;

  /// Prints the resolved description as an indented tree with canonical
  /// values next to the written ones.
  void printTree(llvm::raw_ostream &OS) const;
  /// One `key.path = value` entry per scalar; list elements that have a
  /// `name` are keyed by it so that diffs line up across chips.
  std::vector<std::pair<std::string, std::string>> flatten() const;
  /// Prints an annotated YAML scaffold with this description's values.
  void printScaffold(llvm::raw_ostream &OS) const;

private:
  friend struct Builder;
  /// The merged tree, kept for printing, flattening and scaffolding.
  std::shared_ptr<const Node> Tree;
};

struct LoadOptions {
  /// Directories searched for `extends: NAME` after the including file's own
  /// directory.
  std::vector<std::string> SearchPath;
  /// Accept descriptions marked `abstract: true` (family bases). They are
  /// checked for keys and types only; required keys and consistency are left
  /// to the chips that extend them.
  bool AllowAbstract = false;
};

/// Loads, resolves and validates a description. Returns null and appends
/// every problem found to Diags on failure. A valid abstract description
/// (allowed by Opts) also yields null, with no diagnostics, since it is not a
/// chip. Never throws.
std::unique_ptr<HwDesc> loadFile(llvm::StringRef Path, const LoadOptions &Opts,
                                 std::vector<Diagnostic> &Diags);
/// As loadFile, for text already in memory; BufferName is used in messages
/// and its directory for relative `extends`.
std::unique_ptr<HwDesc> loadBuffer(llvm::StringRef Buffer,
                                   llvm::StringRef BufferName,
                                   const LoadOptions &Opts,
                                   std::vector<Diagnostic> &Diags);

/// The search path for descriptions: $TLE_HWDESC_PATH (colon-separated), the
/// source tree's hwdesc/ (development builds) and <prefix>/share/tle/hwdesc.
std::vector<std::string> getDefaultSearchPath();
/// Finds the file of a target given by name (`H200`, `h200`, `mi300x`,
/// `H100 SXM`) or by path. Returns std::nullopt if none is found.
std::optional<std::string> findTarget(llvm::StringRef NameOrPath,
                                      llvm::ArrayRef<std::string> SearchPath);

/// Prints the schema as a Markdown table (one row per key); SCHEMA.md embeds
/// this output and a test checks that the two agree.
void printSchemaMarkdown(llvm::raw_ostream &OS);

} // namespace hwdesc
} // namespace tle

#endif // TLE_CORE_HWDESC_HWDESC_H
