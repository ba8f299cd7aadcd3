//===- TargetList.cpp - List plugins and the descriptions they serve ------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/plugins/Targets.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace tle;
using namespace tle::plugins;

std::vector<DescriptionFile>
tle::plugins::findDescriptions(ArrayRef<std::string> SearchPath) {
  std::vector<DescriptionFile> Found;
  StringSet<> Names;
  hwdesc::LoadOptions Opts;
  Opts.SearchPath.assign(SearchPath.begin(), SearchPath.end());
  Opts.AllowAbstract = true;
  for (const std::string &Dir : SearchPath) {
    std::vector<std::string> Files;
    std::error_code EC;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      if (sys::path::extension(It->path()) == ".yaml")
        Files.push_back(It->path());
    llvm::sort(Files);
    for (const std::string &File : Files) {
      // Invalid files are tle-hwdesc's to report; listing targets only shows
      // what --target could use.
      std::vector<hwdesc::Diagnostic> Diags;
      std::unique_ptr<hwdesc::HwDesc> Desc =
          hwdesc::loadFile(File, Opts, Diags);
      if (Desc && Names.insert(Desc->Name).second)
        Found.push_back({File, Desc->Name, Desc->Backend});
    }
  }
  return Found;
}

void tle::plugins::printTargetList(const PluginHost &Host,
                                   ArrayRef<DescriptionFile> Descriptions,
                                   raw_ostream &OS) {
  for (const std::unique_ptr<Plugin> &P : Host.getPlugins()) {
    OS << "plugin " << P->getName() << ' ' << P->getVersion() << ' '
       << P->getPath() << '\n';
    for (const DescriptionFile &D : Descriptions)
      if (Host.lookup(D.BackendKey) == P.get())
        OS << "  target " << D.Name << " backend=" << D.BackendKey << ' '
           << D.Path << '\n';
  }
  for (const DescriptionFile &D : Descriptions)
    if (!Host.lookup(D.BackendKey))
      OS << "unserved " << D.Name << " backend=" << D.BackendKey << ' '
         << D.Path << '\n';
  for (const RejectedPlugin &R : Host.getRejected())
    OS << "rejected " << R.Path << ": " << R.Reason << '\n';
}
