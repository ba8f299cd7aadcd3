#!/usr/bin/env bash
# The main job: build TLE, then compile every example kernel to verified tile
# IR with the arguments recorded in its `# tlec-args:` line.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TLE_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/build.sh" "$BUILD" tlec tle-opt tle-hwdesc

OUT="$BUILD/examples"
mkdir -p "$OUT"
status=0
for kernel in "$ROOT"/examples/*.py; do
  args=$(sed -n 's/^# tlec-args: //p' "$kernel")
  name=$(basename "$kernel" .py)
  if [ -z "$args" ]; then
    echo "skip  $name (no '# tlec-args:' line)"
    continue
  fi
  if eval "\"$BUILD/bin/tlec\" \"$kernel\" --emit=tile-ir $args -o \"$OUT/$name.mlir\""; then
    ops=$(grep -c '^ *%\?[^ ]* *=\? *tle\.' "$OUT/$name.mlir" || true)
    echo "ok    $name -> $OUT/$name.mlir ($ops tle ops)"
  else
    echo "FAIL  $name"
    status=1
  fi
done
exit $status
