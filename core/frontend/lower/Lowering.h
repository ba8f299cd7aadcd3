//===- Lowering.h - From the syntax tree to tile IR -------------*- C++ -*-===//
//
// Lowers one jit function of a parsed Module, specialized on constexpr
// values and a runtime signature, into a module holding one public tle.func.
// Nested jit calls are specialized on the values actually passed and
// inlined; constexpr expressions are folded; `if` on a constexpr is static.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_LOWER_LOWERING_H
#define TLE_FRONTEND_LOWER_LOWERING_H

#include "core/frontend/Diagnostics.h"
#include "core/frontend/Module.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include <string>
#include <vector>

namespace tle::frontend {

/// What a kernel is specialized on.
struct KernelSpec {
  /// The jit function to lower; may be empty when the file has exactly one.
  std::string KernelName;
  /// `-D NAME=VALUE` bindings of constexpr parameters, VALUE as written
  /// (Python literal syntax: 1024, 0.5, True, "relu", tl.float16).
  std::vector<std::pair<std::string, std::string>> Defines;
  /// Types of the runtime (non-constexpr) parameters in order, Triton style:
  /// "*fp32:16, *fp32:16, i32". An entry may name its parameter:
  /// "n_elements=i32". Empty: every parameter must be constexpr.
  std::string Signature;
  unsigned NumWarps = 4;
  unsigned NumStages = 3;
};

class ModuleLoader;

/// Returns null after reporting every problem to `Diags`. `Loader`, when
/// given, finds the jit functions M imports from other modules.
mlir::OwningOpRef<mlir::ModuleOp>
lowerKernel(const Module &M, const KernelSpec &Spec, mlir::MLIRContext &Context,
            DiagnosticEngine &Diags, ModuleLoader *Loader = nullptr);

} // namespace tle::frontend

#endif // TLE_FRONTEND_LOWER_LOWERING_H
