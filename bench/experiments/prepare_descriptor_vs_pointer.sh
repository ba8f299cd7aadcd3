#!/usr/bin/env bash
# Run HERE: compiles, per tile configuration, examples/matmul.py (pointer
# tiles: cp.async into the wgmma rings), examples/matmul_descriptor.py
# (descriptors made in the kernel: TMA, C through a descriptor) and
# bench/experiments/descriptor_kernels.py's in_kernel_desc_kernel (the same
# with the tutorial's pointer store) for the H200, into
# bench/bin/kernels and bench/bin/descriptor_vs_pointer.json, for
# bench/experiments/descriptor_vs_pointer.py on the device: what TMA with
# in-kernel tensor maps would give the pointer matmul at 1024^3.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
K="$ROOT/bench/bin/kernels"
mkdir -p "$K"
entries=()
one() { # source kernel dtype bk warps stages signature [-D...]
  local ex=$1 kern=$2 dt=$3 bk=$4 w=$5 s=$6 sig=$7
  shift 7
  local d="$K/dvp" f="dvp.$kern.$dt.128x128x${bk}w${w}s${s}.h200.cubin"
  rm -rf "$d"
  "$BUILD/bin/tlec" "$ROOT/$ex" --kernel "$kern" --target h200 \
    --num-warps "$w" --num-stages "$s" -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 \
    -D BLOCK_SIZE_K="$bk" -D GROUP_SIZE_M=8 "$@" --signature "$sig" -o "$d"
  mv "$d/$kern/$kern".*.cubin "$K/$f"
  local m="$d/$kern/manifest.json"
  entries+=("{\"source\": \"$ex\", \"file\": \"$f\", \"entry\": \"$kern\", \"dtype\": \"$dt\", \"bk\": $bk, \"num_warps\": $w, \"num_stages\": $s, \"dynamic_shared_bytes\": $(python3 "$ROOT/bench/dynamic_shared.py" "$m"), \"global_scratch_bytes\": $(python3 "$ROOT/bench/global_scratch.py" "$m")}")
  rm -rf "$d"
}
for dt in fp16 bf16; do
  for cfg in "32 4 3" "64 4 4" "64 8 3"; do
    set -- $cfg
    one examples/matmul.py matmul_kernel "$dt" "$1" "$2" "$3" \
      "*$dt:16, *$dt:16, *$dt:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16" \
      -D ACTIVATION=none -D stride_ak=1 -D stride_bn=1 -D stride_cn=1
    for src in examples/matmul_descriptor.py:matmul_descriptor_kernel \
      bench/experiments/descriptor_kernels.py:in_kernel_desc_kernel; do
      one "${src%%:*}" "${src##*:}" "$dt" "$1" "$2" "$3" \
        "*$dt:16, *$dt:16, *$dt:16, i32:16, i32:16, i32:16"
    done
  done
done
echo "[$(IFS=,; echo "${entries[*]}")]" > "$ROOT/bench/bin/descriptor_vs_pointer.json"
# Measurement only (bench/experiments/tensor_map_variants.py): the fp16
# in-kernel-descriptor kernel's PTX with its tensor maps' fences at CTA
# scope, and without the barriers between maps, assembled by CUDA's ptxas
# beside the unchanged PTX; `descriptor_vs_pointer.py
# tensor_map_variants.json` times them.
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
entries=()
for cfg in "32 4 3" "64 4 4"; do
  set -- $cfg
  base="$K/tmv.fp16.128x128x$1w$2s$3"
  "$BUILD/bin/tlec" "$ROOT/bench/experiments/descriptor_kernels.py" \
    --kernel in_kernel_desc_kernel --target h200 --num-warps "$2" \
    --num-stages "$3" -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 \
    -D BLOCK_SIZE_K="$1" -D GROUP_SIZE_M=8 --emit=asm \
    --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16" \
    -o "$base.ptx"
  python3 "$ROOT/bench/experiments/tensor_map_variants.py" "$base.ptx" "$base"
  ref=$(python3 -c 'import json,sys; print([k for k in json.load(open(sys.argv[1])) if k["entry"] == "in_kernel_desc_kernel" and k["dtype"] == "fp16" and k["bk"] == int(sys.argv[2]) and k["num_warps"] == int(sys.argv[3])][0]["dynamic_shared_bytes"])' "$ROOT/bench/bin/descriptor_vs_pointer.json" "$1" "$2")
  for v in base cta cta-bars; do
    "$PTXAS" -arch=sm_90a "$base.$v.ptx" -o "$base.$v.cubin"
    entries+=("{\"source\": \"in-kernel maps, PTX $v\", \"file\": \"$(basename "$base").$v.cubin\", \"entry\": \"in_kernel_desc_kernel\", \"dtype\": \"fp16\", \"bk\": $1, \"num_warps\": $2, \"num_stages\": $3, \"dynamic_shared_bytes\": $ref, \"global_scratch_bytes\": 256}")
  done
done
echo "[$(IFS=,; echo "${entries[*]}")]" > "$ROOT/bench/bin/tensor_map_variants.json"
