#!/usr/bin/env bash
# Run HERE (the development machine), before bench/lite_h200.py on the device
# machine (which has Triton and PyTorch but no LLVM 22, so tlec cannot run
# there). Compiles the TLE-Lite/TLE-Struct examples for the H200 into
# bench/bin/lite (git-ignored; carry bench/bin):
#   moe_align_block_size_kernel (block-local tle.gpu.alloc counters, local_ptr
#     atomics, tle.cumsum) for 8, 64 and 256 experts, 1024 tokens per program;
#   topk_radix_kernel (radix select, 8-bit digits, block-local histogram) with
#     1024-wide chunks; topk_radix_split_hist_kernel and
#     topk_radix_split_gather_kernel, the same with several programs per row
#     (one launch per pass, histograms merged with global atomics);
#   pipelined_row_sum_kernel (TLE-Lite pipe lowered to a ring of DEPTH slots
#     in shared memory, producer DEPTH - 1 chunks ahead) with 1024-wide
#     chunks, DEPTH 1, 2 and 3, n_cols promised divisible by 16 (i32:16, as
#     Triton specializes it for the plain version) so rows are 16-byte
#     aligned and accesses vectorize;
#   subtile_norm_kernel (examples/subtile_norm.py, 64 x 128 tiles, 16 rows
#     at a time through tle.extract_tile/insert_tile);
#   struct_row_sum_kernel (the same loop with tle.gpu.copy into one buffer,
#     tracked by an mbarrier, one role), "struct copy";
#   ws_row_sum_kernel (examples/warp_specialized_reduce.py: the same
#     copy/reduce with a producer warp and 4 consumer warps,
#     tle.gpu.warp_specialize, two buffers and mbarriers), listed as depth
#     "ws"; ws_pipe_row_sum_kernel (the same with a TLE-Lite pipe of DEPTH 2
#     and 3 slots between 4 producer and 4 consumer warps), "ws-pipe D";
# and writes bench/bin/lite/kernels.json saying how each was compiled.
# The plain Triton versions (moe_align_block_size_plain_kernel,
# topk_radix_plain_kernel, row_sum_plain_kernel) are compiled by Triton on
# the device.
#
# Usage: bench/prepare_lite_h200.sh [BUILD_DIR]   (default: build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
OUT="$ROOT/bench/bin/lite"
TLEC="$BUILD/bin/tlec"
rm -rf "$OUT" && mkdir -p "$OUT"
entries=()

one() { # example kernel file num_warps json-extra -D...
  local example=$1 kernel=$2 file=$3 nw=$4 extra=$5
  shift 5
  local d="$OUT/tmp"
  rm -rf "$d"
  if ! "$TLEC" "$ROOT/examples/$example.py" --kernel "$kernel" --target h200 \
      --num-warps "$nw" --no-cache -o "$d" "$@" >/dev/null 2>"$OUT/$file.log"; then
    echo "tlec cannot compile $example.py ($*) for h200:" >&2
    cat "$OUT/$file.log" >&2
    exit 1
  fi
  # Block-level memory not declared statically in the cubin is passed at
  # launch (the manifest's shared_memory_bytes minus the static part).
  local dyn
  dyn=$(python3 "$ROOT/bench/dynamic_shared.py" "$d/$kernel/manifest.json")
  # The launch's warps: more than --num-warps with warp_specialize partitions.
  local warps
  warps=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["targets"][0]["threads_per_block"] // 32)' \
    "$d/$kernel/manifest.json")
  mv "$d/$kernel/$kernel".*.cubin "$OUT/$file"
  rm -rf "$d" "$OUT/$file.log"
  entries+=("{\"file\": \"$file\", \"entry\": \"$kernel\", \"num_warps\": $warps, \"dynamic_shared_bytes\": $dyn, $extra, \"origin\": \"tlec examples/$example.py --kernel $kernel --target h200 --num-warps $nw $*\"}")
  echo "compiled $file"
}

