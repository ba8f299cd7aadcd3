//===- OpenClRuntime.cpp - Run SPIR-V kernels through OpenCL --------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "OpenClRuntime.h"
#include "ExternalTool.h"
#include "SpirvScalarNulls.h"
#include "SpirvSubgroupEmulation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace llvm;

namespace tle {
namespace spirv {

namespace {
// The few OpenCL 1.2/2.1 types and constants used here, declared by hand
// (the ICD ABI is stable) so that building the plugin needs no OpenCL
// headers.
using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using cl_bitfield = cl_ulong;
using Handle = void *;

constexpr cl_int CL_SUCCESS = 0;
constexpr cl_uint CL_TRUE = 1;
constexpr cl_bitfield CL_DEVICE_TYPE_CPU = 1 << 1;
constexpr cl_bitfield CL_DEVICE_TYPE_ALL = 0xFFFFFFFF;
constexpr cl_uint CL_PLATFORM_NAME = 0x0902;
constexpr cl_uint CL_DEVICE_NAME = 0x102B;
constexpr cl_uint CL_DEVICE_EXTENSIONS = 0x1030;
constexpr cl_uint CL_DEVICE_IL_VERSION = 0x105B;
constexpr cl_uint CL_DEVICE_MAX_NUM_SUB_GROUPS = 0x105C;
constexpr cl_uint CL_PROGRAM_BUILD_LOG = 0x1183;
constexpr cl_bitfield CL_QUEUE_PROFILING_ENABLE = 1 << 1;
constexpr cl_bitfield CL_MEM_READ_WRITE = 1 << 0;
constexpr cl_uint CL_PROFILING_COMMAND_START = 0x1282;
constexpr cl_uint CL_PROFILING_COMMAND_END = 0x1283;

/// Spelled through an alias so that a function type returning Handle is
/// not parsed as a declaration of a member named Handle.
template <typename Fn> using FunctionPtr = Fn *;
using NotifyFn = void (*)(const char *, const void *, size_t, void *);

const char *getErrorName(cl_int Status) {
  switch (Status) {
  case -1:
    return "CL_DEVICE_NOT_FOUND";
  case -2:
    return "CL_DEVICE_NOT_AVAILABLE";
  case -3:
    return "CL_COMPILER_NOT_AVAILABLE";
  case -4:
    return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
  case -5:
    return "CL_OUT_OF_RESOURCES";
  case -6:
    return "CL_OUT_OF_HOST_MEMORY";
  case -7:
    return "CL_PROFILING_INFO_NOT_AVAILABLE";
  case -11:
    return "CL_BUILD_PROGRAM_FAILURE";
  case -30:
    return "CL_INVALID_VALUE";
  case -33:
    return "CL_INVALID_DEVICE";
  case -34:
    return "CL_INVALID_CONTEXT";
  case -36:
    return "CL_INVALID_COMMAND_QUEUE";
  case -38:
    return "CL_INVALID_MEM_OBJECT";
  case -42:
    return "CL_INVALID_BINARY";
  case -43:
    return "CL_INVALID_BUILD_OPTIONS";
  case -44:
    return "CL_INVALID_PROGRAM";
  case -45:
    return "CL_INVALID_PROGRAM_EXECUTABLE";
  case -46:
    return "CL_INVALID_KERNEL_NAME";
  case -48:
    return "CL_INVALID_KERNEL";
  case -49:
    return "CL_INVALID_ARG_INDEX";
  case -50:
    return "CL_INVALID_ARG_VALUE";
  case -51:
    return "CL_INVALID_ARG_SIZE";
  case -52:
    return "CL_INVALID_KERNEL_ARGS";
  case -53:
    return "CL_INVALID_WORK_DIMENSION";
  case -54:
    return "CL_INVALID_WORK_GROUP_SIZE";
  case -55:
    return "CL_INVALID_WORK_ITEM_SIZE";
  case -58:
    return "CL_INVALID_EVENT";
  case -61:
    return "CL_INVALID_BUFFER_SIZE";
  case -1001:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "an OpenCL error";
  }
}

void notifyCallback(const char *Message, const void *, size_t, void *User) {
  static_cast<OpenClRuntime *>(User)->notify(Message);
}
} // namespace

/// The OpenCL entry points, resolved once from the ICD loader.
struct OpenClApi {
  /// Never closed: drivers keep threads that would run into unmapped code.
  void *Library = nullptr;
#define TLE_OPENCL_FUNCTIONS(X)                                                \
  X(clGetPlatformIDs, cl_int(cl_uint, Handle *, cl_uint *))                    \
  X(clGetPlatformInfo, cl_int(Handle, cl_uint, size_t, void *, size_t *))      \
  X(clGetDeviceIDs, cl_int(Handle, cl_bitfield, cl_uint, Handle *, cl_uint *)) \
  X(clGetDeviceInfo, cl_int(Handle, cl_uint, size_t, void *, size_t *))        \
  X(clCreateContext, Handle(const intptr_t *, cl_uint, const Handle *,         \
                            NotifyFn, void *, cl_int *))                       \
  X(clReleaseContext, cl_int(Handle))                                          \
  X(clCreateCommandQueue, Handle(Handle, Handle, cl_bitfield, cl_int *))       \
  X(clReleaseCommandQueue, cl_int(Handle))                                     \
  X(clCreateBuffer, Handle(Handle, cl_bitfield, size_t, void *, cl_int *))     \
  X(clReleaseMemObject, cl_int(Handle))                                        \
  X(clEnqueueWriteBuffer,                                                      \
    cl_int(Handle, Handle, cl_uint, size_t, size_t, const void *, cl_uint,     \
           const Handle *, Handle *))                                          \
  X(clEnqueueReadBuffer, cl_int(Handle, Handle, cl_uint, size_t, size_t,       \
                                void *, cl_uint, const Handle *, Handle *))    \
  X(clCreateProgramWithBinary,                                                 \
    Handle(Handle, cl_uint, const Handle *, const size_t *,                    \
           const unsigned char **, cl_int *, cl_int *))                        \
  X(clBuildProgram,                                                            \
    cl_int(Handle, cl_uint, const Handle *, const char *, void *, void *))     \
  X(clGetProgramBuildInfo,                                                     \
    cl_int(Handle, Handle, cl_uint, size_t, void *, size_t *))                 \
  X(clReleaseProgram, cl_int(Handle))                                          \
  X(clCreateKernel, Handle(Handle, const char *, cl_int *))                    \
  X(clReleaseKernel, cl_int(Handle))                                           \
  X(clSetKernelArg, cl_int(Handle, cl_uint, size_t, const void *))             \
  X(clEnqueueNDRangeKernel,                                                    \
    cl_int(Handle, Handle, cl_uint, const size_t *, const size_t *,            \
           const size_t *, cl_uint, const Handle *, Handle *))                 \
  X(clFinish, cl_int(Handle))                                                  \
  X(clWaitForEvents, cl_int(cl_uint, const Handle *))                          \
  X(clGetEventProfilingInfo,                                                   \
    cl_int(Handle, cl_uint, size_t, void *, size_t *))                         \
  X(clReleaseEvent, cl_int(Handle))
#define TLE_DECLARE(Name, Type) FunctionPtr<Type> Name = nullptr;
  TLE_OPENCL_FUNCTIONS(TLE_DECLARE)
#undef TLE_DECLARE
  /// OpenCL 2.1; null with an older loader.
  FunctionPtr<Handle(Handle, const void *, size_t, cl_int *)>
      clCreateProgramWithIL = nullptr;

