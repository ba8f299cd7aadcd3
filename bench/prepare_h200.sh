#!/usr/bin/env bash
# Run HERE (the development machine), before bench/run_h200.sh on the device.
#
# The benchmark machine has the NVIDIA driver, Triton and PyTorch but no
# LLVM 22, so neither tlec nor the plugin (which link libMLIR/libLLVM) can be
# built or run there. Everything is compiled here instead and carried in
# bench/bin (git-ignored; name it in the device tool's `carry`):
#   bench/bin/tle-run-nvidia      tle-run with the NVIDIA runtime linked in
#   bench/bin/kernels/*.{ptx,cubin} and bench/bin/kernels.json, which says
#   how to launch each and where it came from; attention.json and
#   matmul_descriptor.json (bench/prepare_attention_h200.sh,
#   bench/prepare_matmul_descriptor_h200.sh, which this runs too).
#
# Usage: bench/prepare_h200.sh [BUILD_DIR]   (default: build; needs
# tle-plugin-compile there, and tlec for kernels of the front end)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
BIN="$ROOT/bench/bin"
K="$BIN/kernels"
rm -rf "$K" && mkdir -p "$K"

bash "$ROOT/bench/build_tle_run_nvidia.sh"

PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
entries=()
# Kernels tlec could not compile: their rows would be missing from the
# tables without a word, so the script fails at the end.
failed=()
add() { # name file entry num_warps elements_per_block odd_sizes origin [aligned]
  entries+=("{\"name\": \"$1\", \"file\": \"$2\", \"entry\": \"$3\", \"num_warps\": $4, \"elements_per_block\": $5, \"odd_sizes\": $6,${8:+ \"aligned\": $8,} \"origin\": \"$7\"}")
}

# 1. Harness check: hand-written LLVM IR, NOT our compiler's output. As PTX
#    (the driver compiles it at load) and as a cubin (ptxas here).
llc-22 -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 \
  "$ROOT/bench/harness/vector_add.ll" -o "$K/harness_add.h200.ptx"
"$PTXAS" -arch=sm_90 "$K/harness_add.h200.ptx" -o "$K/harness_add.h200.cubin"
add harness-ptx harness_add.h200.ptx harness_add 8 1024 true \
  "harness check: hand-written LLVM IR -> llc-22 PTX, JIT by the driver"
add harness-cubin harness_add.h200.cubin harness_add 8 1024 true \
  "harness check: hand-written LLVM IR -> llc-22 -> ptxas cubin"

# 2. The NVIDIA plugin's code generation on the distributed IR of its lit
#    test (hand-written in the form the core's distribution emits). It has no
#    tail handling: sizes must be multiples of 4.
if [ -x "$BUILD/bin/tle-plugin-compile" ]; then
  "$BUILD/bin/tle-plugin-compile" "$ROOT/tests/lit/nvidia/vector-add.mlir" \
    --target h200 -o "$K/add_kernel.plugin.cubin"
  add plugin-cubin add_kernel.plugin.cubin add_kernel 4 512 false \
    "nvidia plugin: tests/lit/nvidia/vector-add.mlir (hand-written distributed IR) -> cubin"
fi

# 3. The examples through the whole compiler, when tlec can compile them for
#    the H200: vector add with n a runtime value (any size), and with n
#    promised a multiple of 16 (`i32:16`), as Triton's JIT specializes it
#    for such sizes; compare.py picks the variant Triton would pick.
add_one() { # aligned signature
  if "$BUILD/bin/tlec" "$ROOT/examples/vector_add.py" --target h200 \
       --out-dir "$K/tlec" --num-warps 4 -D BLOCK_SIZE=1024 \
       --signature "$2" 2>"$K/tlec.log"; then
    for f in "$K"/tlec/add_kernel.*; do
      local file="add_kernel.$1.${f##*.}"
      mv "$f" "$K/$file"
      add tlec-"${f##*.}" "$file" add_kernel 4 1024 \
        "$([ "$1" = true ] && echo false || echo true)" \
        "tlec examples/vector_add.py --target h200 (BLOCK_SIZE=1024, num_warps 4, signature $2)" "$1"
    done
  else
    echo "tlec cannot compile examples/vector_add.py for h200:" >&2
    cat "$K/tlec.log" >&2
    failed+=("vector_add $2")
  fi
  rm -rf "$K/tlec"
}
if [ -x "$BUILD/bin/tlec" ]; then
  add_one false '*fp32:16,*fp32:16,*fp32:16,i32'
  add_one true '*fp32:16,*fp32:16,*fp32:16,i32:16'
