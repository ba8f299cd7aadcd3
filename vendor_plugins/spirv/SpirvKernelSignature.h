//===- SpirvKernelSignature.h - Parameters of a SPIR-V kernel ---*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// OpenCL's clSetKernelArg needs each argument's size, and whether it is a
// buffer, which the Runtime interface does not pass (CUDA reads them from
// the cubin). A SPIR-V binary declares them: the entry point's OpFunction
// and its OpFunctionParameter types. This reads just those instructions.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVKERNELSIGNATURE_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVKERNELSIGNATURE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace tle {
namespace spirv {

struct KernelParameter {
  /// A pointer to CrossWorkgroup (global) memory: a buffer.
  bool IsBuffer = false;
  /// Bytes of a scalar parameter (pointers: 8 in the 64-bit model).
  unsigned Bytes = 0;
};

/// The parameters of the kernel entry point Entry of the SPIR-V module
/// Binary, in order.
llvm::Expected<std::vector<KernelParameter>>
readKernelSignature(llvm::StringRef Binary, llvm::StringRef Entry);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVKERNELSIGNATURE_H
