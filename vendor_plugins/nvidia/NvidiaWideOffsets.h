//===- NvidiaWideOffsets.h - Loop pointers' offsets kept 64-bit -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAWIDEOFFSETS_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAWIDEOFFSETS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tle {
namespace nvidia {

/// Sign extensions of 32-bit offsets that start a loop's pointers become
/// explicit 64-bit conversions (`cvt.s64.s32`) opaque to code generation.
/// Otherwise loop strength reduction rebuilds those pointers as one base plus
/// `mul.wide.s32 offset, size` per pointer, and ptxas, to save a register,
/// recomputes each multiply inside the loop on every iteration (an IMAD.WIDE
/// before each copy of a matrix operand: about 8% of a wgmma matmul's time on
/// the H200). Loops with more than a few pointers are left alone: there the
/// recomputation saves registers that would otherwise spill. Run on
/// optimized IR, just before code generation.
void keepLoopPointerOffsetsWide(llvm::Module &M);

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAWIDEOFFSETS_H
