//===- NvidiaTensorMap.h - Fields of a CUtensorMap --------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// What a tensor map (CUtensorMap) encodes the same way whether the kernel
// writes it (tensormap.replace, NvidiaTensorCopy.cpp) or the launcher builds
// it (cuTensorMapEncodeTiled, NvidiaRuntime.cpp). Header-only and free of
// MLIR, as the runtime is built without it for the benchmark machine.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIATENSORMAP_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIATENSORMAP_H

#include <optional>

namespace tle {
namespace nvidia {

/// The swizzle mode of rows swizzled over Bytes bytes: tensormap.replace's
/// .swizzle_mode and CUtensorMapSwizzle alike (none, 32, 64, 128 bytes: 0 to
/// 3); std::nullopt for other widths.
inline std::optional<unsigned> getTensorMapSwizzleMode(unsigned Bytes) {
  switch (Bytes) {
  case 0:
    return 0;
  case 32:
    return 1;
  case 64:
    return 2;
  case 128:
    return 3;
  }
  return std::nullopt;
}

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIATENSORMAP_H
