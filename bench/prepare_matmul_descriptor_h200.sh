#!/usr/bin/env bash
# Run HERE (bench/prepare_h200.sh runs it): compiles
# examples/matmul_descriptor.py (A and B through tensor descriptors made in
# the kernel: tensor copies on the H200) for fp16 and bf16, 128x128x64 tiles
# with 4 and 8 warps, 3 stages, fp16 without tensor copies (cp.async,
# --disable-opt=tensor-copies) and fp16 with the subtiled epilogue
# (EPILOGUE_SUBTILE=1), and Triton's persistent matmul
# (examples/persistent_matmul.py: one program per SM walking the tiles, B
# stored N x K) for fp16 and bf16, whole and subtiled epilogue, into
# bench/bin/kernels and bench/bin/matmul_descriptor.json, for
# bench/matmul_descriptor.py on the device.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
K="$ROOT/bench/bin/kernels"
mkdir -p "$K"
entries=()
# Moves a bundle's cubin to bench/bin/kernels and records it: bundle-dir
# entry file dtype num_warps variant epilogue_subtile extra-json-fields.
collect() {
  local d=$1 entry=$2 f=$3 m="$1/$2/manifest.json" shared scratch maps
  mv "$d/$entry/$entry".*.cubin "$K/$f"
  shared=$(python3 "$ROOT/bench/dynamic_shared.py" "$m")
  scratch=$(python3 "$ROOT/bench/global_scratch.py" "$m")
  maps=$(python3 "$ROOT/bench/global_scratch.py" --tensor-maps "$m")
  entries+=("{\"dtype\": \"$4\", \"file\": \"$f\", \"entry\": \"$entry\", $8\"num_warps\": $5, \"num_stages\": 3, \"bm\": 128, \"bn\": 128, \"bk\": 64, \"gm\": 8, \"dynamic_shared_bytes\": $shared, \"global_scratch_bytes\": $scratch, \"tensor_maps\": $maps, \"variant\": \"$6\", \"epilogue_subtile\": $7}")
  rm -rf "$d"
}
mmd_one() { # dtype num_warps [disabled-opt] [subtile]
  local dtype=$1 warps=$2 off="${3:-}" subtile="${4:-0}"
  local d="$K/mmd-$dtype-$warps${off:+-$off}-$subtile"
  local f="matmul_descriptor.$dtype.128x128x64w${warps}s3${off:+.no-$off}"
  [ "$subtile" = 1 ] && f+=".subtile"
  f+=".h200.cubin"
  local variant="${off:+no $off}"
  [ "$subtile" = 1 ] && variant="subtiled epilogue"
  "$BUILD/bin/tlec" "$ROOT/examples/matmul_descriptor.py" \
    --kernel matmul_descriptor_kernel --target h200 --num-warps "$warps" \
    --num-stages 3 -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 \
    -D GROUP_SIZE_M=8 -D EPILOGUE_SUBTILE="$subtile" --signature "*$dtype:16, *$dtype:16, *$dtype:16, i32:16, i32:16, i32:16" \
    ${off:+--disable-opt=$off} -o "$d"
  collect "$d" matmul_descriptor_kernel "$f" "$dtype" "$warps" "$variant" \
    "$subtile" ""
}
for dtype in fp16 bf16; do
  for warps in 4 8; do
    mmd_one $dtype $warps
  done
done
# What the tensor copies give: A and B through cp.async instead.
mmd_one fp16 4 tensor-copies
mmd_one fp16 8 tensor-copies
# The accumulator stored as two halves (reshape, permute, split): no
# exchange between threads before the stores.
mmd_one fp16 4 "" 1
mmd_one fp16 8 "" 1
# Descriptors the host made (matmul_host_descriptor_kernel: tensordesc
# arguments, passed as base, shape and leading stride).
# Their maps are built by the launcher and passed by value; with
# --disable-opt=launch-tensor-maps each program writes them in the kernel.
host_one() { # dtype num_warps [disabled-opt]
  local dtype=$1 warps=$2 off="${3:-}" d="$K/mmh-$1-$2${3:+-$3}"
  "$BUILD/bin/tlec" "$ROOT/examples/matmul_descriptor.py" \
    --kernel matmul_host_descriptor_kernel --target h200 --num-warps "$warps" \
    --num-stages 3 -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 \
    -D GROUP_SIZE_M=8 ${off:+--disable-opt=$off} -o "$d" --signature \
    "tensordesc<$dtype[128, 64]>, tensordesc<$dtype[64, 128]>, tensordesc<$dtype[128, 128]>, i32:16, i32:16, i32:16"
  collect "$d" matmul_host_descriptor_kernel \
    "matmul_host_descriptor.$dtype.128x128x64w${warps}s3${off:+.no-$off}.h200.cubin" \
    "$dtype" "$warps" "host descriptors${off:+, no $off}" 0 \
    '"host_descriptors": 1, '
}
for dtype in fp16 bf16; do
  host_one $dtype 4
  host_one $dtype 4 launch-tensor-maps
done
host_one fp16 8
# The persistent kernel, 132 programs (the H200's SMs) over the tiles.
# With host (tensordesc) descriptors: matmul_kernel_host_descriptor_persistent.
persistent_one() { # dtype num_warps subtile [host]
  local dtype=$1 warps=$2 subtile=$3 host="${4:-}"
  local d="$K/mmp-$dtype-$warps-$subtile${host:+-host}"
  local f="persistent_matmul.$dtype.128x128x64w${warps}s3"
  local variant=persistent kernel=matmul_kernel_descriptor_persistent
  local sig="*$dtype:16, *$dtype:16, *$dtype:16, i32:16, i32:16, i32:16"
  local extra='"persistent": 1, "num_sms": 132, '
  [ "$subtile" = 1 ] && f+=".subtile" && variant+=", subtiled epilogue"
  if [ -n "$host" ]; then
    local cn=128
    [ "$subtile" = 1 ] && cn=64
    kernel=matmul_kernel_host_descriptor_persistent f+=".host"
    variant+=", host descriptors" extra+='"host_descriptors": 1, '
    sig="tensordesc<$dtype[128, 64]>, tensordesc<$dtype[128, 64]>, tensordesc<$dtype[128, $cn]>, i32:16, i32:16, i32:16"
  fi
  f+=".h200.cubin"
  "$BUILD/bin/tlec" "$ROOT/examples/persistent_matmul.py" \
    --kernel "$kernel" --target h200 \
    --num-warps "$warps" --num-stages 3 -D BLOCK_SIZE_M=128 \
    -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 -D GROUP_SIZE_M=8 \
    -D EPILOGUE_SUBTILE="$subtile" -D NUM_SMS=132 -D WARP_SPECIALIZE=0 \
    --signature "$sig" -o "$d"
  collect "$d" "$kernel" "$f" "$dtype" "$warps" "$variant" "$subtile" "$extra"
}
for dtype in fp16 bf16; do
  persistent_one $dtype 4 0
  persistent_one $dtype 4 1
  persistent_one $dtype 4 0 host
  persistent_one $dtype 4 1 host
done
persistent_one fp16 8 0
echo "[$(IFS=,; echo "${entries[*]}")]" > "$ROOT/bench/bin/matmul_descriptor.json"
cat "$ROOT/bench/bin/matmul_descriptor.json"
