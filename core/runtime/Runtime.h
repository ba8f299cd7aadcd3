//===- Runtime.h - Load, launch and time compiled kernels -------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The runtime API a kernel author's program uses: open a device, load the
// binary tlec wrote for it, allocate and copy buffers, launch with a grid and
// typed arguments, synchronize, and time with the device's own events. It is
// vendor neutral: a Device wraps the backend::Runtime of the plugin that
// serves the target (see OpenDevice.h), and every error carries the message
// the vendor's runtime produced, prefixed with what was being done.
//
// Only LLVM's Support library is needed here, so the same code also runs
// linked statically against one plugin's runtime (bench/ does that on a
// machine without LLVM).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_RUNTIME_RUNTIME_H
#define TLE_CORE_RUNTIME_RUNTIME_H

#include "tle/Backend/Runtime.h"

#include "llvm/Support/JSON.h"

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace tle {
namespace runtime {

class Device;

/// Device memory owned by a Device; freed when the Buffer goes away (which
/// must be before its Device).
class Buffer {
public:
  Buffer() = default;
  Buffer(Buffer &&Other) noexcept { *this = std::move(Other); }
  Buffer &operator=(Buffer &&Other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();

  backend::DevicePtr getPointer() const { return Ptr; }
  uint64_t getSize() const { return Size; }

  /// Copies Bytes (at most getSize()) from host memory into the buffer.
  llvm::Error write(const void *Src, uint64_t Bytes);
  /// Copies Bytes (at most getSize()) from the buffer to host memory. Waits
  /// for the launches before it.
  llvm::Error read(void *Dst, uint64_t Bytes) const;

private:
  friend class Device;
  Buffer(Device *Owner, backend::DevicePtr Ptr, uint64_t Size)
      : Owner(Owner), Ptr(Ptr), Size(Size) {}
  void release();

  Device *Owner = nullptr;
  backend::DevicePtr Ptr = 0;
  uint64_t Size = 0;
};

/// A kernel entry loaded from a binary; valid while its Device lives.
struct Kernel {
  backend::KernelHandle Handle = 0;
  std::string Name;
};

/// One kernel argument, stored by value as the launch passes it.
class KernelArg {
public:
  static KernelArg pointer(const Buffer &B) { return raw(B.getPointer()); }
  static KernelArg i32(int32_t V) { return raw(V); }
  static KernelArg i64(int64_t V) { return raw(V); }
  static KernelArg f32(float V) { return raw(V); }
  static KernelArg f64(double V) { return raw(V); }

  const void *getData() const { return &Storage; }

private:
  template <typename T> static KernelArg raw(T V) {
    static_assert(sizeof(T) <= sizeof(uint64_t), "argument too wide");
    KernelArg A;
    std::memcpy(&A.Storage, &V, sizeof(T));
    return A;
  }
  uint64_t Storage = 0;
};

struct LaunchDims {
  std::array<unsigned, 3> Grid = {1, 1, 1};
  /// Threads per block (work-group), along x.
  unsigned Threads = 0;
  uint64_t SharedMemoryBytes = 0;
  /// Global memory per program the kernel takes after its own arguments
  /// (the manifest's global_scratch_bytes: tensor maps); the device
  /// provides it.
  uint64_t GlobalScratchBytes = 0;
  /// Tensor maps built from the arguments and passed after them, before
  /// the global scratch (the manifest's tensor_maps); the device's runtime
  /// builds them at each launch.
  std::vector<backend::LaunchTensorMap> TensorMaps;
};

/// A bundle manifest's `tensor_maps`: one object per map with `base`,
/// `shape`, `strides` (argument indices), `box`, `element` and `swizzle`.
llvm::json::Array
launchTensorMapsToJSON(llvm::ArrayRef<backend::LaunchTensorMap> Maps);
/// Reads what launchTensorMapsToJSON wrote; an error names what is wrong.
llvm::Expected<std::vector<backend::LaunchTensorMap>>
launchTensorMapsFromJSON(const llvm::json::Value &Value);
/// Sets Target's `tensor_maps` (a manifest target, or a tuning candidate)
/// to Maps; leaves it out when there are none.
void writeLaunchTensorMaps(llvm::json::Object &Target,
                           llvm::ArrayRef<backend::LaunchTensorMap> Maps);
/// Target's `tensor_maps`, none where it has no such key.
llvm::Expected<std::vector<backend::LaunchTensorMap>>
readLaunchTensorMaps(const llvm::json::Object &Target);

class Device {
public:
  /// Wraps a plugin's runtime. Owner keeps what Impl's code lives in (the
  /// plugin's backend, which keeps the library loaded) alive until Impl is
  /// gone. WarpSize (0 if unknown) turns warps into threads.
  Device(std::unique_ptr<backend::Runtime> Impl, std::shared_ptr<void> Owner,
         std::string TargetName, unsigned WarpSize);
  ~Device();

  llvm::StringRef getTargetName() const { return TargetName; }
  unsigned getWarpSize() const { return WarpSize; }

  /// Loads Binary (as tlec wrote it for this target) and looks up Entry.
  llvm::Expected<Kernel> loadKernel(llvm::StringRef Binary,
                                    llvm::StringRef Entry);
  /// As loadKernel, reading the binary from Path.
  llvm::Expected<Kernel> loadKernelFile(llvm::StringRef Path,
                                        llvm::StringRef Entry);

  llvm::Expected<Buffer> allocate(uint64_t Bytes);

  /// Queues one launch; errors in the kernel itself show at synchronize().
  llvm::Error launch(const Kernel &K, const LaunchDims &Dims,
                     llvm::ArrayRef<KernelArg> Args);
  llvm::Error synchronize();
  /// Milliseconds per launch of Repeats back-to-back launches, measured with
  /// device events.
  llvm::Expected<double> time(const Kernel &K, const LaunchDims &Dims,
                              llvm::ArrayRef<KernelArg> Args,
                              unsigned Repeats);

  backend::Runtime &getImpl() { return *Impl; }

private:
  friend class Buffer;
  llvm::Error withContext(llvm::Error E, const llvm::Twine &What) const;
  /// The launch configuration and argument pointers of the plugin
  /// interface, the global scratch (grown as launches need it) included.
  llvm::Expected<std::pair<backend::LaunchConfig, std::vector<const void *>>>
  lower(const LaunchDims &Dims, llvm::ArrayRef<KernelArg> Args);

  std::unique_ptr<backend::Runtime> Impl;
  std::shared_ptr<void> Owner;
  std::string TargetName;
  unsigned WarpSize;
  /// Global scratch of the launches so far: the largest any took.
  backend::DevicePtr Scratch = 0;
  uint64_t ScratchBytes = 0;
  /// The tensor maps of the launch being lowered, by value.
  struct alignas(64) TensorMapBytes {
    unsigned char Bytes[128];
  };
  std::vector<TensorMapBytes> TensorMaps;
};

} // namespace runtime
} // namespace tle

#endif // TLE_CORE_RUNTIME_RUNTIME_H
