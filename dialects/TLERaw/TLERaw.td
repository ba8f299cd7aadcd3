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
    (ptx, amdgcn). Example:
    `#tle_raw.variant<"ptx", "add.s32 $0, $1, $2;" constraints "=r,r,r">`
  }];
  let parameters = (ins "StringAttr":$language, "StringAttr":$code,
                        OptionalParameter<"StringAttr">:$entry,
                        OptionalParameter<"StringAttr">:$constraints);
  let assemblyFormat = [{
    `<` $language `,` $code (`entry` $entry^)? (`constraints` $constraints^)? `>`
  }];
  let genVerifyDecl = 1;
}

def TLERaw_CallOp : Op<TLERaw_Dialect, "call", []> {
  let summary = "Call native code (tle_raw.call)";
  let description = [{
    Operands and results are scalars or tiles. A tile is seen by native code
    per thread: each thread passes its own elements under the tile's layout
    (see docs/raw.md). Side effects are unknown, so the op is never moved or
    removed. Example:
    ```mlir
    %r = tle_raw.call "add3" [#tle_raw.variant<"ptx", "...">] (%a, %b) : (i32, i32) -> i32
    ```
  }];
  let arguments = (ins StrAttr:$name, ArrayAttr:$variants, Variadic<TLE_Value>:$args);
  let results = (outs Variadic<TLE_Value>:$results);
  let assemblyFormat = [{
    $name $variants `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The variant written in `language`, or null.
    VariantAttr getVariant(StringRef language);
  }];
}

#endif // TLE_RAW_TD
