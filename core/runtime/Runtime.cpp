//===- Runtime.cpp - Load, launch and time compiled kernels ---------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/runtime/Runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"

#include <limits>
#include <vector>

using namespace llvm;

namespace tle {
namespace runtime {

json::Array launchTensorMapsToJSON(ArrayRef<backend::LaunchTensorMap> Maps) {
  json::Array Result;
  for (const backend::LaunchTensorMap &M : Maps)
    Result.push_back(json::Object{{"base", M.BaseArg},
                                  {"shape", json::Array(M.ShapeArgs)},
                                  {"strides", json::Array(M.StrideArgs)},
                                  {"box", json::Array(M.Box)},
                                  {"element", M.ElementType},
                                  {"swizzle", M.SwizzleBytes}});
  return Result;
}

Expected<std::vector<backend::LaunchTensorMap>>
launchTensorMapsFromJSON(const json::Value &Value) {
  auto Bad = [](const Twine &What) {
    return createStringError("tensor_maps: " + What);
  };
  const json::Array *List = Value.getAsArray();
  if (!List)
    return Bad("not an array");
  std::vector<backend::LaunchTensorMap> Maps;
  for (const json::Value &Item : *List) {
    const json::Object *O = Item.getAsObject();
    if (!O)
      return Bad("an entry is not an object");
    backend::LaunchTensorMap M;
    auto Ints = [&](StringRef Key, auto &Out) -> Error {
      const json::Array *A = O->getArray(Key);
      if (!A)
        return Bad("an entry lacks the array '" + Key + "'");
      for (const json::Value &V : *A) {
        std::optional<int64_t> I = V.getAsInteger();
        if (!I || *I < 0)
          return Bad("'" + Key + "' holds a value that is no index or size");
        Out.push_back(*I);
      }
      return Error::success();
    };
    std::optional<int64_t> Base = O->getInteger("base");
    std::optional<int64_t> Swizzle = O->getInteger("swizzle");
    std::optional<StringRef> Element = O->getString("element");
    if (!Base || *Base < 0 || !Swizzle || *Swizzle < 0 || !Element)
      return Bad("an entry lacks 'base', 'swizzle' or 'element'");
    M.BaseArg = unsigned(*Base);
    M.SwizzleBytes = unsigned(*Swizzle);
    M.ElementType = Element->str();
    if (Error E = Ints("shape", M.ShapeArgs))
      return std::move(E);
    if (Error E = Ints("strides", M.StrideArgs))
      return std::move(E);
    if (Error E = Ints("box", M.Box))
      return std::move(E);
    if (M.ShapeArgs.empty() || M.ShapeArgs.size() != M.Box.size() ||
        M.StrideArgs.size() + 1 != M.ShapeArgs.size())
      return Bad("an entry's shape, strides and box disagree in rank");
    Maps.push_back(std::move(M));
  }
  return Maps;
}

void writeLaunchTensorMaps(json::Object &Target,
                           ArrayRef<backend::LaunchTensorMap> Maps) {
  if (!Maps.empty())
    Target["tensor_maps"] = launchTensorMapsToJSON(Maps);
}

Expected<std::vector<backend::LaunchTensorMap>>
readLaunchTensorMaps(const json::Object &Target) {
  if (const json::Value *Maps = Target.get("tensor_maps"))
    return launchTensorMapsFromJSON(*Maps);
  return std::vector<backend::LaunchTensorMap>();
}

Buffer &Buffer::operator=(Buffer &&Other) noexcept {
  if (this != &Other) {
    release();
    Owner = std::exchange(Other.Owner, nullptr);
    Ptr = std::exchange(Other.Ptr, 0);
    Size = std::exchange(Other.Size, 0);
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
  if (!Owner)
    return;
  // A destructor cannot report: a failed free means the device is already
  // broken, and the call that broke it reported why.
  consumeError(Owner->Impl->free(Ptr));
  Owner = nullptr;
}

Error Buffer::write(const void *Src, uint64_t Bytes) {
  if (!Owner)
    return createStringError("write to a buffer that holds no memory");
  if (Bytes > Size)
    return createStringError("write of " + Twine(Bytes) + " bytes into a " +
                             Twine(Size) + "-byte buffer");
  return Owner->withContext(Owner->Impl->copyToDevice(Ptr, Src, Bytes),
                            "copying to the device");
}

Error Buffer::read(void *Dst, uint64_t Bytes) const {
  if (!Owner)
    return createStringError("read from a buffer that holds no memory");
  if (Bytes > Size)
    return createStringError("read of " + Twine(Bytes) + " bytes from a " +
                             Twine(Size) + "-byte buffer");
  return Owner->withContext(Owner->Impl->copyFromDevice(Dst, Ptr, Bytes),
                            "copying from the device");
}

Device::Device(std::unique_ptr<backend::Runtime> Impl,
               std::shared_ptr<void> Owner, std::string TargetName,
               unsigned WarpSize)
    : Impl(std::move(Impl)), Owner(std::move(Owner)),
      TargetName(std::move(TargetName)), WarpSize(WarpSize) {}

Device::~Device() {
  if (ScratchBytes)
    consumeError(Impl->free(Scratch));
  // The runtime's code lives in the library Owner keeps loaded.
  Impl.reset();
}

Error Device::withContext(Error E, const Twine &What) const {
  if (!E)
    return E;
  return createStringError(TargetName + ": " + What + ": " +
                           toString(std::move(E)));
}

Expected<Kernel> Device::loadKernel(StringRef Binary, StringRef Entry) {
  Expected<backend::KernelHandle> H = Impl->loadKernel(Binary, Entry);
  if (!H)
    return withContext(H.takeError(), "loading kernel '" + Entry + "'");
  return Kernel{*H, Entry.str()};
}

Expected<Kernel> Device::loadKernelFile(StringRef Path, StringRef Entry) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!File)
    return createStringError(Path + ": cannot read: " +
                             File.getError().message());
  Expected<Kernel> K = loadKernel((*File)->getBuffer(), Entry);
  if (!K)
    return createStringError(Path + ": " + toString(K.takeError()));
  return K;
}

Expected<Buffer> Device::allocate(uint64_t Bytes) {
  Expected<backend::DevicePtr> Ptr = Impl->allocate(Bytes);
  if (!Ptr)
    return withContext(Ptr.takeError(),
                       "allocating " + Twine(Bytes) + " bytes");
  return Buffer(this, *Ptr, Bytes);
}

Expected<std::pair<backend::LaunchConfig, std::vector<const void *>>>
Device::lower(const LaunchDims &Dims, ArrayRef<KernelArg> Args) {
  backend::LaunchConfig Config;
  Config.Grid = Dims.Grid;
  Config.Block = {Dims.Threads, 1, 1};
  Config.SharedMemoryBytes = Dims.SharedMemoryBytes;
  std::vector<const void *> Pointers;
  for (const KernelArg &A : Args)
    Pointers.push_back(A.getData());
  if (!Dims.TensorMaps.empty()) {
    unsigned MapBytes = Impl->getLaunchTensorMapBytes();
    if (MapBytes == 0 || MapBytes > sizeof(TensorMapBytes))
      return createStringError(
          "the kernel takes tensor maps built at launch (the manifest's "
          "tensor_maps), which this device's runtime does not build");
    // The maps' storage must not move once pointed at.
    TensorMaps.assign(Dims.TensorMaps.size(), TensorMapBytes());
    for (auto [Map, Storage] : zip(Dims.TensorMaps, TensorMaps)) {
      SmallVector<unsigned> Read{Map.BaseArg};
      append_range(Read, Map.ShapeArgs);
      append_range(Read, Map.StrideArgs);
      for (unsigned Arg : Read)
        if (Arg >= Args.size())
          return createStringError("a tensor map reads argument " + Twine(Arg) +
                                   ", but the launch has " +
                                   Twine(Args.size()));
      if (Error E = Impl->encodeTensorMap(Map, Pointers, Storage.Bytes))
        return std::move(E);
    }
    for (TensorMapBytes &Storage : TensorMaps)
      Pointers.push_back(Storage.Bytes);
  }
  if (Dims.GlobalScratchBytes) {
    uint64_t Bytes = Dims.GlobalScratchBytes;
    for (unsigned G : Dims.Grid) {
      if (Bytes > std::numeric_limits<uint64_t>::max() / G)
        return createStringError("the grid's global scratch (" +
                                 Twine(Dims.GlobalScratchBytes) +
                                 " bytes per program) does not fit 64 bits");
      Bytes *= G;
    }
    if (Bytes > ScratchBytes) {
      // Earlier launches may still run on the old scratch.
      if (ScratchBytes) {
        if (Error E = Impl->synchronize())
          return std::move(E);
        if (Error E = Impl->free(Scratch))
          return std::move(E);
        ScratchBytes = 0;
      }
      Expected<backend::DevicePtr> Ptr = Impl->allocate(Bytes);
      if (!Ptr)
        return Ptr.takeError();
      Scratch = *Ptr;
      ScratchBytes = Bytes;
    }
    Pointers.push_back(&Scratch);
  }
  return std::make_pair(Config, std::move(Pointers));
}

static Error checkDims(const LaunchDims &Dims) {
  if (Dims.Threads == 0)
    return createStringError("a launch needs at least one thread per block");
  for (unsigned G : Dims.Grid)
    if (G == 0)
      return createStringError("a launch needs a grid of at least 1 in "
                               "every dimension");
  return Error::success();
}

Error Device::launch(const Kernel &K, const LaunchDims &Dims,
                     ArrayRef<KernelArg> Args) {
  if (Error E = checkDims(Dims))
    return withContext(std::move(E), "launching '" + K.Name + "'");
  auto Lowered = lower(Dims, Args);
  if (!Lowered)
    return withContext(Lowered.takeError(), "launching '" + K.Name + "'");
  auto &[Config, Pointers] = *Lowered;
  return withContext(Impl->launch(K.Handle, Config, Pointers),
                     "launching '" + K.Name + "'");
}

Error Device::synchronize() {
  return withContext(Impl->synchronize(), "synchronizing");
}

Expected<double> Device::time(const Kernel &K, const LaunchDims &Dims,
                              ArrayRef<KernelArg> Args, unsigned Repeats) {
  if (Error E = checkDims(Dims))
    return withContext(std::move(E), "timing '" + K.Name + "'");
  auto Lowered = lower(Dims, Args);
  if (!Lowered)
    return withContext(Lowered.takeError(), "timing '" + K.Name + "'");
  auto &[Config, Pointers] = *Lowered;
  Expected<double> Ms = Impl->time(K.Handle, Config, Pointers, Repeats);
  if (!Ms)
    return withContext(Ms.takeError(), "timing '" + K.Name + "'");
  return Ms;
}

} // namespace runtime
} // namespace tle
