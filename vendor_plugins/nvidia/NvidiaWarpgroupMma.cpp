//===- NvidiaWarpgroupMma.cpp - tl.dot on Hopper's wgmma ------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// wgmma.mma_async (sm_90a): the four warps of a warpgroup multiply a
// 64 x N x 16 tile (x 32 for 8-bit floats, whose operands must be K-major)
// whose A and B the tensor cores read from shared memory
// through 64-bit matrix descriptors (PTX ISA, "Matrix Descriptor Format"):
//   bits  0-13  start address >> 4
//   bits 16-29  leading-dimension byte offset >> 4 (between swizzle panels
//               of an M/N-major operand; unused for K-major)
//   bits 32-45  stride byte offset >> 4 (between groups of 8 rows)
//   bits 62-63  swizzle: 1 = 128 B, 2 = 64 B, 3 = 32 B
// The instructions of one dot share a base descriptor and add their
// constant offset (>> 4) to it, as Triton does.
// The accumulator fragment (fp32): warp w of the group holds rows
// 16w + lane/4 (+8) and columns 8q + 2(lane%4) (+1) in registers
// d[4q + 2i + j] -- mma.sync's C fragment, repeated over N/8 and the warps.
// A may also come from registers (four .b32 of two halves each, packed by
// the core): warp w holds rows 16w + lane/4 (+8) and columns 2(lane%4)
// (+1) (+8) -- mma.sync's A fragment -- so the fp16 of an accumulator's 16
// columns is already the A of the next product (attention's P). For 8-bit
// types (k32) each .b32 holds 4 bytes: columns 4(lane%4) .. +3, (+16).
//
// wgmma runs asynchronously: the accumulator registers are tied through
// the final wait (inline assembly with in/out operands), so nothing reads
// them before wgmma.wait_group lets their group go; a wait that leaves
// groups pending ties nothing (their registers only feed later wgmma).
//
//===----------------------------------------------------------------------===//

#include "NvidiaTargetInfo.h"

#include "core/hwdesc/HwDesc.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tle;
using namespace tle::nvidia;

