//===- AmdBackend.h - The AMD backend ---------------------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Serves descriptions with `backend: amd`. It takes distributed IR (see
// backends/README.md), turns it into LLVM IR, optimizes it, compiles it with
// LLVM's AMDGPU backend for the description's gfx arch into a relocatable
// object and links that with ld.lld into an HSA code object. No part of ROCm
// is needed to compile: math functions must lower to LLVM intrinsics that the
// AMDGPU backend expands itself.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_AMD_AMDBACKEND_H
#define TLE_VENDOR_PLUGINS_AMD_AMDBACKEND_H

#include "tle/Backend/Backend.h"

namespace tle {
namespace amd {

class AmdBackend : public backend::Backend {
public:
  llvm::StringRef getName() const override { return "amd"; }
  backend::Stage getStages() const override {
    return backend::Stage::DistributedIR;
  }
  void registerDialects(mlir::DialectRegistry &Registry) const override;
  std::unique_ptr<backend::TargetInfo>
  createTargetInfo(const hwdesc::HwDesc &Desc) const override;
  llvm::Expected<backend::CompiledKernel>
  compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
          const backend::CompileOptions &Options) override;
  /// LLVM IR functions, and HIP where ROCm's headers are (AmdRaw.cpp).
  llvm::Expected<backend::RawCode> forwardRaw(const backend::RawFunction &Fn,
                                              const hwdesc::HwDesc &Desc,
                                              llvm::LLVMContext &Context) override;
  /// Device 0 through the HIP runtime, loaded when this is called.
  std::unique_ptr<backend::Runtime>
  createRuntime(const hwdesc::HwDesc &Desc) override;
};

} // namespace amd
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_AMD_AMDBACKEND_H
