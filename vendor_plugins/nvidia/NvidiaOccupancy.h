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
// 128x128x32 tiles and 4 warps, K divisible by 8, goes from 178 to 166
// registers, from 2 to 3 blocks per SM (session 17 measured that about 5%
// faster on the H200, against the 178-register binary). Triton leaves the
// count to ptxas unless a config sets maxnreg.
//
// On chips whose global memory is slow for their matrix units (the H100, not
// the H200: getMatrixKernelBlockHold), a kernel issuing warpgroup MMAs is
// held the other way, to two blocks per SM where it would fit three: it is
// launched with enough shared memory that the third does not fit, and is not
// raised beyond two.
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
/// shared memory themselves) to at most MaxBlocks per SM: the least with
/// which MaxBlocks + 1 blocks would exceed the SM's shared memory even
/// without the driver's per-block reservation. nullopt when they already
/// reside no more than MaxBlocks, or when no block may take that much.
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

/// The blocks per SM that a kernel issuing warpgroup MMAs is held to on
/// Desc where it would fit one more, or nullopt where such kernels are left
/// alone: 2 where the chip's global memory gives less than 4 bytes per
/// thousand fp16 matrix FLOPs (the H100 SXM: 3.4; the H200: 4.9), nullopt
/// where the description lacks either figure.
std::optional<unsigned> getMatrixKernelBlockHold(const hwdesc::HwDesc &Desc);

/// Whether ptxas's `-v` log says it serialized wgmma (C7510-C7515: for
/// registers, or around accumulator reads), which costs a pipelined matrix
/// loop far more than a resident block gives.
bool reportsSerializedWarpgroupMma(llvm::StringRef PtxasLog);

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAOCCUPANCY_H
