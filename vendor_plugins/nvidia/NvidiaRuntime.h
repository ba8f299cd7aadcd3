//===- NvidiaRuntime.h - Run kernels through the CUDA driver ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The runtime part of the NVIDIA plugin. It opens libcuda.so.1 with dlopen
// when it is created, so neither the plugin nor anything that loads it links
// against CUDA: the compiler runs on machines without a driver, and only
// running a kernel needs one. Binaries are cubins or PTX (the driver compiles
// PTX for the device it finds). Every CUDA error is reported with the driver's
// own name and description of the CUresult.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIARUNTIME_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIARUNTIME_H

#include "tle/Backend/Runtime.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tle {
namespace nvidia {

struct CudaDriver;

/// One CUDA device, used through its primary context (the one the CUDA
/// runtime and frameworks such as PyTorch use, so pointers can be shared with
/// them in one process) and the default stream.
class NvidiaRuntime : public backend::Runtime {
public:
  /// Loads the driver and opens device Ordinal. A failure (no driver, no
  /// device) does not fail construction, since Backend::createRuntime cannot
  /// return an error: it is kept and returned by every call instead.
  explicit NvidiaRuntime(int Ordinal = 0);
  ~NvidiaRuntime() override;

  /// Why the device cannot be used, or success.
  llvm::Error checkReady() const;
  /// "NVIDIA H200 (sm_90)"; empty if the device could not be opened.
  llvm::StringRef getDeviceName() const { return DeviceName; }

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
  /// A CUtensorMap, built by cuTensorMapEncodeTiled.
  unsigned getLaunchTensorMapBytes() const override { return 128; }
  llvm::Error encodeTensorMap(const backend::LaunchTensorMap &Map,
                              llvm::ArrayRef<const void *> Args,
                              void *Out) override;
  llvm::Expected<double> time(backend::KernelHandle Kernel,
                              const backend::LaunchConfig &Config,
                              llvm::ArrayRef<const void *> Args,
                              unsigned Repeats) override;

private:
  llvm::Error init(int Ordinal);
  /// The error for a failed driver call, or success when Result is 0.
  llvm::Error check(int Result, llvm::StringRef Call) const;

  std::unique_ptr<CudaDriver> Driver;
  std::string InitError;
  std::string DeviceName;
  int Device = 0;
  void *Context = nullptr;
  std::vector<void *> Modules;
  /// Allocations not yet freed, released with the runtime.
  std::vector<backend::DevicePtr> Allocations;
  /// The dynamic shared memory each kernel was opted in to, so that repeated
  /// launches make no driver calls for it.
  std::map<void *, uint64_t> SharedOptIn;
  /// Parameters of each launched kernel, where the driver reports them.
  std::map<void *, size_t> ParamCounts;
};

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIARUNTIME_H
