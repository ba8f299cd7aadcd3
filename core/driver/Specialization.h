//===- Specialization.h - What one kernel is compiled with -----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The values a kernel is specialized on (-D bindings, the runtime signature,
// warps and pipelining depth) and the compilation knobs that change the
// binary. They are recorded in a bundle's manifest and are part of every
// compile-cache key, so they live in one place.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_SPECIALIZATION_H
#define TLE_CORE_DRIVER_SPECIALIZATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace tle {
namespace driver {

struct Specialization {
  /// The jit function; empty when the file has exactly one.
  std::string KernelName;
  /// `-D NAME=VALUE` bindings in command-line order, VALUE as written.
  std::vector<std::pair<std::string, std::string>> Defines;
  std::string Signature;
  unsigned NumWarps = 4;
  unsigned NumStages = 3;
  unsigned OptLevel = 3;
};

/// Parses one `-D` argument (`NAME=VALUE`, spaces around either trimmed).
llvm::Expected<std::pair<std::string, std::string>>
parseDefine(llvm::StringRef Text);

/// Parses the arguments of an example's `# tlec-args:` line (shell quoting:
/// '...' and "..."): --kernel, -D, --signature, --num-warps, --num-stages.
/// Anything else is an error naming the argument.
llvm::Expected<Specialization> parseSourceArgs(llvm::StringRef Line);

/// The text after `# tlec-args:` in Source, if a line has it.
std::optional<std::string> findSourceArgsLine(llvm::StringRef Source);

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_SPECIALIZATION_H
