"""Check and time the TLE-Lite/TLE-Struct examples on one NVIDIA GPU, in one
run (issue 12).

Run ON the device machine after bench/prepare_lite_h200.sh filled
bench/bin/lite here (carry bench/bin):
    python3 bench/lite_h200.py

1. Expert counting (examples/moe_align_block_size.py): ours is
   moe_align_block_size_kernel compiled by tlec (block-local tle.gpu.alloc
   counters with local_ptr atomics, merged across programs with global
   atomics, tle.cumsum for the padded offsets); the comparison is
   moe_align_block_size_plain_kernel, the same counting in plain Triton
   (tl.histogram, tl.cumsum), compiled by Triton here with the same
   BLOCK_TOKENS and num_warps. 8/64/256 experts x 4K/64K tokens. Both are
   checked against torch.bincount and a per-program reference.
2. Radix-select top-k over rows (examples/topk_radix.py): ours is
   topk_radix_kernel compiled by tlec (8-bit digits, block-local histogram);
   compared with torch.topk (sorted=False) and with topk_radix_plain_kernel
   compiled by Triton. 64 rows of 4K..128K floats, K = 256 and 2048. Values
   are checked against torch.topk (sorted), indices by gathering x.
   The multi-program version (topk_radix_split_hist_kernel once per 8-bit
   pass, then topk_radix_split_gather_kernel; each program takes a split of
   TOPK_SPLIT columns, histograms merged with global atomics) is timed the
   same way, including the zeroing of its histogram and counters.
3. Pipelined copy/reduce over rows (examples/pipelined_reduce.py): ours is
   pipelined_row_sum_kernel compiled by tlec (a TLE-Lite pipe of DEPTH slots
   lowered to a shared-memory ring with block barriers, the producer DEPTH
   - 1 chunks of 1024 ahead of the consumer), DEPTH 1, 2 and 3, and
   ws_row_sum_kernel (examples/warp_specialized_reduce.py, "depth" ws: a
   producer warp beside 4 consumer warps, two buffers, mbarriers),
   ws_pipe_row_sum_kernel ("ws-pipe D": a TLE-Lite pipe between a producer
   and a consumer partition) and struct_row_sum_kernel ("struct copy": one
   buffer filled by tle.gpu.copy tracked by a barrier); compared with
   row_sum_plain_kernel (the same loop in plain Triton) compiled by Triton
   with the same chunk and num_warps. 4096 rows of 4K/16K/64K floats. The
   copy must equal x exactly; the row sums are checked against torch's
   float64 sums (relative 1e-4).
4. Sub-tile RMS norm (examples/subtile_norm.py): 64 x 128 tiles, 16 rows at
   a time through tle.extract_tile/insert_tile, 1000 (ragged) and 65536
   rows, checked against a float64 reference (1e-5) and timed beside
   torch's expression.

All times are triton.testing.do_bench medians (CUDA events, L2 cleared
before each launch); ours are launched through the driver on PyTorch's
stream (compare.DriverKernel), as in bench/compare.py. The ratio columns
are (their time / our time): above 1 means ours is faster.
"""

import ctypes
import importlib.util
import json
import os
import sys
import types

import torch
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import DriverKernel, ptr  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LITE = os.path.join(ROOT, "bench", "bin", "lite")
MOE_EXPERTS = [8, 64, 256]
MOE_TOKENS = [4096, 65536]
TOPK_ROWS = 64
TOPK_COLS = [4096, 16384, 65536, 131072]
TOPK_K = [256, 2048]
TOPK_SPLIT = 8192
PIPE_ROWS = 4096
PIPE_COLS = [4096, 16384, 65536]
SUBTILE_ROWS = [1000, 65536]


