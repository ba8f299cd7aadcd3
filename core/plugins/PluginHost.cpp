//===- PluginHost.cpp - Discover backend plugins and pick one per key -----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/plugins/PluginHost.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;
using namespace tle::plugins;

void PluginHost::addDirectory(StringRef Dir, bool MustExist) {
  if (!sys::fs::is_directory(Dir)) {
    if (MustExist)
      Rejected.push_back({Dir.str(), "no such plugin directory"});
    return;
  }
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".so")
      Files.push_back(It->path());
  if (EC) {
    Rejected.push_back({Dir.str(), "cannot be read: " + EC.message()});
    return;
  }
  llvm::sort(Files);
  for (const std::string &File : Files)
    addFile(File);
}

void PluginHost::addFile(StringRef Path) {
  SmallString<256> Real;
  if (!sys::fs::real_path(Path, Real) && !Seen.insert(Real).second)
    return;
  Expected<std::unique_ptr<Plugin>> P = Plugin::open(Path);
  if (!P) {
    Rejected.push_back({Path.str(), toString(P.takeError())});
    return;
  }
  for (const std::string &Key : (*P)->getBackendKeys())
    if (const Plugin *Owner = lookup(Key)) {
      Rejected.push_back({Path.str(), "backend key '" + Key +
                                          "' is already served by plugin '" +
                                          Owner->getName().str() + "' (" +
                                          Owner->getPath().str() + ")"});
      return;
    }
  if (Error E = (*P)->createBackend()) {
    Rejected.push_back({Path.str(), toString(std::move(E))});
    return;
  }
  for (const std::string &Key : (*P)->getBackendKeys())
    ByKey[Key] = P->get();
  Plugins.push_back(std::move(*P));
}

const Plugin *PluginHost::lookup(StringRef BackendKey) const {
  return ByKey.lookup(BackendKey);
}
