"""What TMA would give the pointer matmul at 1024^3: our binaries of
examples/matmul.py (pointer tiles, cp.async) and of
examples/matmul_descriptor.py's matmul_descriptor_kernel (tensor maps
written in the kernel), and Triton's compilation of its
matmul_host_descriptor_kernel (tensor maps built on the host), each against
Triton's examples/matmul.py with the same tiles, warps and stages, at
1024^3 in CUDA graphs (16 input sets) and at 4096^3 with do_bench. Compile
here first: bash bench/experiments/prepare_descriptor_vs_pointer.sh; on the
device, carrying bench/bin:
python3 bench/experiments/descriptor_vs_pointer.py [LISTING.json in bench/bin,
default descriptor_vs_pointer.json; tensor_map_variants.json for the PTX
variants, without Triton's host-descriptor rows]"""
import ctypes
import json
import os
import sys

import torch
import triton

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from compare import (TOLERANCE, DriverKernel, load_example,  # noqa: E402
                     ptr, relative_error, time_graphs_interleaved,
                     time_side_by_side)

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}


def ours_launch(dk, kernel, a, b, c, m, n, k):
    i32 = ctypes.c_int32
    args = [ptr(a), ptr(b), ptr(c), i32(m), i32(n), i32(k)]
    if kernel["source"] == "matmul.py":  # the strides not specialized away
        args += [i32(k), i32(n), i32(n)]
    return dk.launcher(triton.cdiv(m, 128) * triton.cdiv(n, 128), args)


def triton_launch(fn, kernel, a, b, c, m, n, k):
    grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)

    def launch():
        fn[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                 b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=128,
                 BLOCK_SIZE_N=128, BLOCK_SIZE_K=kernel["bk"], GROUP_SIZE_M=8,
                 ACTIVATION="", num_warps=kernel["num_warps"],
                 num_stages=kernel["num_stages"])
    return launch


def host_desc_launch(fn, kernel, a, b, c, m, n, k):
    from triton.tools.tensor_descriptor import TensorDescriptor
    descs = (TensorDescriptor.from_tensor(a, [128, kernel["bk"]]),
             TensorDescriptor.from_tensor(b, [kernel["bk"], 128]),
             TensorDescriptor.from_tensor(c, [128, 128]))
    grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)

    def launch():
        fn[grid](*descs, m, n, k, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128,
                 BLOCK_SIZE_K=kernel["bk"], GROUP_SIZE_M=8,
                 num_warps=kernel["num_warps"],
                 num_stages=kernel["num_stages"])
    launch.keep = descs
    return launch


def main():
    listing = sys.argv[1] if len(sys.argv) > 1 else "descriptor_vs_pointer.json"
    kernels = json.load(open(os.path.join(ROOT, "bench", "bin", listing)))
    fn = load_example("matmul").matmul_kernel.fn
    host_fn = load_example("matmul_descriptor").matmul_host_descriptor_kernel
    print(f"GPU: {torch.cuda.get_device_name()}", flush=True)
    if len(sys.argv) == 1:  # Triton's host descriptors, per tile configuration
        configs = {(k["dtype"], k["bk"], k["num_warps"], k["num_stages"])
                   for k in kernels}
        kernels += [{"source": "Triton host descriptors", "dtype": d,
                     "bk": bk, "num_warps": w, "num_stages": s}
                    for d, bk, w, s in sorted(configs)]
    rows, wrong = [], False
    for kernel in kernels:
        dtype = DTYPES[kernel["dtype"]]
        dk = None if "file" not in kernel else DriverKernel(
            os.path.join(ROOT, "bench", "bin", "kernels", kernel["file"]),
            kernel["entry"], kernel["num_warps"],
            kernel["dynamic_shared_bytes"], kernel["global_scratch_bytes"])
        for size in (1024, 4096):
            m = n = k = size

            def mine(ai, bi, ci):
                if dk:
                    return ours_launch(dk, kernel, ai, bi, ci, m, n, k)
                return host_desc_launch(host_fn, kernel, ai, bi, ci, m, n, k)
            torch.manual_seed(size)
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            mine(a, b, c)()
            torch.cuda.synchronize()
            err = relative_error(c, a.float() @ b.float())
            ok = err < TOLERANCE[dtype]
            wrong |= not ok
            if size == 1024:
                ours, theirs = [], []
                for s in range(16):
                    ai = a if s == 0 else torch.randn_like(a)
                    bi = b if s == 0 else torch.randn_like(b)
                    ci = torch.empty_like(c)
                    ours.append(mine(ai, bi, ci))
                    theirs.append(triton_launch(fn, kernel, ai, bi, ci, m, n,
                                                k))
                o_ms, t_ms, note = time_graphs_interleaved(ours, theirs)
            else:
                o_ms, t_ms, note = time_side_by_side(
                    mine(a, b, c), triton_launch(fn, kernel, a, b, c, m, n, k))
            flops = 2.0 * m * n * k
            rows.append((kernel["source"], kernel["dtype"], size,
                         f"128x128x{kernel['bk']} w{kernel['num_warps']} "
                         f"s{kernel['num_stages']}",
                         f"{err:.1e} {'ok' if ok else 'WRONG'}",
                         flops / o_ms * 1e-9, flops / t_ms * 1e-9,
                         t_ms / o_ms, note))
            print(rows[-1], flush=True)
    print("| kernel | dtype | size^3 | tile | rel. err | TFLOP/s | "
          "Triton (pointer) TFLOP/s | kernel/Triton | rounds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]:.1f} | "
              f"{r[6]:.1f} | {r[7]:.3f} | {r[8]} |")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
