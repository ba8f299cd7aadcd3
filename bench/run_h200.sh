#!/usr/bin/env bash
# Run ON the device machine (NVIDIA driver, Triton and PyTorch; no LLVM 22),
# after bench/prepare_h200.sh has filled bench/bin here and with bench/bin
# carried along, e.g. through the device tool:
#   run(command="bash bench/run_h200.sh", carry=["bench/bin"])
# Prints what the card is, checks tle-run's own paths once, then checks and
# times every kernel of bench/bin/kernels.json against PyTorch and Triton
# (bench/compare.py, bench/matmul.py), then the kernels through tensor
# descriptors (bench/matmul_descriptor.py, bench/attention.py), each
# printing its table last; exits non-zero when any of them found a wrong
# result or failed. Logs go to $OUT when set.
# Never touches the card's clocks or settings.
set -uo pipefail
rc=0
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUN=bench/bin/tle-run-nvidia
K=bench/bin/kernels
export PYTHONUNBUFFERED=1

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv

echo "== tle-run: random inputs, its own check against \$0+\$1, odd size"
$RUN $K/harness_add.h200.cubin --kernel harness_add --target h200 \
  --grid 1026 --num-warps 8 --arg buf:f32:N=1048593 --arg buf:f32:N=1048593 \
  --arg 'out:f32:N=1048593:expr=$0+$1' --arg i32:1048593 --repeat 20 || rc=1
echo "== tle-run: PTX compiled by the driver at load"
$RUN $K/harness_add.h200.ptx --kernel harness_add --target h200 \
  --grid 4 --num-warps 8 --arg buf:f32:N=4000:iota --arg buf:f32:N=4000:fill=0.5 \
  --arg 'out:f32:N=4000:expr=i+0.5' --arg i32:4000 --repeat 0 || rc=1
echo "== tle-run: errors carry the driver's message (both must fail)"
$RUN $K/harness_add.h200.cubin --kernel no_such_kernel --target h200 \
  --grid 1 --num-warps 8 --arg i32:1 && exit 1
$RUN $K/harness_add.h200.cubin --kernel harness_add --target h200 \
  --grid 1 --block-threads 4096 --arg buf:f32:N=4 --arg buf:f32:N=4 \
  --arg out:f32:N=4 --arg i32:4 --repeat 0 && exit 1

echo "== compare.py"
python3 bench/compare.py "$@" || rc=1
echo "== matmul.py"
python3 bench/matmul.py || rc=1
# The kernels through tensor descriptors (TMA), when their prepare scripts
# ran (bench/prepare_h200.sh runs them).
if [ -f bench/bin/matmul_descriptor.json ]; then
  echo "== matmul_descriptor.py"
  python3 bench/matmul_descriptor.py || rc=1
fi
if [ -f bench/bin/attention.json ]; then
  echo "== attention.py"
  python3 bench/attention.py || rc=1
fi
exit $rc
