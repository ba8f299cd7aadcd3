//===- Features.cpp - What the cost model sees of a candidate -------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/Features.h"
#include "core/tune/Expr.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace tle {
namespace tune {

ShapeWork evalWork(const LaunchSpec &L, const Shape &S) {
  NameLookup Lookup = [&](StringRef N) { return S.get(N); };
  ShapeWork W;
  if (Expected<int64_t> F = evalExpr(L.Flops, Lookup))
    W.Flops = static_cast<double>(*F);
  else
    consumeError(F.takeError());
  if (Expected<int64_t> B = evalExpr(L.Bytes, Lookup))
    W.Bytes = static_cast<double>(*B);
  else
    consumeError(B.takeError());
  return W;
}

double rooflineSeconds(const ShapeWork &W, const DeviceFacts &D) {
  double T = 0;
  if (D.PeakMatrixFlops > 0)
    T = std::max(T, W.Flops / D.PeakMatrixFlops);
  if (D.MemoryBandwidth > 0)
    T = std::max(T, W.Bytes / D.MemoryBandwidth);
  return std::max(T, 1e-9);
}

const std::vector<std::string> &featureNames() {
  static const std::vector<std::string> Names = {
      "log2_m",          "log2_n",          "log2_k",
      "log2_block_m",    "log2_block_n",    "log2_block_k",
      "log2_group_m",    "num_warps",       "num_stages",
      "log10_flops",     "log2_intensity_over_ridge",
      "log2_roofline_us", "log2_tiles",     "waves",
      "wave_efficiency", "padding_efficiency", "blocks_per_processor",
      "warps_per_processor", "registers",   "shared_kib",
      "spill_bytes",     "log2_k_iterations", "log2_tile_intensity",
      "log2_traffic_over_bytes", "m_padding_efficiency",
      "n_padding_efficiency", "log2_tiles_per_processor",
      "log2_active_blocks_per_processor", "log2_a_strip_kib",
      "log2_b_strip_kib", "log2_critical_path_over_roofline",
      "log2_memory_over_roofline", "log2_analytic_over_roofline"};
  return Names;
}

namespace {

/// The quantities both the features and the analytic estimate use.
struct TileFacts {
  double M = 1, N = 1, K = 1, BM = 1, BN = 1, BK = 1, GM = 1;
  double Tiles = 1, Waves = 1, WaveEff = 1, PadEff = 1, Occ = 1;
  double Registers = 0, Shared = 0, Spills = 0, KIters = 1, Traffic = 0;
};

TileFacts tileFacts(const Shape &S, const ShapeWork &W, const Candidate &C,
                    const KernelModel &Model, const DeviceFacts &D) {
  TileFacts T;
  const Config &Cfg = C.Cfg;
  auto Dim = [&](size_t I) {
    return I < S.Dims.size() ? static_cast<double>(S.Dims[I].second) : 1.0;
  };
  T.M = Dim(0);
  T.N = Dim(1);
  T.K = Dim(2);
  T.BM = static_cast<double>(Cfg.get(Model.BlockM).value_or(1));
  T.BN = static_cast<double>(Cfg.get(Model.BlockN).value_or(1));
  T.BK = static_cast<double>(Cfg.get(Model.BlockK).value_or(1));
  T.GM = static_cast<double>(Cfg.get(Model.GroupM).value_or(1));
  double TM = std::ceil(T.M / T.BM), TN = std::ceil(T.N / T.BN);
  T.KIters = std::ceil(T.K / T.BK);
  T.Tiles = TM * TN;
  ResourceEstimate R = estimateResources(Cfg, Model, D);
  T.Registers = C.Registers ? C.Registers : R.RegistersPerThread;
  T.Shared = C.Registers ? C.SharedBytes : R.SharedBytes;
  T.Spills = C.SpillBytes;
  int64_t Threads = C.Threads ? C.Threads : R.Threads;
  T.Occ = static_cast<double>(estimateOccupancy(
      Threads, static_cast<int64_t>(T.Registers),
      static_cast<int64_t>(T.Shared), D));
  double Slots = std::max<double>(1, D.ProcessorCount) * T.Occ;
  T.Waves = T.Tiles / Slots;
  T.WaveEff = T.Tiles / (std::ceil(T.Waves) * Slots);
  T.PadEff = (T.M * T.N * T.K) / (TM * T.BM * TN * T.BN * T.KIters * T.BK);
  // Each tile reads a BM x K strip of A and a K x BN strip of B; grouping
  // GROUP_SIZE_M rows of tiles lets a group share B's strips in the L2, so
  // B is read about once per group rather than once per row of tiles.
  double EB = Model.ElementBytes;
  double ReadsA = T.M * T.K * TN, ReadsB = T.K * T.N * TM / std::max(1.0, std::min(T.GM, TM));
  T.Traffic = (ReadsA + ReadsB + T.M * T.N) * EB;
  (void)W;
  return T;
}

double analytic(const TileFacts &T, const ShapeWork &W, const Candidate &C,
                const DeviceFacts &D) {
  double SMs = std::max<double>(1, D.ProcessorCount);
  double PerSM = D.PeakMatrixFlops > 0 ? D.PeakMatrixFlops / SMs : 1e12;
  // Utilization of an SM's matrix units grows with the warps resident on it
  // (latency hiding) and with the tile (operand reuse per byte loaded).
  double Warps = T.Occ * static_cast<double>(C.Cfg.NumWarps);
  double Util = std::min(1.0, Warps / 16.0) *
                std::min(1.0, std::sqrt(T.BM * T.BN / (128.0 * 128.0))) *
                std::min(1.0, T.BK / 32.0);
  Util = std::max(Util, 0.02);
  double TileFlops = 2 * T.BM * T.BN * T.KIters * T.BK;
  double Compute = std::ceil(T.Waves) * T.Occ * TileFlops / (PerSM * Util);
  double Memory = D.MemoryBandwidth > 0 ? T.Traffic / D.MemoryBandwidth : 0;
  double Spill = T.Spills > 0 ? 1.3 : 1.0;
  (void)W;
  return (std::max(Compute, Memory) + 4e-6) * Spill;
}

} // namespace

double analyticSeconds(const Shape &S, const ShapeWork &W, const Candidate &C,
                       const KernelModel &Model, const DeviceFacts &D) {
  return analytic(tileFacts(S, W, C, Model, D), W, C, D);
}

std::vector<float> computeFeatures(const Shape &S, const ShapeWork &W,
                                   const Candidate &C,
                                   const KernelModel &Model,
                                   const DeviceFacts &D) {
  TileFacts T = tileFacts(S, W, C, Model, D);
  double Roof = rooflineSeconds(W, D);
  double Ridge = D.MemoryBandwidth > 0 && D.PeakMatrixFlops > 0
                     ? D.PeakMatrixFlops / D.MemoryBandwidth
                     : 1;
  double Intensity = W.Bytes > 0 ? W.Flops / W.Bytes : 0;
  auto L2 = [](double V) { return static_cast<float>(std::log2(std::max(V, 1e-12))); };
  double SMs = std::max<double>(1, D.ProcessorCount);
  double EB = Model.ElementBytes;
  std::vector<float> F = {
      L2(T.M), L2(T.N), L2(T.K), L2(T.BM), L2(T.BN), L2(T.BK), L2(T.GM),
      static_cast<float>(C.Cfg.NumWarps), static_cast<float>(C.Cfg.NumStages),
      static_cast<float>(std::log10(std::max(W.Flops, 1.0))),
      L2(Intensity / Ridge), L2(Roof * 1e6), L2(T.Tiles),
      static_cast<float>(T.Waves), static_cast<float>(T.WaveEff),
      static_cast<float>(T.PadEff), static_cast<float>(T.Occ),
      static_cast<float>(T.Occ * C.Cfg.NumWarps),
      static_cast<float>(T.Registers), static_cast<float>(T.Shared / 1024.0),
      static_cast<float>(T.Spills), L2(T.KIters),
      L2(T.BM * T.BN / (T.BM + T.BN)),
      L2(W.Bytes > 0 ? T.Traffic / W.Bytes : 1),
      // Small M: how much of each tile's rows are padding, how many tiles
      // each processor gets (split-k is not in the space, so a skinny
      // matmul's parallelism is its N tiles), how many of them run at once,
      // and the operand strips one tile streams through its k loop.
      static_cast<float>(T.M / (std::ceil(T.M / T.BM) * T.BM)),
      static_cast<float>(T.N / (std::ceil(T.N / T.BN) * T.BN)),
      L2(T.Tiles / SMs), L2(std::min(T.Tiles, SMs * T.Occ) / SMs),
      L2(T.BM * T.KIters * T.BK * EB / 1024), L2(T.BN * T.KIters * T.BK * EB / 1024),
      // The busiest processor's share: its tiles run Occ at a time, each at
      // the rate of one processor, against the whole device's roofline.
      L2(std::ceil(T.Tiles / SMs) * 2 * T.BM * T.BN * T.KIters * T.BK /
         (D.PeakMatrixFlops > 0 ? D.PeakMatrixFlops / SMs : 1e12) / Roof),
      L2(D.MemoryBandwidth > 0 ? T.Traffic / D.MemoryBandwidth / Roof : 1),
      L2(analytic(T, W, C, D) / Roof)};
  return F;
}

} // namespace tune
} // namespace tle
