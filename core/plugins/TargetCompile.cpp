//===- TargetCompile.cpp - Resolve a target and compile for it ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/plugins/Targets.h"

#include "mlir/IR/BuiltinOps.h"
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

Expected<backend::CompiledKernel>
tle::plugins::compileForTarget(mlir::ModuleOp TileIR, const Target &T,
                               const backend::CompileOptions &Options) {
  const backend::Backend &B = *T.ThePlugin->getBackend();
  if (!llvm::any(B.getStages() & backend::Stage::TileIR))
    return makeError("plugin '" + T.ThePlugin->getName() +
                     "' takes distributed IR, which the core cannot produce "
                     "yet (layouts and distribution are issue 6)");
  mlir::DialectRegistry Registry;
  B.registerDialects(Registry);
  mlir::MLIRContext *Context = TileIR.getContext();
  Context->appendDialectRegistry(Registry);
  Context->loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> Copy = TileIR.clone();
  return T.ThePlugin->compile(*Copy, *T.Desc, Options);
}
