"""Triton's PTX and binary of a bench kernel for sm_90a, without a GPU,
specialized as Triton's JIT specializes it at the bench's aligned shapes
(pointers and integers divisible by 16, unit strides constant). Run with the
Triton the device runs (PYTHONPATH pointing at an unpacked wheel of that
version) for the code the bench times against. Binaries of it take Triton's
trailing scratch pointers: entries made of them carry "extra_null_args"
(compare.DriverKernel passes null pointers for them).

  triton_ptx.py matmul DTYPE BLOCK_SIZE_K NUM_WARPS OUT.ptx   (128x128 tiles,
      num_stages 3: bench/experiments/prepare_matmul_experiments.sh)
  triton_ptx.py softmax BLOCK_SIZE NUM_WARPS NUM_STAGES OUT.ptx

Writes the PTX and prints the kernel's shared memory in bytes (the launch's
dynamic shared memory)."""
import importlib.util
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.runtime import JITFunction

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
H100_OR_H200 = GPUTarget("cuda", 90, 32)


def jit_function(example, name):
    spec = importlib.util.spec_from_file_location(
        example, os.path.join(ROOT, "examples", example + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = getattr(module, name)
    while not isinstance(kernel, JITFunction):  # under @triton.autotune
        kernel = kernel.fn
    return kernel


def compile_kernel(fn, signature, constants, num_warps, num_stages):
    """Triton's compiled kernel of fn (.asm["ptx"], .asm["cubin"],
    .metadata.shared): signature maps every parameter to its type,
    constants the constexpr ones; the rest are divisible by 16."""
    for name in constants:
        signature[name] = "constexpr"
    attrs = {(i,): [["tt.divisibility", 16]]
             for i, name in enumerate(signature)
             if signature[name] != "constexpr"}
    return triton.compile(
        ASTSource(fn=fn, signature=signature, constexprs=constants,
                  attrs=attrs),
        target=H100_OR_H200,
        options={"num_warps": num_warps, "num_stages": num_stages})


def extra_params(kernel):
    """How many parameters Triton appended to the kernel's own (its global
    and profile scratch pointers, by version): the entry's .param count less
    the runtime arguments. Those must take null pointers, so the kernel may
    not need global scratch."""
    ptx = kernel.asm["ptx"]
    entry = ptx[ptx.index(".entry"):]
    params = entry[:entry.index(")")].count(".param")
    own = sum(1 for t in kernel.src.signature.values() if t != "constexpr")
    if getattr(kernel.metadata, "global_scratch_size", 0):
        sys.exit("triton_ptx.py: the kernel needs global scratch; the "
                 "harness passes null pointers")
    return params - own


def matmul(dtype, block_k, num_warps, num_stages=3, block_m=128,
               block_n=128):
    ptr = "*" + dtype
    signature = {"a_ptr": ptr, "b_ptr": ptr, "c_ptr": ptr}
    for name in ("M", "N", "K", "stride_am", "stride_ak", "stride_bk",
                 "stride_bn", "stride_cm", "stride_cn"):
        signature[name] = "i32"
    constants = {"BLOCK_SIZE_M": block_m, "BLOCK_SIZE_N": block_n,
                 "BLOCK_SIZE_K": block_k, "GROUP_SIZE_M": 8,
                 "ACTIVATION": "", "stride_ak": 1, "stride_bn": 1,
                 "stride_cn": 1}
    return compile_kernel(jit_function("matmul", "matmul_kernel"), signature,
                          constants, num_warps, num_stages)


def softmax(block_size, num_warps, num_stages):
    signature = {"output_ptr": "*fp32", "input_ptr": "*fp32"}
    for name in ("input_row_stride", "output_row_stride", "n_rows",
                 "n_cols"):
        signature[name] = "i32"
    # num_stages is a constexpr parameter of the kernel (the row loop's).
    constants = {"BLOCK_SIZE": block_size, "num_stages": num_stages}
    return compile_kernel(jit_function("fused_softmax", "softmax_kernel"),
                          signature, constants, num_warps, 3)


def main():
    family, *rest = sys.argv[1:]
    if family == "matmul" and len(rest) == 4:
        kernel = matmul(rest[0], int(rest[1]), int(rest[2]))
    elif family == "softmax" and len(rest) == 4:
        kernel = softmax(*(int(r) for r in rest[:3]))
    else:
        sys.exit(__doc__)
    with open(rest[-1], "w") as f:
        f.write(kernel.asm["ptx"])
    print(kernel.metadata.shared)


if __name__ == "__main__":
    main()
