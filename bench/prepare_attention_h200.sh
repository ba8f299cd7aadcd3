#!/usr/bin/env bash
# Run HERE after bench/prepare_h200.sh: compiles the forward kernel of
# Triton's fused-attention tutorial (tests/lit/frontend/Inputs/
# fused_attention.py, unchanged; tensor descriptors made in the kernel) for
# the H200, causal (STAGE=3) and not (STAGE=1), into bench/bin/kernels and
# bench/bin/attention.json, for bench/attention.py on the device.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
K="$ROOT/bench/bin/kernels"
mkdir -p "$K"
entries=()
for stage in 1 3; do
  d="$K/attn-$stage"
  "$BUILD/bin/tlec" "$ROOT/tests/lit/frontend/Inputs/fused_attention.py" \
    --kernel _attn_fwd --target h200 --num-warps 8 --num-stages 3 \
    -D HEAD_DIM=64 -D FP8_OUTPUT=False -D STAGE=$stage -D warp_specialize=False \
    -D IS_HOPPER=True -D BLOCK_M=128 -D BLOCK_N=64 \
    --signature 'fp32, *fp32, i32, i32:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16' \
    -o "$d"
  mv "$d"/_attn_fwd/_attn_fwd.*.cubin "$K/attn_fwd.stage$stage.h200.cubin"
  shared=$(python3 "$ROOT/bench/dynamic_shared.py" "$d/_attn_fwd/manifest.json")
  entries+=("{\"stage\": $stage, \"file\": \"attn_fwd.stage$stage.h200.cubin\", \"entry\": \"_attn_fwd\", \"num_warps\": 8, \"num_stages\": 3, \"block_m\": 128, \"block_n\": 64, \"head_dim\": 64, \"dynamic_shared_bytes\": $shared}")
  rm -rf "$d"
done
echo "[$(IFS=,; echo "${entries[*]}")]" > "$ROOT/bench/bin/attention.json"
cat "$ROOT/bench/bin/attention.json"
