#!/usr/bin/env bash
# Run HERE (bench/prepare_h200.sh runs it): compiles the forward kernel of
# Triton's fused-attention tutorial (tests/lit/frontend/Inputs/
# fused_attention.py, unchanged; tensor descriptors made in the kernel) for
# the H200, causal (STAGE=3) and not (STAGE=1), HEAD_DIM 64 and 128, and
# the full one without tensor copies (--disable-opt=tensor-copies), and
# fp16 with Q, K, V and O through host descriptors as the tutorial launches
# it on Hopper (tensordesc arguments: the launcher builds the maps), into
# bench/bin/kernels and bench/bin/attention.json, for bench/attention.py on
# the device.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
K="$ROOT/bench/bin/kernels"
mkdir -p "$K"
entries=()
attn_one() { # head_dim stage [disabled-opt] [fp8|host]
  local dim=$1 stage=$2 off="${3:-}" fp8="" host=""
  [ "${4:-}" = fp8 ] && fp8=1
  [ "${4:-}" = host ] && host=1
  local d="$K/attn-$dim-$stage${off:+-$off}${fp8:+-fp8}${host:+-host}"
  local f="attn_fwd.d$dim.stage$stage${off:+.no-$off}${fp8:+.fp8}${host:+.host}.h200.cubin"
  local t=fp16 fp8out=False dtype=fp16
  if [ -n "$fp8" ]; then t=fp8e5 fp8out=True dtype=fp8; fi
  local q="*$t:16" kv="*$t:16"
  if [ -n "$host" ]; then
    q="tensordesc<$t[128, $dim]>" kv="tensordesc<$t[64, $dim]>"
  fi
  "$BUILD/bin/tlec" "$ROOT/tests/lit/frontend/Inputs/fused_attention.py" \
    --kernel _attn_fwd --target h200 --num-warps 8 --num-stages 3 \
    -D HEAD_DIM=$dim -D FP8_OUTPUT=$fp8out -D STAGE=$stage \
    -D warp_specialize=False -D IS_HOPPER=True -D BLOCK_M=128 -D BLOCK_N=64 \
    --signature "fp32, *fp32, i32, i32:16, $q, $kv, $kv, $q, i32:16" \
    ${off:+--disable-opt=$off} -o "$d"
  mv "$d"/_attn_fwd/_attn_fwd.*.cubin "$K/$f"
  local shared scratch
  shared=$(python3 "$ROOT/bench/dynamic_shared.py" "$d/_attn_fwd/manifest.json")
  scratch=$(python3 "$ROOT/bench/global_scratch.py" "$d/_attn_fwd/manifest.json")
  maps=$(python3 "$ROOT/bench/global_scratch.py" --tensor-maps "$d/_attn_fwd/manifest.json")
  local variant="${off:+no $off}"
  [ -n "$host" ] && variant="host descriptors"
  entries+=("{\"stage\": $stage, \"file\": \"$f\", \"entry\": \"_attn_fwd\", \"num_warps\": 8, \"num_stages\": 3, \"block_m\": 128, \"block_n\": 64, \"head_dim\": $dim, \"dynamic_shared_bytes\": $shared, \"global_scratch_bytes\": $scratch, \"tensor_maps\": $maps, \"host_descriptors\": ${host:-0}, \"variant\": \"$variant\", \"dtype\": \"$dtype\"}")
  rm -rf "$d"
}
for dim in 64 128; do
  for stage in 1 3; do
    attn_one $dim $stage
  done
  # What the tensor copies give: K and V through cp.async instead.
  attn_one $dim 1 tensor-copies
  # FP8_OUTPUT: Q, K and V (transposed) in e5m2, both products on the 8-bit
  # wgmma; and P's exchange into the register A fragment through shared
  # memory instead of lane shuffles (ptxas then serializes the wgmmas,
  # C7515: the row measures both).
  attn_one $dim 1 "" fp8
  attn_one $dim 1 warp-exchanges fp8
  # Host descriptors (Triton's TensorDescriptor arguments).
  attn_one $dim 1 "" host
  attn_one $dim 3 "" host
done
echo "[$(IFS=,; echo "${entries[*]}")]" > "$ROOT/bench/bin/attention.json"
cat "$ROOT/bench/bin/attention.json"
