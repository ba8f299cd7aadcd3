//===- Passes.h - Tile-level passes of the core -----------------*- C++ -*-===//

#ifndef TLE_CORE_TRANSFORMS_PASSES_H
#define TLE_CORE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include <memory>

namespace tle::hwdesc {
class HwDesc;
} // namespace tle::hwdesc

namespace mlir::tle {
#define GEN_PASS_DECL
#include "core/transforms/Passes.h.inc"

/// The check against an already loaded description (as the compiler driver
/// has one per target).
std::unique_ptr<Pass> createCheckHwDescPass(const ::tle::hwdesc::HwDesc &Desc);

#define GEN_PASS_REGISTRATION
#include "core/transforms/Passes.h.inc"
} // namespace mlir::tle

#endif // TLE_CORE_TRANSFORMS_PASSES_H
