//===- PythonText.h - Python's str() and repr() of constexprs ---*- C++ -*-===//
//
// The text Python gives a compile-time value, for f-strings in jit
// functions (Triton formats each field with "{}" or "{!r}" on the
// constexpr's Python value).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_LOWER_PYTHONTEXT_H
#define TLE_FRONTEND_LOWER_PYTHONTEXT_H

#include "core/frontend/lower/TValue.h"
#include <optional>
#include <string>

namespace tle::frontend {

/// str(V) (Conversion 0 or 's'), repr(V) ('r') or ascii(V) ('a') for None,
/// bools, ints, floats, strings and dtypes; nullopt for other values
/// (tensors, tuples, functions).
std::optional<std::string> getPythonText(const TValue &V, char Conversion);

/// repr(float): the shortest digits that read back as D ("0.1", "1e+16",
/// "inf").
std::string getPythonFloatRepr(double D);

} // namespace tle::frontend

#endif // TLE_FRONTEND_LOWER_PYTHONTEXT_H
