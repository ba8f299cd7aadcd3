//===- Expr.h - Integer expressions over shape and config names -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tuning spec says how to launch a kernel for a shape and a config: buffer
// sizes, scalar arguments and the grid are small integer expressions such as
// `cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)`. They are evaluated on the
// device machine, which has no Python, so this is a tiny evaluator of its own:
// integers, names, + - * / % (C semantics on int64), parentheses, and the
// functions cdiv, min, max. Errors name the expression and the position.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_EXPR_H
#define TLE_CORE_TUNE_EXPR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace tle {
namespace tune {

/// Looks a name up; std::nullopt when it is not bound.
using NameLookup = std::function<std::optional<int64_t>(llvm::StringRef)>;

/// Evaluates Text. Division or modulo by zero and unbound names are errors.
llvm::Expected<int64_t> evalExpr(llvm::StringRef Text,
                                 const NameLookup &Lookup);

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_EXPR_H
