//===- MathLibrary.h - C math library calls in distributed IR ---*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Math that LLVM has no intrinsic for (math.erf, math.cbrt, math.atan2, ...)
// reaches a backend as calls of the C math library's names: erff for f32,
// erf for f64. Each backend resolves them in its own device library
// (libdevice's __nv_erff, OpenCL's erf) or reports that it has none.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_BACKEND_MATHLIBRARY_H
#define TLE_BACKEND_MATHLIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace tle {
namespace backend {

/// Whether Name is a C math library function (f64 name, or f32 with the
/// `f` suffix) that the core's lowering may call.
inline bool isMathLibraryFunction(llvm::StringRef Name) {
  static const llvm::StringRef Functions[] = {
      "acos",      "acosh", "asin", "asinh", "atan",  "atan2", "atanh", "cbrt",
      "ceil",      "cos",   "cosh", "erf",   "erfc",  "exp",   "exp2",  "expm1",
      "floor",     "fma",   "log",  "log10", "log1p", "log2",  "pow",   "round",
      "roundeven", "sin",   "sinh", "sqrt",  "tan",   "tanh",  "trunc"};
  auto Known = [](llvm::StringRef N) {
    return std::find(std::begin(Functions), std::end(Functions), N) !=
           std::end(Functions);
  };
  return Known(Name) || (Name.ends_with("f") && Known(Name.drop_back()));
}

/// Gives the declaration F the name Name. When the module already has a
/// function of that name (native code linked in may declare __nv_erff), F's
/// calls go to it instead and F is erased; setName would rename F to
/// Name.1, which nothing resolves (unless the two types differ: then F keeps
/// a uniqued name and the link reports it). Returns F's replacement.
inline llvm::Function *renameDeclaration(llvm::Function &F,
                                         const std::string &Name) {
  llvm::Function *Existing = F.getParent()->getFunction(Name);
  if (!Existing || Existing == &F ||
      Existing->getFunctionType() != F.getFunctionType()) {
    F.setName(Name);
    return &F;
  }
  F.replaceAllUsesWith(Existing);
  F.eraseFromParent();
  return Existing;
}

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_MATHLIBRARY_H
