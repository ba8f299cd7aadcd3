//===- Builtins.h - Library functions callable from kernels -----*- C++ -*-===//
//
// Library functions are looked up by canonical name: "tl.load",
// "tl.math.exp2", "tle.extract_tile", "tle.gpu.alloc", "tle_raw.call",
// or a Python builtin ("range", "min"). canonicalizeName maps the module
// paths imports resolve to (triton.language.core.load, ...) onto these.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_LOWER_BUILTINS_H
#define TLE_FRONTEND_LOWER_BUILTINS_H

#include "core/frontend/lower/TValue.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringMap.h"
#include <string>

namespace tle::frontend {
class Emitter;
class Node;
struct CallArgs;

using BuiltinFn = mlir::FailureOr<TValue> (*)(Emitter &E, CallArgs &Args,
                                              const Node *Site);

/// "triton.language.core.load" -> "tl.load",
/// "triton.experimental.tle.language.gpu.alloc" -> "tle.gpu.alloc", ...
std::string canonicalizeName(llvm::StringRef Resolved);

/// The builtin of that canonical name, or null.
BuiltinFn lookupBuiltin(llvm::StringRef CanonicalName);

/// triton.language's random numbers (tl.rand, tl.randint, tl.philox, ...)
/// as the Python source of a jit module (RandomLibrary.cpp).
const char *getRandomLibrarySource();
/// The functions of triton.language.standard Triton writes as jit code
/// (tl.sort, tl.topk, tl.flip, tl.xor_sum, ...; StandardLibrary.cpp).
const char *getStandardLibrarySource();

/// Each file of builtins adds its own functions.
void registerLanguageBuiltins(llvm::StringMap<BuiltinFn> &Table);
void registerMathBuiltins(llvm::StringMap<BuiltinFn> &Table);
void registerPythonBuiltins(llvm::StringMap<BuiltinFn> &Table);
void registerTLEBuiltins(llvm::StringMap<BuiltinFn> &Table);
void registerTorchBuiltins(llvm::StringMap<BuiltinFn> &Table);

/// An attribute of torch.finfo(T) / torch.iinfo(T) (`Info` is the value
/// the call returned, "torch.finfo.float32"): min, max, eps, tiny, bits;
/// none for other names (BuiltinsTorch.cpp).
std::optional<TValue> getTorchTypeInfo(llvm::StringRef Info,
                                       llvm::StringRef Attr);

} // namespace tle::frontend

#endif // TLE_FRONTEND_LOWER_BUILTINS_H
