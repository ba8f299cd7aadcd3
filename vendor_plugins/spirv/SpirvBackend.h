//===- SpirvBackend.h - The SPIR-V backend ----------------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Serves descriptions with `backend: spirv` (SPIR-V devices, DSAs and the CPU
// used in CI). It takes distributed IR (see backends/README.md), turns it
// into LLVM IR for an OpenCL kernel (spir_kernel, OpenCL built-ins, global
// pointers in CrossWorkgroup and block-level memory in Workgroup) and emits
// OpenCL-flavoured SPIR-V (Addresses, Kernel) of the description's version
// with LLVM's SPIR-V backend. Its runtime runs the binaries through an OpenCL
// driver (OpenClRuntime.h): PoCL on the CPU in CI.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVBACKEND_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVBACKEND_H

#include "SpirvValidator.h"
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
  std::string getToolchainKey(const hwdesc::HwDesc &Desc) const override {
    return getValidationKey();
  }
  /// OpenCL C (clang, spirv64) and LLVM IR functions as LLVM IR; SPIR-V
  /// assembly (spirv-as) as a binary for spirv-link (SpirvRaw.cpp).
  llvm::Expected<backend::RawCode> forwardRaw(const backend::RawFunction &Fn,
                                              const hwdesc::HwDesc &Desc,
                                              llvm::LLVMContext &Context) override;
  /// The first OpenCL device (a CPU preferred), through the OpenCL ICD
  /// loader opened when this is called.
  std::unique_ptr<backend::Runtime>
  createRuntime(const hwdesc::HwDesc &Desc) override;
};

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVBACKEND_H
