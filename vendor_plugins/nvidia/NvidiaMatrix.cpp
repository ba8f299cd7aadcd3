//===- NvidiaMatrix.cpp - tl.dot on the tensor cores ----------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The warp-level mma.sync instructions (sm_80+): which lane holds which
// element of a fragment (PTX ISA, "Matrix Fragments for mma.m16n8k16 with
// floating point type"), and the instruction itself through nvvm.mma.sync.
// With g = lane / 4 and t = lane % 4:
//   A (16x16, row-major): a[2i+j] = A[g + 8*(i%2)][2t + j + 8*(i/2)]
//   B (16x8, column-major): b[2i+j] = B[2t + j + 8i][g]
//   C (16x8): c[2i+j] = C[g + 8i][2t + j]
//
//===----------------------------------------------------------------------===//

#include "NvidiaTargetInfo.h"

#include "core/hwdesc/HwDesc.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tle;
using namespace tle::nvidia;

namespace {
/// The floating-point m16n8k16 instructions with an fp32 accumulator.
std::optional<NVVM::MMATypes> getM16N8K16Type(
    const hwdesc::MatrixInstruction &Instr) {
  if (Instr.Level != hwdesc::IssueLevel::Warp || Instr.M != 16 ||
      Instr.N != 8 || Instr.K != 16 || Instr.AccType != "fp32" ||
      Instr.AType != Instr.BType)
    return std::nullopt;
  if (Instr.AType == "fp16")
    return NVVM::MMATypes::f16;
  if (Instr.AType == "bf16")
    return NVVM::MMATypes::bf16;
  return std::nullopt;
}
} // namespace

std::optional<backend::MatrixFragments> NvidiaTargetInfo::getMatrixFragments(
    const hwdesc::MatrixInstruction &Instr) const {
  if (Instr.Level == hwdesc::IssueLevel::Warpgroup)
    return getWarpgroupFragments(Instr);
  if (!getM16N8K16Type(Instr) || WarpSize != 32)
    return std::nullopt;
  backend::MatrixFragments F;
  // Lane bits 0-1 are t, bits 2-4 are g.
  F.A.Registers = {{0, 1}, {8, 0}, {0, 8}};
  F.A.Lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  F.B.Registers = {{1, 0}, {8, 0}};
  F.B.Lanes = {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}};
  F.C.Registers = {{0, 1}, {8, 0}};
  F.C.Lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  return F;
}

/// Packs pairs of 16-bit registers into the 32-bit operands of mma.sync:
/// <2 x f16> for fp16, i32 for bf16 (as NVVM expects them).
static SmallVector<Value> packPairs(OpBuilder &B, Location Loc,
                                    ValueRange Regs, NVVM::MMATypes PtxType) {
  SmallVector<Value> Packed;
  auto VecType = VectorType::get({2}, Regs.front().getType());
  for (unsigned I = 0; I + 1 < Regs.size(); I += 2) {
    Value Vec = LLVM::PoisonOp::create(B, Loc, VecType);
    for (unsigned J = 0; J < 2; ++J)
      Vec = LLVM::InsertElementOp::create(
          B, Loc, Vec, Regs[I + J],
          LLVM::ConstantOp::create(B, Loc, B.getI32Type(), J));
    if (PtxType == NVVM::MMATypes::bf16)
      Vec = LLVM::BitcastOp::create(B, Loc, B.getI32Type(), Vec);
    Packed.push_back(Vec);
  }
  return Packed;
}

FailureOr<SmallVector<Value>> NvidiaTargetInfo::emitMatrixMultiply(
    OpBuilder &B, Location Loc, const hwdesc::MatrixInstruction &Instr,
    ValueRange A, ValueRange BOperand, ValueRange C) const {
  std::optional<NVVM::MMATypes> PtxType = getM16N8K16Type(Instr);
  if (!PtxType)
    return emitError(Loc) << "nvidia plugin: matrix instruction '"
                          << Instr.Name << "' is not supported";
  if (A.size() != 8 || BOperand.size() != 4 || C.size() != 4)
    return emitError(Loc) << "nvidia plugin: " << Instr.Name
                          << " takes 8, 4 and 4 registers, got " << A.size()
                          << ", " << BOperand.size() << " and " << C.size();
  Type F32 = B.getF32Type();
  auto ResultType =
      LLVM::LLVMStructType::getLiteral(B.getContext(), {F32, F32, F32, F32});
  Value D = NVVM::MmaOp::create(
      B, Loc, ResultType, packPairs(B, Loc, A, *PtxType),
      packPairs(B, Loc, BOperand, *PtxType), C, /*shape=*/{16, 8, 16},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{*PtxType, *PtxType},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> Result;
  for (int64_t I = 0; I < 4; ++I)
    Result.push_back(LLVM::ExtractValueOp::create(B, Loc, D, I));
  return Result;
}

LogicalResult NvidiaTargetInfo::emitMatrixTileStore(OpBuilder &B,
                                                   Location Loc,
                                                   Value RowAddress,
                                                   ValueRange Tiles,
                                                   bool Transpose) const {
  if (!HasStMatrix ||
      (Tiles.size() != 1 && Tiles.size() != 2 && Tiles.size() != 4))
    return emitError(Loc) << "nvidia plugin: stmatrix of " << Tiles.size()
                          << " tiles is not available";
  // stmatrix's "col" layout is its .trans form, as ldmatrix's.
  NVVM::StMatrixOp::create(
      B, Loc, RowAddress, Tiles,
      Transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(B.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  return success();
}

FailureOr<SmallVector<Value>>
NvidiaTargetInfo::emitMatrixTileLoad(OpBuilder &B, Location Loc,
                                     Value RowAddress, unsigned NumTiles,
                                     bool Transpose) const {
  if (!HasLdMatrix || (NumTiles != 1 && NumTiles != 2 && NumTiles != 4))
    return emitError(Loc) << "nvidia plugin: ldmatrix of " << NumTiles
                          << " tiles is not available";
  Type I32 = B.getI32Type();
  Type ResultType =
      NumTiles == 1
          ? I32
          : LLVM::LLVMStructType::getLiteral(
                B.getContext(), SmallVector<Type>(NumTiles, I32));
  // ldmatrix's "col" layout is its .trans form.
  Value Loaded = NVVM::LdMatrixOp::create(
      B, Loc, ResultType, RowAddress, NumTiles,
      Transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(B.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  if (NumTiles == 1)
    return SmallVector<Value>{Loaded};
  SmallVector<Value> Tiles;
  for (unsigned I = 0; I < NumTiles; ++I)
    Tiles.push_back(LLVM::ExtractValueOp::create(B, Loc, Loaded, I));
  return Tiles;
}
