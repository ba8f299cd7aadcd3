//===- Cache.h - The compile cache shared by tlec processes ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Compiled kernels keyed by everything that decides their bytes: the source,
// the specialization, the resolved target description, the plugin (name,
// version, and the library file itself) and the compiler build. One entry is
// one file, written to a temporary name in the cache directory and renamed
// into place, so that tlec processes sharing a cache never read or leave a
// torn entry: a reader sees the old file, the new one, or none. An entry
// that fails its own checks (e.g. written by another version) is a miss.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_CACHE_H
#define TLE_CORE_DRIVER_CACHE_H

#include "tle/Backend/Backend.h"

#include "llvm/Support/SHA256.h"

#include <optional>
#include <string>

namespace tle {
namespace driver {

/// Builds a cache key from named fields; each is length-prefixed so that no
/// two field lists hash alike by concatenation.
class CacheKey {
public:
  void add(llvm::StringRef Field, llvm::StringRef Value);
  void add(llvm::StringRef Field, uint64_t Value);
  /// Adds size and modification time of File (or that it is missing): how
  /// a development build notices that a library was rebuilt although its
  /// version string did not change.
  void addFileStamp(llvm::StringRef Field, llvm::StringRef File);
  /// The key as 64 hex digits.
  std::string final();

private:
  llvm::SHA256 Hash;
};

class CompileCache {
public:
  /// The cache directory: $TLE_CACHE_DIR, else $XDG_CACHE_HOME/tle, else
  /// ~/.cache/tle.
  static std::string getDefaultDirectory();

  /// Dir is created on the first store().
  explicit CompileCache(std::string Dir) : Dir(std::move(Dir)) {}
  llvm::StringRef getDirectory() const { return Dir; }

  /// The kernel stored under Key, without Assembly and LLVMIR; std::nullopt
  /// when there is none or it is damaged.
  std::optional<backend::CompiledKernel> lookup(llvm::StringRef Key) const;
  /// Stores Kernel under Key, replacing what was there, atomically.
  llvm::Error store(llvm::StringRef Key,
                    const backend::CompiledKernel &Kernel) const;

private:
  std::string getEntryPath(llvm::StringRef Key) const;
  std::string Dir;
};

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_CACHE_H
