//===- Types.h - Triton dtypes and their tile-IR types ----------*- C++ -*-===//

#ifndef TLE_FRONTEND_LOWER_TYPES_H
#define TLE_FRONTEND_LOWER_TYPES_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tle::frontend {

/// A tile-IR element type plus the signedness MLIR's signless integers lack
/// (for a pointer, its pointee's: *u8 is {ptr<i8>, unsigned}).
struct DType {
  mlir::Type Type;
  bool IsUnsigned = false;

  bool operator==(const DType &Other) const {
    return Type == Other.Type && IsUnsigned == Other.IsUnsigned;
  }
  bool operator!=(const DType &Other) const { return !(*this == Other); }
};

/// `tl.<name>` dtypes: "float16", "bfloat16", "int32", "uint8", "float8e5",
/// "float8e4nv", ... and their short forms ("fp16", "i32", "u8", "fp8e5").
std::optional<DType> lookupDType(llvm::StringRef Name,
                                 mlir::MLIRContext *Context);

/// A Triton signature entry: "fp32", "i32", "u64", "*fp16", "**i8".
std::optional<DType> parseSignatureType(llvm::StringRef Text,
                                        mlir::MLIRContext *Context);

/// Triton's short names: "fp32", "i32", "u32", "*fp16".
std::string getDTypeName(mlir::Type Type, bool IsUnsigned = false);
/// Scalars as getDTypeName; tiles as "tensor<128x64xfp32>".
std::string getTypeName(mlir::Type Type, bool IsUnsigned = false);

/// Element type of a tile, or the type itself.
mlir::Type getScalarType(mlir::Type Type);
/// Shape of a tile, or an empty shape for a scalar.
llvm::ArrayRef<int64_t> getShape(mlir::Type Type);
/// `Elem` in the shape of `Like` (a tile of that shape, or Elem itself).
mlir::Type withElementType(mlir::Type Like, mlir::Type Elem);

bool isFloatType(mlir::Type Scalar);
bool isIntType(mlir::Type Scalar);
bool isBoolType(mlir::Type Scalar);
bool isPointerType(mlir::Type Scalar);
bool isFp8Type(mlir::Type Scalar);

/// Whether integer type `T` holds `Value` (a signed value of any width):
/// [0, 2^w) where it is unsigned or a bool, [-2^(w-1), 2^(w-1)) otherwise.
bool holdsInteger(DType T, const llvm::APInt &Value);

} // namespace tle::frontend

#endif // TLE_FRONTEND_LOWER_TYPES_H
