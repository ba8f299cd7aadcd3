//===- NvidiaBackend.h - The NVIDIA backend ---------------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Serves descriptions with `backend: nvidia`. It takes distributed IR (see
// backends/README.md), turns it into LLVM IR, optimizes it and emits PTX with
// LLVM's NVPTX backend for the description's arch and PTX ISA version, then
// assembles a cubin with ptxas when a CUDA toolkit is found.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIABACKEND_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIABACKEND_H

#include "NvidiaRuntime.h"

#include "tle/Backend/Backend.h"

namespace tle {
namespace nvidia {

class NvidiaBackend : public backend::Backend {
public:
  llvm::StringRef getName() const override { return "nvidia"; }
  backend::Stage getStages() const override {
    return backend::Stage::DistributedIR;
  }
  void registerDialects(mlir::DialectRegistry &Registry) const override;
  std::unique_ptr<backend::TargetInfo>
  createTargetInfo(const hwdesc::HwDesc &Desc) const override;
  llvm::Expected<backend::CompiledKernel>
  compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
          const backend::CompileOptions &Options) override;
  std::string getToolchainKey(const hwdesc::HwDesc &Desc) const override;
  /// CUDA C (clang in CUDA mode) and LLVM IR functions, as LLVM IR
  /// (NvidiaRaw.cpp).
  llvm::Expected<backend::RawCode> forwardRaw(const backend::RawFunction &Fn,
                                              const hwdesc::HwDesc &Desc,
                                              llvm::LLVMContext &Context) override;
  /// Device 0 through the CUDA driver, loaded when this is called.
  std::unique_ptr<backend::Runtime>
  createRuntime(const hwdesc::HwDesc &Desc) override {
    return std::make_unique<NvidiaRuntime>();
  }
};

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIABACKEND_H
