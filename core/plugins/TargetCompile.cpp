//===- TargetCompile.cpp - Resolve a target and compile for it ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/plugins/Targets.h"

#include "core/conversion/Passes.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

using namespace llvm;
using namespace tle;
using namespace tle::plugins;

static Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

Expected<Target> tle::plugins::resolveTarget(StringRef NameOrPath,
                                             const PluginHost &Host) {
  std::vector<std::string> SearchPath = hwdesc::getDefaultSearchPath();
  std::optional<std::string> File = hwdesc::findTarget(NameOrPath, SearchPath);
  if (!File)
    return makeError("no hardware description named '" + NameOrPath + "'");
  hwdesc::LoadOptions Opts;
  Opts.SearchPath = SearchPath;
  std::vector<hwdesc::Diagnostic> Diags;
  Target T;
  T.Desc = hwdesc::loadFile(*File, Opts, Diags);
  if (!T.Desc)
    return makeError(Diags.empty() ? *File + ": not a chip description"
                                   : Diags.front().str());
  T.ThePlugin = Host.lookup(T.Desc->Backend);
  if (!T.ThePlugin)
    return makeError("no plugin serves backend '" + T.Desc->Backend + "' of " +
                     T.Desc->Name + " (" + *File + ")");
  for (const std::string &Feature :
       T.ThePlugin->getBackend()->getRequiredFeatures())
    if (!T.Desc->hasFeature(Feature))
      return makeError("plugin '" + T.ThePlugin->getName() +
                       "' needs toolchain feature '" + Feature + "', which " +
                       T.Desc->Name + " (" + *File + ") does not list");
  return std::move(T);
}

void tle::plugins::loadBackendDialects(mlir::MLIRContext &Context,
                                       const Target &T) {
  mlir::DialectRegistry Registry;
  T.ThePlugin->getBackend()->registerDialects(Registry);
  Context.appendDialectRegistry(Registry);
  Context.loadAllAvailableDialects();
}

Error tle::plugins::lowerForTarget(
    mlir::ModuleOp Module, const Target &T,
    const backend::CompileOptions &Options,
    const std::function<void(mlir::PassManager &)> &Instrument,
    const conversion::OptimizationToggles &Optimizations,
    std::optional<conversion::LayoutConversionCounts> *ConversionCounts) {
  const backend::Backend &B = *T.ThePlugin->getBackend();
  bool TakesTileIR = llvm::any(B.getStages() & backend::Stage::TileIR);
  bool TakesDistributedIR =
      llvm::any(B.getStages() & backend::Stage::DistributedIR);
  if (!TakesTileIR && !TakesDistributedIR)
    return makeError("plugin '" + T.ThePlugin->getName() +
                     "' accepts neither tile IR nor distributed IR");
  if (TakesTileIR)
    return Error::success();
  // The core distributes the kernel through the plugin's TargetInfo.
  std::unique_ptr<backend::TargetInfo> Info = B.createTargetInfo(*T.Desc);
  if (!Info)
    return makeError("plugin '" + T.ThePlugin->getName() +
                     "' takes distributed IR but gave no TargetInfo for " +
                     T.Desc->Name);
  std::string Message;
  mlir::ScopedDiagnosticHandler Handler(
      Module.getContext(), [&](mlir::Diagnostic &Diag) {
        if (Diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
            Message.empty()) {
          llvm::raw_string_ostream OS(Message);
          // The kernel's line as file:line:col, not MLIR's loc(...) form.
          if (auto File =
                  Diag.getLocation()->findInstanceOf<mlir::FileLineColLoc>())
            OS << File.getFilename().getValue() << ":" << File.getLine() << ":"
               << File.getColumn();
          else
            OS << Diag.getLocation();
          OS << ": " << Diag.str();
        }
        return mlir::success();
      });
  conversion::LoweringOptions Lowering;
  Lowering.NumWarps = Options.NumWarps;
  Lowering.InstrumentPassManager = Instrument;
  Lowering.Optimizations = Optimizations;
  if (ConversionCounts)
    Lowering.ConversionCounts = &ConversionCounts->emplace();
  if (mlir::failed(
          conversion::lowerToDistributedIR(Module, *Info, *T.Desc, Lowering)))
    return makeError("distribution for " + T.Desc->Name + " failed: " +
                     (Message.empty() ? std::string("unknown error") : Message));
  return Error::success();
}

Expected<backend::CompiledKernel>
tle::plugins::compileForTarget(mlir::ModuleOp TileIR, const Target &T,
                               const backend::CompileOptions &Options) {
  loadBackendDialects(*TileIR.getContext(), T);
  mlir::OwningOpRef<mlir::ModuleOp> Copy = TileIR.clone();
  if (Error E = lowerForTarget(*Copy, T, Options))
    return std::move(E);
  return T.ThePlugin->compile(*Copy, *T.Desc, Options);
}
