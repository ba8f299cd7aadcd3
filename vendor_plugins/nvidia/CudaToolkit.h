//===- CudaToolkit.h - ptxas and libdevice from a CUDA toolkit --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The plugin builds without CUDA: LLVM's NVPTX backend makes the PTX. Only the
// last step (PTX to cubin) and math functions (libdevice) need a toolkit, which
// is looked up at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_CUDATOOLKIT_H
#define TLE_VENDOR_PLUGINS_NVIDIA_CUDATOOLKIT_H

#include "tle/Backend/Backend.h"

#include <string>

namespace tle {
namespace nvidia {

/// Paths inside one toolkit; empty when not found.
struct CudaToolkit {
  std::string Ptxas;
  std::string LibDevice;
};

/// When CUDA_HOME (else CUDA_PATH) is set, that toolkit and nothing else:
/// tools from two toolkits must not be mixed. Otherwise /usr/local/cuda, then
/// the ptxas on PATH and the libdevice of the toolkit it belongs to.
CudaToolkit findCudaToolkit();

/// Assembles Ptx for Arch (e.g. "sm_90a") into a cubin with `ptxas -v` and
/// fills Usage with what ptxas reported for Entry, and Log, if given, with
/// all it printed. A failure carries ptxas's own message.
llvm::Expected<std::string> runPtxas(llvm::StringRef Ptxas, llvm::StringRef Ptx,
                                     llvm::StringRef Arch,
                                     llvm::StringRef Entry,
                                     backend::ResourceUsage &Usage,
                                     std::string *Log = nullptr);

/// Reads the `ptxas info` lines of `ptxas -v` about the function Entry.
backend::ResourceUsage parsePtxasInfo(llvm::StringRef Log,
                                      llvm::StringRef Entry);

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_CUDATOOLKIT_H