fi

# 4. Softmax (fp32) and layer norm forward (fp16) through the whole
#    compiler: one binary per BLOCK_SIZE the bench's shapes need (softmax:
#    next power of 2 >= n_cols; layer norm: min(65536/2, next_pow2(N)), as
#    Triton's tutorial picks). num_warps as Triton's tutorials pick them:
#    softmax 8; layer norm min(max(BLOCK_SIZE/256, 1), 8). compare.py gives
#    Triton the same BLOCK_SIZE and num_warps. Softmax's row loop takes
#    num_stages 4, what the tutorial passes Triton on a card with more than
#    200 KB of shared memory (compare.py does).
# Block-level memory is dynamic shared memory, passed at launch: the
# manifest's shared_memory_bytes minus what the cubin declares statically.
dynamic_shared() { # manifest.json
  python3 "$ROOT/bench/dynamic_shared.py" "$1"
}
addk() { # name file entry num_warps kind block_size aligned origin dynamic_shared
  entries+=("{\"name\": \"$1\", \"file\": \"$2\", \"entry\": \"$3\", \"num_warps\": $4, \"kind\": \"$5\", \"block_size\": $6, \"aligned\": $7, \"origin\": \"$8\", \"dynamic_shared_bytes\": $9}")
}
# Like Triton's JIT, which specializes integer arguments divisible by 16, each
# kernel comes in two variants: strides and row length divisible by 16
# (`i32:16`, aligned=true) for the anchor shapes, and without that promise
# for the odd sizes. compare.py picks the variant Triton would pick.
tlec_one() { # example entry kind block_size num_warps aligned signature [-D ...]
  local d="$K/tlec-$3-$4-$6"
  if "$BUILD/bin/tlec" "$ROOT/examples/$1.py" --target h200 -o "$d" \
       --kernel "$2" --num-warps "$5" -D BLOCK_SIZE="$4" --signature "$7" \
       "${@:8}" 2>"$d.log"; then
    local f=("$d/$2/$2".*.cubin)
    mv "${f[0]}" "$K/$2.bs$4.$6.h200.cubin"
    addk tlec-cubin "$2.bs$4.$6.h200.cubin" "$2" "$5" "$3" "$4" "$6" \
      "tlec examples/$1.py --target h200 (BLOCK_SIZE=$4, num_warps $5, signature $7 ${*:8})" \
      "$(dynamic_shared "$d/$2/manifest.json")"
  else
    echo "tlec cannot compile examples/$1.py with BLOCK_SIZE=$4:" >&2
    cat "$d.log" >&2
    failed+=("$1 BLOCK_SIZE=$4")
  fi
  rm -rf "$d"
}
if [ -x "$BUILD/bin/tlec" ]; then
  for bs in 1024 2048 4096 16384 32768; do
    tlec_one fused_softmax softmax_kernel softmax "$bs" 8 true \
      '*fp32:16, *fp32:16, i32:16, i32:16, i32, i32:16' -D num_stages=4
    tlec_one fused_softmax softmax_kernel softmax "$bs" 8 false \
      '*fp32:16, *fp32:16, i32, i32, i32, i32' -D num_stages=4
  done
  for bs in 1024 2048 4096 8192; do
    nw=$((bs / 256)); [ "$nw" -gt 8 ] && nw=8; [ "$nw" -lt 1 ] && nw=1
    tlec_one layer_norm layer_norm_fwd layer_norm "$bs" "$nw" true \
      '*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, fp32'
    tlec_one layer_norm layer_norm_fwd layer_norm "$bs" "$nw" false \
      '*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32, i32, fp32'
  done
