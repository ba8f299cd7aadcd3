//===- NvidiaRuntime.cpp - Run kernels through the CUDA driver ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaRuntime.h"
#include "NvidiaTensorMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace llvm;

namespace tle {
namespace nvidia {

namespace {
// The few driver API types used here, declared by hand (ABI-stable since CUDA
// 4) so that building the plugin needs no CUDA headers.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUjit_option = int;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
/// ParamCounts of a kernel whose parameters the driver does not report.
constexpr size_t UnknownParamCount = ~size_t(0);
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_FUNC_CACHE_PREFER_SHARED = 1;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
template <typename Fn> using FunctionPtr = Fn *;
/// Launches may use this much dynamic shared memory without opting in.
constexpr uint64_t DefaultDynamicSharedLimit = 48 * 1024;
} // namespace

/// The driver entry points, resolved once from libcuda.so.1. The `_v2` names
/// are the ones cuda.h maps the plain names to since CUDA 3.2.
struct CudaDriver {
  /// Never closed: CUDA keeps threads and atexit handlers that would run
  /// into unmapped code, so the driver stays loaded for the process.
  void *Handle = nullptr;
#define TLE_CUDA_FUNCTIONS(X)                                                  \
  X(cuInit, "cuInit", CUresult(unsigned))                                      \
  X(cuGetErrorName, "cuGetErrorName", CUresult(CUresult, const char **))       \
  X(cuGetErrorString, "cuGetErrorString", CUresult(CUresult, const char **))   \
  X(cuDeviceGetCount, "cuDeviceGetCount", CUresult(int *))                     \
  X(cuDeviceGet, "cuDeviceGet", CUresult(CUdevice *, int))                     \
  X(cuDeviceGetName, "cuDeviceGetName", CUresult(char *, int, CUdevice))       \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute",                              \
    CUresult(int *, int, CUdevice))                                            \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                      \
    CUresult(CUcontext *, CUdevice))                                           \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",                 \
    CUresult(CUdevice))                                                        \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult(CUcontext))                   \
  X(cuCtxSynchronize, "cuCtxSynchronize", CUresult())                          \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                  \
    CUresult(CUmodule *, const void *, unsigned, CUjit_option *, void **))     \
  X(cuModuleUnload, "cuModuleUnload", CUresult(CUmodule))                      \
  X(cuModuleGetFunction, "cuModuleGetFunction",                                \
    CUresult(CUfunction *, CUmodule, const char *))                            \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", CUresult(CUfunction, int, int))  \
  X(cuFuncSetCacheConfig, "cuFuncSetCacheConfig", CUresult(CUfunction, int))   \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult(CUdeviceptr *, size_t))              \
  X(cuMemFree, "cuMemFree_v2", CUresult(CUdeviceptr))                          \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2",                                           \
    CUresult(CUdeviceptr, const void *, size_t))                               \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", CUresult(void *, CUdeviceptr, size_t))    \
  X(cuLaunchKernel, "cuLaunchKernel",                                          \
    CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,     \
             unsigned, unsigned, CUstream, void **, void **))                  \
  X(cuEventCreate, "cuEventCreate", CUresult(CUevent *, unsigned))             \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult(CUevent))                    \
  X(cuEventRecord, "cuEventRecord", CUresult(CUevent, CUstream))               \
  X(cuEventSynchronize, "cuEventSynchronize", CUresult(CUevent))               \
  X(cuEventElapsedTime, "cuEventElapsedTime",                                  \
    CUresult(float *, CUevent, CUevent))
#define TLE_DECLARE(Name, Symbol, Type) FunctionPtr<Type> Name = nullptr;
  TLE_CUDA_FUNCTIONS(TLE_DECLARE)
