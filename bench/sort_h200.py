"""Check and time tl.sort over rows on one NVIDIA GPU: ours (tlec, from
bench/prepare_sort_h200.sh) against Triton's compile of the same source
(bench/sort_kernels.py), 4096 rows of 256, 1024 and 4096 fp32, 4 warps, one
row per program.

Run ON the device machine, carrying bench/bin:
    python3 bench/sort_h200.py
Each output must equal torch.sort's exactly. Ours are launched through the
driver on PyTorch's stream (compare.DriverKernel) and both are timed in
alternating do_bench rounds (compare.time_interleaved); the ratio is
Triton's time over ours (above 1: ours is faster). A "variant" row (compiled
with CORE=DIR) is timed the same way, against Triton too."""
import importlib.util
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402

ROWS = 4096


def main():
    spec = importlib.util.spec_from_file_location(
        "sort_kernels", os.path.join(HERE, "sort_kernels.py"))
    kernels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernels)
    binaries = os.path.join(compare.BIN, "sort")
    with open(os.path.join(binaries, "kernels.json")) as f:
        entries = json.load(f)
    print(f"GPU: {torch.cuda.get_device_name()}")
    rows, failed = [], False
    for e in entries:
        n = e["n"]
        x = torch.randn(ROWS, n, device="cuda")
        ref = torch.sort(x, dim=1).values
        ours_y = torch.full_like(x, float("nan"))
        theirs_y = torch.full_like(x, float("nan"))
        ours = compare.DriverKernel(os.path.join(binaries, e["file"]),
                                    "row_sort_kernel", e["num_warps"],
                                    e["dynamic_shared_bytes"])
        launch = ours.launcher(ROWS, [compare.ptr(x), compare.ptr(ours_y)])

        def triton_launch():
            kernels.row_sort_kernel[(ROWS,)](x, theirs_y, N=n, DESCENDING=0,
                                             num_warps=e["num_warps"])
        launch()
        triton_launch()
        torch.cuda.synchronize()
        ok = torch.equal(ours_y, ref) and torch.equal(theirs_y, ref)
        failed |= not ok
        ours_ms, theirs_ms, note = compare.time_interleaved(launch,
                                                            triton_launch)
        rows.append(f"| {e['name']:7} | {ROWS}x{n:<5} | "
                    f"{'ok' if ok else 'WRONG'} | {ours_ms * 1e3:8.1f} | "
                    f"{theirs_ms * 1e3:8.1f} | {theirs_ms / ours_ms:5.3f} | "
                    f"{note} |")
    print("| kernel  | rows       | check | ours us  | Triton us | ours/Triton | notes |")
    print("| ------- | ---------- | ----- | -------- | --------- | ----------- | ----- |")
    print("\n".join(rows))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
