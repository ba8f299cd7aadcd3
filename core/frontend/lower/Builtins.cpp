//===- Builtins.cpp - Canonical names and the builtin table ---------------===//

#include "core/frontend/lower/Builtins.h"

namespace tle::frontend {

/// FlagTree kernels import the GPU module as `tle` and still write
/// `tle.gpu.alloc`, or import the package and write `tle.raw.call`; both
/// spellings, and the loop iterators of the gpu/dsa modules, map onto one
/// canonical name.
static std::string canonicalizeTLEAlias(std::string Name) {
  static const std::pair<llvm::StringRef, llvm::StringRef> Aliases[] = {
      {"tle.gpu.gpu.", "tle.gpu."}, {"tle.dsa.dsa.", "tle.dsa."},
      {"tle_raw.raw.", "tle_raw."}, {"tle.raw.", "tle_raw."},
  };
  for (auto [From, To] : Aliases)
    if (llvm::StringRef(Name).starts_with(From))
      Name = (To + llvm::StringRef(Name).drop_front(From.size())).str();
  if (Name == "tle.gpu.range" || Name == "tle.gpu.pipeline" ||
      Name == "tle.dsa.pipeline")
    return "tle.range";
  return Name;
}

std::string canonicalizeName(llvm::StringRef Resolved) {
  // Longest prefixes first: the TLE language modules nest inside
  // triton.experimental.tle, libdevice inside triton.language.
  static const std::pair<llvm::StringRef, llvm::StringRef> Prefixes[] = {
      {"triton.experimental.tle.language.gpu.", "tle.gpu."},
      {"triton.experimental.tle.language.dsa.", "tle.dsa."},
      {"triton.experimental.tle.language.raw.", "tle_raw."},
      {"triton.experimental.tle.language.", "tle."},
      {"triton.experimental.tle.raw.", "tle_raw."},
      {"triton.experimental.tle.", "tle."},
      {"triton.language.extra.cuda.libdevice.", "tl.libdevice."},
      {"triton.language.extra.libdevice.", "tl.libdevice."},
      {"triton.language.math.", "tl.math."},
      {"triton.language.standard.", "tl."},
      {"triton.language.core.", "tl."},
      {"triton.language.", "tl."},
  };
  static const std::pair<llvm::StringRef, llvm::StringRef> Modules[] = {
      {"triton.experimental.tle.language.gpu", "tle.gpu"},
      {"triton.experimental.tle.language.dsa", "tle.dsa"},
      {"triton.experimental.tle.language.raw", "tle_raw"},
      {"triton.experimental.tle.language", "tle"},
      {"triton.experimental.tle.raw", "tle_raw"},
      {"triton.experimental.tle", "tle"},
      {"triton.language.extra.cuda.libdevice", "tl.libdevice"},
      {"triton.language.extra.libdevice", "tl.libdevice"},
      {"triton.language.math", "tl.math"},
      {"triton.language", "tl"},
  };
  // A name reached one attribute at a time is canonicalized at each step
  // (`triton.language` becomes `tl`, then `.extra` is added, ...): spelled
  // out again, it maps as the full name does (tl.extra.libdevice ->
  // tl.libdevice).
  if (Resolved == "tl" || Resolved.starts_with("tl."))
    return canonicalizeName(("triton.language" + Resolved.drop_front(2)).str());
  // Modules first: "triton.language." is a prefix of the libdevice modules.
  for (auto [From, To] : Modules)
    if (Resolved == From)
      return To.str();
  for (auto [From, To] : Prefixes)
    if (Resolved.starts_with(From))
      return canonicalizeTLEAlias((To + Resolved.drop_front(From.size())).str());
  // `triton.jit`, `triton.cdiv` and friends live on the triton package.
  if (Resolved == "triton.cdiv")
    return "tl.cdiv";
  return canonicalizeTLEAlias(Resolved.str());
}

BuiltinFn lookupBuiltin(llvm::StringRef CanonicalName) {
  static const llvm::StringMap<BuiltinFn> Table = [] {
    llvm::StringMap<BuiltinFn> T;
    registerLanguageBuiltins(T);
    registerMathBuiltins(T);
    registerPythonBuiltins(T);
    registerTLEBuiltins(T);
    registerTorchBuiltins(T);
    return T;
  }();
  auto It = Table.find(CanonicalName);
  return It == Table.end() ? nullptr : It->second;
}

} // namespace tle::frontend
