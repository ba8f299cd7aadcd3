#!/usr/bin/env bash
# Run HERE: compiles, per tile configuration, examples/matmul.py (pointer
# tiles: cp.async into the wgmma rings) and examples/matmul_descriptor.py's
# matmul_descriptor_kernel (descriptors made in the kernel: TMA through maps
# each program writes) for the H200, into bench/bin/kernels and
# bench/bin/descriptor_vs_pointer.json, for
# bench/experiments/descriptor_vs_pointer.py on the device: what TMA would
# give the pointer matmul at 1024^3. Then, measurement only
# (bench/experiments/tensor_map_variants.py), the fp16 descriptor kernel's
# PTX with its maps' fences at CTA scope and without the barriers between
# maps, assembled by CUDA's ptxas beside the unchanged PTX, listed in
# bench/bin/tensor_map_variants.json.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
K="$ROOT/bench/bin/kernels"
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
mkdir -p "$K"
ptr_sig() { echo "*$1:16, *$1:16, *$1:16, i32:16, i32:16, i32:16${2:+, i32:16, i32:16, i32:16}"; }
compile() { # source kernel dtype bk warps stages out [tlec args...]
  local src=$1 kern=$2 dt=$3 bk=$4 w=$5 s=$6 out=$7
  shift 7
  "$BUILD/bin/tlec" "$ROOT/examples/$src" --kernel "$kern" --target h200 \
    --num-warps "$w" --num-stages "$s" -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 \
    -D BLOCK_SIZE_K="$bk" -D GROUP_SIZE_M=8 "$@" -o "$out"
}
entry() { # source kernel file dtype bk warps stages manifest
  echo "{\"source\": \"$1\", \"file\": \"$3\", \"entry\": \"$2\", \"dtype\": \"$4\", \"bk\": $5, \"num_warps\": $6, \"num_stages\": $7, \"dynamic_shared_bytes\": $(python3 "$ROOT/bench/dynamic_shared.py" "$8"), \"global_scratch_bytes\": $(python3 "$ROOT/bench/global_scratch.py" "$8")}"
}
entries=()
for dt in fp16 bf16; do
  for cfg in "32 4 3" "64 4 4" "64 8 3"; do
    set -- $cfg
    for kern in matmul.py:matmul_kernel matmul_descriptor.py:matmul_descriptor_kernel; do
      src=${kern%%:*} name=${kern##*:} d="$K/dvp"
      f="dvp.$name.$dt.128x128x$1w$2s$3.h200.cubin"
      rm -rf "$d"
      if [ "$src" = matmul.py ]; then
        compile "$src" "$name" "$dt" "$1" "$2" "$3" "$d" -D ACTIVATION=none \
          -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 --signature "$(ptr_sig "$dt" 1)"
      else
        compile "$src" "$name" "$dt" "$1" "$2" "$3" "$d" --signature "$(ptr_sig "$dt")"
      fi
      mv "$d/$name/$name".*.cubin "$K/$f"
      entries+=("$(entry "$src" "$name" "$f" "$dt" "$1" "$2" "$3" "$d/$name/manifest.json")")
    done
  done
done
echo "[$(IFS=,; echo "${entries[*]}")]" > "$ROOT/bench/bin/descriptor_vs_pointer.json"

entries=()
for cfg in "32 4 3" "64 4 4"; do
  set -- $cfg
  base="$K/tmv.fp16.128x128x$1w$2s$3" d="$K/tmv"
  rm -rf "$d"
  compile matmul_descriptor.py matmul_descriptor_kernel fp16 "$1" "$2" "$3" "$d" \
    --signature "$(ptr_sig fp16)"
  compile matmul_descriptor.py matmul_descriptor_kernel fp16 "$1" "$2" "$3" \
    "$base.ptx" --signature "$(ptr_sig fp16)" --emit=asm
  python3 "$ROOT/bench/experiments/tensor_map_variants.py" "$base.ptx" "$base"
  for v in base cta cta-bars; do
    "$PTXAS" -arch=sm_90a "$base.$v.ptx" -o "$base.$v.cubin"
    entries+=("$(entry matmul_descriptor.py matmul_descriptor_kernel "$(basename "$base").$v.cubin" fp16 "$1" "$2" "$3" "$d/matmul_descriptor_kernel/manifest.json" | sed "s/\"source\": \"matmul_descriptor.py\"/\"source\": \"in-kernel maps, PTX $v\"/")")
  done
done
echo "[$(IFS=,; echo "${entries[*]}")]" > "$ROOT/bench/bin/tensor_map_variants.json"