#undef TLE_DECLARE
  /// CUDA 12.4's drivers and later: a kernel's parameters, to refuse a
  /// launch with too few or too many (the driver would read past the
  /// arguments). Null with older drivers.
  FunctionPtr<CUresult(CUfunction, size_t, size_t *, size_t *)>
      cuFuncGetParamInfo = nullptr;
  /// CUDA 12's drivers and later: tensor maps (TMA descriptors) built on
  /// the host. Null with older drivers.
  FunctionPtr<CUresult(void *, int, unsigned, void *, const uint64_t *,
                       const uint64_t *, const unsigned *, const unsigned *,
                       int, int, int, int)>
      cuTensorMapEncodeTiled = nullptr;

  /// Opens the driver library: $TLE_NVIDIA_LIBCUDA if set (a driver outside
  /// the loader's path, or a test), else libcuda.so.1.
  Error load() {
    const char *Override = std::getenv("TLE_NVIDIA_LIBCUDA");
    std::string Library = Override && *Override ? Override : "libcuda.so.1";
    Handle = dlopen(Library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *Reason = dlerror();
      return createStringError(
          formatv("nvidia runtime: {0} not found: no NVIDIA driver on this "
                  "machine ({1})",
                  Library, Reason ? Reason : "dlopen failed")
              .str());
    }
#define TLE_RESOLVE(Name, Symbol, Type)                                        \
  Name = reinterpret_cast<FunctionPtr<Type>>(dlsym(Handle, Symbol));                      \
  if (!Name)                                                                   \
    return createStringError("nvidia runtime: " + Library +                   \
                             " has no symbol " Symbol                          \
                             ": the NVIDIA driver is too old");
    TLE_CUDA_FUNCTIONS(TLE_RESOLVE)
#undef TLE_RESOLVE
    cuFuncGetParamInfo = reinterpret_cast<decltype(cuFuncGetParamInfo)>(
        dlsym(Handle, "cuFuncGetParamInfo"));
    cuTensorMapEncodeTiled = reinterpret_cast<decltype(cuTensorMapEncodeTiled)>(
        dlsym(Handle, "cuTensorMapEncodeTiled"));
    return Error::success();
  }
#undef TLE_CUDA_FUNCTIONS
};

NvidiaRuntime::NvidiaRuntime(int Ordinal)
    : Driver(std::make_unique<CudaDriver>()) {
  if (Error E = init(Ordinal))
    InitError = toString(std::move(E));
}

NvidiaRuntime::~NvidiaRuntime() {
  if (!Context)
    return;
  // Best effort: errors here (e.g. a kernel that faulted earlier poisons the
  // context) were already reported by the call that caused them.
  Driver->cuCtxSetCurrent(Context);
  Driver->cuCtxSynchronize();
  for (backend::DevicePtr Ptr : Allocations)
    Driver->cuMemFree(Ptr);
  for (void *Module : Modules)
    Driver->cuModuleUnload(Module);
  Driver->cuDevicePrimaryCtxRelease(Device);
}

Error NvidiaRuntime::check(int Result, StringRef Call) const {
  if (Result == CUDA_SUCCESS)
    return Error::success();
  const char *Name = nullptr, *Description = nullptr;
  if (Driver->cuGetErrorName(Result, &Name) != CUDA_SUCCESS || !Name)
    Name = "unknown CUresult";
  if (Driver->cuGetErrorString(Result, &Description) != CUDA_SUCCESS ||
      !Description)
    Description = "no description";
  return createStringError(formatv("nvidia runtime: {0}: {1} ({2}): {3}", Call,
                                   Name, Result, Description)
                               .str());
}

Error NvidiaRuntime::init(int Ordinal) {
  if (Error E = Driver->load())
    return E;
  if (Error E = check(Driver->cuInit(0), "cuInit"))
    return E;
  int Count = 0;
  if (Error E = check(Driver->cuDeviceGetCount(&Count), "cuDeviceGetCount"))
    return E;
  if (Ordinal < 0 || Ordinal >= Count)
    return createStringError(
        formatv("nvidia runtime: no CUDA device {0}: the driver sees {1}",
                Ordinal, Count)
            .str());
  if (Error E = check(Driver->cuDeviceGet(&Device, Ordinal), "cuDeviceGet"))
    return E;
  char Name[256] = {};
  int Major = 0, Minor = 0;
  if (Error E = check(Driver->cuDeviceGetName(Name, sizeof(Name), Device),
                      "cuDeviceGetName"))
    return E;
  if (Error E = check(Driver->cuDeviceGetAttribute(
                          &Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                          Device),
                      "cuDeviceGetAttribute"))
    return E;
  if (Error E = check(Driver->cuDeviceGetAttribute(
                          &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                          Device),
                      "cuDeviceGetAttribute"))
    return E;
  DeviceName = formatv("{0} (sm_{1}{2})", Name, Major, Minor).str();
  if (Error E = check(Driver->cuDevicePrimaryCtxRetain(&Context, Device),
                      "cuDevicePrimaryCtxRetain"))
    return E;
  return check(Driver->cuCtxSetCurrent(Context), "cuCtxSetCurrent");
}

