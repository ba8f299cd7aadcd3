//===- HeaderEmitter.h - A C++ launcher embedding a bundle ------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tlec --emit-header writes, next to a kernel's manifest, `<kernel>.h` and
// `<kernel>.cpp`: a class named after the kernel whose load() picks the
// binary compiled for a runtime Device's target and whose launch() takes the
// kernel's runtime parameters with their C++ types. An application compiles
// the .cpp, links it with libTLERuntime and launches the kernel without
// reading any file at run time (as Triton's ahead-of-time compile tool does).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_HEADEREMITTER_H
#define TLE_CORE_DRIVER_HEADEREMITTER_H

#include "core/driver/Bundle.h"

namespace tle {
namespace driver {

/// Adds `<kernel>/<kernel>.h` and `<kernel>/<kernel>.cpp` for B to Files;
/// fails naming the parameter whose type has no launcher mapping.
llvm::Error emitLauncher(const KernelBundle &B, FileMap &Files);

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_HEADEREMITTER_H
