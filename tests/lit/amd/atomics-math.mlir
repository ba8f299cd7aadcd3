// What AmdTargetInfo emits, compiled without ROCm's device libraries: math
// intrinsics expanded by the AMDGPU backend (no call is left), acq_rel
// atomics at agent scope on global memory and workgroup scope on LDS, the
// block barrier, a ds_bpermute lane exchange, the work-group count read from
// the dispatch packet, and tle.shared_memory as dynamic LDS.
// REQUIRES: ld.lld
// RUN: tle-plugin-compile %s --target mi300x --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: tle-plugin-compile %s --target mi250x --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX90A
// RUN: tle-plugin-compile %s --target mi300x --emit=info | FileCheck %s --check-prefix=INFO

// gfx942 has a global fp32 atomic add that honours agent scope (with the
// L2 writeback/invalidate of acq_rel around it); gfx90a's is not safe on
// fine-grained memory, so LLVM makes a compare-exchange loop there.
// CHECK: atomics_math:
// CHECK-DAG: v_exp_f32
// CHECK-DAG: v_log_f32
// CHECK-DAG: v_sqrt_f32
// GFX942-DAG: buffer_wbl2 sc1
// GFX942-DAG: global_atomic_add_f32
// GFX942-DAG: buffer_inv sc1
// GFX90A-DAG: global_atomic_cmpswap
// CHECK-DAG: ds_add_rtn_u32
// CHECK-DAG: s_barrier
// CHECK-DAG: ds_bpermute_b32
// CHECK-DAG: s_load_dword {{s[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0xc
// CHECK-NOT: s_swappc
// CHECK-NOT: s_call
// CHECK: .amdhsa_user_sgpr_dispatch_ptr 1
// CHECK: .end_amdhsa_kernel
// The dynamic LDS array starts at LDS address 0: no static LDS, and no
// hidden kernel arguments are left once LLVM proved them unused.
// CHECK: .group_segment_fixed_size: 0
// CHECK: .kernarg_segment_size: 20
// CHECK: .wavefront_size: 64

// INFO: threads-per-block: 128
// INFO-NEXT: shared-memory: 1024
// INFO: spill-stores: 0

module attributes {tle.num_warps = 2 : i32} {
  llvm.mlir.global external @tle_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

  llvm.func @atomics_math(%sum: !llvm.ptr<1>, %out: !llvm.ptr<1>, %v: f32) attributes {tle.kernel, tle.shared_memory = 1024 : i64} {
    %e = llvm.intr.exp(%v) : (f32) -> f32
    %l = llvm.intr.log(%e) : (f32) -> f32
    %s = llvm.intr.sqrt(%l) : (f32) -> f32
    %old = llvm.atomicrmw fadd %sum, %s syncscope("agent") acq_rel : !llvm.ptr<1>, f32
    %smem = llvm.mlir.addressof @tle_shared : !llvm.ptr<3>
    %one = llvm.mlir.constant(1 : i32) : i32
    %cnt = llvm.atomicrmw add %smem, %one syncscope("workgroup") acq_rel : !llvm.ptr<3>, i32
    llvm.fence syncscope("workgroup") release
    rocdl.s.barrier
    llvm.fence syncscope("workgroup") acquire
    %m1 = llvm.mlir.constant(-1 : i32) : i32
    %z = llvm.mlir.constant(0 : i32) : i32
    %lo = rocdl.mbcnt.lo %m1, %z : (i32, i32) -> i32
    %lane = rocdl.mbcnt.hi %m1, %lo : (i32, i32) -> i32
    %x1 = llvm.xor %lane, %one : i32
    %two = llvm.mlir.constant(2 : i32) : i32
    %addr = llvm.shl %x1, %two : i32
    %bits = llvm.bitcast %old : f32 to i32
    %moved = rocdl.ds_bpermute %addr, %bits : (i32, i32) -> i32
    %packet = llvm.call_intrinsic "llvm.amdgcn.dispatch.ptr"() : () -> !llvm.ptr<4>
    %gp = llvm.getelementptr %packet[12] : (!llvm.ptr<4>) -> !llvm.ptr<4>, i8
    %grid = llvm.load %gp invariant {alignment = 4 : i64} : !llvm.ptr<4> -> i32
    %r = llvm.add %moved, %grid : i32
    %r2 = llvm.add %r, %cnt : i32
    llvm.store %r2, %out {alignment = 4 : i64} : i32, !llvm.ptr<1>
    llvm.return
  }
}
