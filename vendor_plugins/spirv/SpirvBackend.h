//===- SpirvBackend.h - The SPIR-V backend ----------------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Serves descriptions with `backend: spirv` (SPIR-V devices, DSAs and the CPU
// used in CI). It takes distributed IR; code generation from it and the
// runtime are issue 8, and say so when asked for.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVBACKEND_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVBACKEND_H

#include "tle/Backend/Backend.h"

namespace tle {
namespace spirv {

class SpirvBackend : public backend::Backend {
public:
  llvm::StringRef getName() const override { return "spirv"; }
  backend::Stage getStages() const override {
    return backend::Stage::DistributedIR;
  }
  void registerDialects(mlir::DialectRegistry &Registry) const override;
  std::unique_ptr<backend::TargetInfo>
  createTargetInfo(const hwdesc::HwDesc &Desc) const override;
  llvm::Expected<backend::CompiledKernel>
  compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
          const backend::CompileOptions &Options) override;
  llvm::Expected<std::string> forwardRaw(llvm::StringRef Language,
                                         llvm::StringRef Code,
                                         const hwdesc::HwDesc &Desc) override;
};

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVBACKEND_H
