#!/usr/bin/env bash
# Run HERE before tests/gpu/run_descriptors_h200.sh on the GPU machine:
# compiles the matmul through host tensor descriptors
# (examples/matmul_descriptor.py matmul_host_descriptor_kernel, tensordesc
# arguments) for the H200 twice, with the tensor maps the launcher builds
# (the manifest's tensor_maps) and with maps written in the kernel
# (--disable-opt=launch-tensor-maps: global scratch), as bundles whose
# manifests tle-run reads, plus a ragged product's inputs and fp16
# reference (M=1000, N=768, K=520: the last row tile and K step partial,
# rows of 1040 and 1536 bytes), into tests/gpu/bin (git-ignored; carry it:
# carry=["tests/gpu/bin"]), with tle-run-nvidia.
# Usage: tests/gpu/prepare_descriptors_h200.sh [BUILD_DIR]   (default: build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" && pwd)"
BIN="$ROOT/tests/gpu/bin"
K="$BIN/descriptors"
rm -rf "$K" && mkdir -p "$K"
bash "$ROOT/bench/build_tle_run_nvidia.sh" >/dev/null
cp "$ROOT/bench/bin/tle-run-nvidia" "$BIN/"
for variant in launch in-kernel; do
  "$BUILD/bin/tlec" "$ROOT/examples/matmul_descriptor.py" \
    --kernel matmul_host_descriptor_kernel --target h200 --num-warps 4 \
    --num-stages 3 -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 \
    -D GROUP_SIZE_M=8 --no-cache -o "$K/$variant" \
    $([ "$variant" = in-kernel ] && echo --disable-opt=launch-tensor-maps) \
    --signature 'tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, i32:16, i32:16, i32:16'
done
"$BUILD/bin/tle-reference" matmul --m 1000 --n 768 --k 520 --activation none \
  --seed 7 --out "$K/ref"
