//===- CodeObjectMetadata.h - What a code object says of a kernel -*- C++ -*-=//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The AMDGPU backend records, in the code object's NT_AMDGPU_METADATA note
// (a MessagePack map, AMDGPUUsage "Code Object V3+ Metadata"), what a loader
// needs to launch each kernel: the kernel-argument layout, LDS and scratch
// sizes, register counts and the wavefront size. The plugin reads it back
// from the linked code object rather than from the compiler's internals, so
// what it reports is what the HIP runtime will see.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_AMD_CODEOBJECTMETADATA_H
#define TLE_VENDOR_PLUGINS_AMD_CODEOBJECTMETADATA_H

#include "tle/Backend/Backend.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tle {
namespace amd {

struct KernelMetadata {
  /// `amdhsa.target`, e.g. "amdgcn-amd-amdhsa--gfx942".
  std::string Target;
  std::string Name;
  /// The kernel descriptor's symbol (`.symbol`, "<name>.kd").
  std::string DescriptorSymbol;
  uint64_t KernargSegmentSize = 0;
  uint64_t KernargSegmentAlign = 0;
  /// Static LDS bytes.
  uint64_t GroupSegmentFixedSize = 0;
  /// Scratch bytes per work-item (spills and stack).
  uint64_t PrivateSegmentFixedSize = 0;
  uint64_t SgprCount = 0;
  uint64_t VgprCount = 0;
  uint64_t AgprCount = 0;
  uint64_t SgprSpillCount = 0;
  uint64_t VgprSpillCount = 0;
  uint64_t WavefrontSize = 0;
  uint64_t MaxFlatWorkgroupSize = 0;
  /// `.args` in offset order: `.name` (if any), `.value_kind` (by_value,
  /// global_buffer, hidden_block_count_x, ...), `.offset`, `.size`.
  std::vector<backend::KernelArgumentSlot> Arguments;
  /// The note's scalar facts about the kernel, named as in the note without
  /// the leading dot (`.sgpr_count` -> sgpr_count), with their values as
  /// the note states them; only the keys the note has (getPropertyKeys()).
  std::vector<backend::KernelProperty> Properties;
};

/// The metadata keys reported as properties, in the order they are shown.
llvm::ArrayRef<std::pair<llvm::StringLiteral, llvm::StringLiteral>>
getPropertyKeys();

/// Reads the metadata of Kernel from CodeObject (a linked HSA code object)
/// and checks that the object holds Kernel's code and its kernel descriptor.
llvm::Expected<KernelMetadata> readKernelMetadata(llvm::StringRef CodeObject,
                                                  llvm::StringRef Kernel);

} // namespace amd
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_AMD_CODEOBJECTMETADATA_H
