#!/usr/bin/env bash
# The main job: build TLE, then compile every example kernel to verified tile
# IR with the arguments recorded in its `# tlec-args:` line, and finally run
# one kernel on the CPU's SPIR-V device (PoCL through OpenCL) and check it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TLE_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/build.sh" "$BUILD" tlec tle-opt tle-hwdesc tle-run tle-spirv

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

# Vector add for the CPU SPIR-V description, compiled into a bundle
# (docs/bundle.md) with the arguments of its '# tlec-args:' line, run on
# 100000 elements (the last block ragged) and checked element by element
# against $0+$1.
BUNDLE="$OUT/bundle"
n=100000
if TLE_SPIRV_VALIDATE=1 "$BUILD/bin/tlec" "$ROOT/examples/vector_add.py" --args-from-source \
     --target cpu-spirv -o "$BUNDLE" &&
   "$BUILD/bin/tle-run" "$BUNDLE/add_kernel/add_kernel.cpu-spirv.spv" --grid $(( (n + 1023) / 1024 )) \
     --num-warps 4 --repeat 0 --arg buf:f32:N=$n --arg buf:f32:N=$n \
     --arg "out:f32:N=$n:expr=\$0+\$1" --arg i32:$n; then
  echo "ok    vector_add on the CPU through SPIR-V"
else
  echo "FAIL  vector_add on the CPU through SPIR-V"
  status=1
fi
exit $status
