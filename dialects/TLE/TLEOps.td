//===- TLEOps.td - Operations of the tle dialect -----------*- tablegen -*-===//

#ifndef TLE_OPS_TD
#define TLE_OPS_TD

include "dialects/TLE/TLEDialect.td"
include "dialects/TLE/TLETypes.td"
include "dialects/TLE/TLEAttrs.td"
include "dialects/TLE/TLELayouts.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

def TLE_GetProgramIdOp : TLE_Op<"get_program_id", [Pure]> {
  let summary = "Index of this program along a grid axis (tl.program_id)";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TLE_GetNumProgramsOp : TLE_Op<"get_num_programs", [Pure]> {
  let summary = "Number of programs along a grid axis (tl.num_programs)";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Tensor construction and shape manipulation
//===----------------------------------------------------------------------===//

def TLE_MakeRangeOp : TLE_Op<"make_range", [Pure]> {
  let summary = "1-D tensor [start, end) of i32 (tl.arange)";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TLE_SplatOp : TLE_Op<"splat", [Pure]> {
  let summary = "Tensor whose every element is the given scalar";
  let arguments = (ins TLE_Scalar:$src);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TLE_BroadcastOp : TLE_Op<"broadcast", [Pure]> {
  let summary = "Broadcast size-1 dimensions to a larger shape";
  let arguments = (ins TLE_Tensor:$src);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TLE_ExpandDimsOp : TLE_Op<"expand_dims", [Pure]> {
  let summary = "Insert a size-1 dimension at `axis` (x[:, None])";
  let arguments = (ins TLE_Tensor:$src, I32Attr:$axis);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_ReshapeOp : TLE_Op<"reshape", [Pure]> {
  let summary = "Reshape, keeping the element count (tl.reshape)";
  let description = [{
    With `allow_reorder`, the compiler may return the elements in any order
    (tl.reshape(..., can_reorder=True)), which frees layout choice.
  }];
  let arguments = (ins TLE_Tensor:$src, UnitAttr:$allow_reorder);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_TransOp : TLE_Op<"trans", [Pure]> {
  let summary = "Permute dimensions (tl.trans / tl.permute / x.T)";
  let arguments = (ins TLE_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_JoinOp : TLE_Op<"join", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Stack two same-shaped tensors along a new minor dimension of size 2";
  let arguments = (ins TLE_Tensor:$lhs, TLE_Tensor:$rhs);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_SplitOp : TLE_Op<"split", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Split a tensor whose minor dimension is 2 into two tensors";
  let arguments = (ins TLE_Tensor:$src);
  let results = (outs TLE_Tensor:$lhs, TLE_Tensor:$rhs);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($lhs)";
  let hasVerifier = 1;
}

def TLE_CatOp : TLE_Op<"cat", [Pure]> {
  let summary = "Concatenate two tensors along dimension 0 (tl.cat)";
  let arguments = (ins TLE_Tensor:$lhs, TLE_Tensor:$rhs);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_ConvertLayoutOp : TLE_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Move the elements of a tensor to another layout encoding";
  let description = [{
    Same values, other distribution over threads; `tle-assign-layouts`
    inserts it where two layouts meet and `tle-distribute` lowers it through
    block-level memory. Example:
    `%1 = tle.convert_layout %0 : tensor<64xf32, #a> -> tensor<64xf32, #b>`
  }];
  let arguments = (ins TLE_Tensor:$src);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and casts
//===----------------------------------------------------------------------===//

def TLE_AddPtrOp : TLE_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by an element offset";
  let arguments = (ins TLE_PtrLike:$ptr, TLE_IntLike:$offset);
  let results = (outs TLE_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TLE_IntToPtrOp : TLE_Op<"int_to_ptr", [Pure]> {
  let summary = "Reinterpret 64-bit integers as pointers";
  let arguments = (ins AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$src);
  let results = (outs TLE_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_PtrToIntOp : TLE_Op<"ptr_to_int", [Pure]> {
  let summary = "Reinterpret pointers as 64-bit integers";
  let arguments = (ins TLE_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_BitcastOp : TLE_Op<"bitcast", [Pure]> {
  let summary = "Reinterpret bits as a type of the same width (x.to(T, bitcast=True))";
  let arguments = (ins TLE_Value:$src);
  let results = (outs TLE_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_FpToFpOp : TLE_Op<"fp_to_fp", [Pure, Elementwise]> {
  let summary = "Floating-point conversion with an explicit rounding mode";
  let description = [{
    Used where arith's conversions lack the rounding control Triton exposes
    (`x.to(tl.float8e5, fp_downcast_rounding="rtz")`). A narrowing
    conversion must name its rounding mode.
  }];
  let arguments = (ins TLE_FloatLike:$src, OptionalAttr<TLE_RoundingModeAttr>:$rounding);
  let results = (outs TLE_FloatLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory access
//===----------------------------------------------------------------------===//

def TLE_LoadOp : TLE_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result has the pointee type of ptr", "ptr", "result",
                   "::mlir::tle::getPointeeTypeLike($_self)">,
    TypesMatchWith<"mask has the shape of ptr and i1 elements", "ptr", "mask",
                   "::mlir::tle::getI1TypeLike($_self)",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">,
    TypesMatchWith<"other has the pointee type of ptr", "ptr", "other",
                   "::mlir::tle::getPointeeTypeLike($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Load through pointers, optionally masked (tl.load)";
  let description = [{
    Lanes whose mask is false do not access memory and yield `other` (or an
    undefined value when `other` is absent). Example:
    `%v = tle.load %p, %m, %o : tensor<128x!tle.ptr<f32>>`
  }];
  let arguments = (ins TLE_PtrLike:$ptr, Optional<TLE_BoolLike>:$mask,
                       Optional<TLE_Value>:$other,
                       DefaultValuedAttr<TLE_CacheModifierAttr, "CacheModifier::None">:$cache,
                       DefaultValuedAttr<TLE_EvictionPolicyAttr, "EvictionPolicy::Normal">:$evict,
                       UnitAttr:$isVolatile);
  let results = (outs TLE_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr)
  }];
}

def TLE_StoreOp : TLE_Op<"store", [
    MemoryEffects<[MemWrite<DefaultResource>]>,
    TypesMatchWith<"value has the pointee type of ptr", "ptr", "value",
                   "::mlir::tle::getPointeeTypeLike($_self)">,
    TypesMatchWith<"mask has the shape of ptr and i1 elements", "ptr", "mask",
                   "::mlir::tle::getI1TypeLike($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Store through pointers, optionally masked (tl.store)";
  let arguments = (ins TLE_PtrLike:$ptr, TLE_Value:$value,
                       Optional<TLE_BoolLike>:$mask,
                       DefaultValuedAttr<TLE_CacheModifierAttr, "CacheModifier::None">:$cache,
                       DefaultValuedAttr<TLE_EvictionPolicyAttr, "EvictionPolicy::Normal">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)
  }];
}

def TLE_AtomicRMWOp : TLE_Op<"atomic_rmw", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    AllTypesMatch<["value", "result"]>,
    TypesMatchWith<"mask has the shape of ptr and i1 elements", "ptr", "mask",
                   "::mlir::tle::getI1TypeLike($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Atomic read-modify-write through pointers (tl.atomic_add, ...)";
  let arguments = (ins TLE_RMWKindAttr:$kind, TLE_PtrLike:$ptr, TLE_Value:$value,
                       Optional<TLE_BoolLike>:$mask,
                       DefaultValuedAttr<TLE_MemSemanticAttr, "MemSemantic::AcqRel">:$sem,
                       DefaultValuedAttr<TLE_MemScopeAttr, "MemScope::Device">:$scope);
  let results = (outs TLE_Value:$result);
  let assemblyFormat = [{
    $kind $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr) `,` type($value)
  }];
  let hasVerifier = 1;
}

def TLE_AtomicCASOp : TLE_Op<"atomic_cas", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    AllTypesMatch<["cmp", "value", "result"]>]> {
  let summary = "Atomic compare-and-swap (tl.atomic_cas)";
  let arguments = (ins TLE_PtrLike:$ptr, TLE_Value:$cmp, TLE_Value:$value,
                       DefaultValuedAttr<TLE_MemSemanticAttr, "MemSemantic::AcqRel">:$sem,
                       DefaultValuedAttr<TLE_MemScopeAttr, "MemScope::Device">:$scope);
  let results = (outs TLE_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $value attr-dict `:` type($ptr) `,` type($value)
  }];
  let hasVerifier = 1;
}

def TLE_MakeTensorDescOp : TLE_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "Describe a strided global tensor (tl.make_tensor_descriptor)";
  let arguments = (ins TLE_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
                       DefaultValuedAttr<TLE_PaddingOptionAttr, "PaddingOption::Zero">:$padding);
  let results = (outs TLE_TensorDesc:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` qualified(type($base)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TLE_DescriptorLoadOp : TLE_Op<"descriptor_load", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "Load one tile through a tensor descriptor (desc.load)";
  let description = [{
    Elements outside the described tensor read as its padding.
    `boundary_check` (a block pointer's) lists the dimensions checked;
    without it, every dimension is. An unchecked dimension is neither
    masked nor padded.
  }];
  let arguments = (ins TLE_TensorDesc:$desc, Variadic<I32>:$indices,
                       OptionalAttr<DenseI32ArrayAttr>:$boundary_check);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$desc `[` $indices `]` attr-dict `:` qualified(type($desc)) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_DescriptorStoreOp : TLE_Op<"descriptor_store", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Store one tile through a tensor descriptor (desc.store)";
  let description = [{
    Elements outside the described tensor are not written;
    `boundary_check` as for tle.descriptor_load.
  }];
  let arguments = (ins TLE_TensorDesc:$desc, TLE_Tensor:$src, Variadic<I32>:$indices,
                       OptionalAttr<DenseI32ArrayAttr>:$boundary_check);
  let assemblyFormat = "$desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def TLE_DotOp : TLE_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "Matrix product with accumulator: d = a * b + c (tl.dot)";
  let description = [{
    Operands are 2-D (or 3-D with a leading batch dimension). `a` and `b`
    have the same element type, except fp8 operands which may mix the two
    fp8 formats; `c` and `d` are the accumulator type.
  }];
  let arguments = (ins TLE_Tensor:$a, TLE_Tensor:$b, TLE_Tensor:$c,
                       DefaultValuedAttr<TLE_InputPrecisionAttr, "InputPrecision::TF32">:$inputPrecision,
                       DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TLE_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TLE_ReduceOp : TLE_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "Reduce tensors along an axis with a combiner region";
  let description = [{
    The combiner takes 2N scalars (N accumulated, then N new) and yields N
    with `tle.reduce.return`. Reducing a 1-D tensor yields scalars.
  }];
  let arguments = (ins Variadic<TLE_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TLE_Value>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TLE_ReduceReturnOp : TLE_Op<"reduce.return",
    [Pure, Terminator, ReturnLike, HasParent<"ReduceOp">]> {
  let summary = "Yield the combined values of a reduction step";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict `:` type($results)";
}

def TLE_ScanOp : TLE_Op<"scan", [Pure, SingleBlock]> {
  let summary = "Inclusive scan along an axis with a combiner region (tl.cumsum)";
  let arguments = (ins Variadic<TLE_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<TLE_Tensor>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TLE_ScanReturnOp : TLE_Op<"scan.return",
    [Pure, Terminator, ReturnLike, HasParent<"ScanOp">]> {
  let summary = "Yield the combined values of a scan step";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict `:` type($results)";
}

def TLE_HistogramOp : TLE_Op<"histogram", [Pure]> {
  let summary = "Count values in [0, bins) (tl.histogram); bins is the result size";
  let arguments = (ins RankedTensorOf<[TLE_Int]>:$src);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TLE_GatherOp : TLE_Op<"gather", [Pure]> {
  let summary = "Elements of a tile picked along one axis (tl.gather)";
  let description = [{
    `result[i0, ..., ik, ...] = src[i0, ..., indices[i0, ..., ik, ...], ...]`
    with the index in position `axis`: src and indices have one rank and the
    same size along every other axis; the result has the indices' shape and
    the source's element type. An index outside [0, size) along the axis is
    undefined behaviour, as in Triton.
  }];
  let arguments = (ins RankedTensorOf<[TLE_Value]>:$src,
                       RankedTensorOf<[TLE_Int]>:$indices, I32Attr:$axis);
  let results = (outs RankedTensorOf<[TLE_Value]>:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` type($src) `,` type($indices) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging and hints
//===----------------------------------------------------------------------===//

def TLE_AssertOp : TLE_Op<"assert", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Abort the kernel when any element of the condition is false";
  let arguments = (ins TLE_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def TLE_PrintOp : TLE_Op<"print", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Print values from the device (tl.device_print)";
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TLE_Value>:$args);
  let assemblyFormat = [{
    $prefix attr-dict (`:` $args^ `:` type($args))?
  }];
}

def TLE_AssumeOp : TLE_Op<"assume", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Promise that a scalar condition holds (tl.assume)";
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

def TLE_DebugBarrierOp : TLE_Op<"debug_barrier"> {
  let summary = "Synchronize all threads of the program (tl.debug_barrier)";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

def TLE_FuncOp : TLE_Op<"func", [AutomaticAllocationScope, FunctionOpInterface,
                                 IsolatedFromAbove]> {
  let summary = "A kernel or device function";
  let description = [{
    A public `tle.func` is a kernel entry point; private ones are device
    functions that `tle.call` reaches (usually inlined). Kernel metadata
    (specialization, autotune configs, source hash) lives in attributes.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "StringRef":$name, "FunctionType":$type,
      CArg<"ArrayRef<NamedAttribute>", "{}">:$attrs)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return isExternal() ? nullptr : &getBody(); }
    ArrayRef<Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ArrayRef<Type> getResultTypes() { return getFunctionType().getResults(); }
  }];
  let hasCustomAssemblyFormat = 1;
}

def TLE_CallOp : TLE_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Call a tle.func";
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(CallInterfaceCallable callee) {
      (*this)->setAttr("callee", cast<SymbolRefAttr>(callee));
    }
  }];
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

def TLE_ReturnOp : TLE_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "Return from a tle.func";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ValueRange()); }]>];
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TLE-Lite: sub-tile views
//===----------------------------------------------------------------------===//

def TLE_ExtractTileOp : TLE_Op<"extract_tile", [Pure]> {
  let summary = "View one sub-tile of a larger tile (tle.extract_tile)";
  let description = [{
    Tiles of shape `result` partition `src` in row-major order; `index`
    selects one (a constant index is checked against the tile count). Elements of a partial
    edge tile that fall outside `src` are undefined and masked off by every
    store through `tle.insert_tile`, so no hand-built mask is needed.
  }];
  let arguments = (ins TLE_Tensor:$src, I32:$index);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLE_InsertTileOp : TLE_Op<"insert_tile", [Pure, AllTypesMatch<["dest", "result"]>]> {
  let summary = "Write a sub-tile back into a larger tile (tle.insert_tile)";
  let arguments = (ins TLE_Tensor:$dest, TLE_Tensor:$tile, I32:$index);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = [{
    $tile `into` $dest `[` $index `]` attr-dict `:` type($tile) `into` type($dest)
  }];
  let hasVerifier = 1;
}

def TLE_ExclusiveCumsumOp : TLE_Op<"exclusive_cumsum", [Pure]> {
  let summary = "Exclusive prefix sum and total along an axis (tle.cumsum)";
  let arguments = (ins TLE_Tensor:$src, I32Attr:$axis);
  let results = (outs TLE_Tensor:$exclusive, TLE_Value:$total);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($exclusive) `,` type($total)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TLE-Lite: producer/consumer pipes inside a block
//===----------------------------------------------------------------------===//

def TLE_PipeCreateOp : TLE_Op<"pipe.create", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "Create a channel of `capacity` slots (tle.pipe)";
  let arguments = (ins StrAttr:$name,
                       DefaultValuedAttr<StrAttr, "\"block\"">:$scope,
                       DefaultValuedAttr<I32Attr, "1">:$readers,
                       UnitAttr:$one_shot);
  let results = (outs TLE_Pipe:$pipe);
  let assemblyFormat = "$name attr-dict `:` qualified(type($pipe))";
  let hasVerifier = 1;
}

def TLE_PipeWriterAcquireOp : TLE_Op<"pipe.writer_acquire"> {
  let summary = "Wait for a free slot to write (pipe.writer_acquire)";
  let arguments = (ins TLE_Pipe:$pipe);
  let assemblyFormat = "$pipe attr-dict `:` qualified(type($pipe))";
}

def TLE_PipeWriterCommitOp : TLE_Op<"pipe.writer_commit"> {
  let summary = "Publish one value per field into the acquired slot";
  let arguments = (ins TLE_Pipe:$pipe, Variadic<AnyType>:$values);
  let assemblyFormat = "$pipe `,` $values attr-dict `:` qualified(type($pipe)) `,` type($values)";
  let hasVerifier = 1;
}

def TLE_PipeWriterCloseOp : TLE_Op<"pipe.writer_close"> {
  let summary = "Signal readers that no more slots will be written";
  let arguments = (ins TLE_Pipe:$pipe);
  let assemblyFormat = "$pipe attr-dict `:` qualified(type($pipe))";
}

def TLE_PipeReaderWaitOp : TLE_Op<"pipe.reader_wait"> {
  let summary = "Wait for a committed slot; `valid` is false once the pipe is closed and drained";
  let arguments = (ins TLE_Pipe:$pipe);
  let results = (outs I1:$valid, Variadic<AnyType>:$values);
  let assemblyFormat = "$pipe attr-dict `:` qualified(type($pipe)) `->` type($values)";
  let hasVerifier = 1;
}

def TLE_PipeReaderReleaseOp : TLE_Op<"pipe.reader_release"> {
  let summary = "Hand the slot read last back to the writer";
  let arguments = (ins TLE_Pipe:$pipe);
  let assemblyFormat = "$pipe attr-dict `:` qualified(type($pipe))";
}

//===----------------------------------------------------------------------===//
// TLE-Lite: device mesh
//===----------------------------------------------------------------------===//

def TLE_DeviceMeshOp : TLE_Op<"device_mesh", [Pure]> {
  let summary = "Name the parallel levels a kernel is distributed over (tle.device_mesh)";
  let results = (outs TLE_Mesh:$mesh);
  let assemblyFormat = "attr-dict `:` qualified(type($mesh))";
}

def TLE_ShardIdOp : TLE_Op<"shard_id", [Pure]> {
  let summary = "Index of this program's shard at a mesh level (tle.shard_id)";
  let arguments = (ins TLE_Mesh:$mesh, StrAttr:$level);
  let results = (outs I32:$result);
  let assemblyFormat = "$mesh `,` $level attr-dict `:` qualified(type($mesh))";
  let hasVerifier = 1;
}

def TLE_RemotePtrOp : TLE_Op<"remote_ptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "The same address on another shard (tle.remote)";
  let arguments = (ins TLE_PtrLike:$ptr, I32:$shard, TLE_RemoteSpaceAttr:$space);
  let results = (outs TLE_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $shard attr-dict `:` type($ptr)";
}

def TLE_DistributedBarrierOp : TLE_Op<"distributed_barrier"> {
  let summary = "Barrier across every shard of a mesh level (tle.distributed_barrier)";
  let arguments = (ins TLE_Mesh:$mesh, StrAttr:$level);
  let assemblyFormat = "$mesh `,` $level attr-dict `:` qualified(type($mesh))";
  let hasVerifier = 1;
}

def TLE_SignalOp : TLE_Op<"signal", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    TypesMatchWith<"value has the pointee type of ptr", "ptr", "value",
                   "::llvm::cast<::mlir::tle::PointerType>($_self).getPointeeType()">]> {
  let summary = "Update a signal word, possibly on another shard (tle.signal)";
  let arguments = (ins TLE_Ptr:$ptr, AnyTypeOf<[I32, I64]>:$value, TLE_SignalKindAttr:$kind);
  let assemblyFormat = "$kind $ptr `,` $value attr-dict `:` qualified(type($ptr))";
}

def TLE_SignalWaitOp : TLE_Op<"signal_wait", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    TypesMatchWith<"observed has the pointee type of ptr", "ptr", "observed",
                   "::llvm::cast<::mlir::tle::PointerType>($_self).getPointeeType()">,
    TypesMatchWith<"value has the pointee type of ptr", "ptr", "value",
                   "::llvm::cast<::mlir::tle::PointerType>($_self).getPointeeType()">]> {
  let summary = "Spin until a signal word satisfies a comparison (tle.signal_wait)";
  let description = [{
    `unsigned_cmp`: the word and `value` compare as unsigned integers (a
    signal through a pointer to uint32 or uint64).
  }];
  let arguments = (ins TLE_Ptr:$ptr, AnyTypeOf<[I32, I64]>:$value,
                       TLE_WaitCmpAttr:$cmp, UnitAttr:$unsigned_cmp);
  let results = (outs AnyTypeOf<[I32, I64]>:$observed);
  let assemblyFormat = "$cmp $ptr `,` $value attr-dict `:` qualified(type($ptr))";
}

#endif // TLE_OPS_TD