def load_example(name):
    """Imports examples/NAME.py. Upstream Triton has no
    triton.experimental.tle: a stand-in module lets the file import (Triton
    only compiles the plain kernels, which do not use it)."""
    try:
        import triton.experimental.tle  # noqa: F401
    except ImportError:
        try:
            import triton.experimental as experimental
        except ImportError:
            experimental = types.ModuleType("triton.experimental")
            sys.modules["triton.experimental"] = experimental
            triton.experimental = experimental
        stub = types.ModuleType("triton.experimental.tle")
        stub.gpu = types.SimpleNamespace()
        sys.modules["triton.experimental.tle"] = stub
        experimental.tle = stub
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(ROOT, "examples", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench(fn):
    return triton.testing.do_bench(fn, return_mode="median")


def i32(v):
    return ctypes.c_int32(v)


def moe_reference(ids, experts, block_tokens, block_size):
    programs = triton.cdiv(ids.numel(), block_tokens)
    padded = torch.zeros(programs * block_tokens, dtype=torch.int64,
                         device=ids.device)
    padded[:ids.numel()] = ids.long()
    valid = torch.zeros_like(padded, dtype=torch.bool)
    valid[:ids.numel()] = True
    per = torch.zeros(programs, experts, dtype=torch.int64, device=ids.device)
    rows = torch.arange(programs, device=ids.device).repeat_interleave(
        block_tokens)
    per.index_put_((rows[valid], padded[valid]),
                   torch.ones_like(rows[valid]), accumulate=True)
    pad = (per + block_size - 1) // block_size * block_size
    offsets = torch.cumsum(pad, dim=1) - pad
    return (torch.bincount(ids.long(), minlength=experts).int(),
            offsets.int().flatten(), pad.sum(dim=1).int())


def moe(kernels, example):
    rows = []
    for k in (k for k in kernels if k["kind"] == "moe"):
        e, bt, bs = k["experts"], k["block_tokens"], k["block_size"]
        dk = DriverKernel(os.path.join(LITE, k["file"]), k["entry"],
                          k["num_warps"],
                          k.get("dynamic_shared_bytes", 0))
        for n in MOE_TOKENS:
            ids = torch.randint(0, e, (n, ), device="cuda", dtype=torch.int32)
            programs = triton.cdiv(n, bt)
            ref = moe_reference(ids, e, bt, bs)

            def outputs():
                return (torch.zeros(e, device="cuda", dtype=torch.int32),
                        torch.full((programs * e, ), -1, device="cuda",
                                   dtype=torch.int32),
                        torch.full((programs, ), -1, device="cuda",
                                   dtype=torch.int32))

            def check(outs):
                return all(torch.equal(o, r) for o, r in zip(outs, ref))

            ours_out = outputs()
            launch = dk.launcher(programs, [ptr(ids)] +
                                 [ptr(o) for o in ours_out] + [i32(n)])
            launch()
            torch.cuda.synchronize()
            ours_ok = check(ours_out)
            ours_ms = bench(launch)

            plain_out = outputs()

            def plain():
                example.moe_align_block_size_plain_kernel[(programs, )](
                    ids, *plain_out, n, NUM_EXPERTS=e, BLOCK_SIZE=bs,
                    BLOCK_TOKENS=bt, num_warps=k["num_warps"])
            plain()
            torch.cuda.synchronize()
            plain_ok = check(plain_out)
            plain_ms = bench(plain)
            rows.append((e, n, ours_ok, plain_ok, ours_ms, plain_ms))
            print(f"moe experts={e} tokens={n}: ours {ours_ms * 1e3:.1f} us "
                  f"({'ok' if ours_ok else 'WRONG'}), plain Triton "
                  f"{plain_ms * 1e3:.1f} us ({'ok' if plain_ok else 'WRONG'})",
                  flush=True)
    return rows


def topk(kernels, example):
    rows = []
    for k in (k for k in kernels if k["kind"] == "topk"):
        dk = DriverKernel(os.path.join(LITE, k["file"]), k["entry"],
                          k["num_warps"],
                          k.get("dynamic_shared_bytes", 0))
        for n in TOPK_COLS:
            for kk in (kk for kk in TOPK_K if kk <= n):
                x = torch.randn(TOPK_ROWS, n, device="cuda")
                ref = torch.topk(x, kk, dim=1).values

                def check(vals, idx):
                    # An index out of range would fault in gather and take
                    # the CUDA context (and the rest of the run) with it.
                    if bool(((idx < 0) | (idx >= n)).any()):
                        return False
                    got = vals.sort(dim=1, descending=True).values
                    gathered = torch.gather(x, 1, idx.long())
                    return (torch.equal(got, ref)
                            and torch.equal(gathered, vals))

                vals = torch.full((TOPK_ROWS, kk), float("nan"), device="cuda")
                idx = torch.full((TOPK_ROWS, kk), -1, device="cuda",
                                 dtype=torch.int32)
                launch = dk.launcher(TOPK_ROWS, [ptr(x), ptr(vals), ptr(idx),
                                                 i32(n), i32(kk)])
                launch()
                torch.cuda.synchronize()
                ours_ok = check(vals, idx)
                ours_ms = bench(launch)

                pvals = torch.full_like(vals, float("nan"))
                pidx = torch.full_like(idx, -1)

                def plain():
                    example.topk_radix_plain_kernel[(TOPK_ROWS, )](
                        x, pvals, pidx, n, kk, BLOCK=k["block"],
                        RADIX_BITS=k["radix_bits"], num_warps=k["num_warps"])
                plain()
                torch.cuda.synchronize()
                plain_ok = check(pvals, pidx)
                plain_ms = bench(plain)
                torch_ms = bench(lambda: torch.topk(x, kk, dim=1,
                                                    sorted=False))
                rows.append((k["num_warps"], n, kk, ours_ok, plain_ok,
                             ours_ms, plain_ms, torch_ms))
                print(f"topk w{k['num_warps']} {TOPK_ROWS}x{n} k={kk}: ours "
                      f"{ours_ms * 1e3:.1f} us ({'ok' if ours_ok else 'WRONG'})"
                      f", plain Triton {plain_ms * 1e3:.1f} us "
                      f"({'ok' if plain_ok else 'WRONG'}), torch.topk "
                      f"{torch_ms * 1e3:.1f} us", flush=True)
    return rows


def topk_split(kernels):
    """Top-k with several programs per row: 32 / RADIX_BITS histogram
    launches, then the gather; returns rows of the table."""
    hk = next((k for k in kernels if k["kind"] == "topk_split_hist"), None)
    gk = next((k for k in kernels if k["kind"] == "topk_split_gather"), None)
    if hk is None or gk is None:
        return []
    hist_dk = DriverKernel(os.path.join(LITE, hk["file"]), hk["entry"],
                           hk["num_warps"], hk.get("dynamic_shared_bytes", 0))
    gather_dk = DriverKernel(os.path.join(LITE, gk["file"]), gk["entry"],
                             gk["num_warps"], gk.get("dynamic_shared_bytes", 0))
    bits = hk["radix_bits"]
    passes, bins = 32 // bits, 1 << bits
    rows = []
    for n in TOPK_COLS:
        for kk in (kk for kk in TOPK_K if kk <= n):
            x = torch.randn(TOPK_ROWS, n, device="cuda")
            ref = torch.topk(x, kk, dim=1).values
            splits = triton.cdiv(n, TOPK_SPLIT)
            grid = (TOPK_ROWS, splits)
            hist = torch.zeros(TOPK_ROWS * passes * bins, device="cuda",
                               dtype=torch.int32)
            counts = torch.zeros(TOPK_ROWS * 2, device="cuda",
                                 dtype=torch.int32)
            vals = torch.full((TOPK_ROWS, kk), float("nan"), device="cuda")
            idx = torch.full((TOPK_ROWS, kk), -1, device="cuda",
                             dtype=torch.int32)
            launches = [hist_dk.launcher(grid, [ptr(x), ptr(hist), i32(n),
                                                i32(kk), i32(TOPK_SPLIT),
                                                i32(p)])
                        for p in range(passes)]
            launches.append(gather_dk.launcher(
                grid, [ptr(x), ptr(hist), ptr(counts), ptr(vals), ptr(idx),
                       i32(n), i32(kk), i32(TOPK_SPLIT)]))

            def run():
                hist.zero_()
                counts.zero_()
                for launch in launches:
                    launch()
            run()
            torch.cuda.synchronize()
            ok = (not bool(((idx < 0) | (idx >= n)).any())
                  and torch.equal(vals.sort(dim=1, descending=True).values,
                                  ref)
                  and torch.equal(torch.gather(x, 1, idx.long()), vals)
                  and all(torch.unique(r).numel() == kk for r in idx))
            ms = bench(run)
            torch_ms = bench(lambda: torch.topk(x, kk, dim=1, sorted=False))
            rows.append((n, kk, splits, ok, ms, torch_ms))
            print(f"topk split {TOPK_ROWS}x{n} k={kk} ({splits} splits): "
                  f"ours {ms * 1e3:.1f} us ({'ok' if ok else 'WRONG'}), "
                  f"torch.topk {torch_ms * 1e3:.1f} us", flush=True)
    return rows


def pipe(kernels, example):
    rows = []
    for n in PIPE_COLS:
        # Ours is compiled with n_cols promised divisible by 16 (i32:16).
        assert n % 16 == 0, n
        x = torch.randn(PIPE_ROWS, n, device="cuda")
        ref = x.double().sum(dim=1)

        def check(y, sums):
            return (torch.equal(y, x) and torch.allclose(
                sums.double(), ref, rtol=1e-4, atol=1e-3))

        gbytes = 2 * x.numel() * 4 / 1e9
        for k in (k for k in kernels if k["kind"] == "pipe"):
            dk = DriverKernel(os.path.join(LITE, k["file"]), k["entry"],
                              k["num_warps"],
                              k.get("dynamic_shared_bytes", 0))
            y = torch.full_like(x, float("nan"))
            sums = torch.full((PIPE_ROWS, ), float("nan"), device="cuda")
            launch = dk.launcher(PIPE_ROWS, [ptr(x), ptr(y), ptr(sums),
                                             i32(n)])
            launch()
            torch.cuda.synchronize()
            ok = check(y, sums)
            ms = bench(launch)
            rows.append(("ours", k["depth"], n, ok, ms, gbytes / ms * 1e3))
            print(f"pipe ours depth={k['depth']} {PIPE_ROWS}x{n}: "
                  f"{ms * 1e3:.1f} us ({'ok' if ok else 'WRONG'})", flush=True)
        block = next(k["block"] for k in kernels if k["kind"] == "pipe")
        y = torch.full_like(x, float("nan"))
        sums = torch.full((PIPE_ROWS, ), float("nan"), device="cuda")

        def plain():
            example.row_sum_plain_kernel[(PIPE_ROWS, )](
                x, y, sums, n, BLOCK=block, num_warps=4)
        plain()
        torch.cuda.synchronize()
        ok = check(y, sums)
        ms = bench(plain)
        rows.append(("plain Triton", "-", n, ok, ms, gbytes / ms * 1e3))
        print(f"pipe plain Triton {PIPE_ROWS}x{n}: {ms * 1e3:.1f} us "
              f"({'ok' if ok else 'WRONG'})", flush=True)
        copy_ms = bench(lambda: y.copy_(x))
        rows.append(("torch copy_ (no sum)", "-", n, True, copy_ms,
                     gbytes / copy_ms * 1e3))
    return rows


def subtile(kernels):
    """examples/subtile_norm.py: row RMS norm of 64 x 128 tiles, 16 rows at a
    time through tle.extract_tile/insert_tile; against torch's expression
    (float64 reference), and timed beside it."""
    rows_out = []
    for k in (k for k in kernels if k["kind"] == "subtile"):
        dk = DriverKernel(os.path.join(LITE, k["file"]), k["entry"],
                          k["num_warps"], k.get("dynamic_shared_bytes", 0))
        for rows in SUBTILE_ROWS:
            x = torch.randn(rows, k["n"], device="cuda")
            y = torch.full_like(x, float("nan"))
            eps = 1e-6
            launch = dk.launcher(triton.cdiv(rows, k["block_m"]),
                                 [ptr(x), ptr(y), i32(rows),
                                  ctypes.c_float(eps)])
            launch()
            torch.cuda.synchronize()
            xd = x.double()
            ref = xd / torch.sqrt((xd * xd).mean(dim=1, keepdim=True) + eps)
            ok = torch.allclose(y.double(), ref, rtol=1e-5, atol=1e-5)
            ms = bench(launch)
            torch_ms = bench(lambda: x / torch.sqrt(
                (x * x).mean(dim=1, keepdim=True) + eps))
            rows_out.append((rows, k["n"], ok, ms, torch_ms))
            print(f"subtile ours {rows}x{k['n']}: {ms * 1e3:.1f} us "
                  f"({'ok' if ok else 'WRONG'}), torch {torch_ms * 1e3:.1f} us",
                  flush=True)
    return rows_out


def main():
    with open(os.path.join(LITE, "kernels.json")) as f:
        kernels = json.load(f)
    print(torch.cuda.get_device_name(), "triton", triton.__version__,
          "torch", torch.__version__)
    for k in kernels:
        print(f"{k['file']}: {k['origin']}")
    moe_rows = moe(kernels, load_example("moe_align_block_size"))
    topk_rows = topk(kernels, load_example("topk_radix"))
    split_rows = topk_split(kernels)
    pipe_rows = pipe(kernels, load_example("pipelined_reduce"))
    subtile_rows = subtile(kernels)

    print("\n## Expert counting: ours (TLE, tlec) vs plain Triton "
          "(tl.histogram), BLOCK_TOKENS=1024, 4 warps")
    print("| experts | tokens | ours us | plain Triton us | Triton/ours "
          "| checks |")
    print("| --- | --- | --- | --- | --- | --- |")
    for e, n, ok, pok, ms, pms in moe_rows:
        print(f"| {e} | {n} | {ms * 1e3:.1f} | {pms * 1e3:.1f} | "
              f"{pms / ms:.2f} | ours {'ok' if ok else 'WRONG'}, Triton "
              f"{'ok' if pok else 'WRONG'} |")
    print(f"\n## Radix-select top-k, {TOPK_ROWS} rows: ours (TLE, tlec) vs "
          "torch.topk(sorted=False) and the plain Triton version")
    print("| warps | row length | K | ours us | torch.topk us | torch/ours "
          "| plain Triton us | Triton/ours | checks |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for w, n, kk, ok, pok, ms, pms, tms in topk_rows:
        print(f"| {w} | {n} | {kk} | {ms * 1e3:.1f} | {tms * 1e3:.1f} | "
              f"{tms / ms:.2f} | {pms * 1e3:.1f} | {pms / ms:.2f} | ours "
              f"{'ok' if ok else 'WRONG'}, Triton {'ok' if pok else 'WRONG'} |")
    print(f"\n## Radix-select top-k, {TOPK_ROWS} rows, several programs "
          f"per row ({TOPK_SPLIT} columns each; {32 // 8} histogram launches "
          "+ gather, zeroing included) vs torch.topk(sorted=False); the last "
          "column is the one-program-per-row kernel (4 warps) from the table "
          "above")
    print("| row length | K | splits | ours us | torch.topk us | torch/ours "
          "| one program per row, torch/ours | check |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    single = {(n, kk): tms / ms for w, n, kk, _, _, ms, _, tms in topk_rows
              if w == 4}
    for n, kk, splits, ok, ms, tms in split_rows:
        one = single.get((n, kk))
        print(f"| {n} | {kk} | {splits} | {ms * 1e3:.1f} | {tms * 1e3:.1f} "
              f"| {tms / ms:.2f} | {'-' if one is None else f'{one:.2f}'} | "
              f"{'ok' if ok else 'WRONG'} |")
    print(f"\n## Pipelined copy/reduce, {PIPE_ROWS} rows, 1024-wide chunks, "
          "4 warps: ours (TLE pipe, tlec) vs plain Triton; GB/s counts x "
          "read once and y written once")
    print("| kernel | depth | row length | us | GB/s | plain Triton us / "
          "this us | check |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    plain_ms = {n: ms for who, _, n, _, ms, _ in pipe_rows
                if who == "plain Triton"}
    for who, depth, n, ok, ms, gbs in pipe_rows:
        print(f"| {who} | {depth} | {n} | {ms * 1e3:.1f} | {gbs:.0f} | "
              f"{plain_ms[n] / ms:.2f} | {'ok' if ok else 'WRONG'} |")
    print("\n## Sub-tile RMS norm (tle.extract_tile/insert_tile, 64 x 128 "
          "tiles, 16 rows at a time, 4 warps) vs torch's expression")
    print("| rows | N | ours us | torch us | torch/ours | check |")
    print("| --- | --- | --- | --- | --- | --- |")
    for rows, n, ok, ms, tms in subtile_rows:
        print(f"| {rows} | {n} | {ms * 1e3:.1f} | {tms * 1e3:.1f} | "
              f"{tms / ms:.2f} | {'ok' if ok else 'WRONG'} |")
    bad = [r for r in moe_rows if not (r[2] and r[3])] + \
        [r for r in topk_rows if not (r[3] and r[4])] + \
        [r for r in pipe_rows if not r[3]] + \
        [r for r in split_rows if not r[3]] + \
        [r for r in subtile_rows if not r[2]]
    if bad:
        print(f"\n{len(bad)} configurations gave WRONG results")
        sys.exit(1)


if __name__ == "__main__":
    main()
