"""Separates the launch path from the code in a small kernel's ratio: the
1M-element vector add (about 8 us) timed three ways in alternating do_bench
rounds, on the same buffers:
  triton     Triton's kernel through Triton's launcher (what compare.py uses)
  triton-dk  Triton's own cubin through compare.py's DriverKernel (ctypes
             cuLaunchKernel), the path our binaries take
  ours-dk    our cubin (bench/bin, aligned variant) through DriverKernel
If triton-dk/triton is below 1 too, the gap is the launch path, not the
code. Run on the device after bench/prepare_h200.sh (carry bench/bin)."""
import ctypes
import json
import os
import statistics
import sys

import torch
import triton
import triton.testing

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import compare  # noqa: E402

ROUNDS = 15


def main():
    n = 2**20
    add = compare.load_example("vector_add").add_kernel
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    grid = triton.cdiv(n, 1024)
    compiled = add[(grid,)](x, y, out, n, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    ref = x + y

    # Triton's cubin through the driver path; its kernel takes Triton's own
    # trailing scratch pointers (null here: the add uses none).
    path = "/tmp/triton_add.cubin"
    with open(path, "wb") as f:
        f.write(compiled.asm["cubin"])
    ptx = compiled.asm["ptx"]
    entry = compiled.metadata.name
    params = ptx[ptx.index(".entry"):ptx.index(")")].count(".param")
    extra = [ctypes.c_void_p(0) for _ in range(params - 4)]
    out_t = torch.empty_like(x)
    triton_dk = compare.DriverKernel(path, entry, 4).launcher(
        grid, [compare.ptr(x), compare.ptr(y), compare.ptr(out_t),
               ctypes.c_int32(n)] + extra)

    with open(os.path.join(compare.BIN, "kernels.json")) as f:
        kernels = json.load(f)
    k = next(k for k in kernels
             if k["entry"] == "add_kernel" and k.get("aligned") is True)
    out_o = torch.empty_like(x)
    ours_dk = compare.DriverKernel(
        os.path.join(compare.BIN, "kernels", k["file"]), k["entry"],
        k["num_warps"]).launcher(
            grid, [compare.ptr(x), compare.ptr(y), compare.ptr(out_o),
                   ctypes.c_int32(n)])

    runs = {"triton": lambda: add[(grid,)](x, y, out, n, BLOCK_SIZE=1024),
            "triton-dk": triton_dk, "ours-dk": ours_dk}
    for name, fn in runs.items():
        fn()
    torch.cuda.synchronize()
    for name, o in (("triton-dk", out_t), ("ours-dk", out_o)):
        assert torch.equal(o, ref), name
    times = {name: [] for name in runs}
    for r in range(ROUNDS):
        order = list(runs) if r % 2 == 0 else list(reversed(runs))
        for name in order:
            times[name].append(
                triton.testing.do_bench(runs[name], return_mode="median"))
    base = statistics.median(times["triton"])
    print("| launch | median us | Triton/this (speed) | per-round range |")
    print("| --- | --- | --- | --- |")
    for name, t in times.items():
        ratios = [b / v for b, v in zip(times["triton"], t)]
        print(f"| {name} | {statistics.median(t) * 1e3:.2f} | "
              f"{base / statistics.median(t):.3f} | "
              f"{min(ratios):.3f}-{max(ratios):.3f} |")


if __name__ == "__main__":
    main()
