"""Check and time tlec's matmul (examples/matmul.py) against Triton and
PyTorch on one NVIDIA GPU, in one run.

Run by bench/run_h200.sh on the device after bench/prepare_h200.sh compiled
the kernels (entries of kind "matmul" in bench/bin/kernels.json: dtype, tile
sizes, num_warps, and whether the binary assumes aligned sizes and unit
strides). For each shape and dtype:
- fresh random inputs, the output poisoned with NaN before our launch,
  checked against PyTorch's fp32 product (relative Frobenius error < 1e-2);
- ours timed with triton.testing.do_bench (median) through the driver on
  PyTorch's stream (compare.DriverKernel), as Triton's are, the two in
  alternating rounds (compare.time_side_by_side: the median of each one's
  rounds, and the range of the per-round ratios), writing the same output
  buffer as Triton's once checked;
- Triton runs the same source file, examples/matmul.py, with the same tile
  sizes and num_warps (the same num_stages), and PyTorch (cuBLAS).
- fp8e5 rows: A and B in e5m2, B transposed (K-major) as Triton's tutorial
  passes it, C in fp16 (the 8-bit wgmma); PyTorch's column is then the
  fp16 product of the same values.
- rows whose Triton time is under compare.GRAPH_MS (1024^3) are timed a
  second way too: each side's launches over GRAPH_SETS input sets (more
  memory than the L2 holds) captured in one CUDA graph, the two graphs
  replayed in alternating rounds (compare.time_graphs_interleaved).
The table comes last: TFLOP/s = 2*M*N*K / median time; ours/Triton compares
the same tile configuration.
"""

import argparse
import ctypes
import json
import os
import sys

import torch
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import (BIN, GRAPH_MS, TOLERANCE, load_example,  # noqa: E402
                     load_kernel, ptr, relative_error, time_graphs_interleaved,
                     time_side_by_side)

SHAPES = [(1024, 1024, 1024), (4096, 4096, 4096), (8192, 8192, 8192),
          (4097, 1031, 515)]
# Input sets a graph cycles through: 16 sets at 1024^3 fp16 are 96 MiB,
# about twice the H200's L2.
GRAPH_SETS = 16
DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16,
          "fp8e5": torch.float8_e5m2}


def tflops(m, n, k, ms):
    return 2 * m * n * k / ms * 1e-9 if ms else 0.0


def run_ours(dk, kernel, a, b, c, m, n, k):
    """Launches with the runtime arguments the binary kept: strides of 1
    were specialized away (-D) in the aligned variant."""
    i32 = ctypes.c_int32
    if kernel["dtype"] == "fp8e5":  # B K-major: stride_bk = 1 specialized
        args = [ptr(a), ptr(b), ptr(c), i32(m), i32(n), i32(k), i32(k),
                i32(k), i32(n)]
    elif kernel["aligned"]:
        args = [ptr(a), ptr(b), ptr(c), i32(m), i32(n), i32(k), i32(k),
                i32(n), i32(n)]
    else:
        args = [ptr(a), ptr(b), ptr(c), i32(m), i32(n), i32(k), i32(k),
                i32(1), i32(n), i32(1), i32(n), i32(1)]
    grid = triton.cdiv(m, kernel["bm"]) * triton.cdiv(n, kernel["bn"])
    return dk.launcher(grid, args)


def run_triton(fn, kernel, a, b, c, m, n, k):
    grid = (triton.cdiv(m, kernel["bm"]) * triton.cdiv(n, kernel["bn"]),)

    def launch():
        fn[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                 b.stride(1), c.stride(0), c.stride(1),
                 BLOCK_SIZE_M=kernel["bm"], BLOCK_SIZE_N=kernel["bn"],
                 BLOCK_SIZE_K=kernel["bk"], GROUP_SIZE_M=kernel["gm"],
                 ACTIVATION="", num_warps=kernel["num_warps"],
                 num_stages=kernel["num_stages"])
    return launch


def random_inputs(m, n, k, dtype):
    """A (M x K) and B (K x N); 8-bit B transposed (K-major), as Triton's
    tutorial passes it, for the 8-bit wgmma."""
    a = torch.randn(m, k, device="cuda").to(dtype)
    if dtype == torch.float8_e5m2:
        return a, torch.randn(n, k, device="cuda").to(dtype).T
    return a, torch.randn(k, n, device="cuda", dtype=dtype)


