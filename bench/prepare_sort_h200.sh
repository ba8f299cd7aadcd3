#!/usr/bin/env bash
# Run HERE before bench/sort_h200.py on the device machine (carry bench/bin):
# compiles bench/sort_kernels.py's row_sort_kernel (tl.sort of one row per
# program, fp32, 4 warps) for the H200 at rows of 256, 1024 and 4096, into
# bench/bin/sort with bench/bin/sort/kernels.json.
# With CORE=DIR, a second set "variant" is compiled with the core libraries
# found first in DIR (LD_LIBRARY_PATH over the build's RUNPATH), e.g. a
# libTLEConversion.so from before a change, to time the change in one run.
# Usage: bench/prepare_sort_h200.sh [BUILD_DIR]   (default: build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
OUT="$ROOT/bench/bin/sort"
rm -rf "$OUT" && mkdir -p "$OUT"
entries=()
compile() { # name n [LD_LIBRARY_PATH]
  local name=$1 n=$2 d="$OUT/tmp"
  rm -rf "$d"
  LD_LIBRARY_PATH="${3:-}" "$BUILD/bin/tlec" "$ROOT/bench/sort_kernels.py" \
    --kernel row_sort_kernel --target h200 --num-warps 4 --no-cache -o "$d" \
    -D N="$n" -D DESCENDING=0 --signature '*fp32:16, *fp32:16' >/dev/null
  local dyn
  dyn=$(python3 "$ROOT/bench/dynamic_shared.py" "$d/row_sort_kernel/manifest.json")
  local file="sort.$name.$n.h200.cubin"
  mv "$d"/row_sort_kernel/row_sort_kernel.*.cubin "$OUT/$file"
  rm -rf "$d"
  entries+=("{\"name\": \"$name\", \"file\": \"$file\", \"n\": $n, \"num_warps\": 4, \"dynamic_shared_bytes\": $dyn}")
  echo "compiled $file"
}
for n in 256 1024 4096; do
  compile tlec "$n"
  if [ -n "${CORE:-}" ]; then
    compile variant "$n" "$CORE"
  fi
done
( IFS=,; echo "[${entries[*]}]" ) > "$OUT/kernels.json"
python3 -m json.tool "$OUT/kernels.json" > /dev/null
echo "wrote $OUT/kernels.json (${#entries[@]} kernels)"
