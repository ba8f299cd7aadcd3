//===- Probe.h - Describe the local NVIDIA GPU ------------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_TOOLS_TLE_HWDESC_PROBE_H
#define TLE_TOOLS_TLE_HWDESC_PROBE_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tle {
namespace hwdesc {

/// Writes a description of CUDA device Ordinal to OS. On failure returns
/// false and sets Error to one line saying why (no driver, no device, ...).
bool probeCudaDevice(int Ordinal, llvm::raw_ostream &OS, std::string &Error);

} // namespace hwdesc
} // namespace tle

#endif // TLE_TOOLS_TLE_HWDESC_PROBE_H
