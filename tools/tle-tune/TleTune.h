//===- TleTune.h - tle-tune commands that run anywhere ----------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The subcommands of tle-tune that need only LLVM Support and the runtime
// API -- run (measure a candidate bundle over shapes), compare, report and
// pick -- so that the same code is linked into tle-tune here and, statically,
// into bench/bin/tle-tune-nvidia for the device machine, which has no LLVM 22
// and therefore cannot compile (the space and compile subcommands live in
// tle-tune.cpp only).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_TOOLS_TLE_TUNE_TLETUNE_H
#define TLE_TOOLS_TLE_TUNE_TLETUNE_H

#include "core/runtime/Runtime.h"
#include "core/tune/CandidateBundle.h"

#include <functional>
#include <memory>

namespace tle {
namespace tunetool {

/// Opens the device a bundle was compiled for; null when this build cannot
/// open devices (then only `run --synthetic` measures).
using OpenDeviceFn = std::function<
    llvm::Expected<std::unique_ptr<runtime::Device>>(const tune::CandidateBundle &)>;

/// Runs the selected subcommand if it is one of run/compare/report/pick and
/// returns its exit status; returns -1 when another subcommand was selected.
/// Call after cl::ParseCommandLineOptions.
int runSharedCommand(const OpenDeviceFn &Open);

} // namespace tunetool
} // namespace tle

#endif // TLE_TOOLS_TLE_TUNE_TLETUNE_H
