//===- tle-run.cpp - Launch, check and time a compiled kernel -------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Opens the target's device through the plugin that serves it, found on the
// same search path as tlec's (--plugin-dir, $TLE_PLUGIN_PATH, lib/tle/plugins
// next to bin/), then runs the kernel as TleRun.cpp describes.
//
//===----------------------------------------------------------------------===//

#include "TleRun.h"

#include "core/runtime/OpenDevice.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;

static cl::list<std::string>
    PluginDirs("plugin-dir",
               cl::desc("Look for backend plugins here first (repeatable)"),
               cl::value_desc("dir"), cl::cat(tle::run::getOptionCategory()));

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(tle::run::getOptionCategory());
  cl::ParseCommandLineOptions(argc, argv, tle::run::Overview);
  // Outlives every Device it opens: their runtimes run plugin code.
  tle::plugins::PluginHost Host;
  for (const std::string &Dir : PluginDirs)
    Host.addDirectory(Dir, /*MustExist=*/true);
  for (const std::string &Dir : tle::plugins::getDefaultPluginSearchPath())
    Host.addDirectory(Dir, /*MustExist=*/false);
  return tle::run::runTleRun([&](StringRef Target) {
    return tle::runtime::openDevice(Target, Host);
  });
}
