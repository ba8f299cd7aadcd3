//===- Plugin.h - One loaded backend plugin ---------------------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The host's side of the plugin boundary. Everything that runs plugin code --
// the entry symbol, the factory, compile() -- goes through this class, whose
// implementation is the one translation unit built with exceptions: Boost.DLL
// reports failures by throwing, and a plugin may throw too. Nothing thrown
// leaves it; callers get llvm::Error with a one-line cause.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_PLUGINS_PLUGIN_H
#define TLE_CORE_PLUGINS_PLUGIN_H

#include "tle/Backend/Backend.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace tle {
namespace plugins {

class Plugin {
public:
  /// Opens the shared library at Path and checks its entry point: the ABI
  /// version first, then the rest of the info struct. Runs no other plugin
  /// code. The error message is the cause only; callers add the path.
  static llvm::Expected<std::unique_ptr<Plugin>> open(llvm::StringRef Path);
  ~Plugin();

  llvm::StringRef getName() const { return Name; }
  llvm::StringRef getVersion() const { return Version; }
  llvm::StringRef getPath() const { return Path; }
  llvm::ArrayRef<std::string> getBackendKeys() const { return BackendKeys; }

  /// Calls the plugin's factory once; the host does this only after it
  /// decided to keep the plugin (e.g. its keys are not taken).
  llvm::Error createBackend();
  /// The backend made by createBackend(). Holding it keeps the library
  /// loaded, even past the Plugin object.
  std::shared_ptr<backend::Backend> getBackend() const { return TheBackend; }

  /// Backend::compile with a guard: a C++ exception escaping the plugin
  /// becomes an error instead of unwinding through the host.
  llvm::Expected<backend::CompiledKernel>
  compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
          const backend::CompileOptions &Options) const;

private:
  struct Library;
  Plugin() = default;

  std::shared_ptr<Library> Lib;
  std::string Path, Name, Version;
  std::vector<std::string> BackendKeys;
  backend::Backend *(*Factory)() = nullptr;
  std::shared_ptr<backend::Backend> TheBackend;
};

} // namespace plugins
} // namespace tle

#endif // TLE_CORE_PLUGINS_PLUGIN_H
