// What the plugin refuses, each in one line that names the cause.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not tle-plugin-compile %s --target h200 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// RUN: not env TLE_HWDESC_PATH=%S/Inputs tle-plugin-compile %S/vector-add.mlir --target sm99-chip 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not tle-plugin-compile %S/Inputs/copy.mlir --target h200 --num-warps 64 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not env CUDA_HOME=%t tle-plugin-compile %S/atomics-math.mlir --target h200 2>&1 | FileCheck %s --check-prefix=LIBDEVICE

// NOKERNEL: tle-plugin-compile: error: target h200: nvidia plugin: no llvm.func is marked 'tle.kernel' (see 'Distributed IR' in backends/README.md)
// ARCH: tle-plugin-compile: error: target sm99-chip: nvidia plugin: LLVM's NVPTX backend does not know arch 'sm_99' of SM99
// WARPS: tle-plugin-compile: error: target h200: nvidia plugin: 64 warps are 2048 threads; H200 allows 1024 per block
// LIBDEVICE: tle-plugin-compile: error: target h200: nvidia plugin: the kernel calls __nv_expf, but libdevice.10.bc was not found (set CUDA_HOME to a CUDA toolkit)

module {
  llvm.func @not_marked(%x: !llvm.ptr<1>) {
    llvm.return
  }
}
