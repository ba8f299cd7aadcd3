//===- NvidiaArch.h - The compute capability of a description ---*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAARCH_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAARCH_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace tle {
namespace nvidia {

/// The compute capability XY of an `sm_XY[a]` architecture (a description's
/// `arch`), or 0 when Arch is not of that form.
inline unsigned getComputeCapability(llvm::StringRef Arch) {
  unsigned Capability = 0;
  if (!Arch.consume_front("sm_") ||
      Arch.take_while(llvm::isDigit).getAsInteger(10, Capability))
    return 0;
  return Capability;
}

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAARCH_H