Error NvidiaRuntime::checkReady() const {
  if (!InitError.empty())
    return createStringError(InitError);
  return Error::success();
}

Expected<backend::KernelHandle> NvidiaRuntime::loadKernel(StringRef Binary,
                                                         StringRef EntryName) {
  if (Error E = checkReady())
    return std::move(E);
  // PTX is text the driver reads up to a NUL; a cubin is read by its own
  // headers. One NUL-terminated copy serves both.
  std::string Image = Binary.str();
  std::string Entry = EntryName.str();
  // PTX is compiled here by the driver; its log says why it failed.
  std::string Log(8192, '\0');
  CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Log.data(), reinterpret_cast<void *>(Log.size())};
  CUmodule Module = nullptr;
  if (Error E = check(Driver->cuModuleLoadDataEx(&Module, Image.c_str(), 2,
                                                 Options, Values),
                      "cuModuleLoadData")) {
    Log.resize(std::strlen(Log.c_str()));
    if (Log.empty())
      return std::move(E);
    return createStringError(toString(std::move(E)) + "\n" + StringRef(Log).rtrim().str());
  }
  Modules.push_back(Module);
  CUfunction Function = nullptr;
  if (Error E = check(
          Driver->cuModuleGetFunction(&Function, Module, Entry.c_str()),
          "cuModuleGetFunction(" + Entry + ")"))
    return std::move(E);
  return reinterpret_cast<backend::KernelHandle>(Function);
}

Expected<backend::DevicePtr> NvidiaRuntime::allocate(uint64_t Bytes) {
  if (Error E = checkReady())
    return std::move(E);
  CUdeviceptr Ptr = 0;
  if (Error E = check(Driver->cuMemAlloc(&Ptr, std::max<uint64_t>(Bytes, 1)),
                      formatv("cuMemAlloc({0} bytes)", Bytes).str()))
    return std::move(E);
  Allocations.push_back(Ptr);
  return Ptr;
}

Error NvidiaRuntime::free(backend::DevicePtr Ptr) {
  if (Error E = checkReady())
    return E;
  auto It = llvm::find(Allocations, Ptr);
  if (It == Allocations.end())
    return createStringError(
        formatv("nvidia runtime: free of {0:x}, which this runtime did not "
                "allocate or already freed",
                Ptr)
            .str());
  Allocations.erase(It);
  return check(Driver->cuMemFree(Ptr), "cuMemFree");
}

Error NvidiaRuntime::copyToDevice(backend::DevicePtr Dst, const void *Src,
                                  uint64_t Bytes) {
  if (Error E = checkReady())
    return E;
  return check(Driver->cuMemcpyHtoD(Dst, Src, Bytes), "cuMemcpyHtoD");
}

Error NvidiaRuntime::copyFromDevice(void *Dst, backend::DevicePtr Src,
                                    uint64_t Bytes) {
  if (Error E = checkReady())
    return E;
  return check(Driver->cuMemcpyDtoH(Dst, Src, Bytes), "cuMemcpyDtoH");
}

