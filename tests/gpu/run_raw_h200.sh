#!/usr/bin/env bash
# Run ON the GPU machine after tests/gpu/prepare_raw_h200.sh, with
# tests/gpu/bin carried along, e.g. through the device tool:
#   run(command="bash tests/gpu/run_raw_h200.sh", carry=["tests/gpu/bin"])
# Launches the TLE-Raw examples (and the one-device mesh, the 8-bit float
# round trip and matmul) compiled for the H200 and checks every output element (tle-run: expr= or a reference file),
# then prints a table. Exits non-zero if any check fails. Never touches the
# card's settings.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# TLE_RUN/TLE_TARGET/TLE_SUFFIX/TLE_KERNELS let the same checks run elsewhere
# (e.g. tle-run on cpu-spirv binaries) to test this script itself.
RUN=${TLE_RUN:-tests/gpu/bin/tle-run-nvidia}
TARGET=${TLE_TARGET:-h200}
SUFFIX=${TLE_SUFFIX:-H200.cubin}
K=${TLE_KERNELS:-tests/gpu/bin/raw}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true

declare -a ROWS
FAILED=0
check() { # name what... -- tle-run arguments
  local name=$1
  shift
  local log
  if [ ! -f "$1" ]; then
    echo "== $name: $1 missing (skipped)"
    ROWS+=("$(printf '| %-34s | %-6s | %-44s | %-16s |' "$name" "absent" "" "")")
    FAILED=1
    return
  fi
  # Block-level scratch is dynamic shared memory (its size from the manifest,
  # written by prepare_raw_h200.sh next to the kernel).
  local shared="${1%.$SUFFIX}.shared"
  log=$("$RUN" "$@" --target "$TARGET" --repeat 20 --warmup 3 \
    --shared-memory "$(cat "$shared" 2>/dev/null || echo 0)" 2>&1)
  local rc=$?
  echo "== $name"
  echo "$log"
  local verdict="ok"
  if [ $rc -ne 0 ] || ! grep -q ': ok$' <<<"$log" || grep -q 'FAILED' <<<"$log"; then
    verdict="FAILED"
    FAILED=1
  fi
  local err time
  err=$(grep -o 'error [^:]*' <<<"$log" | head -1)
  time=$(grep -o 'median [0-9.]* ms' <<<"$log" | head -1)
  ROWS+=("$(printf '| %-34s | %-6s | %-44s | %-16s |' "$name" "$verdict" "${err:-}" "${time:-}")")
}

N=1000000
check "raw_add (inline PTX add.s32)" $K/raw_add_kernel.$SUFFIX --kernel raw_add_kernel \
  --grid $(((N + 255) / 256)) --num-warps 4 \
  --arg buf:i32:N=$N --arg buf:i32:N=$N --arg "out:i32:N=$N:expr=\$0+\$1" --arg i32:$N

check "warp_sum (inline PTX shfl.bfly)" $K/warp_sum_kernel.$SUFFIX --kernel warp_sum_kernel \
  --grid 32 --num-warps 4 \
  --arg buf:i32:N=4096:file=$K/warp_sum.x.i32 --arg out:i32:N=4096:ref=$K/warp_sum.ref.i32 \
  --arg i32:4096

U='0.7978845608*($0+0.044715*$0*$0*$0)'
GELU="0.5*\$0*(1+(exp(2*$U)-1)/(exp(2*$U)+1))"
check "gelu (CUDA C device function)" $K/gelu_kernel.$SUFFIX --kernel gelu_kernel \
  --grid $(((N + 1023) / 1024)) --num-warps 4 \
  --arg buf:f32:N=$N --arg "out:f32:N=$N:expr=$GELU" --arg i32:$N

check "tl.inline_asm_elementwise (fma.rn.f32)" $K/fma_scalar.$SUFFIX --kernel fma_scalar \
  --grid 1 --num-warps 4 \
  --arg buf:f32:N=256 --arg buf:f32:N=256 --arg 'out:f32:N=256:expr=$0*2+$1'

check "tl.inline_asm_elementwise pack=4 (u8)" $K/packed.$SUFFIX --kernel packed \
  --grid 1 --num-warps 4 \
  --arg buf:u8:N=1024 --arg buf:f32:N=1024 --arg 'out:i32:N=1024:expr=$0' \
  --arg 'out:f32:N=1024:expr=max($0,$1)'

