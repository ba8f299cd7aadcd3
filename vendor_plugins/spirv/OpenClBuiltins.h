//===- OpenClBuiltins.h - Calls to OpenCL C built-in functions --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Distributed IR for SPIR-V reads ids, synchronizes and moves values between
// lanes by calling OpenCL C built-ins (get_local_id, barrier,
// sub_group_shuffle_xor, ...) under their Itanium-mangled names, as clang
// emits them for OpenCL C. LLVM's SPIR-V backend recognizes these names and
// turns them into BuiltIn variables and OpControlBarrier / OpGroupNonUniform*
// instructions, so no SPIR-V specific op is needed in the LLVM dialect.
//
// The calls are plain llvm.call ops; SpirvBackend::compile gives them the
// spir_func calling convention and their attributes (convergent for barriers
// and shuffles) on the LLVM IR side.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_OPENCLBUILTINS_H
#define TLE_VENDOR_PLUGINS_SPIRV_OPENCLBUILTINS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include <string>

namespace tle {
namespace spirv {

/// barrier()'s cl_mem_fence_flags.
enum : unsigned { ClkLocalMemFence = 1, ClkGlobalMemFence = 2 };

/// Calls the OpenCL built-in Name (already mangled) with Args, declaring it
/// in the enclosing module first if needed. ResultType null: returns void.
/// Fails (with an error at Loc) if B does not insert into a module.
mlir::FailureOr<mlir::Value> callBuiltin(mlir::OpBuilder &B, mlir::Location Loc,
                                         llvm::StringRef Name,
                                         mlir::Type ResultType,
                                         mlir::ValueRange Args);

/// The Itanium mangling of an OpenCL C scalar type: "i" for int, "f" for
/// float, "Dh" for half; empty for types OpenCL C has no scalar of.
std::string mangleScalarType(mlir::Type Ty);

/// Whether Name is the mangled name of a built-in that synchronizes or
/// exchanges values between work-items, which the optimizer must not move
/// across control flow (LLVM's `convergent`).
bool isConvergentBuiltin(llvm::StringRef Name);
/// Whether Name is a mangled work-item query (get_local_id, ...), which
/// reads no memory.
bool isWorkItemQuery(llvm::StringRef Name);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_OPENCLBUILTINS_H
