//===- ModuleLoader.h - Jit functions imported from other files -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Real kernel files call jit functions of other modules of their package
// (FlagGems: `from flag_gems.utils import triton_lang_extension as tle`,
// then `tle.program_id(0)`). The loader finds such a module as a Python file
// the way the import would: under the directory that holds the kernel
// file's top-level package (found by walking up while __init__.py exists)
// and under the kernel file's own directory. It parses each file once, into
// the same SourceMgr, so diagnostics in it name its lines.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_MODULELOADER_H
#define TLE_FRONTEND_MODULELOADER_H

#include "core/frontend/Diagnostics.h"
#include "core/frontend/Module.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>

namespace tle::frontend {

class ModuleLoader {
public:
  /// `MainFile` is the kernel file's path; `Main` its parsed module.
  ModuleLoader(llvm::SourceMgr &SrcMgr, DiagnosticEngine &Diags,
               llvm::StringRef MainFile, const Module &Main);

  /// The module a dotted name (`flag_gems.utils.triton_lang_extension`)
  /// imports, parsed once; null when no file under the search roots has it.
  /// Names of triton's own modules are never looked up: their functions are
  /// builtins.
  const Module *load(llvm::StringRef Dotted);

  /// The module `F` was parsed in: the main module or a loaded one.
  const Module &getOwner(const FunctionDef &F) const;

  /// `Dotted` with a relative import's leading dots (`..utils.x`, imported
  /// by module `From`) replaced by the package they name, as Python
  /// resolves them; other names, and relative ones that climb above the
  /// top-level package, unchanged.
  std::string absolutize(const Module &From, llvm::StringRef Dotted) const;

private:
  llvm::SourceMgr &SrcMgr;
  DiagnosticEngine &Diags;
  const Module &Main;
  llvm::SmallVector<std::string, 2> Roots;
  /// The dotted package of the main file ("" outside any package) and of
  /// each loaded module.
  std::string MainPackage;
  llvm::DenseMap<const Module *, std::string> Packages;
  /// Null entries remember names that have no file.
  llvm::StringMap<std::unique_ptr<Module>> Loaded;
  llvm::DenseMap<const FunctionDef *, const Module *> Owners;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_MODULELOADER_H