Error NvidiaRuntime::launch(backend::KernelHandle Kernel,
                            const backend::LaunchConfig &Config,
                            ArrayRef<const void *> Args) {
  if (Error E = checkReady())
    return E;
  auto *Function = reinterpret_cast<CUfunction>(Kernel);
  // Beyond 48 KiB a kernel must opt in to dynamic shared memory. It then
  // also asks for the largest shared-memory carveout, as Triton's launcher
  // does: left to the driver, the smallest one that fits (196 KiB of 228
  // for a 192 KiB softmax ring) ran the H200's softmax 4096x16384 and the
  // 8-warp matmul 1024^3 2-4% slower under Nsight Compute (session 13,
  // bench/experiments/profile_ncu.py).
  if (Config.SharedMemoryBytes > DefaultDynamicSharedLimit &&
      SharedOptIn[Function] != Config.SharedMemoryBytes) {
    if (Error E = check(Driver->cuFuncSetAttribute(
                            Function,
                            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                            static_cast<int>(Config.SharedMemoryBytes)),
                        "cuFuncSetAttribute(max dynamic shared memory)"))
      return E;
    if (Error E = check(
            Driver->cuFuncSetCacheConfig(Function, CU_FUNC_CACHE_PREFER_SHARED),
            "cuFuncSetCacheConfig(prefer shared)"))
      return E;
    SharedOptIn[Function] = Config.SharedMemoryBytes;
  }
  if (Driver->cuFuncGetParamInfo) {
    auto [It, New] = ParamCounts.try_emplace(Function, 0);
    if (New) {
      // The first index past the last parameter is an invalid value; any
      // other failure means the driver does not say (unknown: no check).
      size_t Offset, Size;
      CUresult Result;
      while ((Result = Driver->cuFuncGetParamInfo(Function, It->second, &Offset,
                                                  &Size)) == CUDA_SUCCESS)
        ++It->second;
      if (Result != CUDA_ERROR_INVALID_VALUE)
        It->second = UnknownParamCount;
    }
    if (It->second != UnknownParamCount && It->second != Args.size())
      return createStringError(
          formatv("nvidia runtime: the kernel takes {0} arguments, the "
                  "launch gives {1} (after its own arguments a kernel takes "
                  "the tensor maps its manifest's tensor_maps describe, then "
                  "its global scratch: global_scratch_bytes)",
                  It->second, Args.size())
              .str());
  }
  // The driver takes `void **` but only reads the values.
  std::vector<void *> Params;
  for (const void *Arg : Args)
    Params.push_back(const_cast<void *>(Arg));
  return check(Driver->cuLaunchKernel(
                   Function, Config.Grid[0], Config.Grid[1], Config.Grid[2],
                   Config.Block[0], Config.Block[1], Config.Block[2],
                   static_cast<unsigned>(Config.SharedMemoryBytes),
                   /*hStream=*/nullptr, Params.data(), /*extra=*/nullptr),
               "cuLaunchKernel");
}

/// cuTensorMapEncodeTiled's CUtensorMapDataType and element bytes of a
/// --signature element type; 8-bit floats move as bytes.
static std::optional<std::pair<int, unsigned>>
getTensorMapDataType(StringRef Element) {
  return StringSwitch<std::optional<std::pair<int, unsigned>>>(Element)
      .Cases({"i8", "fp8e5", "fp8e4nv"}, std::pair{0, 1u}) // UINT8
      .Case("i16", std::pair{1, 2u})                       // UINT16
      .Case("i32", std::pair{3, 4u})                       // INT32
      .Case("i64", std::pair{5, 8u})                       // INT64
      .Case("fp16", std::pair{6, 2u})                      // FLOAT16
      .Case("fp32", std::pair{7, 4u})                      // FLOAT32
      .Case("fp64", std::pair{8, 8u})                      // FLOAT64
      .Case("bf16", std::pair{9, 2u})                      // BFLOAT16
      .Default(std::nullopt);
}

