//===- CodeObjectLinker.h - Link an AMDGPU object with ld.lld ---*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// An HSA code object is a shared ELF; LLVM's AMDGPU backend writes a
// relocatable one, which LLVM's linker turns into the loadable form. lld has
// no stable in-process API in Debian's packages, so ld.lld runs as a program:
// without a shell, from an argument vector, on files in a private temporary
// directory that is removed afterwards, with a time limit.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_AMD_CODEOBJECTLINKER_H
#define TLE_VENDOR_PLUGINS_AMD_CODEOBJECTLINKER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tle {
namespace amd {

/// $TLE_AMD_LLD if set, else ld.lld of this LLVM major version: ld.lld-N on
/// PATH, then /usr/lib/llvm-N/bin/ld.lld. A plain `ld.lld` is not taken,
/// since on Debian it is an older LLVM's. Empty if none is found.
std::string findLld();

/// Links Object (a relocatable AMDGPU ELF) into a code object with
/// `ld.lld -shared --no-undefined`. A failure carries lld's own message.
llvm::Expected<std::string> linkCodeObject(llvm::StringRef Lld,
                                           llvm::StringRef Object,
                                           unsigned TimeoutSeconds = 60);

} // namespace amd
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_AMD_CODEOBJECTLINKER_H
