//===- TLEStructOps.td - Operations of tle_struct ----------*- tablegen -*-===//

#ifndef TLE_STRUCT_OPS_TD
#define TLE_STRUCT_OPS_TD

include "dialects/TLEStruct/TLEStructDialect.td"
include "dialects/TLE/TLETypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def TLEStruct_Buffer : Type<CPred<"::llvm::isa<::mlir::tle_struct::BufferType>($_self)">,
                            "local buffer", "::mlir::tle_struct::BufferType">;
def TLEStruct_Barrier : Type<CPred<"::llvm::isa<::mlir::tle_struct::BarrierType>($_self)">,
                             "barrier", "::mlir::tle_struct::BarrierType">;

def TLEStruct_AllocOp : TLEStruct_Op<"alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "Allocate a local buffer at a memory level (tle.gpu.alloc, tle.dsa.alloc)";
  let description = [{
    The level (in the result type) is a memory-level name or alias of the
    hardware description. `init` fills every element before first use.
  }];
  let arguments = (ins OptionalAttr<TypedAttrInterface>:$init);
  let results = (outs TLEStruct_Buffer:$buffer);
  let assemblyFormat = "attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

def TLEStruct_LocalPtrOp : TLEStruct_Op<"local_ptr", [Pure]> {
  let summary = "Pointers into a local buffer (tle.gpu.local_ptr)";
  let description = [{
    With one index tensor per buffer dimension (all of one shape), yields a
    tensor of that shape pointing at the indexed elements. Without indices,
    yields pointers to every element, in the buffer's shape. The pointers
    feed ordinary tle.load, tle.store and tle.atomic_rmw.
  }];
  let arguments = (ins TLEStruct_Buffer:$buffer, Variadic<TLE_IntLike>:$indices);
  let results = (outs TLE_PtrLike:$result);
  let assemblyFormat = [{
    $buffer (`[` $indices^ `]` `:` type($indices))? attr-dict `:` qualified(type($buffer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLEStruct_CopyOp : TLEStruct_Op<"copy", [AttrSizedOperandSegments]> {
  let summary = "Copy a tile between memory levels (tle.gpu.copy)";
  let description = [{
    `src` and `dst` are each a local buffer or a tensor of pointers of the
    same shape. With `async`, the copy completes when `barrier` (required
    then) is waited on; otherwise it completes before the next operation.
  }];
  let arguments = (ins AnyType:$src, AnyType:$dst, Optional<TLE_BoolLike>:$mask,
                       Optional<TLEStruct_Barrier>:$barrier, UnitAttr:$async);
  let assemblyFormat = [{
    $src `to` $dst (`mask` $mask^ `:` type($mask))? (`barrier` $barrier^ `:` qualified(type($barrier)))?
      attr-dict `:` type($src) `to` type($dst)
  }];
  let hasVerifier = 1;
}

def TLEStruct_ToTensorOp : TLEStruct_Op<"to_tensor", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "Read a whole local buffer as a tile (tle.dsa.to_tensor)";
  let arguments = (ins TLEStruct_Buffer:$buffer);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer)) `->` type($result)";
  let hasVerifier = 1;
}

def TLEStruct_ToBufferOp : TLEStruct_Op<"to_buffer", [
    MemoryEffects<[MemAlloc<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Materialize a tile in a new local buffer (tle.dsa.to_buffer)";
  let arguments = (ins TLE_Tensor:$src);
  let results = (outs TLEStruct_Buffer:$buffer);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` qualified(type($buffer))";
  let hasVerifier = 1;
}

def TLEStruct_AsyncCopyOp : TLEStruct_Op<"async_copy", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Start copying a tile into one slot of a local buffer";
  let description = [{
    Copies the elements `ptr` points at into slot `slot` of `buffer` (the
    buffer's leading dimension indexes slots; the rest has the tile's
    shape). Elements whose `mask` is false are written as zero. The copy
    belongs to the group the next `tle_struct.async_commit` closes and is
    complete once a `tle_struct.async_wait` lets that group go. Made by
    software pipelining; targets without asynchronous copies run it as a
    load and a store.
  }];
  let arguments = (ins TLE_PtrLike:$ptr, TLEStruct_Buffer:$buffer, I32:$slot,
                       Optional<TLE_BoolLike>:$mask);
  let assemblyFormat = [{
    $ptr `,` $buffer `[` $slot `]` (`mask` $mask^ `:` type($mask))? attr-dict
      `:` type($ptr) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLEStruct_TensorMapOp : TLEStruct_Op<"tensor_map", [
    SameVariadicOperandSize, MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Write the tensor map of a strided global tensor (TMA)";
  let description = [{
    Describes the tensor at `base` (`shape` elements per dimension,
    `strides` elements between consecutive indices of each; the last is 1)
    for tensor copies of `box` tiles (elements per dimension, outermost
    first) that land swizzled over `swizzle` bytes, as #tle_struct.layout
    lays rows out. The map is written once, into the global memory the
    launcher gives each program, or, where base, shape and strides are the
    kernel's own arguments and the target's launcher builds maps, passed by
    the launcher after those arguments; the result is its address. Made by
    software pipelining on targets with tensor copies.
  }];
  let arguments = (ins TLE_Ptr:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides, DenseI64ArrayAttr:$box,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$swizzle);
  let results = (outs TLE_Ptr:$map);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:`
      qualified(type($base)) `->` qualified(type($map))
  }];
  let hasVerifier = 1;
}

def TLEStruct_AsyncTensorCopyOp : TLEStruct_Op<"async_tensor_copy", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Start copying a tile into one slot of a buffer through a tensor map";
  let description = [{
    Copies the tile at element `indices` (outermost first) of the tensor
    that `map` describes into slot `slot` of `buffer`, as the map's boxes
    side by side along the buffer's fastest dimension (`transposed`: the
    slot holds the 2-D tile transposed). Elements outside the tensor land
    as zeros. The copy completes on barrier `slot` of `barrier`, whose
    current phase then expects its bytes. With `pred` false nothing is
    copied or expected. One thread issues it for the block.
  }];
  let arguments = (ins TLE_Ptr:$map, Variadic<I32>:$indices,
                       TLEStruct_Buffer:$buffer, I32:$slot,
                       TLEStruct_Barrier:$barrier, Optional<I1>:$pred,
                       UnitAttr:$transposed);
  let assemblyFormat = [{
    $map `[` $indices `]` `,` $buffer `[` $slot `]` `,` $barrier
      (`if` $pred^)? attr-dict `:` qualified(type($map)) `,`
      qualified(type($buffer)) `,` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def TLEStruct_AsyncCommitOp : TLEStruct_Op<"async_commit", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Close the group of asynchronous copies started since the last one";
  let assemblyFormat = "attr-dict";
}

def TLEStruct_AsyncWaitOp : TLEStruct_Op<"async_wait", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Wait until at most `pending` copy groups are in flight";
  let description = [{
    Then synchronizes the block, so that every thread sees the slots the
    completed groups wrote and every earlier read of the buffers is done.

    With `own_slots`, every element of the slots is read only by the thread
    that copied it (a load read back in its own layout, which holds each
    element once): a thread's wait makes its own copies visible to it, so
    no block synchronization follows.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pending,
                       UnitAttr:$own_slots);
  let assemblyFormat = "$pending (`own_slots` $own_slots^)? attr-dict";
}

def TLEStruct_LocalLoadOp : TLEStruct_Op<"local_load", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "Read one slot of a local buffer as a tile";
  let arguments = (ins TLEStruct_Buffer:$buffer, I32:$slot);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = [{
    $buffer `[` $slot `]` attr-dict `:` qualified(type($buffer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLEStruct_LocalStoreOp : TLEStruct_Op<"local_store", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Write a tile into one slot of a local buffer";
  let description = [{
    Each thread writes the elements it holds; other threads see them after
    a block barrier. Made by software pipelining for an operand in registers
    of a dot whose matrix unit reads block-level memory (attention's P, or
    a loop-invariant Q stored once before the loop).
  }];
  let arguments = (ins TLE_Tensor:$value, TLEStruct_Buffer:$buffer, I32:$slot);
  let assemblyFormat = [{
    $value `,` $buffer `[` $slot `]` attr-dict `:` type($value) `,`
      qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLEStruct_LocalDotOp : TLEStruct_Op<"local_dot", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "Start a tl.dot whose B (and A) are slots of local buffers";
  let description = [{
    `d = a[a_slot] x b[b_slot] + c` on a matrix unit that reads its operands
    from block-level memory (Hopper's wgmma); `a` may instead be a tile in
    registers (no slot) where the unit takes A from registers
    (`tle.matrix_register_a`). It runs asynchronously: `d` may be used only
    through `tle_struct.local_dot_wait`, and the slots must not be
    overwritten before then. The slots are published by a block barrier
    before it (an `async_wait`); its lowering first makes them visible to
    the matrix unit. Made by software pipelining from a tl.dot whose
    operands it staged; the tl.dot's matrix instruction attributes come
    along.
  }];
  let arguments = (ins AnyTypeOf<[TLEStruct_Buffer, TLE_Tensor]>:$a,
                       Optional<I32>:$a_slot, TLEStruct_Buffer:$b,
                       I32:$b_slot, TLE_Tensor:$c);
  let results = (outs TLE_Tensor:$d);
  let assemblyFormat = [{
    $a (`[` $a_slot^ `]`)? `,` $b `[` $b_slot `]` `,` $c attr-dict `:`
      type($a) `,` qualified(type($b)) `,` type($c) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TLEStruct_LocalDotWaitOp : TLEStruct_Op<"local_dot_wait", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "Wait for local_dot groups; their results become usable";
  let description = [{
    Waits until at most `pending` groups of `tle_struct.local_dot` started
    by this thread are unfinished; `result` is `input` (a local_dot result),
    now safe to read.
  }];
  let arguments = (ins TLE_Tensor:$input,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let results = (outs TLE_Tensor:$result);
  let assemblyFormat = "$input `,` $pending attr-dict `:` type($input)";
}

def TLEStruct_BarrierAllocOp : TLEStruct_Op<"barrier_alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "Allocate a barrier expecting `count` arrivals per phase (tle.gpu.alloc_barrier)";
  let description = [{
    With `num` > 1, an array of `num` such barriers (a pipe's per-slot
    barriers); arrive and wait then name one by index.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$count,
                       DefaultValuedAttr<ConfinedAttr<I32Attr, [IntPositive]>, "1">:$num);
  let results = (outs TLEStruct_Barrier:$barrier);
  let assemblyFormat = "$count attr-dict `:` qualified(type($barrier))";
}

def TLEStruct_BarrierInvalOp : TLEStruct_Op<"barrier_inval"> {
  let summary = "End the lifetime of barriers from barrier_alloc";
  let description = [{
    Every arrival and copy the barriers track has landed and no thread
    waits on them any more; the lowering synchronizes the block once, then
    one thread invalidates each of them, after which the same
    barrier_alloc may set them up again (barriers allocated in a loop
    body).
  }];
  let arguments = (ins Variadic<TLEStruct_Barrier>:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def TLEStruct_BarrierArriveOp : TLEStruct_Op<"barrier_arrive"> {
  let summary = "Arrive on a barrier (tle.gpu.barrier_arrive)";
  let arguments = (ins TLEStruct_Barrier:$barrier, Optional<I32>:$index,
                       DefaultValuedAttr<ConfinedAttr<I32Attr, [IntPositive]>, "1">:$count);
  let assemblyFormat = "$barrier (`[` $index^ `]`)? attr-dict `:` qualified(type($barrier))";
}

def TLEStruct_BarrierWaitOp : TLEStruct_Op<"barrier_wait"> {
  let summary = "Wait for a barrier phase to complete (tle.gpu.barrier_wait)";
  let arguments = (ins TLEStruct_Barrier:$barrier, Optional<I32>:$index, I32:$phase);
  let assemblyFormat = "$barrier (`[` $index^ `]`)? `,` $phase attr-dict `:` qualified(type($barrier))";
}

def TLEStruct_ParallelOp : TLEStruct_Op<"parallel", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "Distribute a region over a named parallel level";
  let description = [{
    The region runs once per unit of `level` (a parallel level of the
    hardware description, e.g. "warp" or "core"); `num` of them
    participate. Inside, `tle_struct.unit_id` gives the unit's index.
  }];
  let arguments = (ins StrAttr:$level, ConfinedAttr<I32Attr, [IntPositive]>:$num);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$level `x` $num $body attr-dict";
}

def TLEStruct_UnitIdOp : TLEStruct_Op<"unit_id", [Pure]> {
  let summary = "Index of the executing unit of the enclosing parallel region";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TLEStruct_WarpSpecializeOp : TLEStruct_Op<"warp_specialize", [RecursiveMemoryEffects]> {
  let summary = "Run different regions on different groups of warps (tle.gpu.warp_specialize)";
  let description = [{
    Region i runs on `partitionNumWarps[i]` warps; region 0 is the default
    partition (e.g. compute), the others are producers such as loaders.
  }];
  let arguments = (ins DenseI32ArrayAttr:$partitionNumWarps);
  let regions = (region VariadicRegion<SizedRegion<1>>:$partitions);
  let assemblyFormat = "$partitionNumWarps $partitions attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The innermost partition (region of a warp_specialize) that `op` is
    /// in; null outside every partition.
    static ::mlir::Region *getPartitionOf(::mlir::Operation *op);
  }];
}

def TLEStruct_YieldOp : TLEStruct_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["ParallelOp", "WarpSpecializeOp"]>]> {
  let summary = "Terminate a parallel or warp-specialized region";
  let assemblyFormat = "attr-dict";
}

#endif // TLE_STRUCT_OPS_TD