def graph_launches(dk, fn, kernel, a, b, m, n, k, out):
    """Our and Triton's launches over GRAPH_SETS input sets (a and b, then
    fresh ones), each set with its own output, written by both."""
    ours, theirs = [], []
    for s in range(GRAPH_SETS):
        ai, bi = (a, b) if s == 0 else random_inputs(m, n, k, a.dtype)
        ci = torch.empty((m, n), device="cuda", dtype=out)
        # Triton's launches hold the tensors alive while the graphs exist.
        ours.append(run_ours(dk, kernel, ai, bi, ci, m, n, k))
        theirs.append(run_triton(fn, kernel, ai, bi, ci, m, n, k))
    return ours, theirs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=",".join(
        f"{m}x{n}x{k}" for m, n, k in SHAPES),
        help="comma-separated MxNxK (default: all of SHAPES)")
    shapes = [tuple(int(d) for d in s.split("x"))
              for s in parser.parse_args().shapes.split(",")]
    with open(os.path.join(BIN, "kernels.json")) as f:
        kernels = [k for k in json.load(f) if k.get("kind") == "matmul"]
    # Binaries are compiled for the H200; on an H100, those the compiler
    # built differently for it (prepare_h200.sh: "h100") run instead.
    on_h100 = "H100" in torch.cuda.get_device_name()
    if on_h100:
        kernels = [dict(k, **k["h100"]) if "h100" in k else k
                   for k in kernels]
    print(f"GPU: {torch.cuda.get_device_name()}; binaries for target "
          f"{'h100-sxm where they differ, else h200' if on_h100 else 'h200'}",
          flush=True)
    fn = load_example("matmul").matmul_kernel.fn  # the jit function, untuned
    rows, wrong = [], False
    for dname, dtype in DTYPES.items():
        for m, n, k in shapes:
            aligned = m % 16 == 0 and n % 16 == 0 and k % 16 == 0
            torch.manual_seed(m + n + k)
            fp8 = dtype == torch.float8_e5m2
            a, b = random_inputs(m, n, k, dtype)
            ref = a.float() @ b.float()
            # (PyTorch has no plain 8-bit matmul: its column is fp16's.)
            a16, b16 = (a.half(), b.half()) if fp8 else (a, b)
            torch_ms = triton.testing.do_bench(lambda: a16 @ b16,
                                               return_mode="median")
            for kernel in kernels:
                if kernel["dtype"] != dname or kernel["aligned"] != aligned:
                    continue
                tile = (f"{kernel['bm']}x{kernel['bn']}x{kernel['bk']}"
                        f" w{kernel['num_warps']} s{kernel['num_stages']}")
                if kernel.get("variant"):
                    tile += f" ({kernel['variant']})"
                out = torch.float16 if fp8 else dtype
                # 8-bit products accumulate with fewer bits on the H200's
                # tensor cores (Triton's error at 8192^3: 1.4e-3).
                tolerance = 1e-2 if fp8 else TOLERANCE[out]
                c = torch.full((m, n), float("nan"), device="cuda",
                               dtype=out)
                ct = torch.full((m, n), float("nan"), device="cuda",
                                dtype=out)
                launch = tlaunch = None
                try:
                    dk = load_kernel(kernel)
                    launch = run_ours(dk, kernel, a, b, c, m, n, k)
                    launch()
                    torch.cuda.synchronize()
                    err = relative_error(c, ref)
                    ok = err < tolerance
                    note = f"{err:.1e} {'ok' if ok else 'WRONG'}"
                    # The driver's count of resident blocks against the
                    # compiler's (the manifest's blocks_per_sm).
                    blocks = dk.resident_blocks()
                    note += f", {blocks} blocks/SM"
                    expected = kernel.get("blocks_per_sm")
                    if expected is not None and blocks != expected:
                        ok = False
                        note += f" (MISMATCH: the manifest says {expected})"
                    # Timed writing Triton's output, so both write the same
                    # memory.
                    launch = run_ours(dk, kernel, a, b, ct, m, n, k)
                except Exception as e:
                    launch, ok, note = None, False, f"FAILED: {e}"
                try:
                    tlaunch = run_triton(fn, kernel, a, b, ct, m, n, k)
                    tlaunch()
                    torch.cuda.synchronize()
                    err_triton = relative_error(ct, ref)
                    if not err_triton < tolerance:
                        note += f"; Triton's output off ({err_triton:.1e})"
                except Exception as e:
                    tlaunch, note = None, note + f"; Triton failed: {e}"
                # A wrong kernel is not timed.
                ms, triton_ms, spread = time_side_by_side(
                    launch if ok else None, tlaunch)
                wrong |= not ok
                graph = "-"
                if ok and tlaunch and triton_ms < GRAPH_MS:
                    g_ms, g_triton_ms, g_spread = time_graphs_interleaved(
                        *graph_launches(dk, fn, kernel, a, b, m, n, k, out))
                    graph = (f"{tflops(m, n, k, g_ms):.1f} / "
                             f"{tflops(m, n, k, g_triton_ms):.1f} = "
                             f"{g_triton_ms / g_ms:.3f} ({g_spread})")
                ours, theirs = tflops(m, n, k, ms), tflops(m, n, k, triton_ms)
                rows.append([f"matmul {dname}", f"{m}x{n}x{k}", tile, note,
                             f"{ours:.1f}", f"{theirs:.1f}",
                             f"{tflops(m, n, k, torch_ms):.1f}",
                             f"{ours / theirs:.2f}" if theirs else "-",
                             spread, graph])
                print("  " + " | ".join(rows[-1]), flush=True)
    header = ["kernel", "shape", "tile", "rel. error vs torch fp32",
              "ours TFLOP/s", "Triton TFLOP/s (same tile)", "PyTorch TFLOP/s",
              "ours/Triton", "per-round ratios",
              "graphs: ours / Triton TFLOP/s = ours/Triton"]
    widths = [max(len(str(r[i])) for r in rows + [header])
              for i in range(len(header))]
    for r in [header] + rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) +
              " |")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
