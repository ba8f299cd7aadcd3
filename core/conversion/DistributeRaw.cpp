//===- DistributeRaw.cpp - tle_raw.call as inline assembly ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tle_raw.call sees tiles per thread: every thread runs the native code
// once per element it holds, with scalars passed to every call. The first
// variant (in the kernel's order) whose language the chip's description
// accepts is used:
//  - inline assembly (a language with constraints: ptx, amdgcn) becomes one
//    `llvm.inline_asm` (with side effects, as the op's are unknown) per
//    element, located at the call and at the native code (a FusedLoc tagged
//    "tle_raw"), so that a plugin can map its assembler's errors back;
//  - any other language is a function: one `llvm.func` declaration per
//    variant, carrying it as `tle_raw.variant`, called once per element.
//    The plugin compiles the code with its vendor's toolchain and links it
//    in before optimization (tle/Backend/RawCode.h), so the call inlines.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"
#include "dialects/TLERaw/TLERawDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tle/Backend/RawCode.h"

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
      if (!chosen && llvm::is_contained(st.rawLanguages, language))
        chosen = variant;
    }
    if (!chosen)
      return op.emitError()
             << "tle_raw.call \"" << op.getName()
             << "\" has no variant in a language this target accepts "
                "(offered: "
             << offered << ")";
    StringRef language = chosen.getLanguage().getValue();
    bool inlineAsm = language == "ptx" || language == "amdgcn";
    if (inlineAsm && !chosen.getConstraints())
      return op.emitError()
             << "the " << language << " variant of \"" << op.getName()
             << "\" is inline assembly and needs constraints, e.g. "
                "@dialect(name=\"ptx\", constraints=\"=r,r,r\")";
    if (chosen.getFile()) {
      Location code = FileLineColLoc::get(chosen.getFile(), chosen.getLine(),
                                          chosen.getColumn());
      loc = FusedLoc::get({loc, code}, rewriter.getStringAttr("tle_raw"),
                          rewriter.getContext());
    }

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
    LLVM::LLVMFuncOp callee;
    if (!inlineAsm) {
      SmallVector<Type> params;
      for (ValueRange range : adaptor.getArgs())
        params.push_back(range.front().getType());
      Type ret = asmResult ? asmResult
                           : LLVM::LLVMVoidType::get(rewriter.getContext());
      callee = getNativeFunction(
          chosen,
          chosen.getEntry() ? chosen.getEntry().getValue() : op.getName(),
          LLVM::LLVMFunctionType::get(ret, params), loc, rewriter);
    }
    for (unsigned i = 0; i < n; ++i) {
      SmallVector<Value> operands;
      for (ValueRange range : adaptor.getArgs())
        operands.push_back(range.size() == 1 ? range[0] : range[i]);
      Operation *call;
      if (callee)
        call = LLVM::CallOp::create(rewriter, loc, callee, operands);
      else
        call = LLVM::InlineAsmOp::create(
            rewriter, loc, asmResult, operands, chosen.getCode(),
            chosen.getConstraints(), rewriter.getUnitAttr(), UnitAttr(),
            LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(), ArrayAttr());
      if (resultTypes.empty())
        continue;
      if (resultTypes.size() == 1) {
        results[0].push_back(call->getResult(0));
        continue;
      }
      for (unsigned r = 0; r < resultTypes.size(); ++r)
        results[r].push_back(
            LLVM::ExtractValueOp::create(rewriter, loc, call->getResult(0), r));
    }
    if (op.getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOpWithMultiple(op, results);
    return success();
  }

private:
  /// The declaration that stands for `variant` (one per variant and type;
  /// several calls of one native function share it).
  LLVM::LLVMFuncOp
  getNativeFunction(tle_raw::VariantAttr variant, StringRef name,
                    LLVM::LLVMFunctionType type, Location loc,
                    ConversionPatternRewriter &rewriter) const {
    ModuleOp module = st.module;
    StringAttr attrName =
        rewriter.getStringAttr(::tle::backend::RawVariantAttrName);
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (fn->getAttr(attrName) == variant && fn.getFunctionType() == type)
        return fn;
    std::string base = ("__tle_raw_" + name).str();
    std::string symbol = base;
    for (unsigned k = 1; module.lookupSymbol(symbol); ++k)
      symbol = base + "_" + std::to_string(k);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto fn = LLVM::LLVMFuncOp::create(rewriter, loc, symbol, type);
    fn->setAttr(attrName, variant);
    return fn;
  }
};

} // namespace

void ::tle::conversion::distribute::populateRawPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<RawCallConversion>(tc, patterns.getContext(), st);
}
