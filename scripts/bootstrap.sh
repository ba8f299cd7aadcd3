#!/usr/bin/env bash
# Installs every Debian package the build and the tests need. Idempotent: when
# everything is present it only runs dpkg-query and returns in well under a second.
set -euo pipefail

PACKAGES=(
  # LLVM/MLIR 22 (from bookworm-security on Debian 12)
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  libclang-rt-22-dev  # libFuzzer for the fuzz targets
  # Build
  cmake ninja-build ccache pkg-config
  # Libraries
  libyaml-cpp-dev libboost-dev googletest libzstd-dev zlib1g-dev libedit-dev libcurl4-openssl-dev libxml2-dev
  # The autotuner's cost model (tle-tune): XGBoost's C API
  libxgboost-dev
  # SPIR-V tooling and CPU execution: spirv-val; the OpenCL ICD loader and
  # PoCL's CPU device; llvm-spirv-15 turns SPIR-V into the SPIR 1.2 bitcode
  # that Debian's PoCL (LLVM 15) takes
  spirv-tools ocl-icd-libopencl1 pocl-opencl-icd llvm-spirv-15
  # Tests
  python3
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "bootstrap: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
  echo "bootstrap: error: could not install: ${missing[*]}" >&2
  echo "bootstrap: LLVM/MLIR 22 come from Debian 12's bookworm-security suite; check that it is in the apt sources." >&2
  exit 1
fi
