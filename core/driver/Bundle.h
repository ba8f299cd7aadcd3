//===- Bundle.h - Compiled kernels on disk: manifest and binaries -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// What `tlec -o OUT` writes (docs/bundle.md): one directory per kernel with
// manifest.json and one binary per target. The bytes depend only on the
// inputs -- no times, no absolute paths, keys sorted, targets sorted -- so
// that the same command gives the same bundle. The whole output directory is
// built next to OUT and renamed into place at the end: OUT is never seen
// half-written, and a failed run leaves it as it was.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_BUNDLE_H
#define TLE_CORE_DRIVER_BUNDLE_H

#include "core/driver/Specialization.h"
#include "tle/Backend/Backend.h"

#include <map>
#include <string>
#include <vector>

namespace tle {
namespace driver {

/// One runtime parameter of a kernel: its name in the source and its type as
/// --signature spells it ("*fp32", "i32", "fp32").
struct KernelParam {
  std::string Name;
  std::string Type;
};

struct BundleTarget {
  /// The description's `name`.
  std::string Target;
  std::string Arch;
  std::string Backend;
  std::string PluginName;
  std::string PluginVersion;
  unsigned NumWarps = 0;
  backend::CompiledKernel Kernel;
};

struct KernelBundle {
  std::string Kernel;
  /// The source file's name (no directory: bundles do not depend on where
  /// the source was) and the SHA-256 of its bytes.
  std::string SourceName;
  std::string SourceSHA256;
  Specialization Spec;
  std::vector<KernelParam> Params;
  std::vector<BundleTarget> Targets;
};

/// Name with every character outside [A-Za-z0-9._-] replaced by '-', so
/// that file names need no quoting ("H100 SXM" -> "H100-SXM").
std::string sanitizeFileName(llvm::StringRef Name);

/// `<kernel>.<target>.<format>`, sanitized.
std::string getBinaryFileName(llvm::StringRef Kernel, llvm::StringRef Target,
                              llvm::StringRef Format);

/// manifest.json of B, targets sorted by name, keys sorted.
std::string renderManifest(const KernelBundle &B);

/// The files of a bundle directory, by name relative to it.
using FileMap = std::map<std::string, std::string>;

/// manifest.json and the binaries of B.
FileMap getBundleFiles(const KernelBundle &B);

/// Replaces directory OutDir by one holding exactly Files (names may contain
/// one level of '/'), plus index.json listing Kernels. Everything is written
/// into a fresh directory next to OutDir first and renamed at the end; on
/// any failure OutDir is left untouched and nothing else remains. An
/// existing OutDir is replaced only if it is empty or was written by tlec
/// (has index.json), never an unrelated directory.
llvm::Error writeOutputDirectory(llvm::StringRef OutDir, const FileMap &Files,
                                 llvm::ArrayRef<std::string> Kernels);

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_BUNDLE_H
