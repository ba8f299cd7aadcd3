//===- Version.h - Which compiler made a binary -----------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_VERSION_H
#define TLE_CORE_DRIVER_VERSION_H

#include <string>
#include <vector>

namespace tle {
namespace driver {

/// "tlec 0.1.0 (LLVM 22.1.8)": recorded in manifests and cache keys.
std::string getCompilerVersion();

/// The files the running compiler is made of: its executable and the TLE
/// shared libraries loaded into it (not plugins), sorted. The compile cache
/// keys on their stamps, so that a rebuilt compiler whose version string did
/// not change still misses.
std::vector<std::string> getCompilerFiles();

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_VERSION_H
