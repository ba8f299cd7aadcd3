"""Writes Triton's PTX of examples/matmul.py (aligned specialization, as
bench/matmul.py launches it) for sm_90a, without a GPU: argv = dtype
BLOCK_SIZE_K num_warps output.ptx. Used by prepare_matmul_experiments.sh."""
import importlib.util
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
dtype, bk, warps, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
spec = importlib.util.spec_from_file_location(
    "mm", os.path.join(ROOT, "examples", "matmul.py"))
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
fn = getattr(m.matmul_kernel, "fn", m.matmul_kernel)
ptr = "*" + dtype
sig = {"a_ptr": ptr, "b_ptr": ptr, "c_ptr": ptr, "M": "i32", "N": "i32",
       "K": "i32", "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32",
       "stride_bn": "i32", "stride_cm": "i32", "stride_cn": "i32"}
constants = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": bk,
             "GROUP_SIZE_M": 8, "ACTIVATION": "", "stride_ak": 1,
             "stride_bn": 1, "stride_cn": 1}
for name in constants:
    sig[name] = "constexpr"
# Divisibility by 16 of the pointers, sizes and remaining strides, as the
# JIT specializes them for the benchmark's shapes.
attrs = {(i,): [["tt.divisibility", 16]] for i in [0, 1, 2, 3, 4, 5, 6, 8, 10]}
kernel = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=constants,
                                  attrs=attrs),
                        target=GPUTarget("cuda", 90, 32),
                        options={"num_warps": warps, "num_stages": 3})
with open(out, "w") as f:
    f.write(kernel.asm["ptx"])
print(kernel.metadata.shared)
