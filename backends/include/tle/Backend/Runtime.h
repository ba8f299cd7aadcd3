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
#include <string>
#include <vector>

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

/// A tensor map (TMA descriptor) the launcher builds on the host from the
/// kernel's own arguments and passes by value after them, before the global
/// scratch (CompiledKernel::LaunchTensorMaps, the manifest's tensor_maps):
/// the map of a tensor descriptor argument (`tensordesc<...>`).
struct LaunchTensorMap {
  /// Indices into the kernel's own arguments: the base pointer, the shape
  /// (i32, outermost dimension first) and the strides in elements (i64),
  /// all but the last, which is 1.
  unsigned BaseArg = 0;
  std::vector<unsigned> ShapeArgs, StrideArgs;
  /// Elements per dimension of one copied box, outermost first.
  std::vector<int64_t> Box;
  /// The element type as --signature spells it: fp16, bf16, fp32, i8, ...
  std::string ElementType;
  /// Swizzle of the box's rows in block-level memory, in bytes (0, 32, 64
  /// or 128).
  unsigned SwizzleBytes = 0;
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

  /// Bytes of one tensor map a launch passes by value, at most 128 and
  /// aligned to 64 in the argument's storage; 0 if this runtime builds none.
  virtual unsigned getLaunchTensorMapBytes() const { return 0; }
  /// Builds Map into Out (getLaunchTensorMapBytes bytes) from the values of
  /// the launch's own arguments, Args (each an argument's value, as launch
  /// takes them). The caller (tle::runtime::Device) has checked that Map's
  /// argument indices are within Args.
  virtual llvm::Error encodeTensorMap(const LaunchTensorMap &Map,
                                      llvm::ArrayRef<const void *> Args,
                                      void *Out) {
    return llvm::createStringError("this runtime builds no tensor maps");
  }

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
