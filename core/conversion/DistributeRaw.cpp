//===- DistributeRaw.cpp - tle_raw.call as inline assembly ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tle_raw.call sees tiles per thread: every thread runs the native code
// once per element it holds, with scalars passed to every call. The first
// variant whose language the chip's description accepts and that carries
// inline-assembly constraints becomes one `llvm.inline_asm` (with side
// effects, as the op's are unknown) per register. Other native languages
// (CUDA C, OpenCL C, ...) are forwarded by the plugin; that is issue 11.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"
#include "dialects/TLERaw/TLERawDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;

namespace {

struct RawCallConversion : DistPattern<tle_raw::CallOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_raw::CallOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tle_raw::VariantAttr chosen;
    std::string offered;
    for (Attribute attr : op.getVariants()) {
      auto variant = dyn_cast<tle_raw::VariantAttr>(attr);
      if (!variant)
        continue;
      StringRef language = variant.getLanguage().getValue();
      offered += (offered.empty() ? "" : ", ") + language.str();
      if (!chosen && variant.getConstraints() &&
          llvm::is_contained(st.rawLanguages, language))
        chosen = variant;
    }
    if (!chosen)
      return op.emitError()
             << "tle_raw.call \"" << op.getName()
             << "\" has no inline-assembly variant in a language this target "
                "accepts (offered: "
             << offered << "); forwarding native code is issue 11";

    SmallVector<Type> resultTypes;
    for (Type t : op.getResultTypes())
      resultTypes.push_back(
          getTypeConverter()->convertType(getElementTypeOrSelf(t)));
    Type asmResult;
    if (resultTypes.size() == 1)
      asmResult = resultTypes[0];
    else if (!resultTypes.empty())
      asmResult =
          LLVM::LLVMStructType::getLiteral(rewriter.getContext(), resultTypes);

    unsigned n = 1;
    for (ValueRange range : adaptor.getArgs())
      n = std::max<unsigned>(n, range.size());
    for (Type t : op.getResultTypes())
      if (auto layout = getDistributedLayout(t))
        n = std::max(n, layout.getTotalElemsPerThread(
                            cast<RankedTensorType>(t).getShape()));
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (unsigned i = 0; i < n; ++i) {
      SmallVector<Value> operands;
      for (ValueRange range : adaptor.getArgs())
        operands.push_back(range.size() == 1 ? range[0] : range[i]);
      auto call = LLVM::InlineAsmOp::create(
          rewriter, loc, asmResult, operands, chosen.getCode(),
          chosen.getConstraints(), rewriter.getUnitAttr(), UnitAttr(),
          LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(), ArrayAttr());
      if (resultTypes.size() == 1) {
        results[0].push_back(call.getResult(0));
        continue;
      }
      for (unsigned r = 0; r < resultTypes.size(); ++r)
        results[r].push_back(
            LLVM::ExtractValueOp::create(rewriter, loc, call.getResult(0), r));
    }
    if (op.getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateRawPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<RawCallConversion>(tc, patterns.getContext(), st);
}
