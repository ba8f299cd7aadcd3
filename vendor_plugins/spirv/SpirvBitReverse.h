//===- SpirvBitReverse.h - llvm.bitreverse as shifts and masks --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// LLVM's optimizer may recognise index arithmetic as a bit reversal (a
// scratch exchange's xor-swizzled positions became llvm.bitreverse.i7).
// LLVM 22's SPIR-V backend turns llvm.bitreverse into OpBitReverse, which
// an OpenCL (Kernel) module may only use with SPV_KHR_bit_instructions; the
// backend, not told about it, stops with a fatal error. PoCL does not take
// the extension either, so every call is expanded into shifts, masks and
// ors before code generation.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVBITREVERSE_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVBITREVERSE_H

namespace llvm {
class Module;
} // namespace llvm

namespace tle {
namespace spirv {

/// Replaces each call of llvm.bitreverse (scalar or vector) in M by one
/// shift, mask and or per bit; returns how many calls it replaced.
unsigned expandBitReverse(llvm::Module &M);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVBITREVERSE_H
