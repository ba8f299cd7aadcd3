//===- SpirvBackend.cpp - The SPIR-V backend ------------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvBackend.h"
#include "SpirvTargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace llvm;
using namespace tle;
using namespace tle::spirv;

void SpirvBackend::registerDialects(mlir::DialectRegistry &Registry) const {
  // What SpirvTargetInfo emits.
  Registry.insert<mlir::arith::ArithDialect, mlir::gpu::GPUDialect>();
}

std::unique_ptr<backend::TargetInfo>
SpirvBackend::createTargetInfo(const hwdesc::HwDesc &Desc) const {
  return std::make_unique<SpirvTargetInfo>(Desc);
}

Expected<backend::CompiledKernel>
SpirvBackend::compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
                      const backend::CompileOptions &Options) {
  return createStringError(
      inconvertibleErrorCode(),
      "spirv plugin: code generation is not implemented yet (issue 8)");
}

Expected<std::string> SpirvBackend::forwardRaw(StringRef Language,
                                               StringRef Code,
                                               const hwdesc::HwDesc &Desc) {
  return createStringError(inconvertibleErrorCode(),
                           "spirv plugin: forwarding tle_raw '" + Language +
                               "' code is not implemented yet (issue 11)");
}
