//===- tle-opt.cpp - mlir-opt with the TLE dialects -----------------------===//
//
// Parses, verifies, transforms and prints tile IR. Upstream passes a TLE
// pipeline uses (canonicalize, cse, inline, loop-invariant-code-motion, ...)
// are available by name.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"
#include "dialects/Registration.h"
#include "tests/lib/TestPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tle::test::registerTestPasses();
  mlir::tle::registerTLETransformsPasses();
  mlir::DialectRegistry registry;
  mlir::tle::registerTLEDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "TLE tile IR optimizer\n", registry));
}
