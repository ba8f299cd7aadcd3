#!/usr/bin/env bash
# Builds everything and runs every test suite (lit IR tests, GoogleTest units,
# fuzz smoke runs) through one lit invocation. Exit status is non-zero on any failure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TLE_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/build.sh" "$BUILD"
"/usr/lib/llvm-22/bin/lit" -sv "$BUILD/tests"
