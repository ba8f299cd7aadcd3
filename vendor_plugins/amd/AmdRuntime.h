//===- AmdRuntime.h - Run kernels through the HIP runtime -------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The runtime part of the AMD plugin. It opens libamdhip64.so with dlopen
// when it is created, so neither the plugin nor anything that loads it links
// against ROCm: the compiler runs on machines without it, and only running a
// kernel needs it. Binaries are HSA code objects loaded with
// hipModuleLoadData. Every HIP error is reported with the runtime's own name
// and description of the hipError_t.
//
// Not executed on our machines (no AMD GPU, no ROCm): what is tested is the
// one-line report when libamdhip64 is absent. The calls follow HIP's module
// API (hip_runtime_api.h, ROCm 5 and later).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_AMD_AMDRUNTIME_H
#define TLE_VENDOR_PLUGINS_AMD_AMDRUNTIME_H

#include "tle/Backend/Runtime.h"

#include <memory>
#include <string>
#include <vector>

namespace tle {
namespace amd {

struct HipLibrary;

/// One HIP device and its null stream.
class AmdRuntime : public backend::Runtime {
public:
  /// Loads the HIP runtime and opens device Ordinal. A failure (no ROCm, no
  /// device) does not fail construction, since Backend::createRuntime cannot
  /// return an error: it is kept and returned by every call instead.
  explicit AmdRuntime(int Ordinal = 0);
  ~AmdRuntime() override;

  /// Why the device cannot be used, or success.
  llvm::Error checkReady() const;

  llvm::Expected<backend::KernelHandle>
  loadKernel(llvm::StringRef Binary, llvm::StringRef EntryName) override;
  llvm::Expected<backend::DevicePtr> allocate(uint64_t Bytes) override;
  llvm::Error free(backend::DevicePtr Ptr) override;
  llvm::Error copyToDevice(backend::DevicePtr Dst, const void *Src,
                           uint64_t Bytes) override;
  llvm::Error copyFromDevice(void *Dst, backend::DevicePtr Src,
                             uint64_t Bytes) override;
  llvm::Error launch(backend::KernelHandle Kernel,
                     const backend::LaunchConfig &Config,
                     llvm::ArrayRef<const void *> Args) override;
  llvm::Error synchronize() override;
  llvm::Expected<double> time(backend::KernelHandle Kernel,
                              const backend::LaunchConfig &Config,
                              llvm::ArrayRef<const void *> Args,
                              unsigned Repeats) override;

private:
  llvm::Error init(int Ordinal);
  /// The error for a failed HIP call, or success when Result is 0.
  llvm::Error check(int Result, llvm::StringRef Call) const;

  std::unique_ptr<HipLibrary> Hip;
  std::string InitError;
  int Device = 0;
  std::vector<void *> Modules;
  /// Allocations not yet freed, released with the runtime.
  std::vector<backend::DevicePtr> Allocations;
};

} // namespace amd
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_AMD_AMDRUNTIME_H
