"""Launches ours and Triton's kernel at ANCHORS.md's softmax and layer norm
shapes, RMS norm, matmul 1024^3 and the
1M vector add, the shapes where the two are closest in bench/compare.py and
bench/matmul.py or where do_bench's rounds spread the most, so that Nsight
Compute can compare them counter by counter and by kernel time alone
(--only TEXT: the cases whose name contains TEXT). Run on the device after
bench/prepare_h200.sh (carry bench/bin):

  ncu --clock-control none --cache-control all --csv --page details \
      --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --section WarpStateStats --section SchedulerStats --section LaunchStats \
      --print-units base -k regex:'softmax_kernel|layer_norm|rms_norm|matmul_kernel|add_kernel' \
      python3 bench/experiments/profile_ncu.py > $OUT/ncu.csv
  python3 bench/experiments/profile_ncu.py --summary $OUT/ncu.csv

Each case launches ours LAUNCHES + 1 times, then Triton's (outputs are
checked by compare.py and matmul.py, not here). The summary drops the first
launch of each run (Triton's JIT compiles there) and prints the median
kernel time of ours and Triton's per case, then (without --brief) the
median of each metric in SUMMARY_METRICS.
"""

import argparse
import csv
import ctypes
import json
import os
import statistics
import sys

# Launches of each kernel per case (PROFILE_LAUNCHES overrides).
LAUNCHES = int(os.environ.get("PROFILE_LAUNCHES", "5"))
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
    from compare import (BIN, EPS, load_example, load_kernel, ptr,
                         softmax_grid, triton_layer_norm_fwd_fused,
                         triton_softmax_kernel)
    from matmul import run_ours, run_triton
    with open(os.path.join(BIN, "kernels.json")) as f:
        kernels = json.load(f)

    def pick(**want):
        for k in kernels:
            if all(k.get(key) == value for key, value in want.items()):
                return k
        sys.exit(f"no kernels.json entry {want}: run prepare_h200.sh")

    i32 = ctypes.c_int32
    # Softmax at ANCHORS.md's shapes, Triton's tutorial launch (the most
    # stages that fit, as compare.py gives it).
    for m, n in ((4096, 1024), (4096, 4096), (4096, 16384), (8192, 32768)):
        bs = triton.next_power_of_2(n)
        x = torch.rand(m, n, device="cuda") * 2 - 1
        y = torch.empty_like(x)
        k = pick(kind="softmax", block_size=bs, aligned=True,
                 name="tlec-cubin")
        dk = load_kernel(k)
        grid = softmax_grid(m, dk.attribute(4),
                            dk.attribute(1) + k["dynamic_shared_bytes"], 8)
        ours = dk.launcher(grid, [ptr(y), ptr(x), i32(n), i32(n), i32(m),
                                  i32(n)])
        for stages in (4, 3, 2, 1):
            try:
                ck = triton_softmax_kernel.warmup(
                    y, x, n, n, m, n, BLOCK_SIZE=bs, num_stages=stages,
                    num_warps=8, grid=(1,))
                ck._init_handles()
                break
            except Exception:  # out of shared memory: fewer stages
                continue
        t_grid = softmax_grid(m, ck.n_regs, ck.metadata.shared, 8)
        theirs = (lambda x=x, y=y, m=m, n=n, bs=bs, g=t_grid, s=stages:
                  triton_softmax_kernel[(g,)](y, x, n, n, m, n, BLOCK_SIZE=bs,
                                              num_stages=s, num_warps=8))
        yield f"softmax {m}x{n}", ours, theirs

    # Layer norm forward at ANCHORS.md's shapes.
    for m, n in ((4096, 1024), (4096, 4096), (4096, 8192)):
        bs = min(65536 // 2, triton.next_power_of_2(n))
        warps = min(max(bs // 256, 1), 8)
        x = (torch.rand(m, n, device="cuda") * 2 - 1).half()
        w = torch.rand(n, device="cuda").half()
        b = torch.rand(n, device="cuda").half()
        y = torch.empty_like(x)
        mean = torch.empty(m, device="cuda")
        rstd = torch.empty(m, device="cuda")
        k = pick(kind="layer_norm", block_size=bs, aligned=True,
                 name="tlec-cubin")
        ours = load_kernel(k).launcher(m, [ptr(x), ptr(y), ptr(w), ptr(b),
                                      ptr(mean), ptr(rstd), i32(n), i32(n),
                                      ctypes.c_float(EPS)])
        theirs = (lambda x=x, y=y, w=w, b=b, mean=mean, rstd=rstd, m=m, n=n,
                  bs=bs, warps=warps:
                  triton_layer_norm_fwd_fused[(m,)](
                      x, y, w, b, mean, rstd, n, n, EPS, BLOCK_SIZE=bs,
                      num_warps=warps, num_ctas=1))
        yield f"layer norm {m}x{n}", ours, theirs

    # RMS norm (examples/rms_norm.py).
    rms = load_example("rms_norm").rms_norm_kernel
    for m, n in ((4096, 1024), (4096, 4096), (4096, 8192)):
        bs = triton.next_power_of_2(n)
        warps = min(max(bs // 256, 1), 8)
        x = (torch.rand(m, n, device="cuda") * 2 - 1).half()
        w = torch.rand(n, device="cuda").half()
        y = torch.empty_like(x)
        rrms = torch.empty(m, device="cuda")
        theirs = (lambda x=x, y=y, w=w, rrms=rrms, m=m, n=n, bs=bs,
                  warps=warps: rms[(m,)](y, rrms, x, w, n, n, EPS,
                                         BLOCK_SIZE=bs, num_warps=warps))
        k = pick(kind="rms_norm", block_size=bs, name="tlec-cubin")
        ours = load_kernel(k).launcher(m, [ptr(y), ptr(rrms), ptr(x), ptr(w),
                                      i32(n), i32(n), ctypes.c_float(EPS)])
        yield f"rms norm {m}x{n}", ours, theirs

    # Matmul 1024^3, both tiles, fp16 and bf16.
    fn = load_example("matmul").matmul_kernel.fn
    for dname, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        a = torch.randn(1024, 1024, device="cuda", dtype=dtype)
        b = torch.randn(1024, 1024, device="cuda", dtype=dtype)
        c = torch.empty(1024, 1024, device="cuda", dtype=dtype)
        for warps in (4, 8):
            # The compiler's binary, then any prepare_ptx_variants.py variant.
            for k in kernels:
                if (k.get("kind") != "matmul" or k["dtype"] != dname or
                        k["num_warps"] != warps or not k["aligned"] or
                        k["num_stages"] != 3 or
                        k.get("variant", "") not in ("", "llc", "llc-fence")):
                    continue
                variant = k.get("variant", "")
                yield (f"matmul {dname} 1024^3 w{warps}" +
                       (f" ({variant})" if variant else ""),
                       run_ours(load_kernel(k), k, a, b, c, 1024, 1024, 1024),
                       run_triton(fn, k, a, b, c, 1024, 1024, 1024))

    # Vector add of 2^20 elements (aligned variant, as Triton's JIT picks).
    n = 2**20
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    k = pick(kind=None, aligned=True, name="tlec-cubin")  # add: no kind
    add = load_example("vector_add").add_kernel
    yield ("add 1M",
           load_kernel(k).launcher(triton.cdiv(n, k["elements_per_block"]),
                              [ptr(x), ptr(y), ptr(out), i32(n)]),
           lambda: add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024))


def launch_all(only):
    import torch
    order = []
    for name, ours, theirs in cases():
        if only and only not in name:
            continue
        for who, fn in (("ours", ours), ("triton", theirs)):
            for _ in range(LAUNCHES + 1):
                fn()
                order.append(f"{name}|{who}")
            torch.cuda.synchronize()
    with open(os.environ.get("PROFILE_ORDER", "/tmp/profile_order.json"),
              "w") as f:
        json.dump(order, f)


def summary(path, order_path, brief):
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

    def median(case, who, metric):
        got = [values[(i, metric)] for i in by_case.get(f"{case}|{who}", [])[1:]
               if (i, metric) in values]
        return (statistics.median(v for v, _ in got), got[0][1]) if got \
            else None

    print("| case | ours (ns) | Triton (ns) | Triton/ours (>1: ours faster) |")
    print("| --- | --- | --- | --- |")
    for case in cases_seen:
        o, t = median(case, "ours", "Duration"), median(case, "triton",
                                                         "Duration")
        if o and t:
            print(f"| {case} | {o[0]:.0f} | {t[0]:.0f} | {t[0] / o[0]:.3f} |")
    if brief:
        return
    for case in cases_seen:
        print(f"## {case}")
        print("| metric | ours | Triton | ours/Triton |")
        print("| --- | --- | --- | --- |")
        for metric in SUMMARY_METRICS:
            med = {who: median(case, who, metric) for who in ("ours", "triton")}
            if not (med["ours"] and med["triton"]):
                continue
            (o, unit), (t, _) = med["ours"], med["triton"]
            ratio = f"{o / t:.3f}" if t else "-"
            print(f"| {metric} ({unit}) | {o:g} | {t:g} | {ratio} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summary", metavar="NCU_CSV")
    parser.add_argument("--only", metavar="TEXT",
                        help="launch only the cases whose name contains TEXT")
    parser.add_argument("--brief", action="store_true",
                        help="with --summary: kernel times only")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary,
                os.environ.get("PROFILE_ORDER", "/tmp/profile_order.json"),
                args.brief)
    else:
        launch_all(args.only)


if __name__ == "__main__":
    main()
