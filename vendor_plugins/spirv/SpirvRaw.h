//===- SpirvRaw.h - TLE-Raw native code for SPIR-V devices ------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVRAW_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVRAW_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tle {
namespace spirv {

/// Kernel (a SPIR-V binary) linked with spirv-link to the binaries of
/// SPIR-V assembly functions it imports; Kernel itself when there are none.
llvm::Expected<std::string>
linkRawBinaries(llvm::StringRef Kernel, llvm::ArrayRef<std::string> Natives);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVRAW_H
