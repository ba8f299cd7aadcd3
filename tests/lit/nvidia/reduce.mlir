// A block sum in distributed IR: butterfly shuffles inside each warp, one
// partial per warp in shared memory, a block barrier, then the first warp
// adds the partials. num_warps comes from the function here (8 warps).
// RUN: tle-plugin-compile %s --target h200 --emit=asm | FileCheck %s

// CHECK: .target sm_90a
// CHECK: .extern .shared .align 16 .b8 tle_shared[];
// CHECK: .entry block_sum(
// CHECK: .reqntid 256, 1, 1
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared
// CHECK: shfl.sync.down.b32
// CHECK: bar.warp.sync -1;
// CHECK: st.global.b32

module {
  llvm.mlir.global external @tle_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

  llvm.func @block_sum(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>)
      attributes {tle.kernel, tle.num_warps = 8 : i32, tle.shared_memory = 32 : i64} {
    %full = llvm.mlir.constant(-1 : i32) : i32
    %clamp = llvm.mlir.constant(31 : i32) : i32
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %c5 = llvm.mlir.constant(5 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c16 = llvm.mlir.constant(16 : i32) : i32
    %c31 = llvm.mlir.constant(31 : i32) : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %in[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    %s16 = nvvm.shfl.sync bfly %full, %v, %c16, %clamp : f32 -> f32
    %a16 = llvm.fadd %v, %s16 : f32
    %s8 = nvvm.shfl.sync bfly %full, %a16, %c8, %clamp : f32 -> f32
    %a8 = llvm.fadd %a16, %s8 : f32
    %s4 = nvvm.shfl.sync bfly %full, %a8, %c4, %clamp : f32 -> f32
    %a4 = llvm.fadd %a8, %s4 : f32
    %s2 = nvvm.shfl.sync bfly %full, %a4, %c2, %clamp : f32 -> f32
    %a2 = llvm.fadd %a4, %s2 : f32
    %s1 = nvvm.shfl.sync bfly %full, %a2, %c1, %clamp : f32 -> f32
    %a1 = llvm.fadd %a2, %s1 : f32
    %smem = llvm.mlir.addressof @tle_shared : !llvm.ptr<3>
    %warp = llvm.lshr %tid, %c5 : i32
    %lane = llvm.and %tid, %c31 : i32
    %slot = llvm.getelementptr %smem[%warp] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %first = llvm.icmp "eq" %lane, %c0 : i32
    llvm.cond_br %first, ^write, ^sync
  ^write:
    llvm.store %a1, %slot {alignment = 4 : i64} : f32, !llvm.ptr<3>
    llvm.br ^sync
  ^sync:
    nvvm.barrier0
    %w0 = llvm.icmp "eq" %warp, %c0 : i32
    llvm.cond_br %w0, ^final, ^exit
  ^final:
    %in8 = llvm.icmp "slt" %lane, %c8 : i32
    %part = llvm.getelementptr %smem[%lane] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %ld = llvm.load %part {alignment = 4 : i64} : !llvm.ptr<3> -> f32
    %x = llvm.select %in8, %ld, %zero : i1, f32
    %d4 = nvvm.shfl.sync down %full, %x, %c4, %clamp : f32 -> f32
    %b4 = llvm.fadd %x, %d4 : f32
    %d2 = nvvm.shfl.sync down %full, %b4, %c2, %clamp : f32 -> f32
    %b2 = llvm.fadd %b4, %d2 : f32
    %d1 = nvvm.shfl.sync down %full, %b2, %c1, %clamp : f32 -> f32
    %b1 = llvm.fadd %b2, %d1 : f32
    nvvm.bar.warp.sync %full : i32
    %only = llvm.icmp "eq" %lane, %c0 : i32
    llvm.cond_br %only, ^store, ^exit
  ^store:
    llvm.store %b1, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}
