#!/usr/bin/env bash
# Run HERE after bench/prepare_h200.sh: adds matmul entries to
# bench/bin/kernels.json that separate what the code is from how it is
# built and launched, for bench/matmul.py to time beside ours and Triton:
#   - Triton's own PTX of the same kernel, assembled by CUDA 13's ptxas and
#     by the ptxas Triton bundles (12.8), launched by our harness (two null
#     pointers for Triton's scratch arguments): harness parity and ptxas,
#   - our PTX assembled by Triton's ptxas,
#   - our cubin launched with enough dynamic shared memory that only two
#     blocks fit on an SM (occupancy and wave quantization).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
K="$ROOT/bench/bin/kernels"
PTXAS13=${PTXAS:-/usr/local/cuda/bin/ptxas}
PTXAS_TRITON="$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))')"
entries=()
add() { # file dtype bk warps dynamic_shared variant extra_null_args
  entries+=("{\"name\": \"experiment\", \"file\": \"$1\", \"entry\": \"matmul_kernel\", \"kind\": \"matmul\", \"dtype\": \"$2\", \"bm\": 128, \"bn\": 128, \"bk\": $3, \"gm\": 8, \"num_warps\": $4, \"aligned\": true, \"num_stages\": 3, \"dynamic_shared_bytes\": $5, \"variant\": \"$6\", \"extra_null_args\": $7, \"origin\": \"bench/experiments: $6\"}")
}
for dt in fp16 bf16; do
  for cfg in "32 4" "64 8"; do
    set -- $cfg
    bk=$1 w=$2 base="$K/exp.$dt.$bk.w$w"
    shared=$(python3 "$ROOT/bench/experiments/triton_ptx.py" matmul "$dt" "$bk" "$w" "$base.triton.ptx")
    "$PTXAS13" -arch=sm_90a "$base.triton.ptx" -o "$base.triton.p13.cubin"
    "$PTXAS_TRITON" -arch=sm_90a "$base.triton.ptx" -o "$base.triton.p128.cubin"
    add "$(basename "$base").triton.p13.cubin" "$dt" "$bk" "$w" "$shared" "Triton's PTX, ptxas 13.0" 2
    add "$(basename "$base").triton.p128.cubin" "$dt" "$bk" "$w" "$shared" "Triton's PTX, ptxas 12.8" 2
    "$BUILD/bin/tlec" "$ROOT/examples/matmul.py" --kernel matmul_kernel \
      --target h200 --num-warps "$w" --num-stages 3 -D BLOCK_SIZE_M=128 \
      -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K="$bk" -D GROUP_SIZE_M=8 \
      -D ACTIVATION=none -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 \
      --signature "*$dt:16, *$dt:16, *$dt:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16" \
      --emit=asm -o "$base.ours.ptx"
    "$PTXAS_TRITON" -arch=sm_90a "$base.ours.ptx" -o "$base.ours.p128.cubin"
    ours=$(python3 -c 'import json,sys; print([k for k in json.load(open(sys.argv[1])) if k.get("kind") == "matmul" and k["dtype"] == sys.argv[2] and k["bk"] == int(sys.argv[3]) and k["num_warps"] == int(sys.argv[4]) and k["aligned"] and k["num_stages"] == 3 and not k.get("variant")][0]["dynamic_shared_bytes"])' "$ROOT/bench/bin/kernels.json" "$dt" "$bk" "$w")
    add "$(basename "$base").ours.p128.cubin" "$dt" "$bk" "$w" "$ours" "our PTX, ptxas 12.8" 0
    if [ "$w" = 4 ]; then
      f=$(python3 -c 'import json,sys; print([k for k in json.load(open(sys.argv[1])) if k.get("kind") == "matmul" and k["dtype"] == sys.argv[2] and k["bk"] == 32 and k["num_warps"] == 4 and k["aligned"] and k["num_stages"] == 3 and not k.get("variant")][0]["file"])' "$ROOT/bench/bin/kernels.json" "$dt")
      add "$f" "$dt" "$bk" "$w" 102400 "ours, 100 KiB shared: 2 blocks/SM" 0
    fi
  done
done
python3 - "$ROOT/bench/bin/kernels.json" "[$(IFS=,; echo "${entries[*]}")]" <<'PY'
import json, sys
kernels = json.load(open(sys.argv[1])) + json.loads(sys.argv[2])
json.dump(kernels, open(sys.argv[1], "w"), indent=1)
print(len(kernels), "entries")
PY
