#!/usr/bin/env bash
# Builds bench/bin/tle-run-nvidia here: tle-run with the NVIDIA runtime
# linked in and LLVM Support, zlib, zstd and libstdc++ linked statically, so
# that it runs on the benchmark machine, which has no LLVM 22 (it needs only
# glibc and, at run time, the driver's libcuda.so.1).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/bench/bin"
mkdir -p "$OUT"
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-22}
# LLVM's own compile flags: its include path, defines and -fno-exceptions.
CXXFLAGS=$($LLVM_CONFIG --cxxflags)
clang++-22 -O2 $CXXFLAGS -I"$ROOT" -I"$ROOT/backends/include" \
  "$ROOT/bench/tle-run-nvidia.cpp" "$ROOT/tools/tle-run/TleRun.cpp" \
  "$ROOT/core/runtime/Runtime.cpp" "$ROOT/vendor_plugins/nvidia/NvidiaRuntime.cpp" \
  -fuse-ld=lld-22 -static-libstdc++ -static-libgcc \
  -L"$($LLVM_CONFIG --libdir)" -Wl,-Bstatic \
  $($LLVM_CONFIG --link-static --libs support) -lz -lzstd \
  -Wl,-Bdynamic -ldl -lpthread -lrt \
  -o "$OUT/tle-run-nvidia"
echo "$OUT/tle-run-nvidia"
