//===- Passes.td - Tile-level passes of the core -----------*- tablegen -*-===//

#ifndef TLE_CORE_TRANSFORMS_PASSES_TD
#define TLE_CORE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLECheckHwDesc : Pass<"tle-check-hwdesc", "mlir::ModuleOp"> {
  let summary = "Check a kernel against a hardware description";
  let description = [{
    Resolves every memory level and parallel level the kernel names
    (tle_struct.alloc, tle_struct.to_buffer, tle_struct.parallel) against the
    hardware description, checks that block-level local buffers fit the
    level's capacity per block, and that every tle_raw.call has a variant in
    a native language the chip accepts. Problems are errors at the kernel's
    source line, naming the description.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Hardware description: a name (h200) or a YAML file">
  ];
}

def TLESelectRawVariants : Pass<"tle-select-raw-variants", "mlir::ModuleOp"> {
  let summary = "Keep a tle_raw.call's native code, or run its portable "
                "fallback, for one target";
  let description = [{
    For a target that accepts the native `languages` given: a tle_raw.call
    with a variant in one of them keeps it and loses its fallback region
    (so that later passes see no tile code that will never run); a call
    without one is replaced by its fallback body (the `@triton.jit`
    function passed with the variants), inlined in place. A call with
    neither is an error at its source line naming the kernel and the
    languages (tle-check-hwdesc reports it earlier, naming the chip).
  }];
  let options = [
    ListOption<"languages", "languages", "std::string",
               "Native languages the target accepts (raw.languages)">
  ];
}

def TLELowerParallel : Pass<"tle-lower-parallel", "mlir::ModuleOp"> {
  let summary = "TLE-Struct parallel regions and buffer tiles as tile ops";
  let description = [{
    tle_struct.parallel "L" x N becomes an scf.for over the N units (the
    unit id is the loop index) run by all of the block's threads, each
    unit ending with a block barrier: the units are independent, so running
    them one after another is a valid schedule on every target. to_tensor becomes a
    load of the whole buffer through local_ptr; to_buffer a new buffer, a
    store through local_ptr and a block barrier.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def TLELowerTensorDescriptors : Pass<"tle-lower-tensor-descriptors", "mlir::ModuleOp"> {
  let summary = "Tensor descriptor loads and stores as masked pointer tiles";
  let description = [{
    `desc.load([o0, o1, ...])` of a `tl.make_tensor_descriptor(base, shape,
    strides, block_shape)` becomes a tle.load of `base + sum_d (o_d +
    arange(B_d)) * strides[d]` (64-bit element offsets), masked to
    `0 <= o_d + i < shape[d]` in every dimension, the masked-off elements
    reading as the descriptor's padding (zero, or NaN); `desc.store` the
    tle.store under the same mask. This is what a descriptor means on every
    target; later passes see ordinary loads (pipelined, vectorized by the
    axis analysis). A descriptor that does not come straight from
    make_tensor_descriptor in the same kernel (through a loop, a branch or
    an argument) is an error at its use.

    With `tensor-copies` (targets with TMA, when software pipelining runs),
    a load that pipelining can stage for a matrix unit through a tensor
    copy stays a tle.descriptor_load: a 2-D tile of 8-, 16- or 32-bit
    elements in a loop of a kernel (not in a warp_specialize partition),
    from a descriptor made outside it and every loop around it, with zero
    padding, a unit last stride, the other strides and the base 16-byte
    aligned, rows a multiple of 32 bytes (whole panels of the widest of the
    128-, 64- and 32-byte swizzles that fits them), a multiple of 8 and at
    most 256 of them, a tile of whole KiB, and one use, a tl.dot operand
    (maybe through tl.trans).
    tle-pipeline-loads lowers what it does not stage.
  }];
  let options = [
    Option<"tensorCopies", "tensor-copies", "bool", /*default=*/"false",
           "Keep loads that tensor copies may stage">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def TLELowerPipes : Pass<"tle-lower-pipes", "mlir::ModuleOp"> {
  let summary = "TLE-Lite pipes as rings of slots in block-level memory";
  let description = [{
    A tle.pipe of capacity D becomes one tle_struct.alloc per field (D slots
    of the field's shape, at the pipe's scope level, "block" by default) and
    slot counters carried in SSA values through scf.for/scf.if.
    One role (the whole block, or one warp_specialize partition, in program
    order): writer_commit stores into slot `written % D` and ends with a
    block barrier; reader_wait loads slot `read % D` (valid while read <
    written); reader_release is a block barrier; writer_acquire and
    writer_close vanish. A writer_acquire with every slot held, a loop that
    commits more than it releases, or a reader_wait with nothing committed
    on an open pipe would hang: each is an error at its kernel line.
    Two roles (writer and reader in two partitions of one warp_specialize,
    in the pipe's block): per-slot `full`/`empty` barrier arrays and a flag
    ring; acquire and commit wait on `empty`, commit and close arrive on
    `full`, wait waits on `full` and reads the flag (0: closed), release
    arrives on `empty` of the oldest slot held. Pipes in parallel regions or
    while loops are refused.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::tle_struct::TLEStructDialect"];
}

def TLELowerMesh : Pass<"tle-lower-mesh", "mlir::ModuleOp"> {
  let summary = "TLE-Lite device meshes as one device runs them";
  let description = [{
    A kernel runs on one device: every mesh level above the block must have
    one shard (else an error at the tle.device_mesh line). shard_id is the
    linear program id at the block level and 0 elsewhere; remote_ptr is its
    pointer; distributed_barrier a block barrier; signal a block barrier and
    one release atomic (add or xchg, device scope); signal_wait an scf.while
    of acquire atomic reads until the comparison holds.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

#endif // TLE_CORE_TRANSFORMS_PASSES_TD