  /// Opens $TLE_SPIRV_LIBOPENCL if set (a test, or a loader outside the
  /// search path), else libOpenCL.so.1.
  Error load() {
    const char *Override = std::getenv("TLE_SPIRV_LIBOPENCL");
    std::string Name = Override && *Override ? Override : "libOpenCL.so.1";
    Library = dlopen(Name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Library) {
      const char *Reason = dlerror();
      return createStringError(
          formatv("spirv runtime: {0} not found: no OpenCL ICD loader on this "
                  "machine (Debian: ocl-icd-libopencl1 and pocl-opencl-icd) "
                  "({1})",
                  Name, Reason ? Reason : "dlopen failed")
              .str());
    }
#define TLE_RESOLVE(Name, Type)                                                \
  Name = reinterpret_cast<FunctionPtr<Type>>(dlsym(Library, #Name));           \
  if (!Name)                                                                   \
    return createStringError("spirv runtime: " + Name_ +                       \
                             " has no symbol " #Name);
    const std::string &Name_ = Name;
    TLE_OPENCL_FUNCTIONS(TLE_RESOLVE)
#undef TLE_RESOLVE
    clCreateProgramWithIL = reinterpret_cast<decltype(clCreateProgramWithIL)>(
        dlsym(Library, "clCreateProgramWithIL"));
    return Error::success();
  }
#undef TLE_OPENCL_FUNCTIONS
};

OpenClRuntime::OpenClRuntime(unsigned SubgroupSize)
    : Api(std::make_unique<OpenClApi>()), SubgroupSize(SubgroupSize) {
  if (Error E = init())
    InitError = toString(std::move(E));
}

OpenClRuntime::~OpenClRuntime() {
  // Best effort: errors were reported by the calls that caused them.
  if (Queue)
    Api->clFinish(Queue);
  for (backend::DevicePtr Ptr : Buffers)
    Api->clReleaseMemObject(reinterpret_cast<Handle>(Ptr));
  for (LoadedKernel &K : Kernels)
    Api->clReleaseKernel(K.Kernel);
  for (void *Program : Programs)
    Api->clReleaseProgram(Program);
  if (Queue)
    Api->clReleaseCommandQueue(Queue);
  if (Context)
    Api->clReleaseContext(Context);
}

Error OpenClRuntime::check(int Status, StringRef Call) {
  if (Status == CL_SUCCESS)
    return Error::success();
  std::string Message = formatv("spirv runtime: {0} on {1}: {2} ({3})", Call,
                                DeviceName, getErrorName(Status), Status)
                            .str();
  if (!LastNotification.empty()) {
    Message += ": " + LastNotification;
    LastNotification.clear();
  }
  return createStringError(Message);
}

static std::string
getInfoString(function_ref<cl_int(size_t, void *, size_t *)> Query) {
  size_t Size = 0;
  if (Query(0, nullptr, &Size) != CL_SUCCESS || Size == 0)
    return "";
  std::string Value(Size, '\0');
  if (Query(Size, Value.data(), nullptr) != CL_SUCCESS)
    return "";
  return StringRef(Value.c_str()).trim().str();
}

Error OpenClRuntime::init() {
  // PoCL's default work-group method (loopvec) miscompiles kernels that
  // select among lane values by lane masks across barriers with 16-lane
  // subgroups (a warp exchange of a 16x8 tile on dsa-spirv gave wrong
  // elements; tests/lit/spirv/run-warp-exchange.test); its other methods
  // run them right. Read when PoCL initializes; a value the user set wins.
  setenv("POCL_WORK_GROUP_METHOD", "cbs", /*overwrite=*/0);
  if (Error E = Api->load())
    return E;
  cl_uint NumPlatforms = 0;
  if (Error E = check(Api->clGetPlatformIDs(0, nullptr, &NumPlatforms),
                      "clGetPlatformIDs"))
    return E;
  std::vector<Handle> Platforms(NumPlatforms);
  if (NumPlatforms && Api->clGetPlatformIDs(NumPlatforms, Platforms.data(),
                                            nullptr) != CL_SUCCESS)
    NumPlatforms = 0;
  if (NumPlatforms == 0)
    return createStringError("spirv runtime: the OpenCL loader finds no "
                             "platform (Debian: install pocl-opencl-icd)");
  Handle Platform = nullptr;
  for (cl_bitfield Type : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ALL}) {
    for (Handle P : Platforms)
      if (Api->clGetDeviceIDs(P, Type, 1, &Device, nullptr) == CL_SUCCESS) {
        Platform = P;
        break;
      }
    if (Platform)
      break;
  }
  if (!Platform)
    return createStringError("spirv runtime: no OpenCL platform has a device");
  DeviceName =
      getInfoString([&](size_t N, void *V, size_t *R) {
        return Api->clGetDeviceInfo(Device, CL_DEVICE_NAME, N, V, R);
      }) +
      " (" + getInfoString([&](size_t N, void *V, size_t *R) {
        return Api->clGetPlatformInfo(Platform, CL_PLATFORM_NAME, N, V, R);
      }) +
      ")";
  std::string Il = getInfoString([&](size_t N, void *V, size_t *R) {
    return Api->clGetDeviceInfo(Device, CL_DEVICE_IL_VERSION, N, V, R);
  });
  std::string Extensions = getInfoString([&](size_t N, void *V, size_t *R) {
    return Api->clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, N, V, R);
  });
  TakesSpirv = StringRef(Il).contains("SPIR-V") && Api->clCreateProgramWithIL;
  // OpenCL 2.1; an older device fails the query and has none.
  cl_uint MaxSubgroups = 0;
  if (Api->clGetDeviceInfo(Device, CL_DEVICE_MAX_NUM_SUB_GROUPS,
                           sizeof(MaxSubgroups), &MaxSubgroups,
                           nullptr) != CL_SUCCESS)
    MaxSubgroups = 0;
  // SPIR 1.2 bitcode has no subgroups either.
  HasSubgroups = TakesSpirv && MaxSubgroups > 0;
  if (!TakesSpirv && !StringRef(Extensions).contains("cl_khr_spir"))
    return createStringError("spirv runtime: OpenCL device " + DeviceName +
                             " takes neither SPIR-V (CL_DEVICE_IL_VERSION) "
                             "nor SPIR 1.2 (cl_khr_spir)");
  cl_int Status = CL_SUCCESS;
  Context =
      Api->clCreateContext(nullptr, 1, &Device, notifyCallback, this, &Status);
  if (Error E = check(Status, "clCreateContext"))
    return E;
  Queue = Api->clCreateCommandQueue(Context, Device, CL_QUEUE_PROFILING_ENABLE,
                                    &Status);
  return check(Status, "clCreateCommandQueue");
}

Error OpenClRuntime::checkReady() const {
  if (!InitError.empty())
    return createStringError(InitError);
  return Error::success();
}

Expected<void *> OpenClRuntime::buildProgram(StringRef Binary) {
  // Subgroup instructions become Workgroup-memory exchanges of subgroups of
  // the description's size (SpirvSubgroupEmulation.h).
  std::string Emulated;
  if (!HasSubgroups) {
    Expected<EmulatedSubgroups> Rewritten =
        emulateSubgroups(Binary, SubgroupSize);
    if (!Rewritten)
      return Rewritten.takeError();
    if (Rewritten->Rewritten) {
      Emulated = std::move(Rewritten->Binary);
      Binary = Emulated;
      EmulatedSubgroupOps += Rewritten->Rewritten;
    }
  }
  cl_int Status = CL_SUCCESS;
  Handle Program = nullptr;
  const char *Options = "";
  if (TakesSpirv) {
    Program = Api->clCreateProgramWithIL(Context, Binary.data(), Binary.size(),
                                         &Status);
    if (Error E = check(Status, "clCreateProgramWithIL"))
      return std::move(E);
  } else {
    std::string Translator =
        findTool("TLE_LLVM_SPIRV", {"llvm-spirv-15", "llvm-spirv"});
    if (Translator.empty())
      return createStringError(
          "spirv runtime: " + DeviceName +
          " takes SPIR 1.2 bitcode, not SPIR-V, and llvm-spirv is not "
          "installed to translate (Debian: llvm-spirv-15; or set "
          "TLE_LLVM_SPIRV)");
    Expected<std::string> Spelled = rewriteScalarNulls(Binary);
    if (!Spelled)
      return Spelled.takeError();
    Expected<std::string> Bitcode =
        runTool(Translator, *Spelled, [](StringRef In, StringRef Out) {
          return std::vector<std::string>{"-r", In.str(), "-o", Out.str()};
        });
    if (!Bitcode)
      return createStringError("spirv runtime: cannot translate the SPIR-V "
                               "to SPIR 1.2 bitcode: " +
                               toString(Bitcode.takeError()));
    const auto *Bytes =
        reinterpret_cast<const unsigned char *>(Bitcode->data());
    size_t Size = Bitcode->size();
    cl_int BinaryStatus = CL_SUCCESS;
    Program = Api->clCreateProgramWithBinary(Context, 1, &Device, &Size, &Bytes,
                                             &BinaryStatus, &Status);
    if (Error E = check(Status != CL_SUCCESS ? Status : BinaryStatus,
                        "clCreateProgramWithBinary"))
      return std::move(E);
    // cl_khr_spir: a SPIR binary is built with -x spir.
    Options = "-x spir -spir-std=1.2";
  }
  Programs.push_back(Program);
  Status = Api->clBuildProgram(Program, 1, &Device, Options, nullptr, nullptr);
  if (Status != CL_SUCCESS) {
    std::string Log = getInfoString([&](size_t N, void *V, size_t *R) {
      return Api->clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG,
                                        N, V, R);
    });
    Error E = check(Status, "clBuildProgram");
    if (Log.empty())
      return std::move(E);
    return createStringError(toString(std::move(E)) + "\n" + Log);
  }
  return Program;
}

Expected<backend::KernelHandle> OpenClRuntime::loadKernel(StringRef Binary,
                                                          StringRef EntryName) {
  if (Error E = checkReady())
    return std::move(E);
  Expected<std::vector<KernelParameter>> Params =
      readKernelSignature(Binary, EntryName);
  if (!Params)
    return Params.takeError();
  Expected<void *> Program = buildProgram(Binary);
  if (!Program)
    return Program.takeError();
  cl_int Status = CL_SUCCESS;
  std::string Entry = EntryName.str();
  Handle Kernel = Api->clCreateKernel(*Program, Entry.c_str(), &Status);
  if (Error E = check(Status, "clCreateKernel(" + Entry + ")"))
    return std::move(E);
  Kernels.push_back({Kernel, std::move(*Params)});
  return Kernels.size();
}

Expected<backend::DevicePtr> OpenClRuntime::allocate(uint64_t Bytes) {
  if (Error E = checkReady())
    return std::move(E);
  cl_int Status = CL_SUCCESS;
  Handle Buffer =
      Api->clCreateBuffer(Context, CL_MEM_READ_WRITE,
                          std::max<uint64_t>(Bytes, 1), nullptr, &Status);
  if (Error E =
          check(Status, formatv("clCreateBuffer({0} bytes)", Bytes).str()))
    return std::move(E);
  auto Ptr = reinterpret_cast<backend::DevicePtr>(Buffer);
  Buffers.push_back(Ptr);
  return Ptr;
}

Expected<void *> OpenClRuntime::getBuffer(backend::DevicePtr Ptr) const {
  if (!is_contained(Buffers, Ptr))
    return createStringError(
        formatv("spirv runtime: {0:x} is not a buffer of this runtime (an "
                "OpenCL buffer is used whole, never at an offset)",
                Ptr)
            .str());
  return reinterpret_cast<void *>(Ptr);
}

Error OpenClRuntime::free(backend::DevicePtr Ptr) {
  if (Error E = checkReady())
    return E;
  Expected<void *> Buffer = getBuffer(Ptr);
  if (!Buffer)
    return Buffer.takeError();
  Buffers.erase(find(Buffers, Ptr));
  return check(Api->clReleaseMemObject(*Buffer), "clReleaseMemObject");
}

Error OpenClRuntime::copyToDevice(backend::DevicePtr Dst, const void *Src,
                                  uint64_t Bytes) {
  if (Error E = checkReady())
    return E;
  Expected<void *> Buffer = getBuffer(Dst);
  if (!Buffer)
    return Buffer.takeError();
  return check(Api->clEnqueueWriteBuffer(Queue, *Buffer, CL_TRUE, 0, Bytes, Src,
                                         0, nullptr, nullptr),
               "clEnqueueWriteBuffer");
}

Error OpenClRuntime::copyFromDevice(void *Dst, backend::DevicePtr Src,
                                    uint64_t Bytes) {
  if (Error E = checkReady())
    return E;
  Expected<void *> Buffer = getBuffer(Src);
  if (!Buffer)
    return Buffer.takeError();
  return check(Api->clEnqueueReadBuffer(Queue, *Buffer, CL_TRUE, 0, Bytes, Dst,
                                        0, nullptr, nullptr),
               "clEnqueueReadBuffer");
}

Error OpenClRuntime::enqueue(const LoadedKernel &K,
                             const backend::LaunchConfig &Config,
                             ArrayRef<const void *> Args, void **Event) {
  if (Args.size() != K.Params.size())
    return createStringError(formatv("spirv runtime: the kernel takes {0} "
                                     "arguments, but the launch passes {1}",
                                     K.Params.size(), Args.size())
                                 .str());
  for (auto [I, Param] : enumerate(K.Params)) {
    if (!Param.IsBuffer) {
      if (Error E =
              check(Api->clSetKernelArg(K.Kernel, I, Param.Bytes, Args[I]),
                    formatv("clSetKernelArg({0})", I).str()))
        return E;
      continue;
    }
    backend::DevicePtr Ptr;
    std::memcpy(&Ptr, Args[I], sizeof(Ptr));
    Expected<void *> Buffer = getBuffer(Ptr);
    if (!Buffer)
      return createStringError(
          formatv("argument {0}: {1}", I, toString(Buffer.takeError())).str());
    Handle Mem = *Buffer;
    if (Error E = check(Api->clSetKernelArg(K.Kernel, I, sizeof(Mem), &Mem),
                        formatv("clSetKernelArg({0})", I).str()))
      return E;
  }
  // Block-level memory is static in the binary (see SpirvBackend), so
  // Config.SharedMemoryBytes asks for nothing here.
  size_t Local[3], Global[3];
  for (unsigned D = 0; D < 3; ++D) {
    Local[D] = Config.Block[D];
    Global[D] = size_t(Config.Grid[D]) * Config.Block[D];
  }
  return check(Api->clEnqueueNDRangeKernel(Queue, K.Kernel, 3, nullptr, Global,
                                           Local, 0, nullptr, Event),
               "clEnqueueNDRangeKernel");
}

Error OpenClRuntime::launch(backend::KernelHandle Kernel,
                            const backend::LaunchConfig &Config,
                            ArrayRef<const void *> Args) {
  if (Error E = checkReady())
    return E;
  if (Kernel == 0 || Kernel > Kernels.size())
    return createStringError("spirv runtime: unknown kernel handle");
  return enqueue(Kernels[Kernel - 1], Config, Args, nullptr);
}

Error OpenClRuntime::synchronize() {
  if (Error E = checkReady())
    return E;
  return check(Api->clFinish(Queue), "clFinish");
}

Expected<double> OpenClRuntime::time(backend::KernelHandle Kernel,
                                     const backend::LaunchConfig &Config,
                                     ArrayRef<const void *> Args,
                                     unsigned Repeats) {
  if (Error E = checkReady())
    return std::move(E);
  if (Kernel == 0 || Kernel > Kernels.size())
    return createStringError("spirv runtime: unknown kernel handle");
  if (Repeats == 0)
    return createStringError("spirv runtime: time() needs at least one "
                             "repeat");
  std::vector<Handle> Events;
  scope_exit Release([&] {
    for (Handle E : Events)
      Api->clReleaseEvent(E);
  });
  for (unsigned I = 0; I < Repeats; ++I) {
    Handle Event = nullptr;
    if (Error E = enqueue(Kernels[Kernel - 1], Config, Args, &Event))
      return std::move(E);
    Events.push_back(Event);
  }
  if (Error E = check(Api->clWaitForEvents(Events.size(), Events.data()),
                      "clWaitForEvents"))
    return std::move(E);
  cl_ulong Start = 0, End = 0;
  if (Error E = check(Api->clGetEventProfilingInfo(
                          Events.front(), CL_PROFILING_COMMAND_START,
                          sizeof(Start), &Start, nullptr),
                      "clGetEventProfilingInfo"))
    return std::move(E);
  if (Error E = check(Api->clGetEventProfilingInfo(Events.back(),
                                                   CL_PROFILING_COMMAND_END,
                                                   sizeof(End), &End, nullptr),
                      "clGetEventProfilingInfo"))
    return std::move(E);
  return double(End - Start) / 1e6 / Repeats;
}

} // namespace spirv
} // namespace tle
