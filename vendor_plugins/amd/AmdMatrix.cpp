//===- AmdMatrix.cpp - tl.dot on the matrix cores -------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The wave64 MFMA instructions v_mfma_f32_16x16x16{f16,bf16} (CDNA2/3):
// which lane holds which element of a fragment (AMD's matrix instruction
// calculator, "16x16x16" blocks), and the instruction through rocdl.mfma.
// With i = lane % 16 and g = lane / 16, register v (0..3) holds
//   A (16x16, M x K): A[i][4g + v]
//   B (16x16, K x N): B[4g + v][i]
//   C (16x16):        C[4g + v][i]
// Compiled and checked in the assembly only: no AMD GPU has run it.
//
//===----------------------------------------------------------------------===//

#include "AmdTargetInfo.h"

#include "core/hwdesc/HwDesc.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace tle;
using namespace tle::amd;

/// The 16x16x16 fp16/bf16 instructions with an fp32 accumulator.
static bool isMfma16x16x16(const hwdesc::MatrixInstruction &Instr) {
  return Instr.M == 16 && Instr.N == 16 && Instr.K == 16 &&
         Instr.AccType == "fp32" && Instr.AType == Instr.BType &&
         (Instr.AType == "fp16" || Instr.AType == "bf16");
}

std::optional<backend::MatrixFragments>
AmdTargetInfo::getMatrixFragments(const hwdesc::MatrixInstruction &Instr) const {
  if (!isMfma16x16x16(Instr) || WarpSize != 64)
    return std::nullopt;
  backend::MatrixFragments F;
  // Lane bits 0-3 are i, bits 4-5 are g.
  F.A.Registers = {{0, 1}, {0, 2}};
  F.A.Lanes = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 4}, {0, 8}};
  F.B.Registers = {{1, 0}, {2, 0}};
  F.B.Lanes = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {4, 0}, {8, 0}};
  F.C.Registers = {{1, 0}, {2, 0}};
  F.C.Lanes = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {4, 0}, {8, 0}};
  return F;
}

/// Four 16-bit registers as the MFMA operand: <4 x half> for fp16, <4 x i16>
/// for bf16 (the intrinsic's types).
static Value packOperand(OpBuilder &B, Location Loc, ValueRange Regs,
                         bool IsBf16) {
  Type Elem = Regs.front().getType();
  Value Vec = LLVM::PoisonOp::create(B, Loc, VectorType::get({4}, Elem));
  for (auto [I, R] : llvm::enumerate(Regs))
    Vec = LLVM::InsertElementOp::create(
        B, Loc, Vec, R, LLVM::ConstantOp::create(B, Loc, B.getI32Type(), I));
  if (IsBf16)
    Vec = LLVM::BitcastOp::create(
        B, Loc, VectorType::get({4}, B.getI16Type()), Vec);
  return Vec;
}

FailureOr<SmallVector<Value>> AmdTargetInfo::emitMatrixMultiply(
    OpBuilder &B, Location Loc, const hwdesc::MatrixInstruction &Instr,
    ValueRange A, ValueRange BOperand, ValueRange C) const {
  if (!isMfma16x16x16(Instr))
    return emitError(Loc) << "amd plugin: matrix instruction '" << Instr.Name
                          << "' is not supported";
  if (A.size() != 4 || BOperand.size() != 4 || C.size() != 4)
    return emitError(Loc) << "amd plugin: " << Instr.Name
                          << " takes 4 registers of A, B and C, got "
                          << A.size() << ", " << BOperand.size() << " and "
                          << C.size();
  bool IsBf16 = Instr.AType == "bf16";
  Type F32 = B.getF32Type();
  auto AccType = VectorType::get({4}, F32);
  Value Acc = LLVM::PoisonOp::create(B, Loc, AccType);
  for (auto [I, R] : llvm::enumerate(C))
    Acc = LLVM::InsertElementOp::create(
        B, Loc, Acc, R, LLVM::ConstantOp::create(B, Loc, B.getI32Type(), I));
  Value Zero = LLVM::ConstantOp::create(B, Loc, B.getI32Type(), 0);
  // cbsz, abid, blgp = 0: no broadcast between blocks or lanes.
  SmallVector<Value> Args = {packOperand(B, Loc, A, IsBf16),
                             packOperand(B, Loc, BOperand, IsBf16), Acc, Zero,
                             Zero, Zero};
  Value D = IsBf16 ? Value(ROCDL::mfma_f32_16x16x16bf16_1k::create(
                         B, Loc, AccType, Args))
                   : Value(ROCDL::mfma_f32_16x16x16f16::create(B, Loc, AccType,
                                                               Args));
  SmallVector<Value> Result;
  for (int64_t I = 0; I < 4; ++I)
    Result.push_back(LLVM::ExtractElementOp::create(
        B, Loc, D, LLVM::ConstantOp::create(B, Loc, B.getI32Type(), I)));
  return Result;
}
