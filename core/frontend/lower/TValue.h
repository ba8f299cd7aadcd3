//===- TValue.h - Values seen while lowering a kernel -----------*- C++ -*-===//
//
// A kernel body manipulates two worlds at once: compile-time Python values
// (constexpr ints, floats, strings, dtypes, tuples, functions) and IR values
// (scalars and tiles computed by the kernel). TValue holds either.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_LOWER_TVALUE_H
#define TLE_FRONTEND_LOWER_TVALUE_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tle::frontend {
class FunctionDef;
class Expr;

class TValue {
public:
  enum class Kind {
    None,
    Bool,
    Int,
    Float,
    Str,
    DType,    ///< A Triton dtype (tl.float16, a pointer type, ...).
    Tuple,    ///< Python tuple or list of values.
    IR,       ///< A scalar or tile computed by the kernel.
    Function, ///< A jit function of the module.
    Builtin,  ///< A library function or namespace, by canonical name.
    Method,   ///< `value.name` awaiting a call.
    Lambda,   ///< A lambda expression (e.g. for heuristics).
    Slice,    ///< `:` in a subscript.
    Attr,     ///< A compile-time IR attribute (e.g. a tle.gpu layout).
    BlockPtr, ///< tl.make_block_ptr: a tensor descriptor and IR offsets.
  };

  TValue() = default;
  static TValue none() { return TValue(); }
  static TValue boolean(bool B);
  static TValue integer(int64_t I);
  /// An int in [2^63, 2^64), which Triton materializes as uint64 (the bits
  /// are kept in the int64; getInt() returns them).
  static TValue uint64(uint64_t U);
  /// An int that is an int64 or in [2^63, 2^64); std::nullopt beyond (TLE's
  /// constexpr ints have no more than 64 bits, Python's are unbounded).
  static std::optional<TValue> integer(const llvm::APInt &Wide);
  static TValue floating(double F);
  static TValue string(llvm::StringRef S);
  static TValue dtype(mlir::Type T, bool IsUnsigned = false);
  static TValue tuple(std::vector<TValue> Elts);
  static TValue ir(mlir::Value V, bool IsUnsigned = false);
  static TValue function(const FunctionDef *F);
  static TValue builtin(llvm::StringRef CanonicalName);
  static TValue method(TValue Self, llvm::StringRef Name);
  static TValue lambda(const Expr *E);
  static TValue slice();
  static TValue attr(mlir::Attribute A);
  /// A block pointer: `Desc` (a tle.make_tensor_desc result) describes the
  /// tensor and the block, `Offsets` (i32 scalars) where the block starts.
  /// `IsUnsigned`: the elements' signedness, as for pointers.
  static TValue blockPointer(mlir::Value Desc, std::vector<TValue> Offsets,
                             bool IsUnsigned = false);

  Kind getKind() const { return K; }
  bool is(Kind Other) const { return K == Other; }
  /// True for values known at compile time (everything but IR values and
  /// block pointers).
  bool isConstexpr() const { return K != Kind::IR && K != Kind::BlockPtr; }
  /// True for constexpr numbers (bool, int, float).
  bool isNumber() const {
    return K == Kind::Bool || K == Kind::Int || K == Kind::Float;
  }

  bool getBool() const { return B; }
  int64_t getInt() const { return I; }
  /// Whether an int lies in int64 (not in [2^63, 2^64)): getInt() is its
  /// value.
  bool fitsInt64() const { return K != Kind::Int || !Unsigned; }
  /// A bool or int as a 128-bit signed value (exact, for the folds).
  llvm::APInt getWideInt() const;
  double getFloat() const { return F; }
  /// Bool, int or float as a double.
  double getNumber() const;
  llvm::StringRef getStr() const { return S; }
  mlir::Type getType() const { return Ty; }
  mlir::Value getValue() const { return V; }
  bool isUnsigned() const { return Unsigned; }
  const std::vector<TValue> &getElements() const { return Elts; }
  const FunctionDef *getFunction() const { return Fn; }
  const Expr *getLambda() const { return LambdaExpr; }
  llvm::StringRef getName() const { return S; }
  const TValue &getSelf() const { return *Self; }
  mlir::Attribute getAttr() const { return A; }

  /// Whether two values are the same: the same Python value, or the same
  /// IR values (a name left unchanged).
  bool isSameValue(const TValue &Other) const;
  /// Python truthiness of a constexpr.
  bool isTruthy() const;
  /// A short description for diagnostics: "constexpr int 4", "tensor of
  /// type 'tensor<128xf32>'", "function 'add'".
  std::string describe() const;

private:
  Kind K = Kind::None;
  bool B = false;
  bool Unsigned = false;
  int64_t I = 0;
  double F = 0;
  std::string S;
  mlir::Type Ty;
  mlir::Value V;
  mlir::Attribute A;
  std::vector<TValue> Elts;
  const FunctionDef *Fn = nullptr;
  const Expr *LambdaExpr = nullptr;
  std::shared_ptr<TValue> Self;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_LOWER_TVALUE_H
