//===- Version.cpp - Which compiler made a binary -------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <link.h>

using namespace llvm;

std::string tle::driver::getCompilerVersion() {
  return "tlec " TLE_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

std::vector<std::string> tle::driver::getCompilerFiles() {
  std::vector<std::string> Files;
  // Any address inside this library finds the executable through
  // /proc/self/exe on Linux.
  static int Anchor;
  Files.push_back(sys::fs::getMainExecutable(nullptr, &Anchor));
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        StringRef Name = Info->dlpi_name ? Info->dlpi_name : "";
        if (sys::path::filename(Name).starts_with("libTLE"))
          static_cast<std::vector<std::string> *>(Data)->push_back(Name.str());
        return 0;
      },
      &Files);
  llvm::sort(Files);
  return Files;
}