fi

# 4b. RMS norm (examples/rms_norm.py, fp16 rows; FlagGems' kernel).
if [ -x "$BUILD/bin/tlec" ]; then
  for bs in 1024 4096 8192; do
    nw=$((bs / 256)); [ "$nw" -gt 8 ] && nw=8
    tlec_one rms_norm rms_norm_kernel rms_norm "$bs" "$nw" true \
      '*fp16:16, *fp32:16, *fp16:16, *fp16:16, i32:16, i32:16, fp32'
  done
  # Rows of no known divisibility (compare.py's 4097x1031).
  tlec_one rms_norm rms_norm_kernel rms_norm 2048 8 false \
    '*fp16:16, *fp32:16, *fp16:16, *fp16:16, i32, i32, fp32'
fi

# 5. Matmul (examples/matmul.py) on the tensor cores, fp16 and bf16 with an
#    fp32 accumulator, per tile configuration. The aligned variant, for
#    shapes whose sizes are multiples of 16, specializes the unit strides
#    (-D stride=1) and divisibility as Triton's JIT would; the other keeps
#    every stride a runtime argument for ragged shapes.
addmm() { # file dtype bm bn bk gm num_warps aligned num_stages origin dynamic_shared variant blocks_per_sm [h100 fields]
  entries+=("{\"name\": \"tlec-cubin\", \"file\": \"$1\", \"entry\": \"matmul_kernel\", \"kind\": \"matmul\", \"dtype\": \"$2\", \"bm\": $3, \"bn\": $4, \"bk\": $5, \"gm\": $6, \"num_warps\": $7, \"aligned\": $8, \"num_stages\": $9, \"origin\": \"${10}\", \"dynamic_shared_bytes\": ${11}, \"variant\": \"${12}\"${13:+, \"blocks_per_sm\": ${13}}${14:+, \"h100\": ${14}}}")
}
blocks_per_sm() { # manifest.json
  python3 "$ROOT/bench/dynamic_shared.py" --blocks-per-sm "$1"
}
# An optional 8th argument switches one optimization off (tlec
# --disable-opt=NAME), to measure what it gives on its own.
matmul_one() { # dtype bm bn bk num_warps aligned num_stages [disabled-opt]
  local t="*$1:16, *$1:16, *$1:16" off="${8:-}" unit=(-D stride_ak=1 -D stride_bn=1)
  # 8-bit inputs (fp16 output): B comes transposed (K-major), as Triton's
  # tutorial passes it, for the 8-bit wgmma.
  if [ "$1" = fp8e5 ]; then
    t="*fp8e5:16, *fp8e5:16, *fp16:16" unit=(-D stride_ak=1 -D stride_bk=1)
  fi
  local f="matmul.$1.$2x$3x$4w$5s$7.$6${off:+.no-$off}.h200.cubin" d="$K/tlec-mm"
  local spec=(-D BLOCK_SIZE_M="$2" -D BLOCK_SIZE_N="$3" -D BLOCK_SIZE_K="$4"
    -D GROUP_SIZE_M=8 -D ACTIVATION=none)
  [ -n "$off" ] && spec+=(--disable-opt="$off")
  if [ "$6" = true ]; then
    spec+=("${unit[@]}" -D stride_cn=1 --signature
      "$t, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16")
  else
    spec+=(--signature "$t, i32, i32, i32, i32, i32, i32, i32, i32, i32")
  fi
  if "$BUILD/bin/tlec" "$ROOT/examples/matmul.py" --kernel matmul_kernel \
       --target h200 --num-warps "$5" --num-stages "$7" "${spec[@]}" \
       -o "$d" 2>"$d.log" &&
     "$BUILD/bin/tlec" "$ROOT/examples/matmul.py" --kernel matmul_kernel \
       --target h100-sxm --num-warps "$5" --num-stages "$7" "${spec[@]}" \
       -o "$d-h100" 2>>"$d.log"; then
    mv "$d"/matmul_kernel/matmul_kernel.*.cubin "$K/$f"
    local m="$d/matmul_kernel/manifest.json" m100="$d-h100/matmul_kernel/manifest.json"
    local shared blocks shared100 blocks100
    shared=$(dynamic_shared "$m") blocks=$(blocks_per_sm "$m")
    shared100=$(dynamic_shared "$m100") blocks100=$(blocks_per_sm "$m100")
    # The device may be an H100: where the compiler decides differently
    # for it (blocks held per SM), its binary comes along and matmul.py
    # runs that one there.
    local h100=""
    if [ "$shared/$blocks" != "$shared100/$blocks100" ]; then
      local f100="${f%.h200.cubin}.h100-sxm.cubin"
      mv "$d-h100"/matmul_kernel/matmul_kernel.*.cubin "$K/$f100"
      h100="{\"file\": \"$f100\", \"dynamic_shared_bytes\": $shared100, \"blocks_per_sm\": $blocks100}"
    fi
    addmm "$f" "$1" "$2" "$3" "$4" 8 "$5" "$6" "$7" \
      "tlec examples/matmul.py --target h200 ($1, $2x$3x$4 tiles, num_warps $5, num_stages $7)" \
      "$shared" "${off:+no $off}" "$blocks" "$h100"
  else
    echo "tlec cannot compile examples/matmul.py ($1 $2x$3x$4):" >&2
    cat "$d.log" >&2
    failed+=("matmul $1 $2x$3x$4${off:+ no $off}")
  fi
  rm -rf "$d" "$d-h100"
}
if [ -x "$BUILD/bin/tlec" ]; then
  for dt in fp16 bf16; do
    matmul_one "$dt" 128 128 32 4 true 3
    # num_stages 1: no software pipelining, to show what it gives.
    [ "$dt" = fp16 ] && matmul_one "$dt" 128 128 32 4 true 1
    matmul_one "$dt" 128 128 64 8 true 3
    # The two configs examples/matmul.py autotunes over (Triton's anchor
    # TFLOP/s in ANCHORS.md are its best over such configs).
    matmul_one "$dt" 128 256 64 8 true 3
    matmul_one "$dt" 128 128 64 4 true 4
    matmul_one "$dt" 128 128 32 4 false 3
  done
  matmul_one fp16 128 128 32 4 true 3 pipeline-loads
  matmul_one fp16 128 128 32 4 true 3 remove-layout-conversions
  # With K divisible by 16 ptxas fits these in 168 registers by itself, so
  # the occupancy raise (tests/lit/nvidia/occupancy.test) has nothing to do;
  # held to 2 blocks per SM instead of 3 (mma-residency).
  matmul_one fp16 128 128 32 4 true 3 mma-residency
  matmul_one bf16 128 128 32 4 true 3 mma-residency
  # Strided operands (the ragged shape): 64 scalar pointers per thread.
  matmul_one fp16 128 128 32 4 false 3 loop-pointer-bases
  matmul_one fp8e5 128 128 64 4 true 3
  matmul_one fp8e5 128 128 64 4 true 3 mma-residency
  matmul_one fp8e5 128 256 128 8 true 3
fi

( IFS=,; echo "[${entries[*]}]" ) > "$BIN/kernels.json"
python3 -m json.tool "$BIN/kernels.json"

# The kernels through tensor descriptors: fused attention and matmul.
if [ -x "$BUILD/bin/tlec" ]; then
  bash "$ROOT/bench/prepare_attention_h200.sh" "$BUILD"
  bash "$ROOT/bench/prepare_matmul_descriptor_h200.sh" "$BUILD"
fi
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'not compiled (see above): %s\n' "${failed[@]}" >&2
  exit 1
fi
