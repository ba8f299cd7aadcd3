//===- DistributeDot.cpp - tl.dot on matrix units or FMA ------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <set>

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::conversion::kMatrixInstructionAttr;
using ::tle::conversion::MatrixUnit;

namespace {

/// tl.dot on the FMA units, correct on every target: layout assignment gives
/// each thread whole rows of A and whole columns of B for the elements of C
/// it owns, so every C register is a chain of K fused multiply-adds over
/// registers the thread already holds. Matrix units replace this per target.
struct DotConversion : DistPattern<DotOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->hasAttr(kMatrixInstructionAttr))
      return failure();
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                     dType = op.getD().getType();
    auto a = dyn_cast<BlockedLayoutAttr>(aType.getEncoding());
    auto b = dyn_cast<BlockedLayoutAttr>(bType.getEncoding());
    auto d = dyn_cast<BlockedLayoutAttr>(dType.getEncoding());
    int64_t k = aType.getShape().back();
    if (!a || !b || !d || dType.getRank() != 2)
      return op.emitError()
             << "tle.dot with operand layouts " << aType.getEncoding()
             << " and " << bType.getEncoding()
             << " is not supported by distribution yet";
    SmallVector<unsigned> eptA = a.getElemsPerThread(aType.getShape());
    SmallVector<unsigned> eptB = b.getElemsPerThread(bType.getShape());
    SmallVector<unsigned> eptD = d.getElemsPerThread(dType.getShape());
    if (eptA[0] != eptD[0] || eptB[1] != eptD[1] || eptA[1] != k ||
        eptB[0] != k)
      return op.emitError() << "tle.dot operands must hold whole rows of A "
                               "and whole columns of B per thread for the "
                               "FMA fallback";
    Location loc = op.getLoc();
    Type accType = dType.getElementType();
    bool isFloat = isa<FloatType>(accType);
    // Operands are widened to the accumulator type once per register (8-bit
    // floats from their bytes).
    auto widen = [&](ValueRange regs,
                     Type elem) -> FailureOr<SmallVector<Value>> {
      if (isFloat && elem.getIntOrFloatBitWidth() == 8)
        return convertFloat8(st.target, op, rewriter, regs, elem, accType,
                             /*towardZero=*/false);
      SmallVector<Value> out;
      for (Value v : regs) {
        if (v.getType() == accType)
          out.push_back(v);
        else if (isFloat)
          out.push_back(arith::ExtFOp::create(rewriter, loc, accType, v));
        else
          out.push_back(arith::ExtSIOp::create(rewriter, loc, accType, v));
      }
      return out;
    };
    FailureOr<SmallVector<Value>> aWide =
        widen(adaptor.getA(), aType.getElementType());
    FailureOr<SmallVector<Value>> bWide =
        widen(adaptor.getB(), bType.getElementType());
    if (failed(aWide) || failed(bWide))
      return failure();
    SmallVector<Value> aRegs = *aWide, bRegs = *bWide;
    SmallVector<Value> result(adaptor.getC().begin(), adaptor.getC().end());
    for (unsigned reg = 0; reg < result.size(); ++reg) {
      SmallVector<unsigned> ij = delinearize(reg, eptD, d.getOrder());
      Value acc = result[reg];
      for (unsigned kk = 0; kk < k; ++kk) {
        Value x = aRegs[linearize({ij[0], kk}, eptA, a.getOrder())];
        Value y = bRegs[linearize({kk, ij[1]}, eptB, b.getOrder())];
        if (isFloat) {
          acc = math::FmaOp::create(rewriter, loc, x, y, acc);
        } else {
          Value prod = arith::MulIOp::create(rewriter, loc, x, y);
          acc = arith::AddIOp::create(rewriter, loc, acc, prod);
        }
      }
      result[reg] = acc;
    }
    rewriter.replaceOpWithMultiple(op, {result});
    return success();
  }
};

