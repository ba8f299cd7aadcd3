//===- Runtime.h - Optional device runtime of a backend plugin --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The part of a plugin that runs what compile() produced: the core's runtime
// API and tle-run call it for whichever device the kernel was compiled for,
// without linking any vendor library themselves. Plain C++ only: the runtime
// is used without an MLIRContext.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_BACKEND_RUNTIME_H
#define TLE_BACKEND_RUNTIME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>

namespace tle {
namespace backend {

/// Opaque handles owned by the Runtime that returned them.
using DevicePtr = uint64_t;
using KernelHandle = uint64_t;

struct LaunchConfig {
  std::array<unsigned, 3> Grid = {1, 1, 1};
  std::array<unsigned, 3> Block = {1, 1, 1};
  uint64_t SharedMemoryBytes = 0;
};

/// One device, opened by Backend::createRuntime. Calls are made from one
/// thread at a time; launches are asynchronous until synchronize().
class Runtime {
public:
  virtual ~Runtime() = default;

  /// Loads a binary from Backend::compile and returns its entry EntryName.
  virtual llvm::Expected<KernelHandle>
  loadKernel(llvm::StringRef Binary, llvm::StringRef EntryName) = 0;

  virtual llvm::Expected<DevicePtr> allocate(uint64_t Bytes) = 0;
  virtual llvm::Error free(DevicePtr Ptr) = 0;
  virtual llvm::Error copyToDevice(DevicePtr Dst, const void *Src,
                                   uint64_t Bytes) = 0;
  virtual llvm::Error copyFromDevice(void *Dst, DevicePtr Src,
                                     uint64_t Bytes) = 0;

  /// Args points at each argument's value in order, as the kernel's
  /// signature lays them out (a DevicePtr for pointers).
  virtual llvm::Error launch(KernelHandle Kernel, const LaunchConfig &Config,
                             llvm::ArrayRef<const void *> Args) = 0;
  virtual llvm::Error synchronize() = 0;

  /// Device time of Repeats back-to-back launches, in milliseconds each, as
  /// measured by device events (not host clocks).
  virtual llvm::Expected<double> time(KernelHandle Kernel,
                                      const LaunchConfig &Config,
                                      llvm::ArrayRef<const void *> Args,
                                      unsigned Repeats) = 0;
};

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_RUNTIME_H
