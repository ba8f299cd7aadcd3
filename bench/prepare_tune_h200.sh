#!/usr/bin/env bash
# Run HERE (the development machine) before bench/tune_h200.sh on the device.
#
# Autotuning needs two machines: tlec (LLVM 22) compiles here, ahead of time,
# because the H200 machine has no LLVM 22; the device only measures. This
# script
#   1. builds bench/bin/tle-tune-nvidia (static; XGBoost and its libraries in
#      bench/bin/lib, found through RPATH $ORIGIN/lib),
#   2. enumerates the matmul's config space (examples/matmul.py's
#      @triton.autotune configs enlarged by bench/tune/matmul_fp16.json's
#      generator), prunes it against hwdesc/h200.yaml and compiles every
#      surviving config with tlec into the candidate bundle
#      bench/bin/tune/matmul_fp16 (index.json + one cubin per distinct
#      binary); configs that fail to compile or exceed the H200's resources
#      are recorded there and in bench/bin/tune/compile.tsv,
#   3. estimates the device time of bench/tune_h200.sh and prints the
#      command to run there.
#
# Usage: bench/prepare_tune_h200.sh [BUILD_DIR]   (default: build; needs
# tle-tune and tlec there)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
BIN="$ROOT/bench/bin"
TUNE="$BIN/tune"
for t in tle-tune tlec; do
  [ -x "$BUILD/bin/$t" ] || { echo "prepare_tune_h200: $BUILD/bin/$t is missing (scripts/build.sh $BUILD tle-tune tlec)" >&2; exit 1; }
done

bash "$ROOT/bench/build_tle_tune_nvidia.sh"

rm -rf "$TUNE" && mkdir -p "$TUNE"
SPEC="$ROOT/bench/tune/matmul_fp16.json"
"$BUILD/bin/tle-tune" space "$SPEC" --target h200
"$BUILD/bin/tle-tune" compile "$SPEC" --target h200 -o "$TUNE/matmul_fp16" \
  --tlec "$BUILD/bin/tlec" -j "${JOBS:-2}" --db "$TUNE/compile.tsv"

python3 - "$TUNE/matmul_fp16/index.json" "$ROOT/bench/tune/llm_shapes.txt" <<'PY'
# Device-time estimate of bench/tune_h200.sh's exhaustive run. Assumptions
# (say so when comparing with the real run): the average candidate reaches
# 50 TFLOP/s (the best ~170 at large shapes, small tiles far less); each
# measurement is one warm-up launch plus two timings of R launches, R chosen
# so that a timing lasts >= 0.5 ms (at least 1 launch), plus 0.3 ms of host
# work. The tuner measures ~1/50 as much.
import json, sys
idx = json.load(open(sys.argv[1]))
ok = sum(1 for c in idx["candidates"] if c["status"] == "ok")
shapes = [l.split()[:3] for l in open(sys.argv[2])
          if l.strip() and not l.startswith("#")]
total = 0.0
for m, n, k in shapes:
    t = 2 * int(m) * int(n) * int(k) / 50e12 + 8e-6
    reps = max(1, int(0.5e-3 / t + 0.999))
    total += t + 2 * reps * t + 0.3e-3
print(f"estimate: {ok} candidates x {len(shapes)} shapes = {ok * len(shapes)} "
      f"exhaustive measurements, ~{total * ok:.0f} s of device time "
      f"(+ tuner, validation and start-up, ~30 s)")
PY
du -sh "$BIN/tle-tune-nvidia" "$BIN/lib" "$TUNE"
echo "carry: bench/bin (tle-tune-nvidia, lib/, tune/); limit 64 MiB: $(du -sm "$BIN" | cut -f1) MiB in bench/bin"
echo "device command: run(command=\"set -o pipefail; timeout 560 bash bench/tune_h200.sh 2>&1 | tee \$OUT/tune.log | tail -120\", carry=[\"bench/bin\"])"
