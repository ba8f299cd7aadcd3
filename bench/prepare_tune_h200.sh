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
# The training file bench/tune/train_h200.tsv was measured on the bundle
# compiled at 2026-12-03 05:28 (its index.json's sha256 is in the file).
# Running this script replaces the bundle with what today's compiler makes;
# bench/tune_h200.sh then warns that the training file describes other
# binaries. To make a training file for a new bundle, run the exhaustive
# search over bench/tune/llm_shapes.txt on the device
# (SHAPES=bench/tune/llm_shapes.txt TRAIN= bash bench/tune_h200.sh) and keep
# its exhaustive records (docs/tune.md).
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

# The training file and the evaluation shapes bench/tune_h200.sh uses.
for f in "$ROOT/bench/tune/train_h200.tsv" "$ROOT/bench/tune/llm_shapes_eval.txt"; do
  [ -s "$f" ] || { echo "prepare_tune_h200: $f is missing" >&2; exit 1; }
done
python3 - "$TUNE/matmul_fp16/index.json" "$ROOT/bench/tune/llm_shapes_eval.txt" <<'PY'
# Device-time estimate of bench/tune_h200.sh's exhaustive run (on the
# evaluation shapes), per candidate and shape. It overestimates: for the 60
# training shapes it gives ~202 s where run H measured 95 s (wall). Assumptions (say so when comparing with the real run): a
# candidate runs its padded work (M and N rounded up to its tiles) at
# 40 TFLOP/s, or streams the operands at 2.5 TB/s, whichever is slower, plus
# 5 us; a measurement is one warm-up launch plus two timings of R launches,
# R chosen so that a timing lasts >= 0.5 ms, plus 0.2 ms of host work.
import json, sys
idx = json.load(open(sys.argv[1]))
ok = [dict(kv.split("=") for kv in c["config"].split(","))
      for c in idx["candidates"] if c["status"] == "ok"]
shapes = [tuple(map(int, l.split()[:3])) for l in open(sys.argv[2])
          if l.strip() and not l.startswith("#")]
total = 0.0
for m, n, k in shapes:
    for c in ok:
        bm, bn = int(c["BLOCK_SIZE_M"]), int(c["BLOCK_SIZE_N"])
        mp, np_ = -(-m // bm) * bm, -(-n // bn) * bn
        t = max(2 * mp * np_ * k / 40e12, (m * k + k * n + m * n) * 2 / 2.5e12) + 5e-6
        reps = max(1, int(0.5e-3 / t + 0.999))
        total += t + 2 * reps * t + 0.2e-3
print(f"estimate: {len(ok)} candidates x {len(shapes)} shapes = "
      f"{len(ok) * len(shapes)} exhaustive measurements, ~{total:.0f} s of "
      f"device time, about half that in practice (tune_h200.sh stops it "
      f"resumably at EXH_SECONDS=330); tuner: {5 * len(shapes)} "
      f"measurements plus ~1 s of model training per shape on the host; "
      f"validation and start-up ~20 s")
PY
du -sh "$BIN/tle-tune-nvidia" "$BIN/lib" "$TUNE"
echo "carry: bench/bin (tle-tune-nvidia, lib/, tune/); limit 64 MiB: $(du -sm "$BIN" | cut -f1) MiB in bench/bin"
echo "device command: run(command=\"set -o pipefail; timeout 560 bash bench/tune_h200.sh 2>&1 | tee \$OUT/tune.log | tail -120\", carry=[\"bench/bin\"])"
