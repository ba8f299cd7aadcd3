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

#include <algorithm>
#include <iterator>

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

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_MATHLIBRARY_H
