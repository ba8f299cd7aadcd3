//===- LaunchLimits.cpp - Does a compiled kernel fit its target? ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/LaunchLimits.h"

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/Backend.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

std::string
tle::driver::getLaunchLimitViolation(const backend::CompiledKernel &Kernel,
                                     const hwdesc::HwDesc &Desc) {
  uint64_t Threads = Kernel.ThreadsPerBlock;
  if (const hwdesc::ParallelLevel *Block =
          Desc.getParallelLevel(hwdesc::LevelKind::Block))
    if (Block->MaxThreads && Threads > uint64_t(Block->MaxThreads))
      return formatv("{0} threads per block > {1} (the block level's "
                     "max_threads)",
                     Threads, Block->MaxThreads);
  const hwdesc::Limits &Lim = Desc.getLimits();
  uint64_t Static = 0;
  if (const std::optional<backend::ResourceUsage> &R = Kernel.Resources) {
    Static = R->StaticSharedMemoryBytes;
    if (Lim.RegistersPerThread && R->Registers > Lim.RegistersPerThread)
      return formatv("{0} registers per thread > {1} "
                     "(limits.registers_per_thread)",
                     R->Registers, Lim.RegistersPerThread);
    if (Lim.RegistersPerBlock &&
        uint64_t(R->Registers) * Threads > uint64_t(Lim.RegistersPerBlock))
      return formatv("{0} registers per thread x {1} threads = {2} per block "
                     "> {3} (limits.registers_per_block)",
                     R->Registers, Threads, uint64_t(R->Registers) * Threads,
                     Lim.RegistersPerBlock);
  }
  uint64_t Shared = Kernel.SharedMemoryBytes + Static;
  if (Lim.SharedPerBlockOptin && Shared > Lim.SharedPerBlockOptin)
    return formatv("{0} bytes of block-level memory per block ({1} at launch "
                   "+ {2} in the binary) > {3} (limits.shared_per_block_optin)",
                   Shared, Kernel.SharedMemoryBytes, Static,
                   Lim.SharedPerBlockOptin);
  return "";
}
