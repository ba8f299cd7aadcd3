//===- SpirvScalarNulls.h - Spell scalar nulls as plain constants -*- C++ -*-//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// LLVM 22's SPIR-V backend writes a scalar zero as `OpConstantNull %float`,
// which SPIR-V allows for any numerical type; llvm-spirv 15 (the translator
// matching Debian's PoCL) accepts OpConstantNull only for composite, pointer
// and opaque types and aborts on it. Before translating, the runtime
// rewrites each scalar null as the equal OpConstant 0 (OpConstantFalse for
// booleans); nothing else changes.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVSCALARNULLS_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVSCALARNULLS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tle {
namespace spirv {

/// Binary with every OpConstantNull of an integer, float or boolean type
/// replaced by the same constant spelled OpConstant / OpConstantFalse.
llvm::Expected<std::string> rewriteScalarNulls(llvm::StringRef Binary);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVSCALARNULLS_H
