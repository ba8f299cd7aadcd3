//===- FakeCuda.cpp - A CUDA driver that runs nothing, for tests ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// libcuda.so.1 for machines without a GPU (CI): the entry points the NVIDIA
// runtime plugin resolves, with one device, host memory for device memory,
// and kernels that do not run. Each call that configures or launches a
// kernel is written to stderr, so that a lit test can check how the plugin
// launches (tests/lit/runtime/launch-config.test, via TLE_NVIDIA_LIBCUDA).
// FAKE_CUDA_FAIL=NAME makes entry point NAME fail with
// CUDA_ERROR_ILLEGAL_ADDRESS (cuModuleLoadDataEx with a JIT log), to test
// how driver errors reach the user (tests/lit/runtime/driver-errors.test).
// FAKE_CUDA_LOG_ALLOC=1 also writes each allocation's size;
// FAKE_CUDA_PARAMS=N says kernels take N parameters.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
constexpr int IllegalAddress = 700;

/// IllegalAddress when FAKE_CUDA_FAIL names the calling entry point.
int failure(const char *Name) {
  const char *Fail = std::getenv("FAKE_CUDA_FAIL");
  return Fail && std::strcmp(Fail, Name) == 0 ? IllegalAddress : 0;
}
} // namespace

extern "C" {
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;

CUresult cuInit(unsigned) { return 0; }
CUresult cuGetErrorName(CUresult Result, const char **Name) {
  *Name = Result == IllegalAddress ? "CUDA_ERROR_ILLEGAL_ADDRESS"
                                   : "CUDA_ERROR_FAKE";
  return 0;
}
CUresult cuGetErrorString(CUresult Result, const char **Text) {
  *Text = Result == IllegalAddress
              ? "an illegal memory access was encountered"
              : "fake driver";
  return 0;
}
CUresult cuDeviceGetCount(int *Count) {
  *Count = 1;
  return 0;
}
CUresult cuDeviceGet(CUdevice *Device, int Ordinal) {
  *Device = Ordinal;
  return 0;
}
CUresult cuDeviceGetName(char *Name, int Length, CUdevice) {
  std::snprintf(Name, Length, "Fake H200");
  return 0;
}
CUresult cuDeviceGetAttribute(int *Value, int Attribute, CUdevice) {
  // Compute capability 9.0 (attributes 75 and 76).
  *Value = Attribute == 75 ? 9 : 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **Context, CUdevice) {
  static int Token;
  *Context = &Token;
  return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return 0; }
CUresult cuCtxSetCurrent(void *) { return 0; }
CUresult cuCtxSynchronize() { return 0; }
CUresult cuModuleLoadDataEx(void **Module, const void *, unsigned Count,
                            int *Options, void **Values) {
  if (CUresult Result = failure("cuModuleLoadDataEx")) {
    // CU_JIT_ERROR_LOG_BUFFER (5) receives the JIT's log.
    for (unsigned I = 0; I < Count; ++I)
      if (Options[I] == 5)
        std::strcpy(static_cast<char *>(Values[I]),
                    "ptxas fatal   : fake JIT failure\n");
    return Result;
  }
  static int Token;
  *Module = &Token;
  return 0;
}
CUresult cuModuleUnload(void *) { return 0; }
CUresult cuModuleGetFunction(void **Function, void *, const char *Name) {
  std::fprintf(stderr, "fake-cuda: cuModuleGetFunction(%s)\n", Name);
  static int Token;
  *Function = &Token;
  return 0;
}
CUresult cuFuncSetAttribute(void *, int Attribute, int Value) {
  std::fprintf(stderr, "fake-cuda: cuFuncSetAttribute(%d, %d)\n", Attribute,
               Value);
  return 0;
}
CUresult cuFuncSetCacheConfig(void *, int Config) {
  std::fprintf(stderr, "fake-cuda: cuFuncSetCacheConfig(%d)\n", Config);
  return 0;
}
/// FAKE_CUDA_PARAMS=N: every kernel takes N 8-byte parameters; unset, the
/// parameters are unknown, as with drivers before CUDA 12.4.
CUresult cuFuncGetParamInfo(void *, size_t Index, size_t *Offset,
                            size_t *Size) {
  const char *Params = std::getenv("FAKE_CUDA_PARAMS");
  if (!Params)
    return 801; // CUDA_ERROR_NOT_SUPPORTED
  if (Index >= std::strtoul(Params, nullptr, 10))
    return 1; // CUDA_ERROR_INVALID_VALUE
  *Offset = 8 * Index;
  *Size = 8;
  return 0;
}
CUresult cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes) {
  if (std::getenv("FAKE_CUDA_LOG_ALLOC"))
    std::fprintf(stderr, "fake-cuda: cuMemAlloc(%zu)\n", Bytes);
  *Ptr = reinterpret_cast<CUdeviceptr>(std::calloc(1, Bytes));
  return *Ptr ? 0 : 2;
}
CUresult cuMemFree_v2(CUdeviceptr Ptr) {
  std::free(reinterpret_cast<void *>(Ptr));
  return 0;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr Dst, const void *Src, size_t Bytes) {
  std::memcpy(reinterpret_cast<void *>(Dst), Src, Bytes);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *Dst, CUdeviceptr Src, size_t Bytes) {
  std::memcpy(Dst, reinterpret_cast<const void *>(Src), Bytes);
  return 0;
}
CUresult cuLaunchKernel(void *, unsigned GridX, unsigned GridY, unsigned GridZ,
                        unsigned BlockX, unsigned BlockY, unsigned BlockZ,
                        unsigned Shared, void *, void **, void **) {
  std::fprintf(stderr,
               "fake-cuda: cuLaunchKernel(grid %u,%u,%u, block %u,%u,%u, "
               "shared %u)\n",
               GridX, GridY, GridZ, BlockX, BlockY, BlockZ, Shared);
  return failure("cuLaunchKernel");
}
CUresult cuTensorMapEncodeTiled(void *Map, int Type, unsigned Rank, void *,
                                const uint64_t *Dims, const uint64_t *Strides,
                                const unsigned *Box, const unsigned *,
                                int Interleave, int Swizzle, int L2Promotion,
                                int Fill) {
  std::fprintf(stderr,
               "fake-cuda: cuTensorMapEncodeTiled(type %d, rank %u, "
               "dims",
               Type, Rank);
  for (unsigned D = 0; D < Rank; ++D)
    std::fprintf(stderr, " %llu", (unsigned long long)Dims[D]);
  std::fprintf(stderr, ", strides");
  for (unsigned D = 0; D + 1 < Rank; ++D)
    std::fprintf(stderr, " %llu", (unsigned long long)Strides[D]);
  std::fprintf(stderr, ", box");
  for (unsigned D = 0; D < Rank; ++D)
    std::fprintf(stderr, " %u", Box[D]);
  std::fprintf(stderr, ", interleave %d, swizzle %d, l2 %d, fill %d)\n",
               Interleave, Swizzle, L2Promotion, Fill);
  std::memset(Map, 0, 128);
  return failure("cuTensorMapEncodeTiled");
}
CUresult cuEventCreate(void **Event, unsigned) {
  static int Token;
  *Event = &Token;
  return 0;
}
CUresult cuEventDestroy_v2(void *) { return 0; }
CUresult cuEventRecord(void *, void *) { return 0; }
CUresult cuEventSynchronize(void *) { return 0; }
CUresult cuEventElapsedTime(float *Ms, void *, void *) {
  *Ms = 1.0f;
  return 0;
}
}
