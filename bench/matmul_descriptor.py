"""examples/matmul_descriptor.py (A and B through tensor descriptors made in
the kernel, or made by the host and passed as arguments: Triton builds
those maps on the host, ours writes them in the kernel; on the H200 our
binary copies the tiles with TMA) and
examples/persistent_matmul.py (Triton's persistent-matmul tutorial kernel:
one program per SM walking the tiles, B stored N x K) on the device: our
binary (bench/prepare_matmul_descriptor_h200.sh) against PyTorch's fp32
product for correctness and against Triton's compilation of the same source,
with the same tiles, warps, stages and NUM_SMS, for time.
Run on the device with bench/bin carried: python3 bench/matmul_descriptor.py
[--variant host]"""
import ctypes
import json
import os
import sys

import torch
import triton

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from compare import (TOLERANCE, DriverKernel, load_example,  # noqa: E402
                     ptr, relative_error, select_variants, time_interleaved)

SHAPES = [(1024, 1024, 1024), (4096, 4096, 4096), (8192, 8192, 8192),
          (4000, 4096, 4112)]
DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}


def our_args(kernel, a, b, c, m, n, k):
    """The launch arguments: pointers and sizes, or for host descriptors
    each tensor's base, shape and leading stride (tensordesc arguments)."""
    i32, i64 = ctypes.c_int32, ctypes.c_int64
    sizes = [i32(m), i32(n), i32(k)]
    if not kernel.get("host_descriptors"):
        return [ptr(a), ptr(b), ptr(c)] + sizes
    return [arg for t in (a, b, c)
            for arg in (ptr(t), i32(t.shape[0]), i32(t.shape[1]),
                        i64(t.stride(0)))] + sizes


def host_descriptors(kernel, a, b, c):
    """Triton's host TensorDescriptors of A, B and C for the kernel's
    tiles, or None where the kernel makes its own."""
    if not kernel.get("host_descriptors"):
        return None
    from triton.tools.tensor_descriptor import TensorDescriptor
    bm, bn, bk = kernel["bm"], kernel["bn"], kernel["bk"]
    if kernel.get("persistent"):  # B is N x K; C maybe stored in halves
        cn = bn // 2 if kernel["epilogue_subtile"] else bn
        return (TensorDescriptor.from_tensor(a, [bm, bk]),
                TensorDescriptor.from_tensor(b, [bn, bk]),
                TensorDescriptor.from_tensor(c, [bm, cn]))
    return (TensorDescriptor.from_tensor(a, [bm, bk]),
            TensorDescriptor.from_tensor(b, [bk, bn]),
            TensorDescriptor.from_tensor(c, [bm, bn]))


