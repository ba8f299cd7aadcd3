//===- PluginHost.h - Discover backend plugins and pick one per key -*- C++
//-*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The set of plugins a process works with. Directories are scanned in the
// order given; the first plugin to claim a hardware-description `backend:`
// key serves it, and a later one claiming the same key is rejected so that
// which code compiles for a chip never depends on directory order silently.
// Every file that is not used is kept with the reason, for `tlec
// --list-targets` and for diagnostics.
//
// Lifetime: a backend keeps its library loaded (see Plugin), but an
// MLIRContext that loaded dialects a plugin registered must be destroyed
// before the PluginHost and every backend it handed out.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_PLUGINS_PLUGINHOST_H
#define TLE_CORE_PLUGINS_PLUGINHOST_H

#include "core/plugins/Plugin.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace tle {
namespace plugins {

/// A file or directory that yielded no plugin, and why (one line).
struct RejectedPlugin {
  std::string Path;
  std::string Reason;
};

/// The directories searched for plugins after those named on the command
/// line (--plugin-dir), in order: $TLE_PLUGIN_PATH (colon-separated), then
/// lib/tle/plugins next to the running executable's bin/ -- the install
/// prefix, or the build tree during development.
std::vector<std::string> getDefaultPluginSearchPath();

class PluginHost {
public:
  /// Loads every `*.so` in Dir, in file-name order. A missing Dir is
  /// recorded as rejected only if MustExist (the user named it).
  void addDirectory(llvm::StringRef Dir, bool MustExist);
  /// Loads the plugin at Path unless that file was already loaded.
  void addFile(llvm::StringRef Path);

  llvm::ArrayRef<std::unique_ptr<Plugin>> getPlugins() const { return Plugins; }
  llvm::ArrayRef<RejectedPlugin> getRejected() const { return Rejected; }
  /// The plugin serving a `backend:` key, or null.
  const Plugin *lookup(llvm::StringRef BackendKey) const;

private:
  std::vector<std::unique_ptr<Plugin>> Plugins;
  std::vector<RejectedPlugin> Rejected;
  llvm::StringMap<const Plugin *> ByKey;
  /// Real paths already tried, so that a directory listed twice (or reached
  /// through a link) does not look like a second plugin claiming the keys.
  llvm::StringSet<> Seen;
};

} // namespace plugins
} // namespace tle

#endif // TLE_CORE_PLUGINS_PLUGINHOST_H
