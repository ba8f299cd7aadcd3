#!/usr/bin/env bash
# Run HERE (the development machine) before tests/gpu/run_raw_h200.sh on the
# GPU machine, which has the NVIDIA driver but no LLVM 22: tlec compiles the
# TLE-Raw examples (and the one-device mesh example, the 8-bit float
# round trip of tests/lit/spirv/run-fp8.test and the 8-bit float matmul of
# tests/lit/nvidia/fp8-matmul.test) for the H200 here, and
# everything the run needs goes to tests/gpu/bin (git-ignored; carry it: carry=["tests/gpu/bin"]):
#   tests/gpu/bin/tle-run-nvidia        tle-run with the NVIDIA runtime linked in
#   tests/gpu/bin/raw/*.h200.cubin      the kernels (and their .ptx)
#   tests/gpu/bin/raw/*.shared          their dynamic shared memory bytes
#   tests/gpu/bin/raw/*.{i32,f16,f32}   inputs and reference outputs
# Usage: tests/gpu/prepare_raw_h200.sh [BUILD_DIR]   (default: build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" && pwd)"
BIN="$ROOT/tests/gpu/bin"
K="$BIN/raw"
TLEC="$BUILD/bin/tlec"
rm -rf "$K" && mkdir -p "$K"

bash "$ROOT/bench/build_tle_run_nvidia.sh" >/dev/null
cp "$ROOT/bench/bin/tle-run-nvidia" "$BIN/"

compile() { # example.py (or a path from the root) --kernel NAME -D... --signature ...
  local src=$1 name=$3
  shift
  [ -f "$ROOT/$src" ] || src="examples/$src"
  # A bundle, for its manifest: block-level scratch is dynamic shared memory,
  # whose size the launch passes (<kernel>.shared, read by run_raw_h200.sh).
  "$TLEC" "$ROOT/$src" --target h200 --no-cache -o "$K/bundle" "$@"
  cp "$K/bundle/$name/$name.H200.cubin" "$K/"
  python3 "$ROOT/bench/dynamic_shared.py" "$K/bundle/$name/manifest.json" \
    >"$K/$name.shared"
  rm -rf "$K/bundle"
  # The PTX too, to read when a check fails.
  "$TLEC" "$ROOT/$src" --target h200 --no-cache --emit=asm \
    -o "$K/$(basename "${src%.py}").h200.ptx" "$@"
}
compile raw_add.py --kernel raw_add_kernel -D BLOCK=256 \
  --signature '*i32:16, *i32:16, *i32:16, i32'
compile raw_warp_sum_ptx.py --kernel warp_sum_kernel -D BLOCK=128 --num-warps 4 \
  --signature '*i32, *i32, i32'
compile raw_cuda_device.py --kernel gelu_kernel -D BLOCK=1024 \
  --signature '*fp32:16, *fp32:16, i32'
compile raw_gemm_epilogue.py --kernel gemm_epilogue_kernel \
  -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 \
  --signature '*fp16:16, *fp16:16, *fp32:16, *fp32:16, fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32'
compile tests/lit/nvidia/Inputs/inline_asm.py --kernel fma_scalar -D BLOCK=256 \
  --signature '*fp32:16, *fp32:16, *fp32:16'
compile tests/lit/nvidia/Inputs/inline_asm.py --kernel packed -D BLOCK=1024 \
  --signature '*u8:16, *fp32:16, *i32:16, *fp32:16'
compile mesh_all_gather.py --kernel all_gather_sum -D DEVICES=1 -D BLOCKS=4 \
  -D BLOCK=256 --signature '*fp32:16, *fp32:16, *i32:16, *fp32:16'

compile tests/lit/spirv/Inputs/fp8_convert.py --kernel fp8_round_trip \
  -D BLOCK=256 --signature '*fp32:16, *fp8e4nv:16, *fp32:16, *fp8e5:16, *fp32:16, *fp8e4nv:16, i32'

# tl.dot on 8-bit floats (wgmma m64nNk32): B K-major (staged by cp.async)
# and row-major (stored from registers K-major), e4m3 and e5m2.
compile_as() { # alias source --kernel NAME ...: compile, files named alias
  local alias=$1 name=$4
  shift
  compile "$@"
  mv "$K/$name.H200.cubin" "$K/$alias.H200.cubin"
  mv "$K/$name.shared" "$K/$alias.shared"
  mv "$K/$(basename "${1%.py}").h200.ptx" "$K/$alias.h200.ptx"
}
FP8MM="tests/lit/nvidia/Inputs/fp8_matmul.py --kernel fp8_matmul --num-warps 4 --num-stages 3 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64"
for f in e4:fp8e4nv e5:fp8e5; do
  # shellcheck disable=SC2086
  compile_as "fp8_mm_${f%%:*}_kmajor" $FP8MM -D stride_bk=1 \
    --signature "*${f#*:}:16, *${f#*:}:16, *fp32:16, i32:16, i32:16, i32:16, i32:16"
  # shellcheck disable=SC2086
  compile_as "fp8_mm_${f%%:*}_rowb" $FP8MM -D stride_bn=1 \
    --signature "*${f#*:}:16, *${f#*:}:16, *fp32:16, i32:16, i32:16, i32:16, i32:16"
done

python3 "$ROOT/tests/gpu/raw_inputs.py" "$K" warp_sum 4096 gemm 256 192 128 0.5 \
  fp8_gemm 128 256 256
mkdir -p "$K/fp8"
python3 "$ROOT/tests/lit/spirv/Inputs/fp8_reference.py" "$K/fp8" 100000
# NaN of either sign and infinities (as tests/lit/spirv/run-fp8.test).
python3 -c "import struct, sys; d = sys.argv[1]
open(d + '/nan.bin', 'wb').write(struct.pack('<4I', 0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000))
open(d + '/nan_e4.bin', 'wb').write(bytes([0x7f, 0x7f, 0x7e, 0xfe]))
open(d + '/nan_e5.bin', 'wb').write(bytes([0x7f, 0x7f, 0x7b, 0xfb]))" "$K/fp8"
ls -l "$K"
echo "prepared $BIN; on the GPU machine: bash tests/gpu/run_raw_h200.sh (carry tests/gpu/bin)"
