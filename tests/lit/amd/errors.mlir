// What the plugin refuses, each in one line that names the cause.
// RUN: not tle-plugin-compile %s --target mi300x 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// RUN: not env TLE_HWDESC_PATH=%S/Inputs tle-plugin-compile %S/vector-add.mlir --target gfx999-chip 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not env TLE_HWDESC_PATH=%S/Inputs tle-plugin-compile %S/vector-add.mlir --target wave32-cdna 2>&1 | FileCheck %s --check-prefix=WAVE32
// RUN: not tle-plugin-compile %S/Inputs/copy.mlir --target mi250x --num-warps 32 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not tle-plugin-compile %S/Inputs/ocml.mlir --target mi300x 2>&1 | FileCheck %s --check-prefix=OCML
// RUN: not tle-plugin-compile %S/Inputs/tanh.mlir --target mi250x 2>&1 | FileCheck %s --check-prefix=TANH
// RUN: not env TLE_AMD_LLD=%t.none/ld.lld tle-plugin-compile %S/Inputs/copy.mlir --target mi300x 2>&1 | FileCheck %s -DLLD=%t.none/ld.lld --check-prefix=NOLLD

// NOKERNEL: tle-plugin-compile: error: target mi300x: amd plugin: no llvm.func is marked 'tle.kernel' (see 'Distributed IR' in backends/README.md)
// ARCH: tle-plugin-compile: error: target gfx999-chip: amd plugin: LLVM's AMDGPU backend does not know arch 'gfx999' of GFX999
// WAVE32: tle-plugin-compile: error: target wave32-cdna: amd plugin: WAVE32: gfx942 runs 64-lane wavefronts only, but the description says parallel.warp_size 32
// WARPS: tle-plugin-compile: error: target mi250x: amd plugin: 32 wavefronts are 2048 work-items; MI250X allows 1024 per work-group
// OCML: tle-plugin-compile: error: target mi300x: amd plugin: the kernel calls '__ocml_erf_f32', which is not defined; the amd plugin links no device libraries (ROCm's ocml/ockl are not used), so every function must come with the kernel and math must lower to LLVM intrinsics
// TANH: tle-plugin-compile: error: target mi250x: amd plugin: LLVM's AMDGPU backend cannot compile the kernel for gfx90a: no libcall available for ftanh (math functions without an AMDGPU instruction sequence, such as tanh, need ROCm's device libraries, which this plugin does not use)
// NOLLD: tle-plugin-compile: error: target mi300x: amd plugin: [[LLD]] is not an executable program; the code object is linked with ld.lld (set TLE_AMD_LLD to one)

module {
  llvm.func @not_marked(%x: !llvm.ptr<1>) {
    llvm.return
  }
}
