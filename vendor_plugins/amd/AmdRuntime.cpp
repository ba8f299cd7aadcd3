//===- AmdRuntime.cpp - Run kernels through the HIP runtime ---------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "AmdRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>

using namespace llvm;

namespace tle {
namespace amd {

namespace {
// The few HIP types used here, declared by hand (stable across ROCm 5 and 6)
// so that building the plugin needs no ROCm headers.
using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
using hipStream_t = void *;
using hipEvent_t = void *;
using hipDeviceptr_t = void *;

constexpr hipError_t hipSuccess = 0;
template <typename Fn> using FunctionPtr = Fn *;

/// Where the HIP runtime is looked for when TLE_AMD_LIBHIP is not set: the
/// development name, the sonames of ROCm 7, 6 and 5, then ROCm's default
/// prefix, which is not always on the loader's path.
constexpr const char *LibraryNames[] = {
    "libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
    "libamdhip64.so.5", "/opt/rocm/lib/libamdhip64.so"};
} // namespace

/// The HIP entry points, resolved once from libamdhip64.
struct HipLibrary {
  /// Never closed: the HIP runtime keeps threads and atexit handlers that
  /// would run into unmapped code, so it stays loaded for the process.
  void *Handle = nullptr;
#define TLE_HIP_FUNCTIONS(X)                                                   \
  X(hipInit, hipError_t(unsigned))                                             \
  X(hipGetErrorName, const char *(hipError_t))                                 \
  X(hipGetErrorString, const char *(hipError_t))                               \
  X(hipGetDeviceCount, hipError_t(int *))                                      \
  X(hipSetDevice, hipError_t(int))                                             \
  X(hipDeviceSynchronize, hipError_t())                                        \
  X(hipModuleLoadData, hipError_t(hipModule_t *, const void *))                \
  X(hipModuleUnload, hipError_t(hipModule_t))                                  \
  X(hipModuleGetFunction,                                                      \
    hipError_t(hipFunction_t *, hipModule_t, const char *))                    \
  X(hipMalloc, hipError_t(void **, size_t))                                    \
  X(hipFree, hipError_t(void *))                                               \
  X(hipMemcpyHtoD, hipError_t(hipDeviceptr_t, void *, size_t))                 \
  X(hipMemcpyDtoH, hipError_t(void *, hipDeviceptr_t, size_t))                 \
  X(hipModuleLaunchKernel,                                                     \
    hipError_t(hipFunction_t, unsigned, unsigned, unsigned, unsigned,          \
               unsigned, unsigned, unsigned, hipStream_t, void **, void **))   \
  X(hipEventCreate, hipError_t(hipEvent_t *))                                  \
  X(hipEventDestroy, hipError_t(hipEvent_t))                                   \
  X(hipEventRecord, hipError_t(hipEvent_t, hipStream_t))                       \
  X(hipEventSynchronize, hipError_t(hipEvent_t))                               \
  X(hipEventElapsedTime, hipError_t(float *, hipEvent_t, hipEvent_t))
#define TLE_DECLARE(Name, Type) FunctionPtr<Type> Name = nullptr;
  TLE_HIP_FUNCTIONS(TLE_DECLARE)
#undef TLE_DECLARE

