"""Separates where our matmul loses time to Triton's: both binaries go
through the same harness (bench/matmul.py's run_ours), so only the code
differs. Run on the device after prepare_h200.sh and
prepare_matmul_experiments.sh (carry bench/bin).

  profile_matmul.py sweep          M = N = 4096 with K from 512 to 16384,
                                   and K = 4096 with M = N = 8192, 2048,
                                   1024: ours / Triton's PTX per shape. A
                                   ratio that improves as K grows is a
                                   per-block cost (prologue, epilogue); a
                                   flat one is per iteration.
  profile_matmul.py once WHICH     launches one binary once at 4096^3 (for
                                   ncu); WHICH is "ours", "triton" or
                                   "ours2" (ours with 100 KiB of shared
                                   memory: 2 blocks per SM, as Triton's;
                                   bk 32 only). It also runs PyTorch's
                                   product (the check): give ncu
                                   `-k matmul_kernel`.
Options: --dtype fp16|bf16, --bk 32|64 (the tile's K and its warps: 32 -> 4,
64 -> 8), --variant V (time the kernels.json entry of variant V as "ours").
"""

import argparse
import json
import os
import sys

import torch
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from compare import BIN, load_kernel  # noqa: E402
from matmul import run_ours, tflops  # noqa: E402

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}


def pick(kernels, dtype, bk, variant):
    for k in kernels:
        if (k.get("kind") == "matmul" and k["dtype"] == dtype and
                k["bk"] == bk and k["aligned"] and k["num_stages"] == 3 and
                k.get("variant", "") == variant):
            return k
    sys.exit(f"no matmul entry {dtype} bk={bk} variant={variant!r}: run "
             "prepare_h200.sh and prepare_matmul_experiments.sh first")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["sweep", "once"])
    parser.add_argument("which", nargs="?",
                        choices=["ours", "triton", "ours2"])
    parser.add_argument("--dtype", default="fp16", choices=list(DTYPES))
    parser.add_argument("--bk", type=int, default=32, choices=[32, 64])
    parser.add_argument("--variant", default="")
    args = parser.parse_args()
    with open(os.path.join(BIN, "kernels.json")) as f:
        kernels = json.load(f)
    binaries = {"ours": pick(kernels, args.dtype, args.bk, args.variant),
                "triton": pick(kernels, args.dtype, args.bk,
                               "Triton's PTX, ptxas 13.0")}
    if args.which == "ours2":
        binaries["ours2"] = pick(kernels, args.dtype, args.bk,
                                 "ours, 100 KiB shared: 2 blocks/SM")
    dtype = DTYPES[args.dtype]

    def setup(m, n, k, which):
        a = torch.randn(m, k, device="cuda", dtype=dtype)
        b = torch.randn(k, n, device="cuda", dtype=dtype)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        kernel = binaries[which]
        launch = run_ours(load_kernel(kernel), kernel, a, b, c, m, n, k)
        launch()
        torch.cuda.synchronize()
        err = ((c.float() - a.float() @ b.float()).norm() /
               (a.float() @ b.float()).norm()).item()
        if not err < 1e-2:
            sys.exit(f"{which} is wrong at {m}x{n}x{k}: {err}")
        return launch

    if args.mode == "once":
        if not args.which:
            sys.exit("once needs ours, triton or ours2")
        setup(4096, 4096, 4096, args.which)
        return
    shapes = [(4096, 4096, k) for k in (512, 1024, 2048, 4096, 8192, 16384)]
    shapes += [(8192, 8192, 4096), (2048, 2048, 4096), (1024, 1024, 4096)]
    print(f"{args.dtype} 128x128x{args.bk}: shape | ours TFLOP/s | "
          "Triton's PTX TFLOP/s | ours/Triton's PTX")
    for m, n, k in shapes:
        times = {}
        for which in ("ours", "triton", "ours", "triton"):
            launch = setup(m, n, k, which)
            ms = triton.testing.do_bench(launch, return_mode="median")
            times[which] = min(times.get(which, ms), ms)
        print(f"{m}x{n}x{k} | {tflops(m, n, k, times['ours']):.1f} | "
              f"{tflops(m, n, k, times['triton']):.1f} | "
              f"{times['triton'] / times['ours']:.3f}", flush=True)


if __name__ == "__main__":
    main()
