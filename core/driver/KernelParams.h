//===- KernelParams.h - A kernel's runtime parameters -----------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_KERNELPARAMS_H
#define TLE_CORE_DRIVER_KERNELPARAMS_H

#include "core/driver/Bundle.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tle {
namespace driver {

/// The runtime parameters of function Kernel in TileIR, named as in the
/// source (`tle.name`) and typed as --signature spells them; what a bundle
/// records and a launcher takes.
llvm::Expected<std::vector<KernelParam>> getKernelParams(mlir::ModuleOp TileIR,
                                                         llvm::StringRef Kernel);

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_KERNELPARAMS_H
