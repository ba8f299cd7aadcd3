//===- BuiltinsPython.cpp - Python builtins inside jit functions ----------===//
//
// The builtins Triton kernels use on compile-time values: min/max over
// constexprs, float('inf'), int(), len(), isinstance() on constexprs.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Builtins.h"
#include "core/frontend/lower/Emitter.h"
#include "core/frontend/lower/PythonText.h"

#include "dialects/TLE/TLEDialect.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace ::tle::frontend;

namespace {
Result minMaxConstexpr(Emitter &E, CallArgs &Args, const Node *Site,
                       bool IsMax) {
  llvm::StringRef Fn = IsMax ? "max" : "min";
  std::vector<TValue> Values;
  if (Args.Positional.size() == 1 &&
      Args.Positional[0].Value.is(TValue::Kind::Tuple))
    Values = Args.Positional[0].Value.getElements();
  else
    for (const CallArg &A : Args.Positional)
      Values.push_back(A.Value);
  if (Values.empty() || !Args.Keywords.empty())
    return (E.error(Site, Fn + "() takes one or more positional "
                                      "arguments"));
  // As in Triton, min/max over run-time values is tl.minimum/tl.maximum.
  if (llvm::any_of(Values, [](const TValue &V) { return !V.isConstexpr(); })) {
    TValue Acc = Values[0];
    for (const TValue &V : llvm::ArrayRef(Values).drop_front()) {
      CallArgs Pair;
      Pair.Positional = {CallArg{Acc, Site}, CallArg{V, Site}};
      auto R = E.callBuiltin(IsMax ? "tl.maximum" : "tl.minimum", Pair, Site);
      if (failed(R))
        return failure();
      Acc = *R;
    }
    return Acc;
  }
  // Python's `<` on constexprs (ints exactly: 2**62 and 2**62 + 1 are one
  // double).
  TValue Best = Values[0];
  for (const TValue &V : Values) {
    if (!V.isNumber())
      return E.error(Site, Fn + "() needs numbers, got " + V.describe());
    auto Better = IsMax ? E.compare(CmpOpKind::Lt, Best, V, Site)
                        : E.compare(CmpOpKind::Lt, V, Best, Site);
    if (failed(Better))
      return failure();
    if (Better->getBool())
      Best = V;
  }
  return Best;
}

Result builtinMin(Emitter &E, CallArgs &Args, const Node *Site) {
  return minMaxConstexpr(E, Args, Site, false);
}
Result builtinMax(Emitter &E, CallArgs &Args, const Node *Site) {
  return minMaxConstexpr(E, Args, Site, true);
}

Result builtinFloat(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x"}, 1, "float", Site);
  if (failed(A))
    return failure();
  const TValue &V = A->get("x")->Value;
  if (V.isNumber())
    return TValue::floating(V.getNumber());
  if (V.is(TValue::Kind::Str)) {
    std::string S = V.getStr().lower();
    double Inf = std::numeric_limits<double>::infinity();
    if (S == "inf" || S == "+inf" || S == "infinity")
      return TValue::floating(Inf);
    if (S == "-inf" || S == "-infinity")
      return TValue::floating(-Inf);
    if (S == "nan")
      return TValue::floating(std::nan(""));
    double D;
    if (!llvm::StringRef(S).getAsDouble(D))
      return TValue::floating(D);
  }
  return (E.error(Site, "float() needs a constexpr number or string, "
                               "got " +
                                   V.describe()));
}

Result builtinInt(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x"}, 1, "int", Site);
  if (failed(A))
    return failure();
  const TValue &V = A->get("x")->Value;
  if (!V.isNumber())
    return E.error(Site, "int() needs a constexpr number, got " + V.describe() +
                             "; use x.to(tl.int32) for tensors");
  if (!V.is(TValue::Kind::Float))
    return *TValue::integer(V.getWideInt());
  // Truncated toward zero, exactly (not through int64, which 2**63 + 5
  // overflows).
  llvm::APSInt Truncated(128, /*isUnsigned=*/false);
  bool IsExact;
  if (llvm::APFloat(V.getFloat())
          .convertToInteger(Truncated, llvm::APFloat::rmTowardZero, &IsExact) ==
      llvm::APFloat::opInvalidOp)
    return E.error(Site,
                   "int() cannot convert " + V.describe() + " to an integer");
  if (std::optional<TValue> Int = TValue::integer(Truncated))
    return *Int;
  return E.error(Site,
                 "int(" + *getPythonText(V, 'r') + ") does not fit in 64 bits");
}

Result builtinBool(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x"}, 1, "bool", Site);
  if (failed(A))
    return failure();
  const TValue &V = A->get("x")->Value;
  if (!V.isConstexpr())
    return (E.error(Site, "bool() needs a constexpr, got " +
                                     V.describe()));
  return TValue::boolean(V.isTruthy());
}

Result builtinLen(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x"}, 1, "len", Site);
  if (failed(A))
    return failure();
  const TValue &V = A->get("x")->Value;
  if (V.is(TValue::Kind::Tuple))
    return TValue::integer(V.getElements().size());
  if (V.is(TValue::Kind::Str))
    return TValue::integer(V.getStr().size());
  if (V.is(TValue::Kind::IR) && !getShape(V.getType()).empty())
    return TValue::integer(getShape(V.getType())[0]);
  return (E.error(Site, "len() needs a tuple or a tensor, got " +
                                   V.describe()));
}

Result builtinAbs(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x"}, 1, "abs", Site);
  if (failed(A))
    return failure();
  const TValue &V = A->get("x")->Value;
  if (V.is(TValue::Kind::Int))
    return *TValue::integer(V.getWideInt().abs()); // Fits: |-2^63| = 2^63.
  if (V.is(TValue::Kind::Float))
    return TValue::floating(std::fabs(V.getFloat()));
  return E.callBuiltin("tl.abs", Args, Site);
}

/// isinstance(x, T) for the classes kernels test: tl.constexpr, tl.tensor,
/// tl.tensor_descriptor, int, float, str, bool, tuple.
Result builtinIsinstance(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"obj", "classinfo"}, 2, "isinstance", Site);
  if (failed(A))
    return failure();
  const TValue &V = A->get("obj")->Value;
  const TValue &C = A->get("classinfo")->Value;
  std::vector<TValue> Classes =
      C.is(TValue::Kind::Tuple) ? C.getElements() : std::vector<TValue>{C};
  for (const TValue &Cls : Classes) {
    if (!Cls.is(TValue::Kind::Builtin))
      return (E.error(Site, "isinstance() needs a class, got " +
                                       Cls.describe()));
    llvm::StringRef N = Cls.getName();
    bool IsDesc = V.is(TValue::Kind::IR) &&
                  llvm::isa<mlir::tle::TensorDescType>(V.getType());
    bool Match =
        (N == "tl.constexpr" && V.isConstexpr()) ||
        (N == "tl.tensor" && V.is(TValue::Kind::IR) && !IsDesc) ||
        ((N == "tl.tensor_descriptor" || N == "tl.tensor_descriptor_base") &&
         IsDesc) ||
        (N == "int" && V.is(TValue::Kind::Int)) ||
        (N == "float" && V.is(TValue::Kind::Float)) ||
        (N == "bool" && V.is(TValue::Kind::Bool)) ||
        (N == "str" && V.is(TValue::Kind::Str)) ||
        ((N == "tuple" || N == "list") && V.is(TValue::Kind::Tuple)) ||
        (N == "tl.dtype" && V.is(TValue::Kind::DType));
    if (Match)
      return TValue::boolean(true);
  }
  return TValue::boolean(false);
}