M=256; NN=192; KK=128
check "gemm + native epilogue (CUDA C)" $K/gemm_epilogue_kernel.$SUFFIX --kernel gemm_epilogue_kernel \
  --grid $((M / 64)),$((NN / 64)) --num-warps 4 \
  --arg buf:f16:N=$((M * KK)):file=$K/gemm.a.f16 --arg buf:f16:N=$((KK * NN)):file=$K/gemm.b.f16 \
  --arg buf:f32:N=$NN:file=$K/gemm.bias.f32 --arg out:f32:N=$((M * NN)):ref=$K/gemm.ref.f32 \
  --arg f32:0.5 --arg i32:$M --arg i32:$NN --arg i32:$KK \
  --arg i32:$KK --arg i32:1 --arg i32:$NN --arg i32:1 --arg i32:$NN --arg i32:1

# 8-bit floats: cvt.rn.satfinite / cvt.rn.f16x2 on the card against the
# oracle's bytes (tests/lit/spirv/Inputs/fp8_reference.py); toward zero
# through the portable integer arithmetic.
F=100000; R=$K/fp8
check "fp8 round trip (e4m3, e5m2, rtz)" $K/fp8_round_trip.$SUFFIX --kernel fp8_round_trip --rtol 0 \
  --grid $(((F + 255) / 256)) --num-warps 4 \
  --arg buf:f32:N=$F:file=$R/x.bin --arg out:u8:N=$F:ref=$R/e4.bin \
  --arg out:f32:N=$F:ref=$R/e4_back.bin --arg out:u8:N=$F:ref=$R/e5.bin \
  --arg out:f32:N=$F:ref=$R/e5_back.bin --arg out:u8:N=$F:ref=$R/rtz.bin \
  --arg i32:$F
check "fp8 NaN and infinities" $K/fp8_round_trip.$SUFFIX --kernel fp8_round_trip --rtol 0 \
  --grid 1 --num-warps 4 \
  --arg buf:f32:N=4:file=$R/nan.bin --arg out:u8:N=4:ref=$R/nan_e4.bin \
  --arg out:f32:N=4 --arg out:u8:N=4:ref=$R/nan_e5.bin \
  --arg out:f32:N=4 --arg out:u8:N=4:ref=$R/nan_e4.bin --arg i32:4

# tl.dot on 8-bit floats (wgmma m64nNk32): C = A @ B, 128 x 256 x 256;
# B K-major (given as its transpose, stride_bk = 1) or row-major. The
# reference is exact; the tolerance covers the tensor cores' accumulation.
for f in e4 e5; do
  check "fp8 matmul $f, B K-major (wgmma)" $K/fp8_mm_${f}_kmajor.$SUFFIX --kernel fp8_matmul \
    --rtol 2e-3 --grid 1,2 --num-warps 4 \
    --arg buf:u8:N=32768:file=$K/fp8_gemm.a.$f --arg buf:u8:N=65536:file=$K/fp8_gemm.bt.$f \
    --arg out:f32:N=32768:ref=$K/fp8_gemm.ref.$f.f32 \
    --arg i32:128 --arg i32:256 --arg i32:256 --arg i32:256
  check "fp8 matmul $f, B row-major (wgmma)" $K/fp8_mm_${f}_rowb.$SUFFIX --kernel fp8_matmul \
    --rtol 2e-3 --grid 1,2 --num-warps 4 \
    --arg buf:u8:N=32768:file=$K/fp8_gemm.a.$f --arg buf:u8:N=65536:file=$K/fp8_gemm.b.$f \
    --arg out:f32:N=32768:ref=$K/fp8_gemm.ref.$f.f32 \
    --arg i32:128 --arg i32:256 --arg i32:256 --arg i32:256
done

# One device, 4 blocks: gathered = out = x, each block's flag signalled once
# (the check reads the first launch's outputs).
check "mesh all-gather (one device)" $K/all_gather_sum.$SUFFIX --kernel all_gather_sum \
  --grid 4 --num-warps 4 \
  --arg buf:f32:N=1024 --arg 'out:f32:N=1024:expr=$0' \
  --arg 'out:i32:N=4:fill=0:expr=1' --arg 'out:f32:N=1024:expr=$0'

echo
echo "| kernel                             | check  | error                                        | time             |"
echo "| ---------------------------------- | ------ | -------------------------------------------- | ---------------- |"
printf '%s\n' "${ROWS[@]}"
if [ $FAILED -ne 0 ]; then
  echo "run_raw_h200: a check FAILED"
  exit 1
fi
echo "run_raw_h200: all checks ok"
