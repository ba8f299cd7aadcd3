//===- Probe.cpp - Describe the local NVIDIA GPU --------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Reads what the CUDA driver knows about a device and writes it as a
// hardware description. libcuda is opened with dlopen at run time so that
// the tool builds and runs on machines without the CUDA toolkit or driver;
// only the handful of driver entry points below are used, with their stable
// C ABI (CUresult and CUdevice are ints, attributes are enum values).
//
//===----------------------------------------------------------------------===//

#include "Probe.h"

#include "core/hwdesc/Units.h"

#include "llvm/Support/Format.h"

#include <dlfcn.h>

using namespace llvm;

namespace tle {
namespace hwdesc {

namespace {
using CUresult = int;
using CUdevice = int;

// Values of CUdevice_attribute from cuda.h; they never change across driver
// versions.
enum Attr : int {
  MaxThreadsPerBlock = 1,
  MaxBlockDimX = 2,
  MaxBlockDimY = 3,
  MaxBlockDimZ = 4,
  MaxGridDimX = 5,
  MaxGridDimY = 6,
  MaxGridDimZ = 7,
  MaxSharedPerBlock = 8,
  WarpSize = 10,
  MaxRegistersPerBlock = 12,
  ClockRate = 13,
  MultiprocessorCount = 16,
  MemoryClockRate = 36,
  GlobalMemoryBusWidth = 37,
  L2CacheSize = 38,
  MaxThreadsPerMultiprocessor = 39,
  ComputeCapabilityMajor = 75,
  ComputeCapabilityMinor = 76,
  MaxSharedPerMultiprocessor = 81,
  MaxRegistersPerMultiprocessor = 82,
  MaxSharedPerBlockOptin = 97,
  MaxBlocksPerMultiprocessor = 106,
};

struct Driver {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceTotalMem)(size_t *, CUdevice);
};
} // namespace

template <typename Fn> static bool bind(void *Lib, const char *Name, Fn &F) {
  F = reinterpret_cast<Fn>(dlsym(Lib, Name));
  return F != nullptr;
}

bool probeCudaDevice(int Ordinal, raw_ostream &OS, std::string &Error) {
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    Error = "cannot load libcuda.so.1: no NVIDIA driver on this machine";
    return false;
  }
  Driver D;
  if (!bind(Lib, "cuInit", D.Init) ||
      !bind(Lib, "cuDeviceGetCount", D.DeviceGetCount) ||
      !bind(Lib, "cuDeviceGet", D.DeviceGet) ||
      !bind(Lib, "cuDeviceGetAttribute", D.DeviceGetAttribute) ||
      !bind(Lib, "cuDeviceGetName", D.DeviceGetName) ||
      !bind(Lib, "cuDeviceTotalMem_v2", D.DeviceTotalMem)) {
    Error = "libcuda.so.1 lacks a driver entry point (driver too old?)";
    return false;
  }
  if (CUresult R = D.Init(0)) {
    Error = "cuInit failed with CUDA error " + std::to_string(R) +
            ": no usable NVIDIA GPU";
    return false;
  }
  int Count = 0;
  if (D.DeviceGetCount(&Count) || Count == 0) {
    Error = "no NVIDIA GPU found";
    return false;
  }
  if (Ordinal < 0 || Ordinal >= Count) {
    Error = "device " + std::to_string(Ordinal) + " does not exist (found " +
            std::to_string(Count) + ")";
    return false;
  }
  CUdevice Dev;
  if (D.DeviceGet(&Dev, Ordinal)) {
    Error = "cuDeviceGet failed";
    return false;
  }
  bool Failed = false;
  auto Get = [&](Attr A) {
    int V = 0;
    if (D.DeviceGetAttribute(&V, A, Dev))
      Failed = true;
    return int64_t(V);
  };
  char NameBuf[256] = {0};
  D.DeviceGetName(NameBuf, sizeof(NameBuf) - 1, Dev);
  size_t TotalMem = 0;
  D.DeviceTotalMem(&TotalMem, Dev);

