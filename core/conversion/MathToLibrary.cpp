//===- MathToLibrary.cpp - Math GPU targets cannot select, as libm calls --===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// MLIR lowers math.acos, math.sinh, ... to LLVM intrinsics (llvm.acos, ...)
// that NVPTX and AMDGPU cannot select ("no libcall available for facos").
// These ops become calls of the C library's names first (acosf, sinh, ...),
// as math without an intrinsic (erf) already does after the LLVM lowering:
// each backend resolves them in its device library (NVIDIA's libdevice,
// SPIR-V's OpenCL built-ins) or says it has none (AMD).
//
//===----------------------------------------------------------------------===//

#include "core/conversion/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

struct MathToLibraryPass
    : public PassWrapper<MathToLibraryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathToLibraryPass)

  StringRef getArgument() const override { return "tle-math-to-library"; }
  StringRef getDescription() const override {
    return "Lower inverse trigonometric and hyperbolic math ops to C "
           "library calls rather than LLVM intrinsics GPU targets lack";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    // The calls and declarations MathToLibm creates; vector ops it would
    // unroll.
    registry.insert<func::FuncDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<math::AcosOp, math::AsinOp, math::AtanOp, math::Atan2Op,
              math::SinhOp, math::CoshOp, math::AsinhOp, math::AcoshOp,
              math::AtanhOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    // Only these ops: the driver would otherwise also rewrite their users
    // (a math.sin of an acos would become a call of sinf).
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

namespace tle::conversion {
std::unique_ptr<Pass> createMathToLibraryPass() {
  return std::make_unique<MathToLibraryPass>();
}

void registerMathToLibraryPass() { PassRegistration<MathToLibraryPass>(); }
} // namespace tle::conversion
