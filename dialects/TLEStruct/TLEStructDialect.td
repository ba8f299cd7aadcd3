//===- TLEStructDialect.td - The tle_struct dialect --------*- tablegen -*-===//
//
// TLE-Struct: explicit memory levels and parallel levels, named by the
// hardware description. `tle_struct.alloc` at level "block" is shared memory
// on a GPU, LDS on AMD, Workgroup storage on SPIR-V and a scratchpad on a DSA.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_STRUCT_DIALECT_TD
#define TLE_STRUCT_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TLEStruct_Dialect : Dialect {
  let name = "tle_struct";
  let cppNamespace = "::mlir::tle_struct";
  let summary = "Architecture-aware memory and parallel levels";
  let description = [{
    Level names are strings resolved against the hardware description by a
    later pass (a level the chip lacks is reported there, at the kernel's
    source line). This dialect never names a vendor.
  }];
  let dependentDialects = ["::mlir::tle::TLEDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class TLEStruct_Op<string mnemonic, list<Trait> traits = []>
    : Op<TLEStruct_Dialect, mnemonic, traits>;

def TLEStruct_LayoutAttr : AttrDef<TLEStruct_Dialect, "Layout"> {
  let mnemonic = "layout";
  let summary = "Explicit placement of a local buffer's elements";
  let description = [{
    `order` lists dimensions from fastest- to slowest-varying. After every
    `pad_interval` elements, `pad_amount` unused elements are inserted, which
    spreads e.g. per-expert counters over memory banks. Example:
    `#tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>`.

    `swizzle` (32, 64 or 128 bytes) is the layout matrix units read operands
    from block-level memory in (wgmma's canonical layouts): the buffer is
    `[slot, rows, columns]` with the columns (order[0]) contiguous; each slot
    is cut along the columns into panels `swizzle` bytes wide, stored one
    after the other, rows contiguous inside a panel; then the 16-byte chunk
    index of every byte offset (bits 4 and up) is xor-ed with the offset's
    bits 7 and up, as many bits as `swizzle / 16` needs. Reads and writes of
    whole 16-byte chunks meet no bank conflicts. Slots must be 1024-byte
    multiples and the buffer 1024-byte aligned; no padding with it.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$order,
                        DefaultValuedParameter<"int64_t", "0">:$padInterval,
                        DefaultValuedParameter<"int64_t", "0">:$padAmount,
                        DefaultValuedParameter<"int64_t", "0">:$swizzle);
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$order,
                     CArg<"int64_t", "0">:$padInterval,
                     CArg<"int64_t", "0">:$padAmount), [{
      return $_get($_ctxt, order, padInterval, padAmount, 0);
    }]>
  ];
  // `order = [...]` then any of the others as `, name = value` (those at
  // their default are not printed).
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TLEStruct_BufferType : TypeDef<TLEStruct_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "A local buffer at a named memory level";
  let description = [{
    Example: `!tle_struct.buffer<64x4xi32, "block">`, optionally with a
    layout: `!tle_struct.buffer<64xi32, "block", #tle_struct.layout<...>>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "Type":$elementType,
                        "StringAttr":$memoryLevel,
                        OptionalParameter<"LayoutAttr">:$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TLEStruct_BarrierType : TypeDef<TLEStruct_Dialect, "Barrier"> {
  let mnemonic = "barrier";
  let summary = "A barrier object synchronizing the threads of a parallel level";
  let parameters = (ins "StringAttr":$scope);
  let assemblyFormat = "`<` $scope `>`";
}

#endif // TLE_STRUCT_DIALECT_TD
