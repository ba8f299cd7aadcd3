// Atomics as NvidiaTargetInfo emits them keep their NVPTX sync scope; LLVM
// 22 drops the ordering of atomicrmw (relaxed atom), hence the fences around
// it, while cmpxchg keeps it. __nv_* math calls are resolved from libdevice,
// so no call is left in the PTX.
// REQUIRES: libdevice
// RUN: tle-plugin-compile %s --target h200 --emit=asm | FileCheck %s

// CHECK: .entry atomics_math(
// CHECK-NOT: __nv_expf
// CHECK: ex2.approx
// CHECK: fence.acq_rel.gpu;
// CHECK-NEXT: atom.global.add.f32
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK: fence.acq_rel.cta;
// CHECK-NEXT: atom.shared.add.u32
// CHECK-NEXT: fence.acq_rel.cta;
// CHECK: atom.acq_rel.gpu.global.cas.b32
// CHECK-NOT: call

module attributes {tle.num_warps = 1 : i32} {
  llvm.mlir.global external @tle_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @__nv_expf(f32) -> f32

  llvm.func @atomics_math(%sum: !llvm.ptr<1>, %flag: !llvm.ptr<1>, %v: f32) attributes {tle.kernel} {
    %e = llvm.call @__nv_expf(%v) : (f32) -> f32
    llvm.fence syncscope("device") release
    %old = llvm.atomicrmw fadd %sum, %e syncscope("device") monotonic : !llvm.ptr<1>, f32
    llvm.fence syncscope("device") acquire
    %smem = llvm.mlir.addressof @tle_shared : !llvm.ptr<3>
    %one = llvm.mlir.constant(1 : i32) : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    llvm.fence syncscope("block") release
    %count = llvm.atomicrmw add %smem, %one syncscope("block") monotonic : !llvm.ptr<3>, i32
    llvm.fence syncscope("block") acquire
    %pair = llvm.cmpxchg %flag, %zero, %count syncscope("device") acq_rel monotonic : !llvm.ptr<1>, i32
    llvm.return
  }
}