namespace {
/// The PTX type of the fp16/bf16 (K = 16) or 8-bit float (K = 32) wgmma
/// with an fp32 accumulator; empty for others.
StringRef getWgmmaInputType(const hwdesc::MatrixInstruction &Instr) {
  if (Instr.Level != hwdesc::IssueLevel::Warpgroup || Instr.M != 64 ||
      Instr.AccType != "fp32" || Instr.AType != Instr.BType ||
      Instr.N % 8 != 0 || Instr.N > 256)
    return "";
  if (Instr.K == 16 && Instr.AType == "fp16")
    return "f16";
  if (Instr.K == 16 && Instr.AType == "bf16")
    return "bf16";
  if (Instr.K == 32 && Instr.AType == "fp8e4m3")
    return "e4m3";
  if (Instr.K == 32 && Instr.AType == "fp8e5m2")
    return "e5m2";
  return "";
}

/// Whether the wgmma of this input type reads only K-major operands (no
/// transpose immediates: 8-bit types).
bool isKMajorOnly(StringRef Type) { return Type == "e4m3" || Type == "e5m2"; }

Value i64Const(OpBuilder &B, Location Loc, uint64_t V) {
  return LLVM::ConstantOp::create(B, Loc, B.getI64IntegerAttr(int64_t(V)));
}

/// The descriptor of Operand (see the file comment).
FailureOr<Value> getDescriptor(OpBuilder &B, Location Loc,
                               const backend::BlockMatrixOperand &Operand) {
  uint64_t Swizzle;
  switch (Operand.SwizzleBytes) {
  case 128:
    Swizzle = 1;
    break;
  case 64:
    Swizzle = 2;
    break;
  case 32:
    Swizzle = 3;
    break;
  default:
    return emitError(Loc) << "nvidia plugin: wgmma operands need a 32, 64 or "
                             "128-byte swizzle, got "
                          << Operand.SwizzleBytes;
  }
  uint64_t Leading = Operand.MajorMN ? Operand.PanelStride >> 4 : 0;
  uint64_t Stride = Operand.RowGroupStride >> 4;
  if (Leading >= (1u << 14) || Stride >= (1u << 14))
    return emitError(Loc) << "nvidia plugin: wgmma operand strides "
                          << Operand.PanelStride << " / "
                          << Operand.RowGroupStride
                          << " bytes do not fit a descriptor";
  Value Address = LLVM::PtrToIntOp::create(B, Loc, B.getI32Type(),
                                           Operand.Address);
  Address = LLVM::ZExtOp::create(B, Loc, B.getI64Type(), Address);
  Value Start = LLVM::LShrOp::create(
      B, Loc, LLVM::AndOp::create(B, Loc, Address, i64Const(B, Loc, 0x3FFFF)),
      i64Const(B, Loc, 4));
  uint64_t Fixed = (Leading << 16) | (Stride << 32) | (Swizzle << 62);
  Value Descriptor = LLVM::OrOp::create(B, Loc, Start, i64Const(B, Loc, Fixed));
  if (Operand.ByteOffset % 16 != 0 || Operand.ByteOffset < 0)
    return emitError(Loc) << "nvidia plugin: wgmma operand offset "
                          << Operand.ByteOffset
                          << " is not a non-negative multiple of 16 bytes";
  // The same base descriptor for every instruction of a dot, plus the
  // constant (shared memory ends below 2^18 bytes, so the 14-bit start
  // field does not carry into the next).
  if (Operand.ByteOffset == 0)
    return Descriptor;
  return Value(LLVM::AddOp::create(B, Loc, Descriptor,
                                   i64Const(B, Loc, Operand.ByteOffset >> 4)));
}

/// A PTX statement without operands that stays where it is.
void emitStatement(OpBuilder &B, Location Loc, StringRef Ptx) {
  LLVM::InlineAsmOp::create(B, Loc, TypeRange(), ValueRange(), Ptx, "",
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false, LLVM::TailCallKind::None,
                            /*asm_dialect=*/{}, /*operand_attrs=*/{});
}

/// Inline assembly whose f32 outputs are tied to Tied (operands $0..) and
/// that reads Extra after them with ExtraConstraints: what follows reads the
/// registers after Asm.
SmallVector<Value> emitTiedAsm(OpBuilder &B, Location Loc, StringRef Asm,
                               ValueRange Tied, ValueRange Extra = {},
                               StringRef ExtraConstraints = "") {
  SmallVector<Type> Types(Tied.size(), B.getF32Type());
  auto Struct = LLVM::LLVMStructType::getLiteral(B.getContext(), Types);
  std::string Constraints;
  for (size_t I = 0; I < Tied.size(); ++I)
    Constraints += (I ? ",=f" : "=f");
  for (size_t I = 0; I < Tied.size(); ++I)
    Constraints += "," + std::to_string(I);
  if (!ExtraConstraints.empty())
    Constraints += ("," + ExtraConstraints).str();
  SmallVector<Value> Operands(Tied.begin(), Tied.end());
  llvm::append_range(Operands, Extra);
  Value Result = LLVM::InlineAsmOp::create(
                     B, Loc, Struct, Operands, Asm, Constraints,
                     /*has_side_effects=*/true, /*is_align_stack=*/false,
                     LLVM::TailCallKind::None, /*asm_dialect=*/{},
                     /*operand_attrs=*/{})
                     .getResult(0);
  SmallVector<Value> Out;
  for (size_t I = 0; I < Tied.size(); ++I)
    Out.push_back(LLVM::ExtractValueOp::create(B, Loc, Result, I));
  return Out;
}
} // namespace

