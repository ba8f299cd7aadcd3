//===- OpenDevice.h - A Device for a target, through its plugin -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Finds the hardware description of a target, the plugin serving its
// `backend:` key, and asks that plugin for its runtime. Separate from
// Runtime.h so that code running a single statically linked runtime does not
// need the plugin host (and with it MLIR).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_RUNTIME_OPENDEVICE_H
#define TLE_CORE_RUNTIME_OPENDEVICE_H

#include "core/plugins/PluginHost.h"
#include "core/runtime/Runtime.h"

namespace tle {
namespace runtime {

/// Opens the device of target NameOrPath (a chip name such as `h200`, or a
/// description's path) through the plugin Host holds for it. Fails with one
/// line naming the target if there is no such description, no plugin for it,
/// or the plugin has no runtime. A plugin's runtime may still fail at first
/// use (e.g. no driver on this machine); that error names the vendor's cause.
llvm::Expected<std::unique_ptr<Device>>
openDevice(llvm::StringRef NameOrPath, const plugins::PluginHost &Host);

} // namespace runtime
} // namespace tle

#endif // TLE_CORE_RUNTIME_OPENDEVICE_H