Result builtinTuple(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x"}, 0, "tuple", Site);
  if (failed(A))
    return failure();
  if (!A->has("x"))
    return TValue::tuple({});
  const TValue &V = A->get("x")->Value;
  if (!V.is(TValue::Kind::Tuple))
    return (E.error(Site, "tuple() needs a tuple or list, got " +
                                     V.describe()));
  return V;
}

Result builtinPrint(Emitter &E, CallArgs &Args, const Node *Site) {
  // Triton lowers print() in a kernel to a device print.
  CallArgs P;
  P.Positional.push_back({TValue::string(""), Site});
  for (const CallArg &A : Args.Positional)
    P.Positional.push_back(A);
  return E.callBuiltin("tl.device_print", P, Site);
}

Result builtinRange(Emitter &E, CallArgs &Args, const Node *Site) {
  return (E.error(Site, "range() may only appear as the iterable of a "
                               "for loop"));
}
} // namespace

void ::tle::frontend::registerPythonBuiltins(llvm::StringMap<BuiltinFn> &Table) {
  Table["min"] = builtinMin;
  Table["max"] = builtinMax;
  Table["float"] = builtinFloat;
  Table["int"] = builtinInt;
  Table["bool"] = builtinBool;
  Table["len"] = builtinLen;
  Table["abs"] = builtinAbs;
  Table["isinstance"] = builtinIsinstance;
  Table["tuple"] = builtinTuple;
  Table["list"] = builtinTuple;
  Table["print"] = builtinPrint;
  Table["range"] = builtinRange;
  Table["tl.range"] = builtinRange;
  Table["tl.static_range"] = builtinRange;
}
