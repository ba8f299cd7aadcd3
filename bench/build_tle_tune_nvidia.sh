#!/usr/bin/env bash
# Builds bench/bin/tle-tune-nvidia here: tle-tune's measuring half (run,
# compare, report, pick) with the NVIDIA runtime linked in, for the benchmark
# machine, which has no LLVM 22. LLVM Support, zlib, zstd and libstdc++ are
# linked statically, as for tle-run-nvidia (build_tle_run_nvidia.sh).
#
# XGBoost: Debian ships only the shared libxgboost.so.0 (no libxgboost.a), so
# it is carried: bench/bin/lib/ gets libxgboost.so.0 and the libraries it
# needs that a bare machine may lack (libdmlc.so.0, libgomp.so.1,
# libstdc++.so.6, libgcc_s.so.1), and the binary finds them through RPATH
# $ORIGIN/lib (DT_RPATH, not RUNPATH: only RPATH is also searched for the
# libraries that libxgboost itself needs). The script checks with ldd that
# each carried library resolves into bench/bin/lib and nothing is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/bench/bin"
mkdir -p "$OUT/lib"
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-22}
CXXFLAGS=$($LLVM_CONFIG --cxxflags)
LIBDIR=/usr/lib/x86_64-linux-gnu
XGB=()
if [ -e "$LIBDIR/libxgboost.so.0" ] && [ -e /usr/include/xgboost/c_api.h ]; then
  XGB=(-DTLE_HAVE_XGBOOST -L"$OUT/lib" -l:libxgboost.so.0)
  for l in libxgboost.so.0 libdmlc.so.0 libgomp.so.1 libstdc++.so.6 libgcc_s.so.1; do
    cp -L "$LIBDIR/$l" "$OUT/lib/$l"
  done
else
  echo "build_tle_tune_nvidia: libxgboost-dev missing: the device binary ranks with the analytic estimate only" >&2
fi
SRC=(
  "$ROOT/bench/tle-tune-nvidia.cpp" "$ROOT/tools/tle-tune/TleTune.cpp"
  "$ROOT/core/runtime/Runtime.cpp" "$ROOT/vendor_plugins/nvidia/NvidiaRuntime.cpp"
)
for f in CandidateBundle ConfigSpace CostModel DeviceMeasurer Evaluation Expr \
         Features ResultsDB Search Tuner TuneSpec; do
  SRC+=("$ROOT/core/tune/$f.cpp")
done
# One object per source (through ccache when present, so that a rebuild
# after a small change is quick), then one link.
CXX=(clang++-22)
command -v ccache >/dev/null && CXX=(ccache clang++-22)
OBJ=$(mktemp -d)
trap 'rm -rf "$OBJ"' EXIT
pids=()
for i in "${!SRC[@]}"; do
  "${CXX[@]}" -O2 $CXXFLAGS "${XGB[@]:0:1}" -I"$ROOT" -I"$ROOT/backends/include" \
    -c "${SRC[$i]}" -o "$OBJ/$i.o" &
  pids+=($!)
  if [ ${#pids[@]} -ge "${JOBS:-2}" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
clang++-22 "$OBJ"/*.o \
  -fuse-ld=lld-22 -static-libstdc++ -static-libgcc \
  -L"$($LLVM_CONFIG --libdir)" -Wl,-Bstatic \
  $($LLVM_CONFIG --link-static --libs support) -lz -lzstd \
  -Wl,-Bdynamic "${XGB[@]:1}" -Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/lib' \
  -ldl -lpthread -lrt \
  -o "$OUT/tle-tune-nvidia"
# Everything it needs must be glibc's, the driver's (loaded at run time) or
# in lib/.
MISSING=$(env -i PATH=/usr/bin:/bin ldd "$OUT/tle-tune-nvidia" | grep -E 'not found' || true)
if [ -n "$MISSING" ]; then
  echo "build_tle_tune_nvidia: error: missing libraries: $MISSING" >&2
  exit 1
fi
if [ ${#XGB[@]} -gt 0 ]; then
  for l in libxgboost.so.0 libdmlc.so.0 libgomp.so.1 libstdc++.so.6 libgcc_s.so.1; do
    if ! env -i PATH=/usr/bin:/bin ldd "$OUT/tle-tune-nvidia" | grep -F "$l => $OUT/lib/$l" >/dev/null; then
      echo "build_tle_tune_nvidia: error: $l does not resolve into $OUT/lib" >&2
      exit 1
    fi
  done
fi
ldd "$OUT/tle-tune-nvidia" | grep -v -E 'linux-vdso|ld-linux|libc\.so|libm\.so|libpthread|libdl|librt' | sed 's/^/  needs /' >&2 || true
echo "$OUT/tle-tune-nvidia"
