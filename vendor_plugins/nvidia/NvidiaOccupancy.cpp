//===- NvidiaOccupancy.cpp - Blocks resident on one SM --------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaOccupancy.h"
#include "NvidiaArch.h"

#include "core/hwdesc/HwDesc.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;
using namespace tle;

// Allocation rules of sm_70 and later (CUDA's occupancy calculator): an SM's
// registers are split between four sub-partitions, each warp lives in one
// and takes its registers in units of 256; shared memory goes in units of
// 128 bytes, and from sm_80 on the driver reserves 1 KiB per block.
static constexpr uint64_t SubPartitions = 4;
static constexpr uint64_t RegisterUnitPerWarp = 256;
static constexpr uint64_t SharedUnit = 128;
static constexpr uint64_t ReservedSharedPerBlock = 1024;

static uint64_t getWarpSize(const hwdesc::HwDesc &Desc) {
  return std::max<int64_t>(1, Desc.getWarpSize());
}

static uint64_t getWarps(const hwdesc::HwDesc &Desc, unsigned Threads) {
  return std::max<uint64_t>(1, divideCeil(Threads, getWarpSize(Desc)));
}

unsigned nvidia::getResidentBlocks(const hwdesc::HwDesc &Desc, unsigned Threads,
                                   unsigned Registers, uint64_t SharedBytes) {
  const hwdesc::Limits &Lim = Desc.getLimits();
  uint64_t Warps = getWarps(Desc, Threads);
  uint64_t Blocks = nvidia::UnlimitedBlocks;
  if (const hwdesc::ParallelLevel *Block =
          Desc.getParallelLevel(hwdesc::LevelKind::Block);
      Block && Block->MaxResident > 0)
    Blocks = std::min<uint64_t>(Blocks, Block->MaxResident);
  if (const hwdesc::ParallelLevel *Thread =
          Desc.getParallelLevel(hwdesc::LevelKind::Thread);
      Thread && Thread->MaxResident > 0)
    Blocks = std::min<uint64_t>(Blocks, Thread->MaxResident /
                                            (Warps * getWarpSize(Desc)));
  if (Registers > 0 && Lim.RegistersPerProcessor > 0) {
    uint64_t PerWarp =
        alignTo(uint64_t(Registers) * getWarpSize(Desc), RegisterUnitPerWarp);
    uint64_t WarpsPerSubPartition =
        Lim.RegistersPerProcessor / SubPartitions / PerWarp;
    Blocks = std::min(Blocks, WarpsPerSubPartition * SubPartitions / Warps);
  }
  if (Lim.SharedPerProcessor > 0) {
    uint64_t Reserved = nvidia::getComputeCapability(Desc.Arch) >= 80
                            ? ReservedSharedPerBlock
                            : 0;
    if (uint64_t PerBlock = alignTo(SharedBytes + Reserved, SharedUnit))
      Blocks = std::min(Blocks, Lim.SharedPerProcessor / PerBlock);
  }
  return static_cast<unsigned>(Blocks);
}

unsigned nvidia::getRegisterBudget(const hwdesc::HwDesc &Desc, unsigned Threads,
                                   unsigned Blocks) {
  const hwdesc::Limits &Lim = Desc.getLimits();
  if (Lim.RegistersPerProcessor <= 0)
    return 0;
  uint64_t WarpsPerSubPartition =
      divideCeil(getWarps(Desc, Threads) * std::max(1u, Blocks), SubPartitions);
  uint64_t PerWarp = alignDown(Lim.RegistersPerProcessor / SubPartitions /
                                   WarpsPerSubPartition,
                               RegisterUnitPerWarp);
  uint64_t Budget = PerWarp / getWarpSize(Desc);
  if (Lim.RegistersPerThread > 0)
    Budget = std::min<uint64_t>(Budget, Lim.RegistersPerThread);
  return static_cast<unsigned>(Budget);
}

