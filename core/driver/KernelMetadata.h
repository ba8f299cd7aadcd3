//===- KernelMetadata.h - A compiled kernel's metadata as JSON --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Bundle manifests and cache entries describe a compiled kernel with the
// same JSON keys (docs/bundle.md), written and read here only.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_KERNELMETADATA_H
#define TLE_CORE_DRIVER_KERNELMETADATA_H

#include "tle/Backend/Backend.h"

#include "llvm/Support/JSON.h"

namespace tle {
namespace driver {

/// format, entry, threads_per_block, shared_memory_bytes, binary_size,
/// binary_sha256, resources when the assembler reported them, and the
/// plugin's properties and argument_layout when it reported any.
llvm::json::Object kernelToJSON(const backend::CompiledKernel &Kernel);

/// Reads what kernelToJSON wrote into Kernel (all but Binary, Assembly and
/// LLVMIR) and returns the recorded binary size and SHA-256.
llvm::Expected<std::pair<uint64_t, std::string>>
kernelFromJSON(const llvm::json::Object &Object,
               backend::CompiledKernel &Kernel);

/// The SHA-256 of Data as 64 lower-case hex digits.
std::string sha256Hex(llvm::StringRef Data);

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_KERNELMETADATA_H
