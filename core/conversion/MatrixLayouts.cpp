//===- MatrixLayouts.cpp - tl.dot tiled over a matrix instruction ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/MatrixLayouts.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tle;

namespace tle::conversion {

StringRef getDescriptionTypeName(Type T) {
  if (T.isF16())
    return "fp16";
  if (T.isBF16())
    return "bf16";
  if (T.isF32())
    return "fp32";
  if (T.isF64())
    return "fp64";
  if (isa<Float8E4M3FNType>(T))
    return "fp8e4m3";
  if (isa<Float8E5M2Type>(T))
    return "fp8e5m2";
  if (T.isInteger(8))
    return "int8";
  if (T.isInteger(32))
    return "int32";
  return "";
}

/// The dimension a basis moves along; -1 unless exactly one.
static int getBasisDim(ArrayRef<int64_t> Basis) {
  int Dim = -1;
  for (auto [D, V] : llvm::enumerate(Basis)) {
    if (V == 0)
      continue;
    if (Dim >= 0)
      return -1;
    Dim = D;
  }
  return Dim;
}

LinearLayoutAttr MatrixTiling::getLayout(MLIRContext *Ctx, MatrixOperand Role,
                                         ArrayRef<int64_t> Shape) const {
  const hwdesc::MatrixInstruction &Instr = Unit->Instr;
  const backend::MatrixFragmentLayout &Fragment =
      Role == MatrixOperand::A   ? Unit->Fragments.A
      : Role == MatrixOperand::B ? Unit->Fragments.B
                                 : Unit->Fragments.C;
  // Per dimension of the operand: the instruction's extent, the part of it
  // the fragment describes (narrower along N for instructions of variable
  // N) and the warps (warpgroups) tiling it (K is never split over warps:
  // each warp sums all of K).
  int64_t FragmentN = Unit->Fragments.NGranule ? Unit->Fragments.NGranule
                                               : InstrN;
  int64_t InstrRows = Role == MatrixOperand::B ? Instr.K : Instr.M;
  int64_t InstrCols = Role == MatrixOperand::A ? Instr.K : InstrN;
  int64_t FragmentCols = Role == MatrixOperand::A ? Instr.K : FragmentN;
  unsigned RowWarps = Role == MatrixOperand::B ? 1 : WarpsM;
  unsigned ColWarps = Role == MatrixOperand::A ? 1 : WarpsN;
  int64_t Extent[2] = {InstrRows, InstrCols};
  int64_t Covered[2] = {InstrRows, FragmentCols};
  unsigned Warps[2] = {RowWarps, ColWarps};
  // Registers run along K first for A and B (pairs of 16-bit values packed
  // into one operand register sit next to each other), along N for C.
  unsigned Fastest = Role == MatrixOperand::B ? 0 : 1;

  SmallVector<int64_t> Regs;
  auto addBasis = [&](SmallVectorImpl<int64_t> &Bases, unsigned Dim,
                      int64_t Step) {
    int64_t Basis[2] = {0, 0};
    Basis[Dim] = Step;
    Bases.append(Basis, Basis + 2);
  };
  for (unsigned Dim : {Fastest, 1 - Fastest}) {
    for (const auto &Basis : Fragment.Registers)
      if (getBasisDim(Basis) == int(Dim))
        Regs.append(Basis.begin(), Basis.end());
    for (int64_t Step = Covered[Dim]; Step < std::min(Extent[Dim], Shape[Dim]);
         Step *= 2)
      addBasis(Regs, Dim, Step);
    for (int64_t Step = Extent[Dim] * Warps[Dim]; Step < Shape[Dim];
         Step *= 2)
      addBasis(Regs, Dim, Step);
  }
  SmallVector<int64_t> Lanes;
  for (const auto &Basis : Fragment.Lanes)
    Lanes.append(Basis.begin(), Basis.end());
  // The warps of one issuing group first, then group w is (w % WarpsM,
  // w / WarpsM) in the (M, N) grid of groups; an operand without that
  // dimension is replicated over it.
  SmallVector<int64_t> WarpBases;
  for (const auto &Basis : Fragment.Warps)
    WarpBases.append(Basis.begin(), Basis.end());
  for (unsigned Step = 1; Step < WarpsM; Step *= 2)
    addBasis(WarpBases, 0, Role != MatrixOperand::B ? InstrRows * Step : 0);
  for (unsigned Step = 1; Step < WarpsN; Step *= 2)
    addBasis(WarpBases, 1, Role != MatrixOperand::A ? InstrCols * Step : 0);
  return LinearLayoutAttr::get(Ctx, Shape, Regs, Lanes, WarpBases);
}

/// Whether Fragment covers a Rows x Cols tile with one basis per register
/// bit along one dimension and LaneBits lane bases.
static bool isUsableFragment(const backend::MatrixFragmentLayout &Fragment,
                             int64_t Rows, int64_t Cols, unsigned LaneBits) {
  if (Fragment.Lanes.size() != LaneBits)
    return false;
  for (const auto &Basis : Fragment.Registers)
    if (Basis.size() != 2 || getBasisDim(Basis) < 0)
      return false;
  for (const auto &Basis : Fragment.Lanes)
    if (Basis.size() != 2)
      return false;
  return int64_t(1) << (Fragment.Registers.size() + LaneBits) == Rows * Cols;
}

/// A tiling with an instruction issued by a group of warps on operands in
/// block-level memory (Hopper's wgmma): groups split M while each keeps at
/// least one instruction of rows, then N; the instruction takes as much of
/// a group's N as it can. Each operand tile (of ABytes and BBytes
/// elements) must fill whole 1024-byte periods of the swizzled layouts the
/// unit reads.
static std::optional<MatrixTiling>
planGroupTiling(const MatrixUnit &Unit, int64_t M, int64_t N, int64_t K,
                int64_t ABytes, int64_t BBytes, unsigned NumWarps,
                unsigned LaneBits) {
  const hwdesc::MatrixInstruction &Instr = Unit.Instr;
  const backend::MatrixFragments &Fragments = Unit.Fragments;
  unsigned GroupWarps = 1u << Fragments.C.Warps.size();
  int64_t Granule = Fragments.NGranule ? Fragments.NGranule : Instr.N;
  if (!Fragments.OperandsInBlockMemory || NumWarps % GroupWarps ||
      !llvm::isPowerOf2_64(M) || !llvm::isPowerOf2_64(N) ||
      !llvm::isPowerOf2_64(K) || M % Instr.M || K % Instr.K || N % Granule ||
      M * K * ABytes % 1024 || K * N * BBytes % 1024)
    return std::nullopt;
  if (Fragments.C.Lanes.size() != LaneBits ||
      int64_t(1) << (Fragments.C.Registers.size() + LaneBits +
                     Fragments.C.Warps.size()) !=
          Instr.M * Granule)
    return std::nullopt;
  MatrixTiling Tiling{&Unit, 1, 1, 0};
  unsigned Groups = NumWarps / GroupWarps;
  while (Tiling.WarpsM * Tiling.WarpsN < Groups) {
    if (M / (Instr.M * Tiling.WarpsM) >= 2)
      Tiling.WarpsM *= 2;
    else if (N / (Granule * Tiling.WarpsN) >= 2)
      Tiling.WarpsN *= 2;
    else
      return std::nullopt;
  }
  Tiling.InstrN = std::min<int64_t>(Instr.N, N / Tiling.WarpsN);
  if (Tiling.InstrN % Granule)
    return std::nullopt;
  return Tiling;
}

std::optional<MatrixTiling> planMatrixTiling(DotOp Dot,
                                             ArrayRef<MatrixUnit> Units,
                                             unsigned NumWarps,
                                             unsigned WarpSize) {
  RankedTensorType AType = Dot.getA().getType(), BType = Dot.getB().getType(),
                   DType = Dot.getD().getType();
  if (DType.getRank() != 2)
    return std::nullopt;
  StringRef AName = getDescriptionTypeName(AType.getElementType());
  StringRef BName = getDescriptionTypeName(BType.getElementType());
  StringRef AccName = getDescriptionTypeName(DType.getElementType());
  int64_t M = DType.getDimSize(0), N = DType.getDimSize(1),
          K = AType.getDimSize(1);
  unsigned LaneBits = llvm::Log2_32(WarpSize);
  for (const MatrixUnit &Unit : Units) {
    const hwdesc::MatrixInstruction &Instr = Unit.Instr;
    // One warp (wavefront, subgroup) issues the instruction, or a group of
    // warps reading its operands from block-level memory.
    bool issuedByOneWarp = Instr.Level == hwdesc::IssueLevel::Warp ||
                           Instr.Level == hwdesc::IssueLevel::Wavefront ||
                           Instr.Level == hwdesc::IssueLevel::Subgroup;
    if (Instr.AType != AName || Instr.BType != BName ||
        Instr.AccType != AccName)
      continue;
    if (!issuedByOneWarp) {
      if (std::optional<MatrixTiling> Tiling = planGroupTiling(
              Unit, M, N, K, AType.getElementTypeBitWidth() / 8,
              BType.getElementTypeBitWidth() / 8, NumWarps, LaneBits))
        return Tiling;
      continue;
    }
    if (M % Instr.M || N % Instr.N || K % Instr.K ||
        !llvm::isPowerOf2_64(M) || !llvm::isPowerOf2_64(N) ||
        !llvm::isPowerOf2_64(K))
      continue;
    if (!isUsableFragment(Unit.Fragments.A, Instr.M, Instr.K, LaneBits) ||
        !isUsableFragment(Unit.Fragments.B, Instr.K, Instr.N, LaneBits) ||
        !isUsableFragment(Unit.Fragments.C, Instr.M, Instr.N, LaneBits))
      continue;
    // Warps split M and N, keeping each warp's tile about square (Triton's
    // choice for mma.sync).
    MatrixTiling Tiling{&Unit, 1, 1, Instr.N};
    while (Tiling.WarpsM * Tiling.WarpsN < NumWarps) {
      int64_t TilesM = M / (Instr.M * Tiling.WarpsM);
      int64_t TilesN = N / (Instr.N * Tiling.WarpsN);
      if (TilesM >= 2 && TilesM >= TilesN / 2)
        Tiling.WarpsM *= 2;
      else if (TilesN >= 2)
        Tiling.WarpsN *= 2;
      else
        break;
    }
    if (Tiling.WarpsM * Tiling.WarpsN == NumWarps)
      return Tiling;
  }
  return std::nullopt;
}

} // namespace tle::conversion
