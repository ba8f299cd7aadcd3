//===- TLEDialect.td - The tle dialect ---------------------*- tablegen -*-===//
//
// The core tile dialect: Triton's tile semantics (program ids, pointer
// tensors, masked loads/stores, dot, reductions) plus the TLE-Lite ops
// (sub-tile views, producer/consumer pipes, device mesh).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_DIALECT_TD
#define TLE_DIALECT_TD

include "mlir/IR/OpBase.td"

def TLE_Dialect : Dialect {
  let name = "tle";
  let cppNamespace = "::mlir::tle";
  let summary = "Tile-level kernel operations with Triton's semantics";
  let description = [{
    Values are scalars or ranked tensors ("tiles") of scalars and pointers.
    A kernel is a `tle.func` executed by a grid of programs; each program
    works on whole tiles. Elementwise arithmetic and math stay in the `arith`
    and `math` dialects on ranked tensors; this dialect adds what those lack:
    pointers, memory access, data movement, dot products, reductions and the
    TLE-Lite extensions.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect"];
  let useDefaultTypePrinterParser = 1;
  // Folds (e.g. tle.splat of a constant) produce attributes that become
  // arith.constant ops, so arith's folds (x * 1, x + 0) see through splats.
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
}

class TLE_Op<string mnemonic, list<Trait> traits = []>
    : Op<TLE_Dialect, mnemonic, traits>;

#endif // TLE_DIALECT_TD
