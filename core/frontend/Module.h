//===- Module.h - A parsed kernel file --------------------------*- C++ -*-===//
//
// What the front end keeps of one Python file: its jit and TLE-Raw functions,
// module-level constants and import aliases. Everything else in the file
// (host code, classes, tests) was skipped by the module scanner.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_MODULE_H
#define TLE_FRONTEND_MODULE_H

#include "core/frontend/AST.h"
#include <string>
#include <vector>

namespace tle::frontend {

class Module {
public:
  ASTContext &getContext() { return Ctx; }

  /// Jit and `@dialect` functions, in source order.
  std::vector<FunctionDef *> Functions;
  /// Module-level constants in source order (a later binding of the same
  /// name shadows an earlier one).
  std::vector<ModuleConstant> Constants;
  /// Names bound by top-level imports, in source order.
  std::vector<ImportAlias> Imports;
  /// Names that the branches of a module-level `if` bind differently: which
  /// binding a run has depends on a condition only Python can evaluate.
  struct ConditionalName {
    llvm::StringRef Name;
    llvm::SMRange IfRange;
    llvm::SMLoc At; ///< Where the `if` ends: its bindings' position.
  };
  std::vector<ConditionalName> ConditionalNames;
  /// Names bound at module level by statements the scanner does not
  /// evaluate (`x = make()`, `x += 1`, a host def), as their spelling in the
  /// source: where such a binding is a name's last, its use is an error.
  std::vector<llvm::StringRef> HostBindings;

  const FunctionDef *lookupFunction(llvm::StringRef Name) const;
  const ModuleConstant *lookupConstant(llvm::StringRef Name) const;
  const ImportAlias *lookupImport(llvm::StringRef LocalName) const;
  const ConditionalName *lookupConditional(llvm::StringRef Name) const;
  /// The last host binding of Name, or an empty string.
  llvm::StringRef lookupHostBinding(llvm::StringRef Name) const;

  /// Resolves a dotted name through the imports: with
  /// `import triton.language as tl`, "tl.math.exp2" becomes
  /// "triton.language.math.exp2". A first component that no import binds is
  /// kept as written ("range", "triton" without an import).
  std::string resolveDottedName(llvm::StringRef Dotted) const;

  /// The dotted name spelled by a Name/Attribute chain ("tl.math.exp2"), or
  /// an empty string for any other expression.
  static std::string getDottedName(const Expr *E);

  /// resolveDottedName(getDottedName(E)), or empty when E is not a dotted
  /// name. This is how the lowering maps `tl.load`, `T.load` or `load` (after
  /// `from triton.language import load`) to "triton.language.load".
  std::string getCanonicalName(const Expr *E) const;

private:
  ASTContext Ctx;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_MODULE_H
