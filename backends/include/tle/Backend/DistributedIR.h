//===- DistributedIR.h - Reading the distributed-IR contract ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Every backend's compile() starts from the same two facts of distributed IR
// (backends/README.md, "Distributed IR"): which llvm.func is the kernel, and
// how many warps run it. They are read here once, with one set of messages,
// instead of in each plugin. Header-only like the rest of the SDK, so that a
// plugin links nothing of ours for it.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_BACKEND_DISTRIBUTEDIR_H
#define TLE_BACKEND_DISTRIBUTEDIR_H

#include "tle/Backend/Backend.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace tle {
namespace backend {

/// The attributes of the distributed-IR contract that name the kernel and
/// its warp count.
inline constexpr llvm::StringLiteral KernelAttrName = "tle.kernel";
inline constexpr llvm::StringLiteral NumWarpsAttrName = "tle.num_warps";

/// An error "<Plugin> plugin: <Message>", the form every plugin reports in.
inline llvm::Error makePluginError(llvm::StringRef Plugin,
                                   const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Plugin + " plugin: " + Message);
}

/// The one llvm.func marked tle.kernel; Plugin names the caller in errors.
inline llvm::Expected<mlir::LLVM::LLVMFuncOp>
findKernel(mlir::ModuleOp Module, llvm::StringRef Plugin) {
  llvm::SmallVector<mlir::Operation *> Marked;
  Module.walk([&](mlir::Operation *Op) {
    if (Op->hasAttr(KernelAttrName))
      Marked.push_back(Op);
  });
  if (Marked.empty())
    return makePluginError(Plugin, "no llvm.func is marked '" + KernelAttrName +
                                       "' (see 'Distributed IR' in "
                                       "backends/README.md)");
  if (Marked.size() > 1)
    return makePluginError(
        Plugin, llvm::Twine(Marked.size()) + " operations are marked '" +
                    KernelAttrName + "'; distributed IR holds one kernel");
  auto Kernel = llvm::dyn_cast<mlir::LLVM::LLVMFuncOp>(Marked.front());
  if (!Kernel || Kernel.isExternal())
    return makePluginError(Plugin,
                           "'" + KernelAttrName + "' marks a " +
                               Marked.front()->getName().getStringRef() +
                               ", not an llvm.func with a body");
  return Kernel;
}

/// tle.num_warps of the kernel, else of the module, else Options.NumWarps.
inline llvm::Expected<unsigned> getNumWarps(mlir::LLVM::LLVMFuncOp Kernel,
                                            mlir::ModuleOp Module,
                                            const CompileOptions &Options,
                                            llvm::StringRef Plugin) {
  for (mlir::Operation *Op : {Kernel.getOperation(), Module.getOperation()}) {
    mlir::Attribute Attr = Op->getAttr(NumWarpsAttrName);
    if (!Attr)
      continue;
    auto Int = llvm::dyn_cast<mlir::IntegerAttr>(Attr);
    if (!Int || Int.getInt() <= 0)
      return makePluginError(Plugin, "'" + NumWarpsAttrName +
                                         "' must be a positive integer");
    return static_cast<unsigned>(Int.getInt());
  }
  return Options.NumWarps;
}

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_DISTRIBUTEDIR_H
