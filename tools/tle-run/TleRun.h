//===- TleRun.h - The tle-run tool, over any way to open a device -*- C++ -*-//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Everything tle-run does once it has a Device: argument buffers, launch,
// checks against a reference, timing. The options are LLVM command-line
// options registered by TleRun.cpp; a main parses them, then calls
// runTleRun with the way it opens a device (through the plugin host in
// tle-run, or one runtime linked in statically, as bench/ does).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_TOOLS_TLE_RUN_TLERUN_H
#define TLE_TOOLS_TLE_RUN_TLERUN_H

#include "core/runtime/Runtime.h"

#include <functional>

namespace llvm::cl {
class OptionCategory;
} // namespace llvm::cl

namespace tle {
namespace run {

/// Opens the device of the named target (a chip name).
using DeviceOpener = std::function<llvm::Expected<
    std::unique_ptr<runtime::Device>>(llvm::StringRef Target)>;

extern const char *const Overview;

/// The category of the tool's options: a main adds its own to it and hides
/// the rest (LLVM's) from --help.
llvm::cl::OptionCategory &getOptionCategory();

/// Runs the tool with the parsed options; returns the exit code (0 when the
/// kernel ran and every check passed).
int runTleRun(const DeviceOpener &Open);

} // namespace run
} // namespace tle

#endif // TLE_TOOLS_TLE_RUN_TLERUN_H
