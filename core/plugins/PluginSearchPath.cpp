//===- PluginSearchPath.cpp - Where backend plugins are looked for --------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/plugins/PluginHost.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

/// Any address inside this library, for getMainExecutable.
static void anchor() {}

std::vector<std::string> tle::plugins::getDefaultPluginSearchPath() {
  std::vector<std::string> Path;
  if (std::optional<std::string> Env =
          sys::Process::GetEnv("TLE_PLUGIN_PATH")) {
    SmallVector<StringRef, 4> Parts;
    StringRef(*Env).split(Parts, ':', -1, /*KeepEmpty=*/false);
    for (StringRef P : Parts)
      Path.push_back(P.str());
  }
  // Relative to the executable rather than a configured prefix: the build
  // tree (bin/, lib/tle/plugins) and an installed or relocated prefix have
  // the same shape, so one rule finds the plugins built next to the tools.
  std::string Exe = sys::fs::getMainExecutable(nullptr, (void *)&anchor);
  if (!Exe.empty()) {
    SmallString<256> Dir(sys::path::parent_path(sys::path::parent_path(Exe)));
    sys::path::append(Dir, "lib", "tle", "plugins");
    Path.push_back(std::string(Dir));
  }
  return Path;
}
