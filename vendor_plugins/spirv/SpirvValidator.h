//===- SpirvValidator.h - Check SPIR-V binaries with spirv-val --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// compile() validates each binary it makes when TLE_SPIRV_VALIDATE is set to
// a value other than 0 (the tests set it), with SPIR-V Tools' spirv-val
// ($TLE_SPIRV_VAL, else spirv-val on PATH).
//
// The environment is the universal one of the module's version
// (`--target-env spv1.N`): spirv-val's OpenCL environments stop at SPIR-V
// 1.2 and reject the Float16 capability outright, although OpenCL allows it
// with cl_khr_fp16, so they would refuse correct fp16 and subgroup kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVVALIDATOR_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVVALIDATOR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tle {
namespace spirv {

/// Whether TLE_SPIRV_VALIDATE asks compile() to validate.
bool isValidationRequested();

/// Runs spirv-val on Binary for SPIR-V version Version (10 * major + minor).
/// Returns false, after printing a one-line notice to stderr, when spirv-val
/// is not installed; an error with spirv-val's report when it rejects the
/// binary.
/// Whether and with which spirv-val compile() validates ("" when it does
/// not): part of tlec's cache key, so that a binary compiled without
/// validation is not served to a run that asks for it.
std::string getValidationKey();

llvm::Expected<bool> validateSpirv(llvm::StringRef Binary, unsigned Version);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVVALIDATOR_H
