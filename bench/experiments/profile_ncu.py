"""Launches ours and Triton's kernel for the shapes where the two are
closest to each other in bench/compare.py and bench/matmul.py, so that
Nsight Compute can compare them counter by counter. Run on the device after
bench/prepare_h200.sh (carry bench/bin):

  ncu --clock-control none --cache-control all --csv --page details \
      --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --section WarpStateStats --section SchedulerStats \
      python3 bench/experiments/profile_ncu.py > $OUT/ncu.csv
  python3 bench/experiments/profile_ncu.py --summary $OUT/ncu.csv

Each case launches ours LAUNCHES times, then Triton's LAUNCHES times, after
one checked launch of each (those are profiled too: the summary drops the
first of every run of launches). The summary prints, per case and metric,
the median of ours, of Triton's, and ours/Triton.
"""

import argparse
import csv
import ctypes
import json
import os
import statistics
import sys

LAUNCHES = 3
# ncu metric names (the 'Metric Name' column) the summary prints.
SUMMARY_METRICS = [
    "Duration", "DRAM Throughput", "Memory Throughput", "L2 Hit Rate",
    "Compute (SM) Throughput", "Registers Per Thread",
    "Issued Warp Per Scheduler", "No Eligible", "Warp Cycles Per Issued Instruction",
    "Avg. Active Threads Per Warp", "Mem Busy", "Max Bandwidth",
]


def cases():
    import torch
    import triton
    sys.path.insert(0, os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    from compare import (BIN, DriverKernel, load_example, ptr, softmax_grid,
                         triton_softmax_kernel)
    from matmul import run_ours, run_triton
    with open(os.path.join(BIN, "kernels.json")) as f:
        kernels = json.load(f)

    def pick(**want):
        for k in kernels:
            if all(k.get(key) == value for key, value in want.items()):
                return k
        sys.exit(f"no kernels.json entry {want}: run prepare_h200.sh")

    # Softmax 4096x16384 (aligned), Triton's tutorial launch.
    m, n, bs = 4096, 16384, 16384
    x = torch.rand(m, n, device="cuda") * 2 - 1
    y = torch.empty_like(x)
    k = pick(kind="softmax", block_size=bs, aligned=True, name="tlec-cubin")
    dk = DriverKernel(os.path.join(BIN, "kernels", k["file"]), k["entry"],
                      k["num_warps"], k["dynamic_shared_bytes"])
    grid = softmax_grid(m, dk.attribute(4),
                        dk.attribute(1) + k["dynamic_shared_bytes"], 8)
    i32 = ctypes.c_int32
    ours = dk.launcher(grid, [ptr(y), ptr(x), i32(n), i32(n), i32(m), i32(n)])
    ck = triton_softmax_kernel.warmup(y, x, n, n, m, n, BLOCK_SIZE=bs,
                                      num_stages=4, num_warps=8, grid=(1,))
    ck._init_handles()
    t_grid = softmax_grid(m, ck.n_regs, ck.metadata.shared, 8)
    theirs = lambda: triton_softmax_kernel[(t_grid,)](  # noqa: E731
        y, x, n, n, m, n, BLOCK_SIZE=bs, num_stages=4, num_warps=8)
    yield "softmax 4096x16384", ours, theirs

    # Matmul 1024^3, both tiles, fp16 and bf16.
    fn = load_example("matmul").matmul_kernel.fn
    for dname, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        a = torch.randn(1024, 1024, device="cuda", dtype=dtype)
        b = torch.randn(1024, 1024, device="cuda", dtype=dtype)
        c = torch.empty(1024, 1024, device="cuda", dtype=dtype)
        for warps in (4, 8):
            k = pick(kind="matmul", dtype=dname, num_warps=warps, aligned=True,
                     num_stages=3, variant="")
            yield (f"matmul {dname} 1024^3 w{warps}",
                   run_ours(k, a, b, c, 1024, 1024, 1024),
                   run_triton(fn, k, a, b, c, 1024, 1024, 1024))

    # Vector add of 2^20 elements (aligned variant, as Triton's JIT picks).
    n = 2**20
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    k = pick(kind=None, aligned=True, name="tlec-cubin")  # add entries have no kind
    dk = DriverKernel(os.path.join(BIN, "kernels", k["file"]), k["entry"],
                      k["num_warps"])
    add = load_example("vector_add").add_kernel
    yield ("add 1M",
           dk.launcher(triton.cdiv(n, k["elements_per_block"]),
                       [ptr(x), ptr(y), ptr(out), i32(n)]),
           lambda: add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024))


def launch_all():
    import torch
    order = []
    for name, ours, theirs in cases():
        for who, fn in (("ours", ours), ("triton", theirs)):
            for _ in range(LAUNCHES + 1):
                fn()
                order.append(f"{name}|{who}")
            torch.cuda.synchronize()
    with open(os.environ.get("PROFILE_ORDER", "/tmp/profile_order.json"),
              "w") as f:
        json.dump(order, f)


def summary(path, order_path):
    with open(order_path) as f:
        order = json.load(f)
    values = {}  # (launch id, metric) -> value
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]
    for r in csv.DictReader(lines):
        try:
            values[(int(r["ID"]), r["Metric Name"])] = (
                float(r["Metric Value"].replace(",", "")), r["Metric Unit"])
        except (KeyError, ValueError):
            continue
    ids = sorted({i for i, _ in values})
    if len(ids) != len(order):
        print(f"note: {len(ids)} profiled launches, {len(order)} made; "
              "matching them in order", file=sys.stderr)
    by_case = {}
    for i, label in zip(ids, order):
        by_case.setdefault(label, []).append(i)
    cases_seen = list(dict.fromkeys(label.split("|")[0] for label in order))
    for case in cases_seen:
        print(f"## {case}")
        print("| metric | ours | Triton | ours/Triton |")
        print("| --- | --- | --- | --- |")
        for metric in SUMMARY_METRICS:
            med = {}
            for who in ("ours", "triton"):
                got = [values[(i, metric)] for i in
                       by_case.get(f"{case}|{who}", [])[1:]
                       if (i, metric) in values]
                if got:
                    med[who] = (statistics.median(v for v, _ in got),
                                got[0][1])
            if len(med) < 2:
                continue
            (o, unit), (t, _) = med["ours"], med["triton"]
            ratio = f"{o / t:.3f}" if t else "-"
            print(f"| {metric} ({unit}) | {o:g} | {t:g} | {ratio} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summary", metavar="NCU_CSV")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary,
                os.environ.get("PROFILE_ORDER", "/tmp/profile_order.json"))
    else:
        launch_all()


if __name__ == "__main__":
    main()
