//===- ConfigSpace.cpp - Tuning configs, their space and pruning ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/ConfigSpace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <set>

using namespace llvm;

namespace tle {
namespace tune {

std::optional<int64_t> Config::get(StringRef Name) const {
  if (Name == "num_warps")
    return NumWarps;
  if (Name == "num_stages")
    return NumStages;
  for (const auto &[N, V] : Params)
    if (N == Name)
      return V;
  return std::nullopt;
}

void Config::set(StringRef Name, int64_t Value) {
  if (Name == "num_warps") {
    NumWarps = Value;
    return;
  }
  if (Name == "num_stages") {
    NumStages = Value;
    return;
  }
  for (auto &[N, V] : Params)
    if (N == Name) {
      V = Value;
      return;
    }
  Params.emplace_back(Name.str(), Value);
}

std::string Config::key() const {
  std::string S;
  for (const auto &[N, V] : Params)
    S += N + "=" + std::to_string(V) + ",";
  S += "num_warps=" + std::to_string(NumWarps) +
       ",num_stages=" + std::to_string(NumStages);
  return S;
}

/// NAME=INT,NAME=INT,... into pairs; What names the thing for errors.
static Expected<std::vector<std::pair<std::string, int64_t>>>
parsePairs(StringRef Key, StringRef What) {
  std::vector<std::pair<std::string, int64_t>> Out;
  SmallVector<StringRef, 8> Parts;
  Key.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts) {
    auto [N, V] = P.trim().split('=');
    int64_t I = 0;
    if (N.trim().empty() || V.trim().getAsInteger(10, I))
      return createStringError(formatv("{0} '{1}': expected NAME=INTEGER "
                                       "pairs separated by commas, got '{2}'",
                                       What, Key, P)
                                   .str());
    Out.emplace_back(N.trim().str(), I);
  }
  if (Out.empty())
    return createStringError(formatv("{0} '{1}' is empty", What, Key).str());
  return Out;
}

Expected<Config> Config::parseKey(StringRef Key) {
  auto Pairs = parsePairs(Key, "config");
  if (!Pairs)
    return Pairs.takeError();
  Config C;
  for (auto &[N, V] : *Pairs)
    C.set(N, V);
  return C;
}

std::optional<int64_t> Shape::get(StringRef Name) const {
  for (const auto &[N, V] : Dims)
    if (N == Name)
      return V;
  return std::nullopt;
}

std::string Shape::key() const {
  std::string S;
  for (const auto &[N, V] : Dims)
    S += (S.empty() ? "" : ",") + N + "=" + std::to_string(V);
  return S;
}

Expected<Shape> Shape::parseKey(StringRef Key) {
  auto Pairs = parsePairs(Key, "shape");
  if (!Pairs)
    return Pairs.takeError();
  for (auto &[N, V] : *Pairs)
    if (V <= 0)
      return createStringError(
          formatv("shape '{0}': {1} must be positive", Key, N).str());
  Shape S;
  S.Dims = std::move(*Pairs);
  return S;
}

json::Value DeviceFacts::toJSON() const {
  return json::Object{
      {"name", Name},
      {"processor_count", ProcessorCount},
      {"warp_size", WarpSize},
      {"max_threads_per_block", MaxThreadsPerBlock},
      {"max_blocks_per_processor", MaxBlocksPerProcessor},
      {"max_warps_per_processor", MaxWarpsPerProcessor},
      {"registers_per_thread", RegistersPerThread},
      {"registers_per_block", RegistersPerBlock},
      {"registers_per_processor", RegistersPerProcessor},
      {"shared_per_block_optin", SharedPerBlockOptin},
      {"shared_per_processor", SharedPerProcessor},
      {"peak_matrix_flops", PeakMatrixFlops},
      {"memory_bandwidth", MemoryBandwidth},
      {"matrix_operands_in_block_memory", MatrixOperandsInBlockMemory}};
}

Expected<DeviceFacts> DeviceFacts::fromJSON(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return createStringError("device facts: expected an object");
  DeviceFacts D;
  std::string Missing;
  auto Int = [&](StringRef Key, int64_t &Out) {
    if (std::optional<int64_t> I = O->getInteger(Key))
      Out = *I;
    else
      Missing += " " + Key.str();
  };
  auto Num = [&](StringRef Key, double &Out) {
    if (std::optional<double> N = O->getNumber(Key))
      Out = *N;
    else
      Missing += " " + Key.str();
  };
  if (std::optional<StringRef> N = O->getString("name"))
    D.Name = N->str();
  else
    Missing += " name";
  Int("processor_count", D.ProcessorCount);
  Int("warp_size", D.WarpSize);
  Int("max_threads_per_block", D.MaxThreadsPerBlock);
  Int("max_blocks_per_processor", D.MaxBlocksPerProcessor);
  Int("max_warps_per_processor", D.MaxWarpsPerProcessor);
  Int("registers_per_thread", D.RegistersPerThread);
  Int("registers_per_block", D.RegistersPerBlock);
  Int("registers_per_processor", D.RegistersPerProcessor);
  Int("shared_per_block_optin", D.SharedPerBlockOptin);
  Int("shared_per_processor", D.SharedPerProcessor);
  Num("peak_matrix_flops", D.PeakMatrixFlops);
  Num("memory_bandwidth", D.MemoryBandwidth);
  if (std::optional<bool> B = O->getBoolean("matrix_operands_in_block_memory"))
    D.MatrixOperandsInBlockMemory = *B;
  if (!Missing.empty())
    return createStringError("device facts: missing" + Missing);
  return D;
}

ResourceEstimate estimateResources(const Config &C, const KernelModel &Model,
                                   const DeviceFacts &D) {
  ResourceEstimate R;
  R.Threads = C.NumWarps * D.WarpSize;
  if (Model.Kind != "matmul" || R.Threads <= 0)
    return R;
  int64_t BM = C.get(Model.BlockM).value_or(0);
  int64_t BN = C.get(Model.BlockN).value_or(0);
  int64_t BK = C.get(Model.BlockK).value_or(0);
  int64_t EB = Model.ElementBytes;
  // The fp32 accumulator tile is spread over the block's threads, one
  // register per element; a k-step holds the A and B tiles in registers too
  // (packed, 4 bytes a register) before they become matrix fragments; about
  // 32 more hold addresses, indices and the loop.
  R.RegistersPerThread = (BM * BN) / R.Threads +
                         (BM * BK + BK * BN) * EB / 4 / R.Threads + 32;
  // Shared memory, as a software-pipelined kernel needs it (rings of both
  // operand tiles: num_stages slots where the matrix unit reads them in
  // place, num_stages - 1 where they are read into registers, as Triton
  // sizes them), or the epilogue's conversion of the output tile (padded by
  // 1/16 against bank conflicts), whichever is larger: the two are live at
  // different times and share the space.
  int64_t Stages = std::max<int64_t>(1, C.NumStages);
  int64_t Slots =
      D.MatrixOperandsInBlockMemory ? Stages : std::max<int64_t>(1, Stages - 1);
  int64_t Operands = Slots * (BM * BK + BK * BN) * EB;
  int64_t Epilogue = BM * BN * EB + BM * BN * EB / 16;
  R.SharedBytes = std::max(Operands, Epilogue);
  return R;
}

std::string pruneReason(const Config &C, const KernelModel &Model,
                        const DeviceFacts &D) {
  ResourceEstimate R = estimateResources(C, Model, D);
  if (C.NumWarps <= 0 || C.NumStages <= 0)
    return "num_warps and num_stages must be positive";
  if (R.Threads > D.MaxThreadsPerBlock)
    return formatv("threads: {0} warps x {1} = {2} > {3} per block",
                   C.NumWarps, D.WarpSize, R.Threads, D.MaxThreadsPerBlock);
  if (Model.Kind != "matmul")
    return "";
  for (StringRef P : {Model.BlockM, Model.BlockN, Model.BlockK})
    if (C.get(P).value_or(0) <= 0)
      return formatv("parameter {0} is missing or not positive", P);
  if (R.RegistersPerThread > D.RegistersPerThread)
    return formatv("registers: estimated {0} per thread > {1}",
                   R.RegistersPerThread, D.RegistersPerThread);
  if (R.RegistersPerThread * R.Threads > D.RegistersPerBlock)
    return formatv("registers: estimated {0} per block > {1}",
                   R.RegistersPerThread * R.Threads, D.RegistersPerBlock);
  if (D.SharedPerBlockOptin > 0 && R.SharedBytes > D.SharedPerBlockOptin)
    return formatv("shared memory: estimated {0} bytes > {1} per block",
                   R.SharedBytes, D.SharedPerBlockOptin);
  return "";
}

std::string checkCompiledResources(int64_t Threads, int64_t Registers,
                                   int64_t SharedBytes, const DeviceFacts &D) {
  if (Threads > D.MaxThreadsPerBlock)
    return formatv("threads: {0} > {1} per block", Threads,
                   D.MaxThreadsPerBlock);
  if (Registers > D.RegistersPerThread)
    return formatv("registers: {0} per thread > {1}", Registers,
                   D.RegistersPerThread);
  if (Registers * Threads > D.RegistersPerBlock)
    return formatv("registers: {0} per block > {1}", Registers * Threads,
                   D.RegistersPerBlock);
  if (D.SharedPerBlockOptin > 0 && SharedBytes > D.SharedPerBlockOptin)
    return formatv("shared memory: {0} bytes > {1} per block", SharedBytes,
                   D.SharedPerBlockOptin);
  return "";
}

int64_t estimateOccupancy(int64_t Threads, int64_t Registers,
                          int64_t SharedBytes, const DeviceFacts &D) {
  int64_t Blocks = std::max<int64_t>(1, D.MaxBlocksPerProcessor);
  int64_t Warps = std::max<int64_t>(1, (Threads + D.WarpSize - 1) /
                                           std::max<int64_t>(1, D.WarpSize));
  Blocks = std::min(Blocks, D.MaxWarpsPerProcessor / Warps);
  if (Registers > 0)
    Blocks = std::min(Blocks, D.RegistersPerProcessor / (Registers * Threads));
  if (SharedBytes > 0 && D.SharedPerProcessor > 0)
    Blocks = std::min(Blocks, D.SharedPerProcessor / SharedBytes);
  return std::max<int64_t>(1, Blocks);
}

std::vector<Config> enumerateSpace(ArrayRef<Axis> Axes) {
  std::vector<Config> Out;
  for (const Axis &A : Axes)
    if (A.Values.empty())
      return Out;
  std::vector<size_t> Index(Axes.size(), 0);
  while (true) {
    Config C;
    for (size_t I = 0; I < Axes.size(); ++I)
      C.set(Axes[I].Name, Axes[I].Values[Index[I]]);
    Out.push_back(std::move(C));
    size_t I = Axes.size();
    while (I > 0) {
      --I;
      if (++Index[I] < Axes[I].Values.size())
        break;
      Index[I] = 0;
      if (I == 0)
        return Out;
    }
    if (Axes.empty())
      return Out;
  }
}

std::vector<Axis> mergeAxes(ArrayRef<Axis> Base, ArrayRef<Axis> Extra) {
  std::vector<Axis> Out;
  auto Add = [&](const Axis &A) {
    auto It = llvm::find_if(Out, [&](const Axis &O) { return O.Name == A.Name; });
    if (It == Out.end()) {
      Out.push_back({A.Name, {}});
      It = std::prev(Out.end());
    }
    std::set<int64_t> Values(It->Values.begin(), It->Values.end());
    Values.insert(A.Values.begin(), A.Values.end());
    It->Values.assign(Values.begin(), Values.end());
  };
  for (const Axis &A : Base)
    Add(A);
  for (const Axis &A : Extra)
    Add(A);
  return Out;
}

} // namespace tune
} // namespace tle
