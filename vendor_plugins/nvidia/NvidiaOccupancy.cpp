//===- NvidiaOccupancy.cpp - More resident blocks for a few registers -----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaOccupancy.h"

#include "core/hwdesc/HwDesc.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;
using namespace tle;

// Allocation units of sm_70 and later (CUDA occupancy calculator).
static constexpr unsigned RegisterUnitPerWarp = 256;
static constexpr uint64_t SharedUnit = 128;

static unsigned getWarps(const hwdesc::HwDesc &Desc, unsigned Threads) {
  unsigned WarpSize = std::max<unsigned>(1, Desc.getWarpSize());
  return std::max<unsigned>(1, divideCeil(Threads, WarpSize));
}

unsigned nvidia::getResidentBlocks(const hwdesc::HwDesc &Desc, unsigned Threads,
                                   unsigned Registers, uint64_t SharedBytes) {
  const hwdesc::Limits &Lim = Desc.getLimits();
  unsigned Warps = getWarps(Desc, Threads);
  unsigned WarpSize = std::max<unsigned>(1, Desc.getWarpSize());
  uint64_t Blocks = UINT32_MAX;
  if (const hwdesc::ParallelLevel *Block =
          Desc.getParallelLevel(hwdesc::LevelKind::Block);
      Block && Block->MaxResident > 0)
    Blocks = std::min<uint64_t>(Blocks, Block->MaxResident);
  if (const hwdesc::ParallelLevel *Thread =
          Desc.getParallelLevel(hwdesc::LevelKind::Thread);
      Thread && Thread->MaxResident > 0)
    Blocks =
        std::min<uint64_t>(Blocks, Thread->MaxResident / (Warps * WarpSize));
  if (Registers > 0 && Lim.RegistersPerProcessor > 0) {
    uint64_t PerWarp =
        alignTo(uint64_t(Registers) * WarpSize, RegisterUnitPerWarp);
    Blocks =
        std::min<uint64_t>(Blocks, Lim.RegistersPerProcessor / PerWarp / Warps);
  }
  if (Lim.SharedPerProcessor > 0) {
    // The part of an SM's shared memory that no block may opt in to is what
    // the driver reserves per block (1 KiB on sm_80 and later).
    uint64_t Reserved = Lim.SharedPerProcessor > Lim.SharedPerBlockOptin
                            ? Lim.SharedPerProcessor - Lim.SharedPerBlockOptin
                            : 0;
    Blocks = std::min<uint64_t>(
        Blocks,
        Lim.SharedPerProcessor / alignTo(SharedBytes + Reserved, SharedUnit));
  }
  return static_cast<unsigned>(Blocks);
}

unsigned nvidia::getRegisterBudget(const hwdesc::HwDesc &Desc, unsigned Threads,
                                   unsigned Blocks) {
  const hwdesc::Limits &Lim = Desc.getLimits();
  unsigned WarpSize = std::max<unsigned>(1, Desc.getWarpSize());
  uint64_t Warps = uint64_t(getWarps(Desc, Threads)) * std::max(1u, Blocks);
  uint64_t PerWarp =
      alignDown(Lim.RegistersPerProcessor / Warps, RegisterUnitPerWarp);
  uint64_t Budget = PerWarp / WarpSize;
  if (Lim.RegistersPerThread > 0)
    Budget = std::min<uint64_t>(Budget, Lim.RegistersPerThread);
  return static_cast<unsigned>(Budget);
}

std::optional<unsigned> nvidia::getBlocksToRequest(const hwdesc::HwDesc &Desc,
                                                   unsigned Threads,
                                                   unsigned Registers,
                                                   uint64_t SharedBytes) {
  if (Registers == 0 || Desc.getLimits().RegistersPerProcessor <= 0)
    return std::nullopt;
  unsigned Now = getResidentBlocks(Desc, Threads, Registers, SharedBytes);
  unsigned Ceiling = getResidentBlocks(Desc, Threads, 0, SharedBytes);
  if (Now == 0 || Now >= Ceiling)
    return std::nullopt;
  unsigned Budget = getRegisterBudget(Desc, Threads, Now + 1);
  if (uint64_t(Budget) * 8 < uint64_t(Registers) * 7)
    return std::nullopt;
  return Now + 1;
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