std::optional<backend::MatrixFragments>
NvidiaTargetInfo::getWarpgroupFragments(
    const hwdesc::MatrixInstruction &Instr) const {
  if (!HasWgmma || WarpSize != 32 || getWgmmaInputType(Instr).empty())
    return std::nullopt;
  backend::MatrixFragments F;
  F.OperandsInBlockMemory = true;
  F.NGranule = 8;
  F.C.Registers = {{0, 1}, {8, 0}};
  F.C.Lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  F.C.Warps = {{16, 0}, {32, 0}};
  F.A.Warps = F.C.Warps;
  // A from registers: four .b32 per thread and instruction, each packing
  // consecutive columns of one row (PTX ISA, wgmma register fragment of A).
  if (isKMajorOnly(getWgmmaInputType(Instr))) {
    // 8-bit types (k32): bytes of columns 4q..4q+3 (q = lane % 4) of rows
    // g and g + 8 (g = lane / 4), then of columns 16 + 4q..; operands
    // from shared memory only K-major.
    F.KMajorOperandsOnly = true;
    F.A.Registers = {{0, 1}, {0, 2}, {8, 0}, {0, 16}};
    F.A.Lanes = {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}};
    return F;
  }
  // 16-bit types (k16): halves of columns 2q, 2q + 1, rows g and g + 8,
  // then columns 8 + 2q.
  F.A.Registers = {{0, 1}, {8, 0}, {0, 8}};
  F.A.Lanes = F.C.Lanes;
  return F;
}

LogicalResult NvidiaTargetInfo::emitMatrixOperandsStored(OpBuilder &B,
                                                         Location Loc) const {
  if (!HasWgmma)
    return emitError(Loc) << "nvidia plugin: no wgmma on this chip";
  // Ordinary stores are generic-proxy writes; wgmma reads through the async
  // proxy.
  emitStatement(B, Loc, "fence.proxy.async.shared::cta;");
  return success();
}

LogicalResult NvidiaTargetInfo::emitMatrixFence(OpBuilder &B,
                                                Location Loc) const {
  if (!HasWgmma)
    return emitError(Loc) << "nvidia plugin: no wgmma on this chip";
  emitStatement(B, Loc, "wgmma.fence.sync.aligned;");
  return success();
}

/// Starts one wgmma of N columns on the accumulators C: A is read through
/// AOperands (its descriptor, or its four registers of two halves each), B
/// through BDescriptor; Transposes are the trailing immediates (imm-trans-a
/// and imm-trans-b, or imm-trans-b alone with A in registers), which the
/// 8-bit types do not take (their operands are K-major: all zero).
static FailureOr<SmallVector<Value>>
emitWgmma(OpBuilder &B, Location Loc, bool HasWgmma,
          const hwdesc::MatrixInstruction &Instr, int64_t N,
          ValueRange AOperands, Value BDescriptor, StringRef Transposes,
          ValueRange C) {
  StringRef Type = getWgmmaInputType(Instr);
  if (!HasWgmma || Type.empty() || N % 8 != 0 || N > Instr.N || N <= 0)
    return emitError(Loc) << "nvidia plugin: matrix instruction '"
                          << Instr.Name << "' with N = " << N
                          << " is not supported";
  if (isKMajorOnly(Type) && Transposes.contains('1'))
    return emitError(Loc) << "nvidia plugin: '" << Instr.Name
                          << "' reads K-major operands only";
  int64_t Registers = N / 2;
  if (int64_t(C.size()) != Registers)
    return emitError(Loc) << "nvidia plugin: wgmma m64n" << N << "k" << Instr.K
                          << " takes " << Registers
                          << " accumulator registers, got " << C.size();
  // Operands: the accumulators (tied), A's, B's descriptor, the scale-d
  // predicate's value.
  int64_t First = 2 * Registers, Desc = First + AOperands.size();
  std::string Asm;
  llvm::raw_string_ostream OS(Asm);
  OS << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << Desc + 1
     << ", 0;\nwgmma.mma_async.sync.aligned.m64n" << N << "k" << Instr.K
     << ".f32." << Type << "." << Type << " {";
  for (int64_t I = 0; I < Registers; ++I)
    OS << (I ? ", $" : "$") << I;
  OS << "}, ";
  if (AOperands.size() == 1) {
    OS << "$" << First;
  } else {
    OS << "{";
    for (int64_t I = First; I < Desc; ++I)
      OS << (I > First ? ", $" : "$") << I;
    OS << "}";
  }
  OS << ", $" << Desc << ", p, 1, 1";
  if (!isKMajorOnly(Type))
    OS << ", " << Transposes;
  OS << ";\n}";
  SmallVector<Value> Extra(AOperands);
  Extra.push_back(BDescriptor);
  Extra.push_back(LLVM::ConstantOp::create(B, Loc, B.getI32IntegerAttr(1)));
  std::string Constraints =
      AOperands.size() == 1
          ? "l"
          : llvm::join(SmallVector<StringRef>(AOperands.size(), "r"), ",");
  return emitTiedAsm(B, Loc, Asm, C, Extra, Constraints + ",l,r");
}

