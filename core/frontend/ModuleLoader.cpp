//===- ModuleLoader.cpp - Jit functions imported from other files ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/ModuleLoader.h"
#include "core/frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tle::frontend {

ModuleLoader::ModuleLoader(SourceMgr &SrcMgr, DiagnosticEngine &Diags,
                           StringRef MainFile, const Module &Main)
    : SrcMgr(SrcMgr), Diags(Diags), Main(Main) {
  SmallString<256> Dir(MainFile);
  sys::fs::make_absolute(Dir);
  sys::path::remove_filename(Dir);
  Roots.push_back(std::string(Dir));
  // Up through the packages the file is in: the directory above the
  // top-level one is where `import package...` starts.
  SmallString<256> Package(Dir);
  SmallVector<std::string> Names; // innermost package first
  while (true) {
    SmallString<256> Init(Package);
    sys::path::append(Init, "__init__.py");
    if (!sys::fs::exists(Init))
      break;
    StringRef Parent = sys::path::parent_path(Package);
    if (Parent.empty() || Parent == Package)
      break;
    Names.push_back(sys::path::filename(Package).str());
    Package = Parent;
  }
  if (Package != Dir)
    Roots.push_back(std::string(Package));
  MainPackage = join(llvm::reverse(Names), ".");
}

std::string ModuleLoader::absolutize(const Module &From,
                                     StringRef Dotted) const {
  StringRef Rest = Dotted.ltrim('.');
  size_t Dots = Dotted.size() - Rest.size();
  if (Dots == 0)
    return Dotted.str();
  std::string Package = &From == &Main ? MainPackage : Packages.lookup(&From);
  // One dot is the module's own package, each further dot one level up.
  StringRef Base = Package;
  for (size_t I = 1; I < Dots; ++I) {
    if (!Base.contains('.'))
      return Dotted.str();
    Base = Base.rsplit('.').first;
  }
  if (Base.empty())
    return Dotted.str();
  return Rest.empty() ? Base.str() : (Base + "." + Rest).str();
}

const Module *ModuleLoader::load(StringRef Dotted) {
  if (Dotted.empty())
    return nullptr;
  // Neither triton's modules nor PyTorch's hold kernel code (torch.finfo and
  // the like are builtins).
  for (StringRef Library : {"triton", "tl", "torch"})
    if (Dotted == Library || Dotted.starts_with((Library + ".").str()))
      return nullptr;
  auto [It, New] = Loaded.try_emplace(Dotted);
  if (!New)
    return It->second.get();
  SmallString<128> Relative;
  for (StringRef Part : llvm::split(Dotted, '.'))
    sys::path::append(Relative, Part);
  for (const std::string &Root : Roots) {
    for (bool IsPackage : {false, true}) {
      SmallString<256> Path(Root);
      sys::path::append(Path, Relative);
      if (IsPackage)
        sys::path::append(Path, "__init__.py");
      else
        Path += ".py";
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
          MemoryBuffer::getFile(Path);
      if (!Buffer)
        continue;
      unsigned ID = SrcMgr.AddNewSourceBuffer(std::move(*Buffer), SMLoc());
      std::unique_ptr<Module> M = parseModule(SrcMgr, ID, Diags);
      for (const FunctionDef *F : M->Functions)
        Owners[F] = M.get();
      Packages[M.get()] =
          IsPackage ? Dotted.str() : Dotted.rsplit('.').first.str();
      It->second = std::move(M);
      return It->second.get();
    }
  }
  return nullptr;
}

const Module &ModuleLoader::getOwner(const FunctionDef &F) const {
  auto It = Owners.find(&F);
  return It == Owners.end() ? Main : *It->second;
}

} // namespace tle::frontend