Error NvidiaRuntime::encodeTensorMap(const backend::LaunchTensorMap &Map,
                                     ArrayRef<const void *> Args, void *Out) {
  if (Error E = checkReady())
    return E;
  if (!Driver->cuTensorMapEncodeTiled)
    return createStringError("nvidia runtime: the driver has no "
                             "cuTensorMapEncodeTiled (CUDA 12 or later "
                             "builds tensor maps)");
  std::optional<std::pair<int, unsigned>> Type =
      getTensorMapDataType(Map.ElementType);
  unsigned Rank = Map.ShapeArgs.size();
  std::optional<unsigned> Swizzle = getTensorMapSwizzleMode(Map.SwizzleBytes);
  if (!Type || !Swizzle || Rank < 1 || Rank > 5 || Map.Box.size() != Rank ||
      Map.StrideArgs.size() + 1 != Rank)
    return createStringError(
        formatv("nvidia runtime: no tensor map of rank {0} with {1} elements "
                "and a swizzle of {2} bytes",
                Rank, Map.ElementType, Map.SwizzleBytes)
            .str());
  // The driver counts dimensions innermost first, strides in bytes.
  uint64_t Base, Dims[5], Strides[4];
  unsigned Box[5], ElementStrides[5];
  std::memcpy(&Base, Args[Map.BaseArg], sizeof(Base));
  for (unsigned D = 0; D < Rank; ++D) {
    int32_t Size;
    std::memcpy(&Size, Args[Map.ShapeArgs[Rank - 1 - D]], sizeof(Size));
    if (Size <= 0)
      return createStringError(
          formatv("nvidia runtime: a tensor descriptor's dimension {0} has "
                  "size {1}; sizes must be positive",
                  Rank - 1 - D, Size)
              .str());
    Dims[D] = uint64_t(Size);
    Box[D] = unsigned(Map.Box[Rank - 1 - D]);
    ElementStrides[D] = 1;
  }
  for (unsigned D = 0; D + 1 < Rank; ++D) {
    int64_t Stride;
    std::memcpy(&Stride, Args[Map.StrideArgs[Rank - 2 - D]], sizeof(Stride));
    Strides[D] = uint64_t(Stride) * Type->second;
  }
  // L2 promotion of 128 bytes, as Triton's host-built maps; zero fill.
  constexpr int InterleaveNone = 0, L2Promotion128B = 2, FillZero = 0;
  CUresult Result = Driver->cuTensorMapEncodeTiled(
      Out, Type->first, Rank, reinterpret_cast<void *>(Base), Dims, Strides,
      Box, ElementStrides, InterleaveNone, *Swizzle, L2Promotion128B, FillZero);
  if (Result == CUDA_SUCCESS)
    return Error::success();
  std::string Shape, StrideText;
  for (unsigned D = Rank; D-- > 0;)
    Shape += (Shape.empty() ? "" : ", ") + std::to_string(Dims[D]);
  for (unsigned D = Rank - 1; D-- > 0;)
    StrideText += (StrideText.empty() ? "" : ", ") + std::to_string(Strides[D]);
  return createStringError(
      toString(check(Result, "cuTensorMapEncodeTiled")) +
      formatv("; the tensor descriptor had base {0:x}, shape [{1}] and "
              "strides [{2}] bytes (the base must be 16-byte aligned, the "
              "strides multiples of 16 bytes)",
              Base, Shape, StrideText)
          .str());
}

Error NvidiaRuntime::synchronize() {
  if (Error E = checkReady())
    return E;
  return check(Driver->cuCtxSynchronize(), "cuCtxSynchronize");
}

Expected<double> NvidiaRuntime::time(backend::KernelHandle Kernel,
                                     const backend::LaunchConfig &Config,
                                     ArrayRef<const void *> Args,
                                     unsigned Repeats) {
  if (Error E = checkReady())
    return std::move(E);
  if (Repeats == 0)
    return createStringError("nvidia runtime: time() needs at least one "
                             "repeat");
  CUevent Start = nullptr, Stop = nullptr;
  if (Error E = check(Driver->cuEventCreate(&Start, 0), "cuEventCreate"))
    return std::move(E);
  if (Error E = check(Driver->cuEventCreate(&Stop, 0), "cuEventCreate")) {
    Driver->cuEventDestroy(Start);
    return std::move(E);
  }
  auto Measure = [&]() -> Expected<double> {
    if (Error E = check(Driver->cuEventRecord(Start, nullptr), "cuEventRecord"))
      return std::move(E);
    for (unsigned I = 0; I < Repeats; ++I)
      if (Error E = launch(Kernel, Config, Args))
        return std::move(E);
    if (Error E = check(Driver->cuEventRecord(Stop, nullptr), "cuEventRecord"))
      return std::move(E);
    // A fault in the kernel surfaces here, with the driver's message.
    if (Error E =
            check(Driver->cuEventSynchronize(Stop), "cuEventSynchronize"))
      return std::move(E);
    float Ms = 0;
    if (Error E = check(Driver->cuEventElapsedTime(&Ms, Start, Stop),
                        "cuEventElapsedTime"))
      return std::move(E);
    return static_cast<double>(Ms) / Repeats;
  };
  Expected<double> Result = Measure();
  Driver->cuEventDestroy(Start);
  Driver->cuEventDestroy(Stop);
  return Result;
}

} // namespace nvidia
} // namespace tle
