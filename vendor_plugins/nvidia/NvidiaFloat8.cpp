//===- NvidiaFloat8.cpp - 8-bit float conversions by cvt ------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// sm_89 and later convert pairs: two f32 to two e4m3/e5m2 bytes
// (cvt.rn.satfinite.e4m3x2.f32, what Triton's NVIDIA lowering emits) and
// two bytes to two f16 (cvt.rn.f16x2.e4m3x2). One instruction per pair
// instead of the core's portable integer arithmetic (about 30 per element),
// with the same results: nearest even, saturation to the largest finite
// value, every NaN to 0x7F and back to an unsigned NaN.
//
//===----------------------------------------------------------------------===//

#include "NvidiaTargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tle::nvidia;

static bool isFloat8(Type T) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(T);
}

static bool isWideFloat(Type T) {
  return isa<Float16Type, BFloat16Type, Float32Type>(T);
}

static Value extract(OpBuilder &B, Location Loc, Value Vector, int64_t Index) {
  return LLVM::ExtractElementOp::create(
      B, Loc, Vector, LLVM::ConstantOp::create(B, Loc, B.getI32Type(), Index));
}

/// Two bytes (Low, High: element 0 and 1) of an 8-bit float type as f16.
static Value widenPair(OpBuilder &B, Location Loc, Value Low, Value High,
                       Type From) {
  Type I8 = B.getI8Type();
  Value Pair = LLVM::UndefOp::create(B, Loc, VectorType::get({2}, I8));
  Value Zero = LLVM::ConstantOp::create(B, Loc, B.getI32Type(), 0);
  Value One = LLVM::ConstantOp::create(B, Loc, B.getI32Type(), 1);
  Pair = LLVM::InsertElementOp::create(B, Loc, Pair, Low, Zero);
  Pair = LLVM::InsertElementOp::create(B, Loc, Pair, High, One);
  return NVVM::ConvertF8x2ToF16x2Op::create(
      B, Loc, VectorType::get({2}, B.getF16Type()), Pair, /*relu=*/false, From);
}

FailureOr<SmallVector<Value>> NvidiaTargetInfo::emitFloat8Conversion(
    OpBuilder &B, Location Loc, ValueRange In, Type From, Type To) const {
  if (!HasFloat8Conversions || In.empty())
    return failure();
  SmallVector<Value> Out;
  if (isWideFloat(From) && isFloat8(To)) {
    auto ToF32 = [&](Value V) -> Value {
      return V.getType().isF32()
                 ? V
                 : LLVM::FPExtOp::create(B, Loc, B.getF32Type(), V);
    };
    for (size_t I = 0; I < In.size(); I += 2) {
      Value Low = ToF32(In[I]);
      Value High = I + 1 < In.size()
                       ? ToF32(In[I + 1])
                       : LLVM::ConstantOp::create(B, Loc, B.getF32Type(),
                                                  B.getF32FloatAttr(0));
      // The first operand becomes the upper byte (element 1).
      Value Pair = NVVM::ConvertF32x2ToF8x2Op::create(
          B, Loc, VectorType::get({2}, B.getI8Type()), High, Low,
          NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
          /*relu=*/false, To);
      Out.push_back(extract(B, Loc, Pair, 0));
      if (I + 1 < In.size())
        Out.push_back(extract(B, Loc, Pair, 1));
    }
    return Out;
  }
  if (isFloat8(From) && isWideFloat(To)) {
    for (size_t I = 0; I < In.size(); I += 2) {
      Value High = I + 1 < In.size()
                       ? In[I + 1]
                       : LLVM::ConstantOp::create(B, Loc, B.getI8Type(), 0);
      Value Halves = widenPair(B, Loc, In[I], High, From);
      for (int64_t E = 0; E < 2 && I + E < In.size(); ++E) {
        Value Half = extract(B, Loc, Halves, E);
        // Every 8-bit float is exact in f16, f32 and bf16.
        Value Wide = To.isF16()
                         ? Half
                         : LLVM::FPExtOp::create(B, Loc, B.getF32Type(), Half);
        if (isa<BFloat16Type>(To))
          Wide = LLVM::FPTruncOp::create(B, Loc, To, Wide);
        Out.push_back(Wide);
      }
    }
    return Out;
  }
  return failure();
}