std::optional<unsigned> nvidia::getBlocksToRequest(const hwdesc::HwDesc &Desc,
                                                   unsigned Threads,
                                                   unsigned Registers,
                                                   uint64_t SharedBytes,
                                                   unsigned MaxBlocks) {
  if (Registers == 0 || Desc.getLimits().RegistersPerProcessor <= 0)
    return std::nullopt;
  unsigned Now = getResidentBlocks(Desc, Threads, Registers, SharedBytes);
  unsigned Ceiling = getResidentBlocks(Desc, Threads, 0, SharedBytes);
  if (Now == 0 || Now >= Ceiling || Now >= MaxBlocks)
    return std::nullopt;
  unsigned Budget = getRegisterBudget(Desc, Threads, Now + 1);
  if (uint64_t(Budget) * 8 < uint64_t(Registers) * 7)
    return std::nullopt;
  return Now + 1;
}

std::optional<uint64_t> nvidia::getSharedBytesHoldingBlocks(
    const hwdesc::HwDesc &Desc, unsigned Threads, unsigned Registers,
    uint64_t SharedBytes, uint64_t StaticBytes, unsigned MaxBlocks) {
  const hwdesc::Limits &Lim = Desc.getLimits();
  if (MaxBlocks == 0 || Lim.SharedPerProcessor == 0 ||
      getResidentBlocks(Desc, Threads, Registers, SharedBytes + StaticBytes) <=
          MaxBlocks)
    return std::nullopt;
  // MaxBlocks + 1 blocks must not fit even without the 1 KiB the driver
  // reserves per block, so the hold does not rest on that reservation.
  uint64_t PerBlock = alignTo(
      Lim.SharedPerProcessor / (uint64_t(MaxBlocks) + 1) + 1, SharedUnit);
  uint64_t Shared = std::max(SharedBytes, PerBlock - StaticBytes);
  if (Shared + StaticBytes > Lim.SharedPerBlockOptin)
    return std::nullopt;
  return Shared;
}

std::optional<std::string> nvidia::requestResidentBlocks(StringRef Ptx,
                                                         unsigned Blocks) {
  size_t Directive = Ptx.find("\n.reqntid ");
  if (Directive == StringRef::npos)
    return std::nullopt;
  size_t LineEnd = Ptx.find('\n', Directive + 1);
  if (LineEnd == StringRef::npos)
    return std::nullopt;
  return (Ptx.take_front(LineEnd + 1) + ".minnctapersm " + Twine(Blocks) +
          "\n" + Ptx.drop_front(LineEnd + 1))
      .str();
}

bool nvidia::issuesWarpgroupMma(StringRef Ptx) {
  return Ptx.contains("wgmma.mma_async");
}

// Measured on two chips (session 31, bench/RESULTS-h200.md) with
// examples/matmul.py's 128x128x32 tiles at 4 warps (168 registers, 48 KiB:
// 3 blocks per SM), the same binary launched for 3 and for 2 blocks. On the
// H100 SXM (3.35 TB/s for 989 fp16 TFLOP/s), at its power cap, 2 blocks ran
// 5-9% faster at 8192^3 (fp16 0.91 -> 0.98-1.00 of Triton, bf16 1.01 ->
// 1.06); on the H200 (4.8 TB/s) 1-4% slower (fp16 0.98 -> 0.96, bf16 1.01
// -> 0.97, fp8 0.97 -> 0.95). The third block's operand traffic pays where
// global memory keeps up with the matrix units. Kernels that would fit more
// than 3 blocks (small tiles) were not measured and are not held.
static constexpr double HoldBelowBytesPerKiloFlop = 4.0;
static constexpr unsigned HeldMatrixKernelBlocks = 2;

std::optional<unsigned>
nvidia::getMatrixKernelBlockHold(const hwdesc::HwDesc &Desc) {
  double FlopsPerSecond = Desc.Compute.MatrixRates.lookup("fp16");
  for (const hwdesc::MemoryLevel &Level : Desc.MemoryLevels) {
    if (Level.Kind != hwdesc::MemoryKind::Global)
      continue;
    if (FlopsPerSecond > 0 && Level.Bandwidth > 0 &&
        Level.Bandwidth / FlopsPerSecond * 1000 < HoldBelowBytesPerKiloFlop)
      return HeldMatrixKernelBlocks;
    break;
  }
  return std::nullopt;
}

bool nvidia::reportsSerializedWarpgroupMma(StringRef PtxasLog) {
  return PtxasLog.contains("wgmma.mma_async instructions are serialized");
}
