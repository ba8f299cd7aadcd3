//===- TestAxisInfo.cpp - Print the axis analysis as remarks --------------===//
//
// `tle-opt --tle-test-axis-info` attaches the facts of every integer or
// pointer result as a remark, so lit tests can check them with
// -verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/AxisInfo.h"
#include "dialects/TLE/TLEDialect.h"
#include "tests/lib/TestPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestAxisInfoPass
    : public PassWrapper<TestAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)
  StringRef getArgument() const final { return "tle-test-axis-info"; }
  StringRef getDescription() const final {
    return "Print contiguity, divisibility and constancy of integer and "
           "pointer values";
  }
  void runOnOperation() override {
    mlir::tle::AxisInfoResult axis(getOperation());
    getOperation()->walk([&](Operation *op) {
      if (op->getNumResults() != 1)
        return;
      Value result = op->getResult(0);
      Type elem = getElementTypeOrSelf(result.getType());
      if (!isa<IntegerType, mlir::tle::PointerType>(elem))
        return;
      std::string text;
      llvm::raw_string_ostream os(text);
      axis.lookup(result).print(os);
      op->emitRemark() << text;
    });
  }
};
} // namespace

void ::tle::test::registerTestPasses() {
  PassRegistration<TestAxisInfoPass>();
  registerTestDistributePass();
}
