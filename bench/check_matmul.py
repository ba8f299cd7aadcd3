"""Checks tlec's matmul (examples/matmul.py through the FMA fallback of
tl.dot) on the GPU against PyTorch, and times it next to Triton's tutorial
kernel's figures in ANCHORS.md only as a reference point: the FMA fallback is
a correctness path, not the matrix-unit code of the performance issue.

Usage (on the device): python3 bench/check_matmul.py bench/bin/kernels/matmul_fma.h200.cubin
The cubin: tlec examples/matmul.py --kernel matmul_kernel -D BLOCK_SIZE_M=32
  -D BLOCK_SIZE_N=32 -D BLOCK_SIZE_K=16 -D GROUP_SIZE_M=8 -D ACTIVATION=leaky_relu
  --signature '*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32:16, i32, i32:16, i32, i32:16, i32'
  --target h200 (num_warps 4)
"""
import ctypes
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import DriverKernel, ptr  # noqa: E402

BM = BN = 32


def main():
    path = sys.argv[1]
    kernel = DriverKernel(path, "matmul_kernel", 4)
    rows = []
    for m, n, k in [(512, 512, 512), (1000, 1024, 512), (1024, 1024, 1024)]:
        torch.manual_seed(m + n + k)
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        ref = torch.where(ref >= 0, ref, 0.01 * ref)
        i32 = ctypes.c_int32
        args = [ptr(a), ptr(b), ptr(c), i32(m), i32(n), i32(k), i32(k), i32(1),
                i32(n), i32(1), i32(n), i32(1)]
        grid = triton.cdiv(m, BM) * triton.cdiv(n, BN)
        launch = kernel.launcher(grid, args)
        launch()
        torch.cuda.synchronize()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2 and not torch.isnan(c).any().item()
        ms = triton.testing.do_bench(launch, return_mode="median")
        torch_ms = triton.testing.do_bench(lambda: a @ b, return_mode="median")
        tflops = 2 * m * n * k / ms * 1e-9
        torch_tflops = 2 * m * n * k / torch_ms * 1e-9
        rows.append((f"{m}x{n}x{k}", f"{err:.1e} {'ok' if ok else 'WRONG'}",
                     f"{tflops:.1f}", f"{torch_tflops:.1f}"))
    print("| matmul fp16 (FMA fallback, 32x32x16 tiles) | rel. error vs torch fp32 | ours TFLOP/s | PyTorch TFLOP/s |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