  int64_t Major = Get(ComputeCapabilityMajor);
  int64_t Minor = Get(ComputeCapabilityMinor);
  int64_t SMs = Get(MultiprocessorCount);
  int64_t Warp = Get(WarpSize);
  int64_t ClockKHz = Get(ClockRate);
  int64_t MemClockKHz = Get(MemoryClockRate);
  int64_t BusBits = Get(GlobalMemoryBusWidth);
  int64_t L2 = Get(L2CacheSize);
  int64_t SharedBlock = Get(MaxSharedPerBlock);
  int64_t SharedOptin = Get(MaxSharedPerBlockOptin);
  int64_t SharedSM = Get(MaxSharedPerMultiprocessor);
  int64_t RegsBlock = Get(MaxRegistersPerBlock);
  int64_t RegsSM = Get(MaxRegistersPerMultiprocessor);
  int64_t MaxThreads = Get(MaxThreadsPerBlock);
  int64_t ThreadsSM = Get(MaxThreadsPerMultiprocessor);
  int64_t BlocksSM = Get(MaxBlocksPerMultiprocessor);
  int64_t BX = Get(MaxBlockDimX), BY = Get(MaxBlockDimY),
          BZ = Get(MaxBlockDimZ);
  int64_t GX = Get(MaxGridDimX), GY = Get(MaxGridDimY), GZ = Get(MaxGridDimZ);
  if (Failed) {
    Error = "cuDeviceGetAttribute failed";
    return false;
  }

  // sm_90 and sm_100 kernels need the "a" variants for wgmma/TMA/tcgen05.
  std::string Arch = "sm_" + std::to_string(Major) + std::to_string(Minor);
  if (Major >= 9)
    Arch += "a";
  StringRef Family = Major == 9                 ? "nvidia-hopper"
                     : Major == 8 && Minor == 0 ? "nvidia-ampere"
                                                : "";
  // Double data rate: two transfers per memory clock over the whole bus.
  double Bandwidth = 2.0 * double(MemClockKHz) * 1e3 * double(BusBits) / 8.0;
  auto Size = [](int64_t B) {
    return formatQuantity(double(B), UnitKind::Size);
  };

  OS << "# Probed from the CUDA driver by `tle-hwdesc probe` (device "
     << Ordinal << ", compute capability " << Major << "." << Minor << ").\n"
     << "# Memory bandwidth is 2 x memory clock x bus width, the driver's\n"
     << "# theoretical figure; registers_per_thread is the architectural\n"
     << "# limit, which the driver does not report.\n"
     << "name: \"" << NameBuf << "\"\n"
     << "vendor: NVIDIA\n"
     << "backend: nvidia\n"
     << "arch: " << Arch << "\n";
  if (!Family.empty())
    OS << "extends: " << Family << "\n";
  OS << "parallel:\n"
     << "  processor_count: " << SMs << "\n"
     << "  processor_name: SM\n"
     << "  warp_size: " << Warp << "\n"
     << "  levels:\n"
     << "    - {name: grid, kind: grid, max_dims: [" << GX << ", " << GY << ", "
     << GZ << "]}\n"
     << "    - {name: block, kind: block, max_threads: " << MaxThreads
     << ", max_dims: [" << BX << ", " << BY << ", " << BZ
     << "], max_resident: " << BlocksSM << "}\n"
     << "    - {name: warp, kind: warp, size: " << Warp
     << ", max_resident: " << ThreadsSM / std::max<int64_t>(Warp, 1) << "}\n"
     << "    - {name: thread, kind: thread, size: 1, max_resident: "
     << ThreadsSM << "}\n"
     << "memory:\n"
     << "  levels:\n"
     << "    - {name: global, scope: device, kind: global, size: " << TotalMem
     << "B, bandwidth: " << formatQuantity(Bandwidth, UnitKind::Bandwidth)
     << "}\n"
     << "    - {name: l2, scope: device, kind: cache, size: " << Size(L2)
     << "}\n"
     << "    - {name: shared, scope: block, kind: shared, size: "
     << Size(SharedSM) << "}\n"
     << "    - {name: registers, scope: thread, kind: registers, size: "
     << Size(RegsSM * 4) << "}\n"
     << "  aliases: {block: shared, device: global, thread: registers}\n"
     << "compute:\n"
     << "  clock: "
     << formatQuantity(double(ClockKHz) * 1e3, UnitKind::Frequency) << "\n"
     << "limits:\n"
     << "  registers_per_thread: 255\n"
     << "  registers_per_block: " << RegsBlock << "\n"
     << "  registers_per_processor: " << RegsSM << "\n"
     << "  shared_per_block: " << Size(SharedBlock) << "\n"
     << "  shared_per_block_optin: " << Size(SharedOptin) << "\n"
     << "  shared_per_processor: " << Size(SharedSM) << "\n";
  return true;
}

} // namespace hwdesc
} // namespace tle
