//===- ToyBackend.cpp - An out-of-tree backend plugin ---------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Serves descriptions with `backend: toy`. Its "binary" is a text summary of
// the tile IR it was given -- the kernel's name, its ops by name and the
// chip's values it read -- so that a test can check that a real module and a
// real description arrived. Counting tle.load with isa<> checks that the
// dialect's TypeIDs are the host's (one shared TLEDialects library).
//
//===----------------------------------------------------------------------===//

#include "llvm/IR/Module.h"
#include "core/hwdesc/HwDesc.h"
#include "dialects/TLE/TLEDialect.h"
#include "tle/Backend/Backend.h"
#include "tle/Backend/PluginABI.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tle;

namespace {
class ToyBackend : public backend::Backend {
public:
  StringRef getName() const override { return "toy"; }
  backend::Stage getStages() const override { return backend::Stage::TileIR; }
  std::vector<std::string> getRequiredFeatures() const override {
    return {"x_toy_isa"};
  }
  std::unique_ptr<backend::TargetInfo>
  createTargetInfo(const hwdesc::HwDesc &Desc) const override {
    return nullptr;
  }

  Expected<backend::CompiledKernel>
  compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
          const backend::CompileOptions &Options) override {
    backend::CompiledKernel Kernel;
    for (auto Fn : Module.getOps<mlir::tle::FuncOp>())
      Kernel.EntryName = Fn.getSymName().str();
    if (Kernel.EntryName.empty())
      return createStringError(inconvertibleErrorCode(),
                               "toy plugin: no tle.func in the module");
    MapVector<StringRef, unsigned> Counts;
    unsigned Loads = 0;
    Module.walk([&](mlir::Operation *Op) {
      ++Counts[Op->getName().getStringRef()];
      Loads += isa<mlir::tle::LoadOp>(Op);
    });
    raw_string_ostream OS(Kernel.Binary);
    OS << "toy binary for " << Desc.Name << " (" << Desc.Arch << ", warp "
       << Desc.getWarpSize() << ", " << Options.NumWarps << " warps)\n"
       << "kernel " << Kernel.EntryName << '\n'
       << "tle.load via isa<>: " << Loads << '\n';
    for (auto [Name, Count] : Counts)
      OS << "  " << Name << ' ' << Count << '\n';
    Kernel.Format = "txt";
    Kernel.ThreadsPerBlock = Options.NumWarps * Desc.getWarpSize();
    return std::move(Kernel);
  }

  Expected<backend::RawCode> forwardRaw(const backend::RawFunction &Fn,
                                        const hwdesc::HwDesc &Desc,
                                        LLVMContext &Context) override {
    return createStringError(inconvertibleErrorCode(),
                             "toy plugin: no native language");
  }
};
} // namespace

static backend::Backend *createToyBackend() { return new ToyBackend(); }

extern "C" TLE_BACKEND_PLUGIN_EXPORT const TLEBackendPluginInfo *
tleGetBackendPluginInfo(void) {
  static const char *const Keys[] = {"toy", nullptr};
  static const TLEBackendPluginInfo Info = {TLE_BACKEND_ABI_VERSION, "toy",
                                            "1.2.3", Keys, createToyBackend};
  return &Info;
}
