#!/usr/bin/env bash
# Configures (once) and builds TLE. Usage: scripts/build.sh [BUILD_DIR] [ninja targets...]
# Runs the bootstrap first, so it works on a fresh Debian 12 machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
shift || true

bash "$ROOT/scripts/bootstrap.sh"

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja \
    -DCMAKE_BUILD_TYPE="${TLE_BUILD_TYPE:-Release}" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld-22 \
    -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld-22 \
    -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld-22
fi
ninja -C "$BUILD" "$@"
