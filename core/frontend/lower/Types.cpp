//===- Types.cpp - Triton dtypes and their tile-IR types ------------------===//

#include "core/frontend/lower/Types.h"

#include "dialects/TLE/TLEDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tle::frontend {

std::optional<DType> lookupDType(llvm::StringRef Name,
                                                MLIRContext *Context) {
  Builder B(Context);
  auto Int = [&](unsigned Width, bool Unsigned) -> std::optional<DType> {
    return DType{B.getIntegerType(Width), Unsigned};
  };
  return llvm::StringSwitch<std::optional<DType>>(Name)
      .Cases({"int1", "i1"}, Int(1, false))
      .Cases({"int8", "i8"}, Int(8, false))
      .Cases({"int16", "i16"}, Int(16, false))
      .Cases({"int32", "i32"}, Int(32, false))
      .Cases({"int64", "i64"}, Int(64, false))
      .Cases({"uint8", "u8"}, Int(8, true))
      .Cases({"uint16", "u16"}, Int(16, true))
      .Cases({"uint32", "u32"}, Int(32, true))
      .Cases({"uint64", "u64"}, Int(64, true))
      .Cases({"float16", "fp16"}, DType{B.getF16Type()})
      .Cases({"bfloat16", "bf16"}, DType{B.getBF16Type()})
      .Cases({"float32", "fp32"}, DType{B.getF32Type()})
      .Cases({"float64", "fp64"}, DType{B.getF64Type()})
      .Cases({"float8e5", "fp8e5"}, DType{B.getType<Float8E5M2Type>()})
      .Cases({"float8e4nv", "fp8e4nv"}, DType{B.getType<Float8E4M3FNType>()})
      .Default(std::nullopt);
}

std::optional<DType> parseSignatureType(llvm::StringRef Text,
                                        MLIRContext *Context) {
  Text = Text.trim();
  if (Text.consume_front("*")) {
    std::optional<DType> Pointee = parseSignatureType(Text, Context);
    if (!Pointee)
      return std::nullopt;
    // A pointer's IsUnsigned is its pointee's: "*u8" loads uint8.
    return DType{mlir::tle::PointerType::get(Pointee->Type),
                 Pointee->IsUnsigned};
  }
  return lookupDType(Text, Context);
}

std::string getDTypeName(Type T, bool IsUnsigned) {
  if (auto Ptr = dyn_cast<mlir::tle::PointerType>(T))
    return "*" + getDTypeName(Ptr.getPointeeType(), IsUnsigned);
  if (auto Int = dyn_cast<IntegerType>(T))
    return (IsUnsigned ? "u" : "i") + std::to_string(Int.getWidth());
  if (T.isF16())
    return "fp16";
  if (T.isBF16())
    return "bf16";
  if (T.isF32())
    return "fp32";
  if (T.isF64())
    return "fp64";
  if (isa<Float8E5M2Type>(T))
    return "fp8e5";
  if (isa<Float8E4M3FNType>(T))
    return "fp8e4nv";
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << T;
  return S;
}

std::string getTypeName(Type T, bool IsUnsigned) {
  auto Tensor = dyn_cast<RankedTensorType>(T);
  if (!Tensor)
    return getDTypeName(T, IsUnsigned);
  std::string S = "tensor<";
  for (int64_t Dim : Tensor.getShape())
    S += std::to_string(Dim) + "x";
  return S + getDTypeName(Tensor.getElementType(), IsUnsigned) + ">";
}

Type getScalarType(Type T) {
  if (auto Tensor = dyn_cast<RankedTensorType>(T))
    return Tensor.getElementType();
  return T;
}

llvm::ArrayRef<int64_t> getShape(Type T) {
  if (auto Tensor = dyn_cast<RankedTensorType>(T))
    return Tensor.getShape();
  return {};
}

Type withElementType(Type Like, Type Elem) {
  if (auto Tensor = dyn_cast<RankedTensorType>(Like))
    return Tensor.clone(Elem);
  return Elem;
}

bool isFloatType(Type T) { return isa<FloatType>(T); }
bool isIntType(Type T) { return isa<IntegerType>(T); }
bool isBoolType(Type T) { return T.isInteger(1); }
bool isPointerType(Type T) { return isa<mlir::tle::PointerType>(T); }
bool isFp8Type(Type T) {
  return isa<FloatType>(T) && T.getIntOrFloatBitWidth() == 8;
}

bool holdsInteger(DType T, const llvm::APInt &Value) {
  unsigned Width = T.Type.getIntOrFloatBitWidth();
  if (T.IsUnsigned || Width == 1)
    return !Value.isNegative() && Value.getActiveBits() <= Width;
  return Value.getSignificantBits() <= Width;
}

} // namespace tle::frontend
