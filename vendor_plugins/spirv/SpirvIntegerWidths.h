//===- SpirvIntegerWidths.h - Integers of supported widths only -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// LLVM's optimizer narrows arithmetic to whatever width the bits need (a
// scratch exchange's swizzled positions became `trunc i64 to i7`, an and
// and a bit reversal on i7). LLVM 22's SPIR-V backend widens such integers
// to the next width SPIR-V has without keeping their arithmetic:
// `zext (trunc i64 %x to i2)` became `and %x, 255` instead of `and %x, 3`,
// a silent wrong result. So before code generation every integer of
// another width than 1, 8, 16, 32 or 64 bits is carried in the next of
// those widths, zero-extended: an operation that may set bits above the
// width masks its result, one that reads the sign extends it first. An
// instruction this does not know on such a type is an error, not a guess.
//
// (Code generation's own loop strength reduction made the i2 above; the
// plugin generates code without it.) SPIR-V has no integer wider than 64
// bits either: the one such value distributed IR makes, the 128-bit product
// of tl.umulhi on 64-bit integers, becomes OpenCL's mul_hi; any other is an
// error rather than LLVM's fatal one.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVINTEGERWIDTHS_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVINTEGERWIDTHS_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tle {
namespace spirv {

/// Rewrites M so that no instruction has an integer type of a width SPIR-V
/// lacks; returns how many instructions it rewrote. An integer wider than
/// 64 bits is an error.
llvm::Expected<unsigned> legalizeIntegerWidths(llvm::Module &M);

/// The high half of a product of two integers extended to twice their width
/// (`trunc (lshr (mul (zext a), (zext b)), N)`: tl.umulhi on 64-bit
/// integers makes an i128 product) as a call of OpenCL's mul_hi, before
/// the optimizer can hide the pattern; returns how many it rewrote.
unsigned useOpenClMulHi(llvm::Module &M);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVINTEGERWIDTHS_H
