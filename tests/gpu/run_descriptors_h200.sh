#!/usr/bin/env bash
# Run ON the GPU machine after tests/gpu/prepare_descriptors_h200.sh, with
# tests/gpu/bin carried along:
#   run(command="bash tests/gpu/run_descriptors_h200.sh", carry=["tests/gpu/bin"])
# Launches the host-descriptor matmul through tle-run (the C++ runtime:
# tensor maps built with cuTensorMapEncodeTiled from the arguments, or global
# scratch for maps written in the kernel), checks every element of the
# ragged product against the fp16 reference, times it, and prints a table.
# Exits non-zero if a check fails. Never touches the card's settings.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
RUN=${TLE_RUN:-tests/gpu/bin/tle-run-nvidia}
K=tests/gpu/bin/descriptors
M=1000 N=768 KD=520
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
FAILED=0
ROWS=()
for variant in launch in-kernel; do
  bundle="$K/$variant/matmul_host_descriptor_kernel"
  # A, B and C, each as base, shape and leading stride; then M, N, K.
  log=$("$RUN" "$bundle/matmul_host_descriptor_kernel.H200.cubin" \
    --grid $(( (M + 127) / 128 * (N / 128) )) --num-warps 4 --repeat 20 \
    --arg buf:f16:N=${M}x${KD}:file=$K/ref/a.bin --arg i32:$M --arg i32:$KD --arg i64:$KD \
    --arg buf:f16:N=${KD}x${N}:file=$K/ref/b.bin --arg i32:$KD --arg i32:$N --arg i64:$N \
    --arg out:f16:N=${M}x${N}:ref=$K/ref/c.bin --arg i32:$M --arg i32:$N --arg i64:$N \
    --arg i32:$M --arg i32:$N --arg i32:$KD 2>&1)
  echo "== $variant"
  echo "$log"
  check=$(echo "$log" | grep '^check:' | sed 's/.*relative error/relative error/')
  time=$(echo "$log" | grep -o '[0-9.]* ms' | head -1)
  if ! echo "$log" | grep -q '^check:.*: ok$'; then
    FAILED=1
    check="FAILED ${check:-(no check)}"
  fi
  ROWS+=("| $variant maps | $check | ${time:-?} |")
done
echo "| host-descriptor matmul 1000x768x520 fp16 | check against tle-reference | time |"
echo "| --- | --- | --- |"
printf '%s\n' "${ROWS[@]}"
exit $FAILED
