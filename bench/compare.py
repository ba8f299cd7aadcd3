"""Check and time our kernels against PyTorch and Triton on one NVIDIA GPU.

Run by bench/run_h200.sh on the device machine. Reads bench/bin/kernels.json
(written by bench/prepare_h200.sh), and for each kernel and shape:
- draws fresh random inputs with PyTorch and writes them to files,
- runs our binary with bench/bin/tle-run-nvidia, which fills the output with
  NaN before the run, checks it here against PyTorch (relative error
  |out-ref|/|ref| in float64, by dtype) and times it with CUDA events
  (median, 256 MiB written before each launch so the L2 starts cold),
- times Triton's kernel (examples/*.py, unchanged) and PyTorch with
  triton.testing.do_bench (CUDA events, median, L2 cleared before each
  launch), after checking Triton's output the same way,
and prints a table with the ratio ours/Triton last.
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch
import triton
import triton.testing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "bench", "bin")
TOLERANCE = {torch.float32: 1e-6, torch.float16: 1e-3, torch.bfloat16: 8e-3}

# ANCHORS.md's vector-add shapes, plus a size that is not a multiple of any
# block so the masks are exercised.
VECTOR_ADD_SIZES = [2**20, 2**26, 2**28, 2**20 + 17]


def load_example(name):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(ROOT, "examples", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def relative_error(out, ref):
    out, ref = out.double(), ref.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / ref.norm()).item()


def run_ours(kernel, n, x, y, work):
    """Runs one of our binaries on x + y; returns (output, median ms, log)."""
    x.cpu().numpy().tofile(os.path.join(work, "x.bin"))
    y.cpu().numpy().tofile(os.path.join(work, "y.bin"))
    out_dir = os.path.join(work, "out")
    grid = triton.cdiv(n, kernel["elements_per_block"])
    cmd = [
        os.path.join(BIN, "tle-run-nvidia"),
        os.path.join(BIN, "kernels", kernel["file"]),
        "--kernel", kernel["entry"], "--target", "h200",
        "--grid", str(grid), "--num-warps", str(kernel["num_warps"]),
        "--arg", f"buf:f32:N={n}:file={work}/x.bin",
        "--arg", f"buf:f32:N={n}:file={work}/y.bin",
        "--arg", f"out:f32:N={n}",
        "--arg", f"i32:{n}",
        "--out-dir", out_dir, "--warmup", "10", "--repeat", "100",
        "--flush-l2-mib", "256",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    log = " ".join(cmd) + "\n" + done.stdout + done.stderr
    if done.returncode != 0:
        return None, None, log
    out = torch.from_numpy(
        np.fromfile(os.path.join(out_dir, "arg2.bin"), dtype=np.float32))
    median = float(re.search(r"time: median ([0-9.]+) ms", done.stdout)[1])
    return out, median, log


def vector_add(kernels, log_file):
    add = load_example("vector_add").add_kernel
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for n in VECTOR_ADD_SIZES:
            x = torch.rand(n, device="cuda") * 2 - 1
            y = torch.rand(n, device="cuda") * 2 - 1
            ref = x.double() + y.double()
            gbytes = 3 * 4 * n / 1e9

            out = torch.full_like(x, float("nan"))
            run = lambda: add[(triton.cdiv(n, 1024),)](x, y, out, n,
                                                        BLOCK_SIZE=1024)
            run()
            torch.cuda.synchronize()
            triton_err = relative_error(out, ref)
            triton_ms = triton.testing.do_bench(run, return_mode="median")
            out_t = torch.empty_like(x)
            torch_ms = triton.testing.do_bench(
                lambda: torch.add(x, y, out=out_t), return_mode="median")

            for k in kernels:
                shape = f"n={n}"
                if n % 4 and not k["odd_sizes"]:
                    rows.append([k["name"], shape, "-", "skipped: no tail "
                                 "handling", "", "", ""])
                    continue
                ours, ms, log = run_ours(k, n, x, y, work)
                log_file.write(log + "\n")
                if ours is None:
                    rows.append([k["name"], shape, "-", "FAILED to run", "",
                                 "", ""])
                    print(log, file=sys.stderr)
                    continue
                err = relative_error(ours, ref.cpu())
                ok = err <= TOLERANCE[torch.float32]
                rows.append([
                    k["name"], shape,
                    f"{err:.1e} {'ok' if ok else 'WRONG'}"
                    f" (triton {triton_err:.1e})",
                    f"{gbytes / (ms / 1e3):.0f}",
                    f"{gbytes / (triton_ms / 1e3):.0f}",
                    f"{gbytes / (torch_ms / 1e3):.0f}",
                    f"{triton_ms / ms:.3f}",
                ])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", default=os.environ.get("OUT", ".") +
                        "/compare.log")
    args = parser.parse_args()
    with open(os.path.join(BIN, "kernels.json")) as f:
        kernels = json.load(f)
    print(f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}, "
          f"triton {triton.__version__}")
    for k in kernels:
        print(f"  {k['name']}: {k['origin']}")
    with open(args.log, "w") as log_file:
        rows = vector_add(kernels, log_file)
    header = ["kernel", "shape", "rel. error vs torch (fp64)", "ours GB/s",
              "Triton GB/s", "PyTorch GB/s", "ours/Triton"]
    widths = [max(len(str(r[i])) for r in rows + [header])
              for i in range(len(header))]
    print("\nvector add fp32, GB/s = 3*4*n bytes / median time "
          "(ours: tle-run CUDA events; Triton, PyTorch: do_bench)")
    for r in [header] + rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) +
              " |")
    wrong = [r for r in rows if "WRONG" in r[2] or "FAILED" in r[3]]
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
