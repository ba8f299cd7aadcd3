//===- NvidiaRaw.h - TLE-Raw native code for NVIDIA GPUs --------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIARAW_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIARAW_H

#include "tle/Backend/Backend.h"

#include <memory>
#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tle {
namespace nvidia {

/// CUDA_HOME, else CUDA_PATH, else /usr/local/cuda.
std::string findCudaRoot();

/// The clang that compiles CUDA C: $TLE_CLANG, else clang-22, else clang on
/// PATH; empty if none.
std::string findRawClang();

/// Puts `// tle_raw FILE:LINE:COL` before the text of every inline asm that
/// distribution located at native code, so that mapPtxasErrors can find it.
void annotateInlinePtx(mlir::ModuleOp Module);

/// For each `..., line N; error ...` of a ptxas log about Ptx that falls in
/// annotated inline PTX: "FILE:LINE:COL: error ..." at the kernel's source
/// line, one per line; empty if none does.
std::string mapPtxasErrors(llvm::StringRef Log, llvm::StringRef Ptx);

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIARAW_H