  /// Opens the HIP runtime: $TLE_AMD_LIBHIP if set (a ROCm outside the
  /// loader's path, or a test), else the first of LibraryNames.
  Error load() {
    const char *Override = std::getenv("TLE_AMD_LIBHIP");
    std::string Library;
    std::string FirstReason;
    if (Override && *Override) {
      Library = Override;
      Handle = dlopen(Library.c_str(), RTLD_NOW | RTLD_LOCAL);
    } else {
      for (const char *Name : LibraryNames) {
        Library = Name;
        Handle = dlopen(Name, RTLD_NOW | RTLD_LOCAL);
        if (Handle)
          break;
        if (FirstReason.empty())
          if (const char *Reason = dlerror())
            FirstReason = Reason;
      }
      if (!Handle)
        Library = LibraryNames[0];
    }
    if (!Handle) {
      if (FirstReason.empty())
        if (const char *Reason = dlerror())
          FirstReason = Reason;
      return createStringError(
          formatv("amd runtime: {0} not found: no HIP runtime (ROCm) on this "
                  "machine, so AMD kernels can be compiled here but not run "
                  "({1})",
                  Library, FirstReason.empty() ? "dlopen failed" : FirstReason)
              .str());
    }
#define TLE_RESOLVE(Name, Type)                                                \
  Name = reinterpret_cast<FunctionPtr<Type>>(dlsym(Handle, #Name));            \
  if (!Name)                                                                   \
    return createStringError("amd runtime: " + Library +                       \
                             " has no symbol " #Name                           \
                             ": the HIP runtime is too old");
    TLE_HIP_FUNCTIONS(TLE_RESOLVE)
#undef TLE_RESOLVE
    return Error::success();
  }
#undef TLE_HIP_FUNCTIONS
};

AmdRuntime::AmdRuntime(int Ordinal) : Hip(std::make_unique<HipLibrary>()) {
  if (Error E = init(Ordinal))
    InitError = toString(std::move(E));
}

AmdRuntime::~AmdRuntime() {
  if (!InitError.empty())
    return;
  // Best effort: errors here (e.g. a kernel that faulted earlier) were
  // already reported by the call that caused them.
  Hip->hipDeviceSynchronize();
  for (backend::DevicePtr Ptr : Allocations)
    Hip->hipFree(reinterpret_cast<void *>(Ptr));
  for (void *Module : Modules)
    Hip->hipModuleUnload(Module);
}

Error AmdRuntime::check(int Result, StringRef Call) const {
  if (Result == hipSuccess)
    return Error::success();
  const char *Name = Hip->hipGetErrorName(Result);
  const char *Description = Hip->hipGetErrorString(Result);
  return createStringError(formatv("amd runtime: {0}: {1} ({2}): {3}", Call,
                                   Name ? Name : "unknown hipError_t", Result,
                                   Description ? Description
                                               : "no description")
                               .str());
}

Error AmdRuntime::init(int Ordinal) {
  if (Error E = Hip->load())
    return E;
  if (Error E = check(Hip->hipInit(0), "hipInit"))
    return E;
  int Count = 0;
  if (Error E = check(Hip->hipGetDeviceCount(&Count), "hipGetDeviceCount"))
    return E;
  if (Ordinal < 0 || Ordinal >= Count)
    return createStringError(
        formatv("amd runtime: no HIP device {0}: the runtime sees {1}",
                Ordinal, Count)
            .str());
  Device = Ordinal;
  return check(Hip->hipSetDevice(Device), "hipSetDevice");
}

Error AmdRuntime::checkReady() const {
  if (!InitError.empty())
    return createStringError(InitError);
  return Error::success();
}

Expected<backend::KernelHandle> AmdRuntime::loadKernel(StringRef Binary,
                                                      StringRef EntryName) {
  if (Error E = checkReady())
    return std::move(E);
  // HIP reads the code object in place during the call and keeps its own
  // copy afterwards.
  std::string Image = Binary.str();
  std::string Entry = EntryName.str();
  hipModule_t Module = nullptr;
  if (Error E = check(Hip->hipModuleLoadData(&Module, Image.data()),
                      "hipModuleLoadData"))
    return std::move(E);
  Modules.push_back(Module);
  hipFunction_t Function = nullptr;
  if (Error E =
          check(Hip->hipModuleGetFunction(&Function, Module, Entry.c_str()),
                "hipModuleGetFunction(" + Entry + ")"))
    return std::move(E);
  return reinterpret_cast<backend::KernelHandle>(Function);
}

Expected<backend::DevicePtr> AmdRuntime::allocate(uint64_t Bytes) {
  if (Error E = checkReady())
    return std::move(E);
  void *Ptr = nullptr;
  if (Error E = check(Hip->hipMalloc(&Ptr, std::max<uint64_t>(Bytes, 1)),
                      formatv("hipMalloc({0} bytes)", Bytes).str()))
    return std::move(E);
  auto Handle = reinterpret_cast<backend::DevicePtr>(Ptr);
  Allocations.push_back(Handle);
  return Handle;
}

Error AmdRuntime::free(backend::DevicePtr Ptr) {
  if (Error E = checkReady())
    return E;
  auto It = llvm::find(Allocations, Ptr);
  if (It == Allocations.end())
    return createStringError(
        formatv("amd runtime: free of {0:x}, which this runtime did not "
                "allocate or already freed",
                Ptr)
            .str());
  Allocations.erase(It);
  return check(Hip->hipFree(reinterpret_cast<void *>(Ptr)), "hipFree");
}

Error AmdRuntime::copyToDevice(backend::DevicePtr Dst, const void *Src,
                               uint64_t Bytes) {
  if (Error E = checkReady())
    return E;
  // hipMemcpyHtoD takes a non-const source but only reads it.
  return check(Hip->hipMemcpyHtoD(reinterpret_cast<void *>(Dst),
                                   const_cast<void *>(Src), Bytes),
               "hipMemcpyHtoD");
}

Error AmdRuntime::copyFromDevice(void *Dst, backend::DevicePtr Src,
                                 uint64_t Bytes) {
  if (Error E = checkReady())
    return E;
  return check(
      Hip->hipMemcpyDtoH(Dst, reinterpret_cast<void *>(Src), Bytes),
      "hipMemcpyDtoH");
}

Error AmdRuntime::launch(backend::KernelHandle Kernel,
                         const backend::LaunchConfig &Config,
                         ArrayRef<const void *> Args) {
  if (Error E = checkReady())
    return E;
  // HIP takes `void **` but only reads the values; it lays them out in the
  // kernarg segment from the code object's metadata.
  std::vector<void *> Params;
  for (const void *Arg : Args)
    Params.push_back(const_cast<void *>(Arg));
  return check(Hip->hipModuleLaunchKernel(
                   reinterpret_cast<hipFunction_t>(Kernel), Config.Grid[0],
                   Config.Grid[1], Config.Grid[2], Config.Block[0],
                   Config.Block[1], Config.Block[2],
                   static_cast<unsigned>(Config.SharedMemoryBytes),
                   /*stream=*/nullptr, Params.data(), /*extra=*/nullptr),
               "hipModuleLaunchKernel");
}

Error AmdRuntime::synchronize() {
  if (Error E = checkReady())
    return E;
  return check(Hip->hipDeviceSynchronize(), "hipDeviceSynchronize");
}

Expected<double> AmdRuntime::time(backend::KernelHandle Kernel,
                                  const backend::LaunchConfig &Config,
                                  ArrayRef<const void *> Args,
                                  unsigned Repeats) {
  if (Error E = checkReady())
    return std::move(E);
  if (Repeats == 0)
    return createStringError("amd runtime: time() needs at least one repeat");
  hipEvent_t Start = nullptr, Stop = nullptr;
  if (Error E = check(Hip->hipEventCreate(&Start), "hipEventCreate"))
    return std::move(E);
  if (Error E = check(Hip->hipEventCreate(&Stop), "hipEventCreate")) {
    Hip->hipEventDestroy(Start);
    return std::move(E);
  }
  auto Measure = [&]() -> Expected<double> {
    if (Error E = check(Hip->hipEventRecord(Start, nullptr), "hipEventRecord"))
      return std::move(E);
    for (unsigned I = 0; I < Repeats; ++I)
      if (Error E = launch(Kernel, Config, Args))
        return std::move(E);
    if (Error E = check(Hip->hipEventRecord(Stop, nullptr), "hipEventRecord"))
      return std::move(E);
    // A fault in the kernel surfaces here, with the runtime's message.
    if (Error E = check(Hip->hipEventSynchronize(Stop), "hipEventSynchronize"))
      return std::move(E);
    float Ms = 0;
    if (Error E = check(Hip->hipEventElapsedTime(&Ms, Start, Stop),
                        "hipEventElapsedTime"))
      return std::move(E);
    return static_cast<double>(Ms) / Repeats;
  };
  Expected<double> Result = Measure();
  Hip->hipEventDestroy(Start);
  Hip->hipEventDestroy(Stop);
  return Result;
}

} // namespace amd
} // namespace tle
