//===- OpenClRuntime.h - Run SPIR-V kernels through OpenCL ------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The runtime part of the SPIR-V plugin. It opens the OpenCL ICD loader
// (libOpenCL.so.1) with dlopen when it is created, so nothing links against
// OpenCL, and uses the first device of the first platform that has one (a
// CPU device preferred): PoCL's pthread CPU device in CI.
//
// A device that takes SPIR-V (CL_DEVICE_IL_VERSION) gets the binary through
// clCreateProgramWithIL. One that only takes SPIR 1.2 bitcode (cl_khr_spir,
// as Debian's PoCL 3.1) gets it translated by llvm-spirv -r first (the
// llvm-spirv matching the driver's LLVM: $TLE_LLVM_SPIRV, else
// llvm-spirv-15, else llvm-spirv) and loaded with clCreateProgramWithBinary.
//
// A device without subgroups (PoCL) runs kernels that use them through
// emulateSubgroups (SpirvSubgroupEmulation.h), with the description's
// subgroup size.
//
// Buffers are cl_mem objects; a DevicePtr is the cl_mem handle, so kernels
// take whole buffers (no offsets into them). Argument sizes come from the
// binary's kernel signature. Errors name the OpenCL call and its error code,
// with the driver's build log or its context notification when it gave one.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_OPENCLRUNTIME_H
#define TLE_VENDOR_PLUGINS_SPIRV_OPENCLRUNTIME_H

#include "SpirvKernelSignature.h"

#include "tle/Backend/Runtime.h"

#include <memory>
#include <string>
#include <vector>

namespace tle {
namespace spirv {

struct OpenClApi;

class OpenClRuntime : public backend::Runtime {
public:
  /// Loads the ICD loader and opens a device. A failure does not fail
  /// construction, since Backend::createRuntime cannot return an error: it
  /// is kept and returned by every call instead.
  /// SubgroupSize: the description's subgroup (warp) size, which the
  /// runtime emulates on devices without subgroups.
  explicit OpenClRuntime(unsigned SubgroupSize = 0);
  ~OpenClRuntime() override;

  /// Why the device cannot be used, or success.
  llvm::Error checkReady() const;
  /// "cpu-haswell-... (Portable Computing Language)"; empty if none.
  llvm::StringRef getDeviceName() const { return DeviceName; }
  /// Subgroup instructions of loaded kernels that were emulated through
  /// Workgroup memory because the device has no subgroups.
  unsigned getNumEmulatedSubgroupOps() const { return EmulatedSubgroupOps; }

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

  /// Called by the driver (clCreateContext's pfn_notify) with its own
  /// description of an error.
  void notify(const char *Message) { LastNotification = Message; }

private:
  struct LoadedKernel {
    void *Kernel;
    std::vector<KernelParameter> Params;
  };

  llvm::Error init();
  /// The error for a failed call, or success when Status is 0.
  llvm::Error check(int Status, llvm::StringRef Call);
  llvm::Expected<void *> buildProgram(llvm::StringRef Binary);
  llvm::Error enqueue(const LoadedKernel &K,
                      const backend::LaunchConfig &Config,
                      llvm::ArrayRef<const void *> Args, void **Event);
  llvm::Expected<void *> getBuffer(backend::DevicePtr Ptr) const;

  std::unique_ptr<OpenClApi> Api;
  std::string InitError;
  std::string DeviceName;
  std::string LastNotification;
  /// Whether the device takes SPIR-V itself, or SPIR 1.2 bitcode.
  bool TakesSpirv = false;
  /// Whether the device runs subgroup instructions itself.
  bool HasSubgroups = false;
  unsigned SubgroupSize;
  unsigned EmulatedSubgroupOps = 0;
  void *Device = nullptr;
  void *Context = nullptr;
  void *Queue = nullptr;
  std::vector<void *> Programs;
  std::vector<LoadedKernel> Kernels;
  std::vector<backend::DevicePtr> Buffers;
};

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_OPENCLRUNTIME_H
