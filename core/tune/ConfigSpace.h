//===- ConfigSpace.h - Tuning configs, their space and pruning --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A config binds a kernel's tunable constexpr parameters (BLOCK_SIZE_M, ...)
// plus num_warps and num_stages. The space is the product of one value list
// per axis: the values of the kernel's own @triton.autotune configs, enlarged
// by the values a tuning spec adds (docs/tune.md, "generator"). Before
// anything is compiled, each config is checked against the device's limits
// (threads per block, registers, shared memory) with a resource estimate of
// the kernel kind; those that cannot fit are pruned with the reason.
//
// DeviceFacts is the part of a hardware description the tuner needs. It is
// written into the candidate bundle so that the measuring binary on a machine
// without the description loader (or LLVM) has the same numbers.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_CONFIGSPACE_H
#define TLE_CORE_TUNE_CONFIGSPACE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tle {
namespace tune {

/// One point of the space. Params are the constexpr parameters in axis
/// order; num_warps and num_stages are kept apart because they are compile
/// options, not -D definitions.
struct Config {
  std::vector<std::pair<std::string, int64_t>> Params;
  int64_t NumWarps = 4;
  int64_t NumStages = 3;

  /// A parameter by name; "num_warps" and "num_stages" included.
  std::optional<int64_t> get(llvm::StringRef Name) const;
  /// Sets a parameter by name (appending it when new).
  void set(llvm::StringRef Name, int64_t Value);
  /// "BLOCK_SIZE_M=128,...,num_warps=4,num_stages=3": the config's name in
  /// bundles and the results database.
  std::string key() const;
  static llvm::Expected<Config> parseKey(llvm::StringRef Key);
  bool operator==(const Config &O) const { return key() == O.key(); }
};

/// One tunable dimension and its values, in increasing order.
struct Axis {
  std::string Name;
  std::vector<int64_t> Values;
};

/// A problem size: named sizes (M, N, K for matmul), in spec order.
struct Shape {
  std::vector<std::pair<std::string, int64_t>> Dims;
  std::optional<int64_t> get(llvm::StringRef Name) const;
  /// "M=4096,N=4096,K=4096".
  std::string key() const;
  static llvm::Expected<Shape> parseKey(llvm::StringRef Key);
};

/// What the tuner needs to know about the device, from its description.
struct DeviceFacts {
  std::string Name;
  int64_t ProcessorCount = 0;
  int64_t WarpSize = 32;
  int64_t MaxThreadsPerBlock = 1024;
  int64_t MaxBlocksPerProcessor = 32;
  int64_t MaxWarpsPerProcessor = 64;
  int64_t RegistersPerThread = 255;
  int64_t RegistersPerBlock = 65536;
  int64_t RegistersPerProcessor = 65536;
  int64_t SharedPerBlockOptin = 0;
  int64_t SharedPerProcessor = 0;
  /// Dense peak of the matrix units for the kernel's input type, FLOP/s.
  double PeakMatrixFlops = 0;
  /// Bytes per second of the device (global) memory.
  double MemoryBandwidth = 0;
  /// Whether the matrix unit reads its operands from block-level memory in
  /// place (a warpgroup-level instruction: wgmma). A pipelined loop then
  /// keeps num_stages operand buffers; a unit fed from registers (mma.sync,
  /// the FMA fallback) needs num_stages - 1, as the slot just read is
  /// refilled. Optional in JSON (default true, the larger estimate).
  bool MatrixOperandsInBlockMemory = true;

  llvm::json::Value toJSON() const;
  static llvm::Expected<DeviceFacts> fromJSON(const llvm::json::Value &V);
};

/// How a kernel uses its parameters, for the resource estimate and the
/// features: which constexpr is the M/N/K tile and the group size, and the
/// size in bytes of an input element. Kind "matmul" is the only kind with a
/// resource model today; other kinds are pruned on threads only.
struct KernelModel {
  std::string Kind;
  std::string BlockM, BlockN, BlockK, GroupM;
  int64_t ElementBytes = 2;
};

/// The estimate of one config's needs, before compiling.
struct ResourceEstimate {
  int64_t Threads = 0;
  int64_t RegistersPerThread = 0;
  int64_t SharedBytes = 0;
};

ResourceEstimate estimateResources(const Config &C, const KernelModel &Model,
                                   const DeviceFacts &D);

/// Why a config cannot run on the device, or empty when it can.
std::string pruneReason(const Config &C, const KernelModel &Model,
                        const DeviceFacts &D);

/// Why a compiled binary cannot run, from what the assembler reported
/// (registers per thread, shared memory), or empty.
std::string checkCompiledResources(int64_t Threads, int64_t Registers,
                                   int64_t SharedBytes, const DeviceFacts &D);

/// Blocks of one config resident on one processor at once (at least 1 when
/// the config fits at all), from registers, shared memory, warps and the
/// block limit.
int64_t estimateOccupancy(int64_t Threads, int64_t Registers,
                          int64_t SharedBytes, const DeviceFacts &D);

/// The product of the axes' values, in lexicographic order (last axis
/// fastest). Axes named num_warps/num_stages set those fields.
std::vector<Config> enumerateSpace(llvm::ArrayRef<Axis> Axes);

/// Merges value lists: the axis values of Base (e.g. from @triton.autotune)
/// and Extra (the generator), sorted, without duplicates; axes of either.
std::vector<Axis> mergeAxes(llvm::ArrayRef<Axis> Base,
                            llvm::ArrayRef<Axis> Extra);

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_CONFIGSPACE_H