def main():
    kernels = select_variants(json.load(open(os.path.join(
        ROOT, "bench", "bin", "matmul_descriptor.json"))), __doc__.splitlines()[0])
    example = load_example("matmul_descriptor")
    fn = example.matmul_descriptor_kernel
    host_fn = example.matmul_host_descriptor_kernel
    persistent = load_example("persistent_matmul")
    persistent_fn = persistent.matmul_kernel_descriptor_persistent
    host_persistent_fn = persistent.matmul_kernel_host_descriptor_persistent
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    # Descriptors made in a Triton kernel live in global scratch memory.
    triton.set_allocator(lambda size, align, stream: torch.empty(
        size, dtype=torch.int8, device="cuda"))
    rows = []
    for kernel in kernels:
        dtype = DTYPES[kernel["dtype"]]
        dk = DriverKernel(os.path.join(ROOT, "bench", "bin", "kernels",
                                       kernel["file"]),
                          kernel["entry"], kernel["num_warps"],
                          kernel["dynamic_shared_bytes"],
                          kernel.get("global_scratch_bytes", 0),
                          tensor_maps=kernel.get("tensor_maps", []))
        persistent = kernel.get("persistent", 0)
        if persistent and kernel["num_sms"] != sms:
            print(f"note: {kernel['file']} was compiled for "
                  f"{kernel['num_sms']} SMs, this GPU has {sms}")
        for m, n, k in SHAPES:
            torch.manual_seed(m + n + k)
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            ref = a.float() @ b.float()
            grid = triton.cdiv(m, kernel["bm"]) * triton.cdiv(n, kernel["bn"])
            if persistent:
                # The tutorial's B is N x K; its grid one program per SM.
                b = b.t().contiguous()
                grid = min(kernel["num_sms"], grid)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            ours = dk.launcher(grid, our_args(kernel, a, b, c, m, n, k))
            ours()
            torch.cuda.synchronize()
            err = relative_error(c, ref)
            ok = err < TOLERANCE[dtype]
            ct = torch.full_like(c, float("nan"))

            host_descs = host_descriptors(kernel, a, b, ct)

            def theirs_persistent():
                operands = host_descs or (a, b, ct)
                (host_persistent_fn if host_descs else persistent_fn)[(grid,)](
                    *operands, m, n, k, BLOCK_SIZE_M=kernel["bm"],
                    BLOCK_SIZE_N=kernel["bn"], BLOCK_SIZE_K=kernel["bk"],
                    GROUP_SIZE_M=kernel["gm"],
                    EPILOGUE_SUBTILE=bool(kernel["epilogue_subtile"]),
                    NUM_SMS=kernel["num_sms"], WARP_SPECIALIZE=False,
                    num_warps=kernel["num_warps"],
                    num_stages=kernel["num_stages"])

            def theirs():
                if persistent:
                    return theirs_persistent()
                if host_descs:
                    return host_fn[(grid,)](
                        *host_descs, m, n, k, BLOCK_SIZE_M=kernel["bm"],
                        BLOCK_SIZE_N=kernel["bn"], BLOCK_SIZE_K=kernel["bk"],
                        GROUP_SIZE_M=kernel["gm"],
                        num_warps=kernel["num_warps"],
                        num_stages=kernel["num_stages"])
                fn[(grid,)](a, b, ct, m, n, k, BLOCK_SIZE_M=kernel["bm"],
                            BLOCK_SIZE_N=kernel["bn"],
                            BLOCK_SIZE_K=kernel["bk"],
                            GROUP_SIZE_M=kernel["gm"],
                            EPILOGUE_SUBTILE=bool(
                                kernel.get("epilogue_subtile", 0)),
                            num_warps=kernel["num_warps"],
                            num_stages=kernel["num_stages"])
            theirs()
            torch.cuda.synchronize()
            err_theirs = relative_error(ct, ref)
            ours = dk.launcher(grid, our_args(kernel, a, b, ct, m, n, k))
            if ok:
                ours_ms, theirs_ms, note = time_interleaved(ours, theirs)
            else:
                ours_ms = theirs_ms = float("nan")
                note = "wrong"
            flops = 2.0 * m * n * k
            tile = f"128x128x64 w{kernel['num_warps']} s3"
            if kernel.get("variant"):
                tile += f" ({kernel['variant']})"
            rows.append((kernel["dtype"], f"{m}x{n}x{k}", tile,
                         f"{err:.1e} {'ok' if ok else 'WRONG'}",
                         f"{err_theirs:.1e}", flops / ours_ms * 1e-9,
                         flops / theirs_ms * 1e-9, theirs_ms / ours_ms, note,
                         dk.attribute(4)))
    print("matmul through tensor descriptors (examples/matmul_descriptor.py, "
          "persistent: examples/persistent_matmul.py)")
    print("| dtype | MxNxK | tile | ours rel. err | Triton rel. err | ours "
          "TFLOP/s | Triton TFLOP/s | ours/Triton | rounds | registers |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]:.1f} | "
              f"{r[6]:.1f} | {r[7]:.3f} | {r[8]} | {r[9]} |")
    sys.exit(1 if any("WRONG" in r[3] for r in rows) else 0)


if __name__ == "__main__":
    main()
