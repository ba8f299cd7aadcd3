//===- TLERaw.td - The tle_raw dialect ---------------------*- tablegen -*-===//
//
// TLE-Raw: vendor-native code inside kernels. The op carries one variant per
// native language; each backend plugin picks the variant its toolchain
// accepts and forwards the code, so the vendor's interface is kept as is.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_RAW_TD
#define TLE_RAW_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "dialects/TLE/TLETypes.td"

def TLERaw_Dialect : Dialect {
  let name = "tle_raw";
  let cppNamespace = "::mlir::tle_raw";
  let summary = "Native vendor code with typed operands and results";
  let useDefaultAttributePrinterParser = 1;
}

def TLERaw_VariantAttr : AttrDef<TLERaw_Dialect, "Variant"> {
  let mnemonic = "variant";
  let summary = "One native implementation of a tle_raw.call";
  let description = [{
    `language` is one of ptx, cuda, hip, amdgcn, spirv, opencl, llvm, mlir.
    `code` is the source text; `entry` names the function inside it for
    languages with functions; `constraints` are inline-asm constraints
    (ptx, amdgcn). `at "file" line L col C` is where `code` starts in the
    kernel's sources, so that a vendor tool's diagnostics about line N of
    the native code can be shown at the kernel's line. Example:
    `#tle_raw.variant<"ptx", "add.s32 $0, $1, $2;" constraints "=r,r,r">`
  }];
  let parameters = (ins "StringAttr":$language, "StringAttr":$code,
                        OptionalParameter<"StringAttr">:$entry,
                        OptionalParameter<"StringAttr">:$constraints,
                        OptionalParameter<"StringAttr">:$file,
                        OptionalParameter<"unsigned">:$line,
                        OptionalParameter<"unsigned">:$column);
  let assemblyFormat = [{
    `<` $language `,` $code (`entry` $entry^)? (`constraints` $constraints^)?
    (`at` $file^ `line` $line `col` $column)? `>`
  }];
  let genVerifyDecl = 1;
}

def TLERaw_CallOp : Op<TLERaw_Dialect, "call", []> {
  let summary = "Call native code (tle_raw.call)";
  let description = [{
    Operands and results are scalars or tiles. A tile is seen by native code
    per thread: each thread passes its own elements under the tile's layout
    (see docs/raw.md). Side effects are unknown, so the op is never moved or
    removed.

    The optional `fallback` region is a portable body (tile IR, from a
    `@triton.jit` function in the call's list) that computes the same
    results from the operands, which it uses directly; it ends in
    `tle_raw.yield`. A target that accepts none of the variants' languages
    runs the fallback instead (tle-select-raw-variants). Example:
    ```mlir
    %r = tle_raw.call "add3" [#tle_raw.variant<"ptx", "...">] (%a, %b) : (i32, i32) -> i32
    ```

    `pack` (inline assembly only, Triton's tl.inline_asm_elementwise) is
    how many of a thread's elements one instance of the assembly takes:
    an operand or result narrower than 32 bits travels as vectors of up to
    32 bits (four i8 in one register), a wider one as `pack` registers.
  }];
  let arguments = (ins StrAttr:$name, ArrayAttr:$variants,
                       Variadic<TLE_Value>:$args,
                       DefaultValuedAttr<ConfinedAttr<I32Attr, [IntPositive]>,
                                         "1">:$pack);
  let results = (outs Variadic<TLE_Value>:$results);
  let regions = (region AnyRegion:$fallback);
  let assemblyFormat = [{
    $name $variants `(` $args `)` (`fallback` $fallback^)? attr-dict `:`
    functional-type($args, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The variant written in `language`, or null.
    VariantAttr getVariant(StringRef language);
    /// How many elements of `type` (a scalar or tile type) one register of
    /// the assembly holds: min(32 / width, pack) below 32 bits, else 1.
    unsigned getElementsPerRegister(Type type);
    /// The first operand or result type whose registers' element count does
    /// not divide `pack` (the verifier refuses it), or null.
    Type getTypeSplittingPack();
    /// The first i1 (bool) operand or result type when `pack` > 1 (the
    /// verifier refuses it: bits do not pack into registers as the elements
    /// of wider narrow types do, and Triton's own lowering fails on it), or
    /// null.
    Type getPackedBoolType();
  }];
}

def TLERaw_YieldOp : Op<TLERaw_Dialect, "yield", [
    Pure, Terminator, ReturnLike, HasParent<"CallOp">]> {
  let summary = "Results of a tle_raw.call's portable fallback";
  let arguments = (ins Variadic<TLE_Value>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // TLE_RAW_TD
