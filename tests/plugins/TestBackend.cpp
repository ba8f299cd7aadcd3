//===- TestBackend.cpp - A backend for the plugin host's tests ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Shared by the test plugins in BadPlugin.cpp, so that the MLIR headers are
// compiled once for all of them. Its compile() always fails, in the way the
// plugin asks for, to show that the host reports it and goes on.
//
//===----------------------------------------------------------------------===//

#include "llvm/IR/Module.h"
#include "TestBackend.h"

#include "tle/Backend/Backend.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/ErrorHandling.h"

#include <stdexcept>

using namespace llvm;
using namespace tle;

namespace {
class TestBackend : public backend::Backend {
public:
  explicit TestBackend(test::CompileFailure Failure) : Failure(Failure) {}
  StringRef getName() const override { return "test"; }
  backend::Stage getStages() const override { return backend::Stage::TileIR; }
  std::unique_ptr<backend::TargetInfo>
  createTargetInfo(const hwdesc::HwDesc &Desc) const override {
    return nullptr;
  }
  Expected<backend::CompiledKernel>
  compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
          const backend::CompileOptions &Options) override {
    if (Failure == test::CompileFailure::Throw)
      throw std::runtime_error("out of registers");
    if (Failure == test::CompileFailure::FatalError)
      report_fatal_error("Cannot select: intrinsic %llvm.test");
    return createStringError(inconvertibleErrorCode(),
                             "test plugin: kernel needs 300 registers, the "
                             "chip has 255");
  }
  Expected<backend::RawCode> forwardRaw(const backend::RawFunction &Fn,
                                        const hwdesc::HwDesc &Desc,
                                        LLVMContext &Context) override {
    return createStringError(inconvertibleErrorCode(),
                             "test plugin: no raw code");
  }

private:
  test::CompileFailure Failure;
};
} // namespace

backend::Backend *test::createTestBackend(CompileFailure Failure) {
  return new TestBackend(Failure);
}
