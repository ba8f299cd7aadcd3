//===- SpirvHalfMath.h - fp16 math through fp32 -----------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// LLVM's SPIR-V backend turns a math intrinsic on halves (llvm.exp.f16,
// llvm.maxnum.f16, ...) into an OpenCL.std instruction on halves, which an
// OpenCL device only implements with cl_khr_fp16. PoCL, the CPU executor of
// CI, has no cl_khr_fp16: such a kernel fails to link there (the build log
// names _Z3expDh). So every math intrinsic on half scalars or vectors is
// computed on floats: the operands are extended (exactly), the fp32
// intrinsic is called, and its result is rounded to half. For the exact
// operations (fabs, floor, min/max, copysign, ...) the result is the same;
// for the others it is the fp32 result rounded once more, at least as
// accurate as a half implementation. Plain arithmetic (fadd, fmul, fcmp...)
// on halves stays as it is: it needs only the Float16 capability, which
// PoCL's code generator handles.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVHALFMATH_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVHALFMATH_H

namespace llvm {
class Module;
} // namespace llvm

namespace tle {
namespace spirv {

/// Rewrites each call of a math intrinsic on halves in M as the fp32
/// intrinsic between fpext and fptrunc; returns how many it rewrote.
unsigned promoteHalfMath(llvm::Module &M);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVHALFMATH_H