for e in 8 64 256; do
  one moe_align_block_size moe_align_block_size_kernel "moe.e$e.h200.cubin" 4 \
    "\"kind\": \"moe\", \"experts\": $e, \"block_tokens\": 1024, \"block_size\": 16" \
    -D NUM_EXPERTS=$e -D BLOCK_SIZE=16 -D BLOCK_TOKENS=1024 \
    --signature '*i32:16, *i32:16, *i32:16, *i32:16, i32'
done
for nw in 4 8; do
  one topk_radix topk_radix_kernel "topk.w$nw.h200.cubin" $nw \
    "\"kind\": \"topk\", \"block\": 1024, \"radix_bits\": 8" \
    -D BLOCK=1024 -D RADIX_BITS=8 \
    --signature '*fp32:16, *fp32:16, *i32:16, i32, i32'
done
# Several programs per row (one launch per radix pass, then a gather).
one topk_radix topk_radix_split_hist_kernel "topk_split_hist.w4.h200.cubin" 4 \
  "\"kind\": \"topk_split_hist\", \"block\": 1024, \"radix_bits\": 8" \
  -D BLOCK=1024 -D RADIX_BITS=8 \
  --signature '*fp32:16, *i32:16, i32, i32, i32, i32'
one topk_radix topk_radix_split_gather_kernel "topk_split_gather.w4.h200.cubin" 4 \
  "\"kind\": \"topk_split_gather\", \"block\": 1024, \"radix_bits\": 8" \
  -D BLOCK=1024 -D RADIX_BITS=8 \
  --signature '*fp32:16, *i32:16, *i32, *fp32, *i32, i32, i32, i32'
for depth in 1 2 3; do
  one pipelined_reduce pipelined_row_sum_kernel "pipe.d$depth.h200.cubin" 4 \
    "\"kind\": \"pipe\", \"block\": 1024, \"depth\": $depth" \
    -D BLOCK=1024 -D DEPTH=$depth \
    --signature '*fp32:16, *fp32:16, *fp32, i32:16'
done

# Sub-tile RMS norm (TLE-Lite extract_tile/insert_tile).
one subtile_norm subtile_norm_kernel "subtile.h200.cubin" 4 \
  "\"kind\": \"subtile\", \"block_m\": 64, \"n\": 128" \
  -D BLOCK_M=64 -D N=128 -D SUB_M=16 --signature '*fp32:16, *fp32:16, i32, fp32'
# One role, tle.gpu.copy tracked by an mbarrier (examples/pipelined_reduce.py).
one pipelined_reduce struct_row_sum_kernel "pipe.struct.h200.cubin" 4 \
  "\"kind\": \"pipe\", \"block\": 1024, \"depth\": \"struct copy\"" \
  -D BLOCK=1024 --signature '*fp32:16, *fp32:16, *fp32, i32:16'
# Producer warp + 4 consumer warps (tle.gpu.warp_specialize, mbarriers).
one warp_specialized_reduce ws_row_sum_kernel "pipe.ws.h200.cubin" 4 \
  "\"kind\": \"pipe\", \"block\": 1024, \"depth\": \"ws\"" \
  -D BLOCK=1024 --signature '*fp32:16, *fp32:16, *fp32, i32:16'

# The same with a TLE-Lite pipe between the partitions (4 + 4 warps).
for depth in 2 3; do
  one warp_specialized_reduce ws_pipe_row_sum_kernel "pipe.wsp.d$depth.h200.cubin" 4 \
    "\"kind\": \"pipe\", \"block\": 1024, \"depth\": \"ws-pipe $depth\"" \
    -D BLOCK=1024 -D DEPTH=$depth --signature '*fp32:16, *fp32:16, *fp32, i32:16'
done

( IFS=,; echo "[${entries[*]}]" ) > "$OUT/kernels.json"
python3 -m json.tool "$OUT/kernels.json" > /dev/null
echo "wrote $OUT/kernels.json (${#entries[@]} kernels)"
