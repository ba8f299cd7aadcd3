//===- TValue.cpp - Values seen while lowering a kernel -------------------===//

#include "core/frontend/lower/TValue.h"

#include "core/frontend/lower/Types.h"
#include "dialects/TLE/TLEDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

namespace tle::frontend {

TValue TValue::boolean(bool B) {
  TValue R;
  R.K = Kind::Bool;
  R.B = B;
  return R;
}

TValue TValue::integer(int64_t I) {
  TValue R;
  R.K = Kind::Int;
  R.I = I;
  return R;
}

TValue TValue::uint64(uint64_t U) {
  TValue R = integer(static_cast<int64_t>(U));
  R.Unsigned = U > static_cast<uint64_t>(INT64_MAX);
  return R;
}

std::optional<TValue> TValue::integer(const llvm::APInt &Wide) {
  if (Wide.isSignedIntN(64))
    return integer(Wide.getSExtValue());
  if (Wide.isIntN(64))
    return uint64(Wide.getZExtValue());
  return std::nullopt;
}

llvm::APInt TValue::getWideInt() const {
  if (K == Kind::Bool)
    return llvm::APInt(128, B);
  return llvm::APInt(128, static_cast<uint64_t>(I), /*isSigned=*/!Unsigned);
}

TValue TValue::floating(double F) {
  TValue R;
  R.K = Kind::Float;
  R.F = F;
  return R;
}

TValue TValue::string(llvm::StringRef S) {
  TValue R;
  R.K = Kind::Str;
  R.S = S.str();
  return R;
}

TValue TValue::dtype(mlir::Type T, bool IsUnsigned) {
  TValue R;
  R.K = Kind::DType;
  R.Ty = T;
  R.Unsigned = IsUnsigned;
  return R;
}

TValue TValue::attr(mlir::Attribute A) {
  TValue R;
  R.K = Kind::Attr;
  R.A = A;
  return R;
}

TValue TValue::tuple(std::vector<TValue> Elts) {
  TValue R;
  R.K = Kind::Tuple;
  R.Elts = std::move(Elts);
  return R;
}

TValue TValue::ir(mlir::Value V, bool IsUnsigned) {
  TValue R;
  R.K = Kind::IR;
  R.V = V;
  R.Ty = V.getType();
  R.Unsigned = IsUnsigned;
  return R;
}

TValue TValue::blockPointer(mlir::Value Desc, std::vector<TValue> Offsets,
                            bool IsUnsigned) {
  TValue R;
  R.K = Kind::BlockPtr;
  R.Unsigned = IsUnsigned;
  R.V = Desc;
  R.Ty = Desc.getType();
  R.Elts = std::move(Offsets);
  return R;
}

TValue TValue::function(const FunctionDef *F) {
  TValue R;
  R.K = Kind::Function;
  R.Fn = F;
  return R;
}

TValue TValue::builtin(llvm::StringRef CanonicalName) {
  TValue R;
  R.K = Kind::Builtin;
  R.S = CanonicalName.str();
  return R;
}

TValue TValue::method(TValue Self, llvm::StringRef Name) {
  TValue R;
  R.K = Kind::Method;
  R.S = Name.str();
  R.Self = std::make_shared<TValue>(std::move(Self));
  return R;
}

TValue TValue::lambda(const Expr *E) {
  TValue R;
  R.K = Kind::Lambda;
  R.LambdaExpr = E;
  return R;
}

TValue TValue::slice() {
  TValue R;
  R.K = Kind::Slice;
  return R;
}

double TValue::getNumber() const {
  switch (K) {
  case Kind::Bool:
    return B;
  case Kind::Int:
    return Unsigned ? static_cast<double>(static_cast<uint64_t>(I))
                    : static_cast<double>(I);
  default:
    return F;
  }
}

bool TValue::isSameValue(const TValue &Other) const {
  // Exactly, not as doubles (2^63 and 2^63 - 1 are one double).
  if (!is(Kind::Float) && !Other.is(Kind::Float) && isNumber() &&
      Other.isNumber())
    return getWideInt() == Other.getWideInt();
  if (isNumber() && Other.isNumber())
    return getNumber() == Other.getNumber();
  if (K != Other.K)
    return false;
  auto SameElements = [&] {
    return Elts.size() == Other.Elts.size() &&
           llvm::all_of(llvm::zip(Elts, Other.Elts), [](const auto &Pair) {
             return std::get<0>(Pair).isSameValue(std::get<1>(Pair));
           });
  };
  switch (K) {
  case Kind::None:
  case Kind::Slice:
    return true;
  case Kind::Str:
  case Kind::Builtin:
    return S == Other.S;
  case Kind::DType:
    return Ty == Other.Ty && Unsigned == Other.Unsigned;
  case Kind::IR:
    return V == Other.V && Unsigned == Other.Unsigned;
  case Kind::Tuple:
    return SameElements();
  case Kind::BlockPtr:
    return V == Other.V && SameElements();
  case Kind::Function:
    return Fn == Other.Fn;
  case Kind::Lambda:
    return LambdaExpr == Other.LambdaExpr;
  case Kind::Method:
    return S == Other.S && Self->isSameValue(*Other.Self);
  case Kind::Attr:
    return A == Other.A;
  default:
    return false;
  }
}

bool TValue::isTruthy() const {
  switch (K) {
  case Kind::None:
    return false;
  case Kind::Bool:
    return B;
  case Kind::Int:
    return I != 0;
  case Kind::Float:
    return F != 0;
  case Kind::Str:
    return !S.empty();
  case Kind::Tuple:
    return !Elts.empty();
  default:
    return true;
  }
}

std::string TValue::describe() const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  switch (K) {
  case Kind::None:
    OS << "None";
    break;
  case Kind::Bool:
    OS << "constexpr bool " << (B ? "True" : "False");
    break;
  case Kind::Int:
    OS << "constexpr int " << getWideInt();
    break;
  case Kind::Float:
    OS << "constexpr float " << F;
    break;
  case Kind::Str:
    OS << "constexpr str '" << S << "'";
    break;
  case Kind::DType:
    OS << "dtype " << getDTypeName(Ty, Unsigned);
    break;
  case Kind::Tuple:
    OS << "tuple of " << Elts.size() << " values";
    break;
  case Kind::IR:
    OS << (llvm::isa<mlir::RankedTensorType>(Ty) ? "tensor" : "scalar")
       << " of type " << getTypeName(Ty, Unsigned);
    break;
  case Kind::Function:
    OS << "jit function";
    break;
  case Kind::Builtin:
    OS << "'" << S << "'";
    break;
  case Kind::Method:
    OS << "method '" << S << "'";
    break;
  case Kind::Lambda:
    OS << "lambda";
    break;
  case Kind::Slice:
    OS << "slice";
    break;
  case Kind::Attr:
    OS << "attribute " << A;
    break;
  case Kind::BlockPtr:
    OS << "block pointer to "
       << getTypeName(llvm::cast<mlir::tle::TensorDescType>(Ty).getBlockType());
    break;
  }
  return Out;
}

} // namespace tle::frontend
