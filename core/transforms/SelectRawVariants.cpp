//===- SelectRawVariants.cpp - Native code or its portable fallback -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tle_raw.call may carry a portable fallback: tile IR that computes the
// same results. Once the target is known, either a variant will be forwarded
// (and the fallback is dead code that layout assignment should not see), or
// none can be, and the fallback becomes the call. Deciding this on tile IR
// keeps the distribution's tle_raw.call pattern free of regions.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"

#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLERaw/TLERawDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLESELECTRAWVARIANTS
#include "core/transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;

namespace {
class SelectRawVariantsPass
    : public mlir::tle::impl::TLESelectRawVariantsBase<SelectRawVariantsPass> {
public:
  using TLESelectRawVariantsBase::TLESelectRawVariantsBase;

  void runOnOperation() override {
    SmallVector<tle_raw::CallOp> Calls;
    getOperation()->walk([&](tle_raw::CallOp Op) { Calls.push_back(Op); });
    IRRewriter Rewriter(&getContext());
    bool Ok = true;
    for (tle_raw::CallOp Op : Calls)
      if (failed(select(Op, Rewriter)))
        Ok = false;
    if (!Ok)
      signalPassFailure();
  }

private:
  bool accepts(tle_raw::CallOp Op) const {
    for (Attribute A : Op.getVariants())
      if (llvm::is_contained(languages,
                             cast<tle_raw::VariantAttr>(A).getLanguage()))
        return true;
    return false;
  }

  LogicalResult select(tle_raw::CallOp Op, IRRewriter &Rewriter) {
    Region &Fallback = Op.getFallback();
    if (accepts(Op)) {
      Fallback.getBlocks().clear();
      return success();
    }
    if (Fallback.empty()) {
      SmallVector<std::string> Given;
      for (Attribute A : Op.getVariants())
        Given.push_back(
            cast<tle_raw::VariantAttr>(A).getLanguage().getValue().str());
      StringRef Kernel = "?";
      if (auto Fn = Op->getParentOfType<mlir::tle::FuncOp>())
        Kernel = Fn.getName();
      return Op.emitError()
             << "kernel '" << Kernel << "': no variant of '" << Op.getName()
             << "' is in a language this target accepts ("
             << llvm::join(languages, ", ") << "); the call has "
             << llvm::join(Given, ", ")
             << " and no portable fallback (a @triton.jit function in the "
                "list)";
    }
    // The fallback uses the operands directly: move its body before the call
    // and let the yielded values replace the results.
    Block &Body = Fallback.front();
    auto Yield = cast<tle_raw::YieldOp>(Body.getTerminator());
    SmallVector<Value> Results(Yield.getValues());
    Rewriter.eraseOp(Yield);
    Rewriter.inlineBlockBefore(&Body, Op);
    Rewriter.replaceOp(Op, Results);
    return success();
  }
};
} // namespace
