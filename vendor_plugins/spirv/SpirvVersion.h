//===- SpirvVersion.h - The SPIR-V version a description asks for -*- C++ -*-//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A SPIR-V description's toolchain.isa_version is the SPIR-V version its
// consumer accepts ("1.2" for OpenCL 2.2 drivers and PoCL through SPIR).
// Code generation targets exactly that version, and some instructions need a
// minimum one (OpGroupNonUniformShuffle: 1.3).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVVERSION_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVVERSION_H

#include "core/hwdesc/HwDesc.h"

#include <optional>

namespace tle {
namespace spirv {

/// 10 * major + minor of toolchain.isa_version ("1.2" -> 12), if it is a
/// SPIR-V version LLVM's backend can emit (1.0 to 1.6).
inline std::optional<unsigned> getSpirvVersion(const hwdesc::HwDesc &Desc) {
  auto [Major, Minor] = llvm::StringRef(Desc.Tools.IsaVersion).split('.');
  unsigned Ma, Mi;
  if (Major.getAsInteger(10, Ma) || Minor.getAsInteger(10, Mi) || Ma != 1 ||
      Mi > 6)
    return std::nullopt;
  return 10 * Ma + Mi;
}

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVVERSION_H
