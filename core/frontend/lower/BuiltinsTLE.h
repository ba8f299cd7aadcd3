//===- BuiltinsTLE.h - Shared pieces of the TLE surface API -----*- C++ -*-===//
//
// The TLE builtins are split by layer: TLE-Lite (BuiltinsTLE.cpp),
// TLE-Struct (BuiltinsTLEStruct.cpp) and TLE-Raw (BuiltinsTLERaw.cpp).
// registerTLEBuiltins (Builtins.h) registers all three.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_LOWER_BUILTINSTLE_H
#define TLE_FRONTEND_LOWER_BUILTINSTLE_H

#include "core/frontend/lower/Builtins.h"
#include "core/frontend/lower/Emitter.h"

namespace tle::frontend {

void registerTLEStructBuiltins(llvm::StringMap<BuiltinFn> &Table);
void registerTLERawBuiltins(llvm::StringMap<BuiltinFn> &Table);

/// A memory or parallel level name as written: a string ("block", "spm")
/// or a FlagTree constant (tle.gpu.smem -> "smem"). Names are not checked
/// here; the hardware description resolves them in a later pass.
mlir::FailureOr<std::string> requireLevelName(Emitter &E, const CallArg *A,
                                              llvm::StringRef What,
                                              const Node *Site);

/// `for i in tle.dsa.parallel(...)`: the body becomes a tle_struct.parallel
/// region, one unit per iteration.
mlir::LogicalResult lowerParallelFor(Emitter &E, const ForStmt *S,
                                     const CallExpr *Call);

} // namespace tle::frontend

#endif // TLE_FRONTEND_LOWER_BUILTINSTLE_H