FailureOr<SmallVector<Value>> NvidiaTargetInfo::emitBlockMatrixMultiply(
    OpBuilder &B, Location Loc, const hwdesc::MatrixInstruction &Instr,
    int64_t N, const backend::BlockMatrixOperand &A,
    const backend::BlockMatrixOperand &BOperand, ValueRange C) const {
  FailureOr<Value> DescA = getDescriptor(B, Loc, A);
  FailureOr<Value> DescB = getDescriptor(B, Loc, BOperand);
  if (failed(DescA) || failed(DescB))
    return failure();
  std::string Transposes = std::to_string(A.MajorMN ? 1 : 0) + ", " +
                           std::to_string(BOperand.MajorMN ? 1 : 0);
  return emitWgmma(B, Loc, HasWgmma, Instr, N, *DescA, *DescB, Transposes, C);
}

FailureOr<SmallVector<Value>> NvidiaTargetInfo::emitRegisterAMatrixMultiply(
    OpBuilder &B, Location Loc, const hwdesc::MatrixInstruction &Instr,
    int64_t N, ValueRange ARegisters,
    const backend::BlockMatrixOperand &BOperand, ValueRange C) const {
  // Four .b32 registers of 2 halves or 4 bytes each.
  if (ARegisters.size() != 4 ||
      !llvm::all_of(ARegisters.getTypes(),
                    [](Type T) { return T.isInteger(32); }))
    return emitError(Loc) << "nvidia plugin: '" << Instr.Name
                          << "' takes A from four 32-bit registers, got "
                          << ARegisters.size() << " of "
                          << ARegisters.getTypes();
  FailureOr<Value> DescB = getDescriptor(B, Loc, BOperand);
  if (failed(DescB))
    return failure();
  return emitWgmma(B, Loc, HasWgmma, Instr, N, ARegisters, *DescB,
                   BOperand.MajorMN ? "1" : "0", C);
}

LogicalResult NvidiaTargetInfo::emitMatrixCommit(OpBuilder &B,
                                                 Location Loc) const {
  if (!HasWgmma)
    return emitError(Loc) << "nvidia plugin: no wgmma on this chip";
  emitStatement(B, Loc, "wgmma.commit_group.sync.aligned;");
  return success();
}

FailureOr<SmallVector<Value>>
NvidiaTargetInfo::emitMatrixWait(OpBuilder &B, Location Loc, unsigned Pending,
                                 ValueRange Accumulators) const {
  if (!HasWgmma)
    return emitError(Loc) << "nvidia plugin: no wgmma on this chip";
  for (Value V : Accumulators)
    if (!V.getType().isF32())
      return emitError(Loc) << "nvidia plugin: wgmma accumulators are f32, got "
                            << V.getType();
  // With groups still pending, the registers stay the wgmma's: they may
  // only feed later wgmma (hardware orders those), and any other
  // instruction touching them -- even the moves tying them through the
  // wait -- makes ptxas serialize every wgmma (C7514).
  std::string Wait =
      "wgmma.wait_group.sync.aligned " + std::to_string(Pending) + ";";
  if (Pending > 0 || Accumulators.empty()) {
    emitStatement(B, Loc, Wait);
    return SmallVector<Value>(Accumulators.begin(), Accumulators.end());
  }
  // The wait carries up to 64 registers; later ones pass through empty
  // statements after it, which keep the same order.
  constexpr size_t Chunk = 64;
  SmallVector<Value> Out;
  for (size_t First = 0; First < Accumulators.size(); First += Chunk) {
    ValueRange Part = Accumulators.slice(
        First, std::min(Chunk, Accumulators.size() - First));
    llvm::append_range(
        Out, emitTiedAsm(B, Loc, First == 0 ? Wait : "// wgmma accumulators",
                         Part));
  }
  return Out;
}
