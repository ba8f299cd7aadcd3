//===- Targets.h - Chips, the plugins serving them, and compiling -*- C++
//-*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A target is a hardware description plus the plugin whose backend key it
// names. These are the steps a driver takes for each `--target`; they report
// every failure as an llvm::Error with a one-line message so that a driver
// can report it per target and go on with the others.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_PLUGINS_TARGETS_H
#define TLE_CORE_PLUGINS_TARGETS_H

#include "core/conversion/LayoutConversionCounts.h"
#include "core/conversion/OptimizationToggles.h"
#include "core/hwdesc/HwDesc.h"
#include "core/plugins/PluginHost.h"

#include <functional>
#include <optional>

namespace mlir {
class MLIRContext;
class PassManager;
} // namespace mlir

namespace tle {
namespace plugins {

/// A chip description found on the hardware-description search path.
struct DescriptionFile {
  std::string Path;
  std::string Name;
  std::string BackendKey;
};

/// Every valid chip description (`*.yaml`, abstract family files and files
/// that fail to load left out) in the directories of SearchPath; a name found
/// again in a later directory is shadowed, as findTarget would.
std::vector<DescriptionFile>
findDescriptions(llvm::ArrayRef<std::string> SearchPath);

/// Prints one line per plugin (name, version, file), under it one line per
/// description it serves, then the descriptions no plugin serves and the
/// rejected files with their reasons.
void printTargetList(const PluginHost &Host,
                     llvm::ArrayRef<DescriptionFile> Descriptions,
                     llvm::raw_ostream &OS);

struct Target {
  std::unique_ptr<hwdesc::HwDesc> Desc;
  const Plugin *ThePlugin = nullptr;
};

/// Finds the description NameOrPath (a chip name or a YAML path) and the
/// plugin serving its backend key, and checks the toolchain features the
/// backend requires.
llvm::Expected<Target> resolveTarget(llvm::StringRef NameOrPath,
                                     const PluginHost &Host);

/// Adds the dialects T's backend creates to Context and loads them; done
/// before any pass runs, since a context may not load dialects then.
void loadBackendDialects(mlir::MLIRContext &Context, const Target &T);

/// Rewrites Module, tile IR, into the form T's backend takes: distributed IR
/// made through the backend's TargetInfo, or the tile IR itself for a
/// tile-level backend. Instrument, if set, is called on the core's pass
/// manager before it runs (timing, IR printing). ConversionCounts, if set,
/// gets what became of the layout conversions when the core distributed the
/// kernel (std::nullopt for a tile-level backend). loadBackendDialects must
/// have been called on Module's context.
llvm::Error lowerForTarget(
    mlir::ModuleOp Module, const Target &T,
    const backend::CompileOptions &Options,
    const std::function<void(mlir::PassManager &)> &Instrument = {},
    const conversion::OptimizationToggles &Optimizations = {},
    std::optional<conversion::LayoutConversionCounts> *ConversionCounts =
        nullptr);

/// Compiles a copy of TileIR (left untouched) for T, at the stage T's
/// backend accepts.
llvm::Expected<backend::CompiledKernel>
compileForTarget(mlir::ModuleOp TileIR, const Target &T,
                 const backend::CompileOptions &Options);

} // namespace plugins
} // namespace tle

#endif // TLE_CORE_PLUGINS_TARGETS_H
