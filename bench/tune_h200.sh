#!/usr/bin/env bash
# Run ON THE DEVICE (H200) after bench/prepare_tune_h200.sh here, with
# bench/bin carried. In one run:
#   1. every candidate checked against the host reference on one small shape
#      (wrong results and launch failures are recorded, not fatal, and those
#      candidates are left out of steps 2 and 3);
#   2. the tuner over the 75 evaluation shapes of
#      bench/tune/llm_shapes_eval.txt (layers of other models and other token
#      counts than the training shapes): XGBoost is first trained on
#      bench/tune/train_h200.tsv (an earlier exhaustive H200 run over the 60
#      shapes of bench/tune/llm_shapes.txt), then per shape: the fastest
#      configs of the SEEDS nearest training shapes are measured, then the
#      TOPK best-ranked, a genetic search spends the rest of BUDGET, and the
#      model is retrained with the shape's measurements (weight OWN_WEIGHT
#      each);
#   3. exhaustive search over the same candidates and shapes (stops
#      resumably after EXH_SECONDS);
#   4. the comparison: geometric mean of tuner pick / exhaustive best (both
#      timed by the exhaustive run), configurations measured by each, ratio;
#      and an HTML report.
# Results, report and log go to $OUT (the device tool's output folder) or
# /tmp/tle-tune-out.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
T=bench/bin/tle-tune-nvidia
# TLE_TUNE_SYNTHETIC=1: a dry run without a GPU (synthetic timings), to check
# this script here.
SYN=()
[ "${TLE_TUNE_SYNTHETIC:-0}" = 1 ] && SYN=(--synthetic)
B=bench/bin/tune/matmul_fp16
R="${OUT:-/tmp/tle-tune-out}"
mkdir -p "$R"
# Chosen offline with `tle-tune simulate` and leave-shapes-out validation on
# the training data (docs/tune.md, "Choosing the strategy offline").
SHAPES=${SHAPES:-bench/tune/llm_shapes_eval.txt}
TRAIN=${TRAIN-bench/tune/train_h200.tsv}  # TRAIN= (empty): no training file
BUDGET=${BUDGET:-5} TOPK=${TOPK:-2} WARM=${WARM:-0} WARM_BUDGET=${WARM_BUDGET:-12}
SEEDS=${SEEDS:-2} OWN_WEIGHT=${OWN_WEIGHT:-20}
MODEL=(--model-depth 7 --model-rounds 100 --model-eta 0.1)
EXH_SECONDS=${EXH_SECONDS:-330}
TRAIN_ARGS=()
[ -n "$TRAIN" ] && TRAIN_ARGS=(--train-db "$TRAIN" --seeds "$SEEDS" --own-weight "$OWN_WEIGHT")
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
echo "== candidates (compiled ahead of time on the development machine)"
python3 - "$B/index.json" <<'PY'
import json, sys
idx = json.load(open(sys.argv[1]))
print("counts:", idx["counts"], "axes:", {a["name"]: a["values"] for a in idx["axes"]})
PY
# The training file describes the binaries of one bundle: a recompiled
# bundle (bench/prepare_tune_h200.sh with another compiler) runs other code,
# and the model trained on the old timings ranks it less well.
if [ -n "$TRAIN" ]; then
  want=$(sed -n 's/^# bundle-index-sha256: *\([0-9a-f]*\).*/\1/p' "$TRAIN" | head -1)
  have=$(sha256sum "$B/index.json" | cut -d' ' -f1)
  if [ -n "$want" ] && [ "$want" != "$have" ]; then
    echo "WARNING: $B is not the bundle $TRAIN was measured on (index.json sha256 $have, expected $want)"
  else
    echo "training file $TRAIN matches the bundle (index.json sha256 ${have:0:16}...)"
  fi
fi
echo "== 1. validation (256x256x512, host reference)"
$T run "$B" "${SYN[@]}" --shapes bench/tune/validate_shapes.txt --db "$R/validate.tsv" \
  --mode exhaustive --check-limit 100000000
echo "validation failures: $(grep -c -E 'wrong-result|launch-failed' "$R/validate.tsv" || true)"
grep -E 'wrong-result|launch-failed' "$R/validate.tsv" | cut -f5-8 | head -20 || true
echo "== 2. tuner"
start=$(date +%s)
$T run "$B" "${SYN[@]}" --shapes "$SHAPES" --db "$R/results.tsv" --mode tuner \
  --exclude-failed-in "$R/validate.tsv" "${TRAIN_ARGS[@]}" "${MODEL[@]}" \
  --budget "$BUDGET" --top-k "$TOPK" --warm-shapes "$WARM" --warm-budget "$WARM_BUDGET" \
  --target-ms 0.5 --check-limit 0
echo "tuner wall time: $(( $(date +%s) - start )) s"
echo "== 3. exhaustive"
tuner_s=$(( $(date +%s) - start ))
start=$(date +%s)
$T run "$B" "${SYN[@]}" --shapes "$SHAPES" --db "$R/results.tsv" --mode exhaustive \
  --exclude-failed-in "$R/validate.tsv" \
  --target-ms 0.5 --check-limit 0 --time-budget "$EXH_SECONDS"
exh_s=$(( $(date +%s) - start ))
echo "exhaustive wall time: $exh_s s"
echo "== 4. comparison"
$T compare --db "$R/results.tsv" | tee "$R/compare.md"
$T report --db "$R/results.tsv" -o "$R/report.html"
echo "failures during timing: $(grep -c -E 'wrong-result|launch-failed' "$R/results.tsv" || true)"
echo "== summary"
echo "tuner: $tuner_s s wall, exhaustive: $exh_s s wall (budget $EXH_SECONDS s)"
tail -3 "$R/compare.md"
