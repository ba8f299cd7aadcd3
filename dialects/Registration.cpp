//===- Registration.cpp - Register the TLE dialects -----------------------===//

#include "dialects/Registration.h"

#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLERaw/TLERawDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::tle::registerTLEDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::tle::TLEDialect, mlir::tle_struct::TLEStructDialect,
                  mlir::tle_raw::TLERawDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::cf::ControlFlowDialect>();
}