/// tl.dot on a matrix instruction. Layout assignment tiled A, B and C with
/// the instruction's fragments (#tle.linear, see MatrixLayouts.h), so at
/// lane 0 of warp 0 the registers of the instruction tile at (m, n, k) sit at
/// the tile's origin plus the fragment's offsets; every other lane and warp
/// holds the same registers for its own elements.
struct MatrixDotConversion : DistPattern<DotOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto name = op->getAttrOfType<StringAttr>(kMatrixInstructionAttr);
    if (!name || op->hasAttr(::tle::conversion::kMatrixBlockOperandsAttr))
      return failure();
    const MatrixUnit *unit = nullptr;
    for (const MatrixUnit &candidate : st.matrixUnits)
      if (candidate.Instr.Name == name.getValue())
        unit = &candidate;
    if (!unit)
      return op.emitError() << "matrix instruction '" << name.getValue()
                            << "' is not offered by the target";
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                     dType = op.getD().getType();
    auto a = dyn_cast<LinearLayoutAttr>(aType.getEncoding());
    auto b = dyn_cast<LinearLayoutAttr>(bType.getEncoding());
    auto d = dyn_cast<LinearLayoutAttr>(dType.getEncoding());
    if (!a || !b || !d)
      return op.emitError() << "tle.dot on " << name.getValue()
                            << " needs the instruction's linear layouts";
    auto registerMap = [](LinearLayoutAttr layout) {
      DenseMap<std::pair<int64_t, int64_t>, unsigned> map;
      for (auto [reg, offset] : llvm::enumerate(layout.getRegisterOffsets()))
        map.try_emplace({offset[0], offset[1]}, reg);
      return map;
    };
    auto aRegs = registerMap(a), bRegs = registerMap(b), dRegs = registerMap(d);
    // Tile origins along M, N (from C) and K (from A).
    const ::tle::hwdesc::MatrixInstruction &instr = unit->Instr;
    std::set<int64_t> originsM, originsN, originsK;
    for (auto &offset : d.getRegisterOffsets()) {
      if (offset[0] % instr.M == 0)
        originsM.insert(offset[0]);
      if (offset[1] % instr.N == 0)
        originsN.insert(offset[1]);
    }
    for (auto &offset : a.getRegisterOffsets())
      if (offset[1] % instr.K == 0)
        originsK.insert(offset[1]);
    auto fragA = getFragmentOffsets(unit->Fragments.A);
    auto fragB = getFragmentOffsets(unit->Fragments.B);
    auto fragC = getFragmentOffsets(unit->Fragments.C);

    ValueRange aValues = adaptor.getA(), bValues = adaptor.getB();
    SmallVector<Value> acc(adaptor.getC().begin(), adaptor.getC().end());
    auto gather = [&](const DenseMap<std::pair<int64_t, int64_t>, unsigned> &map,
                      ArrayRef<std::pair<int64_t, int64_t>> fragment,
                      int64_t row, int64_t col,
                      SmallVectorImpl<unsigned> &regs) {
      regs.clear();
      for (auto [r, c] : fragment) {
        auto it = map.find({row + r, col + c});
        if (it == map.end())
          return false;
        regs.push_back(it->second);
      }
      return true;
    };
    // K outermost: consecutive instructions accumulate into different
    // tiles, so they do not wait on each other.
    SmallVector<unsigned> aIdx, bIdx, cIdx;
    for (int64_t k : originsK)
      for (int64_t m : originsM)
        for (int64_t n : originsN) {
          if (!gather(aRegs, fragA, m, k, aIdx) ||
              !gather(bRegs, fragB, k, n, bIdx) ||
              !gather(dRegs, fragC, m, n, cIdx))
            return op.emitError()
                   << "operand layouts do not hold whole " << name.getValue()
                   << " fragments";
          SmallVector<Value> aFrag, bFrag, cFrag;
          for (unsigned i : aIdx)
            aFrag.push_back(aValues[i]);
          for (unsigned i : bIdx)
            bFrag.push_back(bValues[i]);
          for (unsigned i : cIdx)
            cFrag.push_back(acc[i]);
          FailureOr<SmallVector<Value>> out = st.target.emitMatrixMultiply(
              rewriter, op.getLoc(), instr, aFrag, bFrag, cFrag);
          if (failed(out))
            return failure();
          for (auto [i, v] : llvm::zip(cIdx, *out))
            acc[i] = v;
        }
    rewriter.replaceOpWithMultiple(op, {acc});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateDotPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<DotConversion, MatrixDotConversion>(tc, patterns.getContext(),
                                                   st);
}
