//===- NvidiaOccupancy.h - Blocks resident on one SM ------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// ptxas gives a kernel as many registers as it finds useful. When registers
// are then what limits the blocks resident on one SM -- shared memory, warps
// and the block limit would let more in -- asking ptxas for one more block
// (.minnctapersm) can cost no spill at all: examples/matmul.py with
// 128x128x32 tiles and 4 warps goes from 178 to 168 registers, from 2 to 3
// blocks per SM, and runs about 5% faster on the H200 (bench/RESULTS-h200.md,
// session 17). Triton leaves the count to ptxas unless a config sets maxnreg.
//
// A kernel issuing warpgroup MMAs is held the other way, to two blocks per SM
// (NvidiaBackend.cpp, MatrixKernelBlocks): it is asked for enough shared
// memory at launch that a third does not fit.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAOCCUPANCY_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAOCCUPANCY_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tle {
namespace hwdesc {
class HwDesc;
} // namespace hwdesc

namespace nvidia {

/// What getResidentBlocks returns when the description limits nothing.
constexpr unsigned UnlimitedBlocks = UINT32_MAX;

/// Blocks of Threads threads, each thread with Registers registers (0: not
/// counted) and each block with SharedBytes of shared memory, resident on one
/// SM at once (UnlimitedBlocks when nothing limits them), from the
/// description's limits and the allocation rules of sm_70 and later (CUDA's
/// occupancy calculator): registers by warp in units of 256 within each of the
/// SM's four sub-partitions, shared memory in units of 128 bytes plus the 1 KiB
/// the driver reserves per block on sm_80 and later.
unsigned getResidentBlocks(const hwdesc::HwDesc &Desc, unsigned Threads,
                           unsigned Registers, uint64_t SharedBytes);

/// Registers per thread that let Blocks blocks of Threads threads reside on
/// one SM (what ptxas allows under `.minnctapersm Blocks`).
unsigned getRegisterBudget(const hwdesc::HwDesc &Desc, unsigned Threads,
                           unsigned Blocks);

/// The blocks per SM worth asking ptxas for: one more than Registers allow,
/// when the other limits admit it, it is at most MaxBlocks and the budget is
/// at most an eighth below Registers (a deeper cut trades the kernel's
/// instruction-level parallelism for occupancy, or spills); nullopt
/// otherwise.
std::optional<unsigned>
getBlocksToRequest(const hwdesc::HwDesc &Desc, unsigned Threads,
                   unsigned Registers, uint64_t SharedBytes,
                   unsigned MaxBlocks = UnlimitedBlocks);

/// The launch's block-level memory, at least SharedBytes, that holds blocks
/// of Threads threads and Registers registers (declaring StaticBytes of
/// shared memory themselves) to at most MaxBlocks per SM: the least that
/// leaves too little of the SM's shared memory for one more block. nullopt
/// when they already reside no more than MaxBlocks, or when no block may
/// take that much.
std::optional<uint64_t>
getSharedBytesHoldingBlocks(const hwdesc::HwDesc &Desc, unsigned Threads,
                            unsigned Registers, uint64_t SharedBytes,
                            uint64_t StaticBytes, unsigned MaxBlocks);

/// Ptx with `.minnctapersm Blocks` after the kernel's `.reqntid` directive
/// (which the backend always emits); nullopt if there is none.
std::optional<std::string> requestResidentBlocks(llvm::StringRef Ptx,
                                                 unsigned Blocks);

/// Whether Ptx issues warpgroup MMAs (wgmma.mma_async).
bool issuesWarpgroupMma(llvm::StringRef Ptx);

/// Whether ptxas's `-v` log says it serialized wgmma (C7510-C7515: for
/// registers, or around accumulator reads), which costs a pipelined matrix
/// loop far more than a resident block gives.
bool reportsSerializedWarpgroupMma(llvm::StringRef PtxasLog);

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAOCCUPANCY_H
