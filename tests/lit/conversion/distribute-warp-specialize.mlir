// RUN: tle-opt %s --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s
// RUN: tle-opt %s --tle-assign-layouts | FileCheck %s --check-prefix=LAYOUT

// warp_specialize [4, 2]: the block has 6 warps; the consumer's tiles are
// laid out for its 4 warps, the producer's for its two.
// LAYOUT-DAG: #[[CONSUMER:.*]] = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// LAYOUT-DAG: #[[PRODUCER:.*]] = #tle.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
// LAYOUT: module attributes {tle.num_warps = 6 : i32
// LAYOUT: tle.load {{.*}} : tensor<128x!tle.ptr<f32, "block">, #[[CONSUMER]]>
// LAYOUT: tle_struct.copy {{.*}} : tensor<128x!tle.ptr<f32>, #[[PRODUCER]]>

// The barrier object: 8 bytes of block-level memory, initialized by thread
// 0, published by a block barrier. The consumer's reduction takes its
// scratch from the kernel's scratch, the producer's (running at the same
// time) from its own, placed after the buffer and the barrier.
// CHECK: module attributes {{{.*}}tle.num_warps = 6 : i32
// CHECK-LABEL: llvm.func @ws
// CHECK: %[[SCRATCH:.*]] = llvm.mlir.addressof @__tle_scratch
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[SCRATCH]][16]
// CHECK: %[[BAR:.*]] = llvm.getelementptr %[[SCRATCH]][528]
// CHECK: %[[TID:.*]] = arith.index_cast
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0_i32
// CHECK: scf.if %[[FIRST]] {
// CHECK:   llvm.inline_asm has_side_effects "test.barrier.init 1"
// CHECK: gpu.barrier
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32_i32
// Partition 0: warps 0-3, thread ids as they are; its block barriers are
// group barrier 1 of 128 threads.
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[WARP]], %c4_i32
// CHECK: scf.if %[[IN0]] {
// CHECK:   llvm.inline_asm has_side_effects "test.barrier.wait"
// CHECK:   llvm.inline_asm has_side_effects "test.group.barrier 1, 128"
// CHECK-NOT: gpu.barrier
// CHECK: } {tle.partition = array<i32: 0, 0, 4>}
// Partition 1: warps 4-5, thread ids from 128; the copy is synchronous on
// this target (no asynchronous copies), then the arrive: a group barrier
// of the producer's 64 threads, one arrival from its first thread.
// CHECK: scf.if %{{.*}} {
// CHECK:   %[[LOCAL:.*]] = arith.subi %[[TID]], %c128_i32
// CHECK:   llvm.store {{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK:   llvm.inline_asm has_side_effects "test.group.barrier 2, 64"
// CHECK:   %[[PFIRST:.*]] = arith.cmpi eq, %[[LOCAL]], %c0_i32
// CHECK:   scf.if %[[PFIRST]] {
// CHECK-NOT: gpu.barrier
// CHECK:     llvm.inline_asm has_side_effects "test.barrier.arrive 1", "r" %[[BAR]]
// CHECK:   %[[OWN:.*]] = llvm.getelementptr %[[SCRATCH]][544]
// CHECK:   llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NOT: gpu.barrier
// CHECK:   llvm.inline_asm has_side_effects "test.group.barrier 2, 64"
// CHECK-NOT: gpu.barrier
// CHECK: } {tle.partition = array<i32: 1, 4, 2>}
// CHECK: gpu.barrier
// CHECK: llvm.return
module attributes {tle.num_warps = 4 : i32} {
  tle.func @ws(%x: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out2: !tle.ptr<i32>) {
    %buf = tle_struct.alloc : !tle_struct.buffer<128xf32, "block">
    %bar = tle_struct.barrier_alloc 1 : !tle_struct.barrier<"block">
    tle_struct.warp_specialize [4, 2] {
      %c0 = arith.constant 0 : i32
      tle_struct.barrier_wait %bar, %c0 : !tle_struct.barrier<"block">
      %p = tle_struct.local_ptr %buf : !tle_struct.buffer<128xf32, "block"> -> tensor<128x!tle.ptr<f32, "block">>
      %v = tle.load %p : tensor<128x!tle.ptr<f32, "block">>
      %s = "tle.reduce"(%v) ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tle.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<128xf32>) -> f32
      tle.store %out, %s : !tle.ptr<f32>
      tle_struct.yield
    }, {
      %r = tle.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
      %sp = tle.splat %x : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
      %ptrs = tle.addptr %sp, %r : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
      tle_struct.copy %ptrs to %buf barrier %bar : !tle_struct.barrier<"block"> {async} : tensor<128x!tle.ptr<f32>> to !tle_struct.buffer<128xf32, "block">
      tle_struct.barrier_arrive %bar : !tle_struct.barrier<"block">
      %n = "tle.reduce"(%r) ({
      ^bb0(%a: i32, %b: i32):
        %c = arith.addi %a, %b : i32
        tle.reduce.return %c : i32
      }) {axis = 0 : i32} : (tensor<128xi32>) -> i32
      tle.store %out2, %n : !tle.ptr<i32>
      tle_struct.yield
    }
    tle.return
  }
}
