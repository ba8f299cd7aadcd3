"""Writes a candidate bundle index (no binaries) of matmul configs with the
H200's facts, for tle-tune's synthetic measurer in lit tests."""
import itertools
import json
import os
import sys

out = sys.argv[1]
axes = [("BLOCK_SIZE_M", [32, 64, 128]), ("BLOCK_SIZE_N", [32, 64, 128, 256]),
        ("BLOCK_SIZE_K", [32, 64]), ("GROUP_SIZE_M", [1, 8]),
        ("num_warps", [4, 8]), ("num_stages", [3])]
cands = []
for vals in itertools.product(*[v for _, v in axes]):
    cfg = dict(zip([n for n, _ in axes], vals))
    key = ",".join(f"{n}={cfg[n]}" for n, _ in axes)
    cands.append({"config": key, "status": "ok", "file": "none.cubin",
                  "entry": "matmul_kernel", "hash": "", "threads": 32 * cfg["num_warps"]})
index = {
    "format": "tle-tune-candidates", "version": 1, "kernel": "matmul_kernel",
    "device": {"name": "H200", "processor_count": 132, "warp_size": 32,
               "max_threads_per_block": 1024, "max_blocks_per_processor": 32,
               "max_warps_per_processor": 64, "registers_per_thread": 255,
               "registers_per_block": 65536, "registers_per_processor": 65536,
               "shared_per_block_optin": 232448, "shared_per_processor": 233472,
               "peak_matrix_flops": 989.4e12, "memory_bandwidth": 4.8e12},
    "model": {"kind": "matmul", "block_m": "BLOCK_SIZE_M", "block_n": "BLOCK_SIZE_N",
              "block_k": "BLOCK_SIZE_K", "group_m": "GROUP_SIZE_M", "element_bytes": 2},
    "launch": {"shape_names": ["M", "N", "K"],
               "buffers": [{"name": "a", "bytes": "M*K*2", "fill": "fp16"},
                           {"name": "b", "bytes": "K*N*2", "fill": "fp16"},
                           {"name": "c", "bytes": "M*N*2", "fill": "zero"}],
               "args": ["a", "b", "c", "i32:M", "i32:N", "i32:K", "i32:K", "i32:N", "i32:N"],
               "grid": ["cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)", "1", "1"],
               "flops": "2*M*N*K", "bytes": "(M*K + K*N + M*N)*2", "reference": ""},
    "axes": [{"name": n, "values": v} for n, v in axes],
    "candidates": cands,
}
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "index.json"), "w") as f:
    json.dump(index, f, indent=1)
print(f"{len(cands)} candidates")
