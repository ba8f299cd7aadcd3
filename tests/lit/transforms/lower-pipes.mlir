// RUN: tle-opt %s -split-input-file -tle-lower-pipes | FileCheck %s

// A pipe of capacity 2 carrying a 64-element tile and an index: one ring per
// field at the pipe's level, slots chosen by the counters, a barrier after
// every commit and every release. The counters are loop-carried values (no
// thread reads them from memory). The prologue commits one slot ahead;
// each iteration commits one and reads one.
// CHECK-LABEL: tle.func @software_pipeline
// CHECK-DAG: %[[X:.*]] = tle_struct.alloc : !tle_struct.buffer<2x64xf32, "block">
// CHECK-DAG: %[[I:.*]] = tle_struct.alloc : !tle_struct.buffer<2xi32, "block">
// CHECK-NOT: tle.pipe
// CHECK: %[[S0:.*]] = arith.andi %[[W0:.*]], %{{.*}} : i32
// CHECK: %[[SP0:.*]] = tle.splat %[[S0]] : i32 -> tensor<64xi32>
// CHECK: %[[P0:.*]] = tle_struct.local_ptr %[[X]][%[[SP0]], %{{.*}}] : tensor<64xi32>, tensor<64xi32> : !tle_struct.buffer<2x64xf32, "block"> -> tensor<64x!tle.ptr<f32, "block">>
// CHECK: tle.store %[[P0]], %{{.*}} : tensor<64x!tle.ptr<f32, "block">>
// CHECK: %[[Q0:.*]] = tle_struct.local_ptr %[[I]][%[[S0]]] : i32 : !tle_struct.buffer<2xi32, "block"> -> !tle.ptr<i32, "block">
// CHECK: tle.store %[[Q0]], %{{.*}} : !tle.ptr<i32, "block">
// CHECK-NEXT: tle.debug_barrier
// CHECK: %[[W1:.*]] = arith.addi %[[W0]], %{{.*}} : i32
// CHECK: %{{.*}}:3 = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[W:.*]] = %[[W1]], %[[R:.*]] = %{{.*}}) -> (tensor<64xf32>, i32, i32)
// CHECK:   arith.andi %[[W]], %{{.*}} : i32
// CHECK:   tle.store %{{.*}}, %{{.*}} : tensor<64x!tle.ptr<f32, "block">>
// CHECK:   tle.store %{{.*}}, %[[K]] : !tle.ptr<i32, "block">
// CHECK-NEXT: tle.debug_barrier
// CHECK:   %[[WN:.*]] = arith.addi %[[W]], %{{.*}} : i32
// CHECK:   %[[VALID:.*]] = arith.cmpi ult, %[[R]], %[[WN]] : i32
// CHECK:   %[[RS:.*]] = arith.andi %[[R]], %{{.*}} : i32
// CHECK:   %[[RP:.*]] = tle_struct.local_ptr %[[X]][%{{.*}}, %{{.*}}]
// CHECK:   %[[V:.*]] = tle.load %[[RP]] : tensor<64x!tle.ptr<f32, "block">>
// CHECK:   tle.load %{{.*}} : !tle.ptr<i32, "block">
// CHECK:   %[[INC:.*]] = arith.extui %[[VALID]] : i1 to i32
// CHECK:   %[[RN:.*]] = arith.addi %[[R]], %[[INC]] : i32
// CHECK:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[V]] : tensor<64xf32>
// CHECK:   tle.debug_barrier
// CHECK:   scf.yield %[[SUM]], %[[WN]], %[[RN]] : tensor<64xf32>, i32, i32
tle.func @software_pipeline(%x: !tle.ptr<f32>, %out: !tle.ptr<f32>, %n: i32) {
  %p = tle.pipe.create "chunks" : !tle.pipe<2, [tensor<64xf32>, i32]>
  %r = tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tle.splat %x : !tle.ptr<f32> -> tensor<64x!tle.ptr<f32>>
  %ptrs = tle.addptr %s, %r : tensor<64x!tle.ptr<f32>>, tensor<64xi32>
  %v = tle.load %ptrs : tensor<64x!tle.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  tle.pipe.writer_acquire %p : !tle.pipe<2, [tensor<64xf32>, i32]>
  tle.pipe.writer_commit %p, %v, %c0 : !tle.pipe<2, [tensor<64xf32>, i32]>, tensor<64xf32>, i32
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %z) -> (tensor<64xf32>) : i32 {
    tle.pipe.writer_acquire %p : !tle.pipe<2, [tensor<64xf32>, i32]>
    tle.pipe.writer_commit %p, %v, %k : !tle.pipe<2, [tensor<64xf32>, i32]>, tensor<64xf32>, i32
    %valid, %y, %i = tle.pipe.reader_wait %p : !tle.pipe<2, [tensor<64xf32>, i32]> -> tensor<64xf32>, i32
    %b = arith.addf %a, %y : tensor<64xf32>
    tle.pipe.reader_release %p : !tle.pipe<2, [tensor<64xf32>, i32]>
    scf.yield %b : tensor<64xf32>
  }
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x!tle.ptr<f32>>
  %po = tle.addptr %so, %r : tensor<64x!tle.ptr<f32>>, tensor<64xi32>
  tle.store %po, %acc : tensor<64x!tle.ptr<f32>>
  tle.return
}

// -----

// Capacity 3 (not a power of two) takes the slot by remainder; a 2-D field
// is addressed with a range per dimension, broadcast to the tile's shape.
// The level is the pipe's scope.
// CHECK-LABEL: tle.func @two_d
// CHECK: %[[B:.*]] = tle_struct.alloc : !tle_struct.buffer<3x4x8xf16, "spm">
// CHECK: %[[SLOT:.*]] = arith.remui %{{.*}}, %{{.*}} : i32
// CHECK: tle.splat %[[SLOT]] : i32 -> tensor<4x8xi32>
// CHECK: %[[R0:.*]] = tle.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
// CHECK: %[[E0:.*]] = tle.expand_dims %[[R0]] {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
// CHECK: tle.broadcast %[[E0]] : tensor<4x1xi32> -> tensor<4x8xi32>
// CHECK: %[[R1:.*]] = tle.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
// CHECK: %[[E1:.*]] = tle.expand_dims %[[R1]] {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
// CHECK: tle.broadcast %[[E1]] : tensor<1x8xi32> -> tensor<4x8xi32>
// CHECK: tle_struct.local_ptr %[[B]][%{{.*}}, %{{.*}}, %{{.*}}] : tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi32> : !tle_struct.buffer<3x4x8xf16, "spm"> -> tensor<4x8x!tle.ptr<f16, "spm">>
tle.func @two_d(%t: tensor<4x8xf16>, %out: tensor<4x8x!tle.ptr<f16>>) {
  %p = tle.pipe.create "tiles" {scope = "spm"} : !tle.pipe<3, [tensor<4x8xf16>]>
  tle.pipe.writer_acquire %p : !tle.pipe<3, [tensor<4x8xf16>]>
  tle.pipe.writer_commit %p, %t : !tle.pipe<3, [tensor<4x8xf16>]>, tensor<4x8xf16>
  tle.pipe.writer_close %p : !tle.pipe<3, [tensor<4x8xf16>]>
  %valid, %v = tle.pipe.reader_wait %p : !tle.pipe<3, [tensor<4x8xf16>]> -> tensor<4x8xf16>
  tle.store %out, %v : tensor<4x8x!tle.ptr<f16>>
  tle.pipe.reader_release %p : !tle.pipe<3, [tensor<4x8xf16>]>
  tle.return
}

// -----

// A commit under a condition: both branches yield the counters they end
// with, and the if's new results carry them on.
// CHECK-LABEL: tle.func @conditional_commit
// CHECK: %[[C:.*]]:2 = scf.if %{{.*}} -> (i32, i32) {
// CHECK:   tle.store
// CHECK:   tle.debug_barrier
// CHECK:   %[[WT:.*]] = arith.addi
// CHECK:   scf.yield %[[WT]], %{{.*}} : i32, i32
// CHECK: } else {
// CHECK:   scf.yield %{{.*}}, %{{.*}} : i32, i32
// CHECK-NEXT: }
// CHECK: arith.cmpi ult, %{{.*}}, %[[C]]#0 : i32
tle.func @conditional_commit(%c: i1, %v: f32, %out: !tle.ptr<f32>) {
  %p = tle.pipe.create "maybe" : !tle.pipe<1, [f32]>
  tle.pipe.writer_close %p : !tle.pipe<1, [f32]>
  scf.if %c {
    tle.pipe.writer_acquire %p : !tle.pipe<1, [f32]>
    tle.pipe.writer_commit %p, %v : !tle.pipe<1, [f32]>, f32
  }
  %valid, %x = tle.pipe.reader_wait %p : !tle.pipe<1, [f32]> -> f32
  tle.store %out, %x : !tle.ptr<f32>
  tle.pipe.reader_release %p : !tle.pipe<1, [f32]>
  tle.return
}

// -----

// A loop of constant length within the capacity may commit without reading.
// CHECK-LABEL: tle.func @constant_trip_count
// CHECK-NOT: tle.pipe
// CHECK: scf.for
// CHECK: tle.return
tle.func @constant_trip_count(%v: f32) {
  %p = tle.pipe.create "p" : !tle.pipe<4, [f32]>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %k = %c0 to %c4 step %c1 : i32 {
    tle.pipe.writer_acquire %p : !tle.pipe<4, [f32]>
    tle.pipe.writer_commit %p, %v : !tle.pipe<4, [f32]>, f32
  }
  tle.return
}

// -----

// Two roles: the reader is partition 0, the writer partition 1. Each slot
// has a flag (1: data, 0: closed) and a `full` and an `empty` barrier
// (arrays of 2); each partition carries its own counter. The writer waits
// on empty[w % 2] for the phase before (parity ((w / 2) & 1) ^ 1), stores
// the value and flag 1, arrives on full; close stores flag 0. The reader
// waits on full[r % 2] (parity (r / 2) & 1), reads the flag, advances by
// it, and releases by arriving on empty at the oldest slot it holds (its
// third counter).
// CHECK-LABEL: tle.func @two_roles
// CHECK-DAG: %[[RING:.*]] = tle_struct.alloc : !tle_struct.buffer<2xf32, "block">
// CHECK-DAG: %[[FLAGS:.*]] = tle_struct.alloc : !tle_struct.buffer<2xi32, "block">
// CHECK: %[[FULL:.*]] = tle_struct.barrier_alloc 1 {num = 2 : i32} : !tle_struct.barrier<"block">
// CHECK: %[[EMPTY:.*]] = tle_struct.barrier_alloc 1 {num = 2 : i32} : !tle_struct.barrier<"block">
// CHECK: tle_struct.warp_specialize [4, 1] {
// CHECK:   scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[R:.*]] = %{{.*}}, %[[REL:.*]] = %{{.*}}) -> (f32, i32, i32, i32)
// CHECK:     %[[RS:.*]] = arith.andi %[[R]], %{{.*}} : i32
// CHECK:     %[[RD:.*]] = arith.shrui %[[R]], %{{.*}} : i32
// CHECK:     %[[RP:.*]] = arith.andi %[[RD]], %{{.*}} : i32
// CHECK:     tle_struct.barrier_wait %[[FULL]][%[[RS]]], %[[RP]]
// CHECK:     %[[FP:.*]] = tle_struct.local_ptr %[[FLAGS]][%[[RS]]]
// CHECK:     %[[FLAG:.*]] = tle.load %[[FP]]
// CHECK:     %[[VALID:.*]] = arith.cmpi ne, %[[FLAG]], %{{.*}} : i32
// CHECK:     tle_struct.local_ptr %[[RING]][%[[RS]]]
// CHECK:     %[[INC:.*]] = arith.extui %[[VALID]] : i1 to i32
// CHECK:     %[[RN:.*]] = arith.addi %[[R]], %[[INC]] : i32
// CHECK:     %[[RELS:.*]] = arith.andi %[[REL]], %{{.*}} : i32
// CHECK:     tle_struct.barrier_arrive %[[EMPTY]][%[[RELS]]]
// CHECK:     %[[RELN:.*]] = arith.addi %[[REL]], %{{.*}} : i32
// CHECK:     scf.yield %{{.*}}, %{{.*}}, %[[RN]], %[[RELN]]
// CHECK-NOT: tle.debug_barrier
// CHECK: }, {
// CHECK:   %[[WEND:.*]]:3 = scf.for {{.*}} iter_args(%[[W:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32, i32)
// CHECK:     %[[WS:.*]] = arith.andi %[[W]], %{{.*}} : i32
// CHECK:     %[[WD:.*]] = arith.shrui %[[W]], %{{.*}} : i32
// CHECK:     %[[WP:.*]] = arith.andi %[[WD]], %{{.*}} : i32
// CHECK:     %[[BEFORE:.*]] = arith.xori %[[WP]], %{{.*}} : i32
// CHECK:     tle_struct.barrier_wait %[[EMPTY]][%[[WS]]], %[[BEFORE]]
// CHECK:     tle.store %{{.*}}, %{{.*}} : !tle.ptr<f32, "block">
// CHECK:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:     tle.store %{{.*}}, %[[ONE]] : !tle.ptr<i32, "block">
// CHECK:     tle_struct.barrier_arrive %[[FULL]]
// CHECK:   tle_struct.barrier_wait %[[EMPTY]]
// CHECK:   %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:   tle.store %{{.*}}, %[[ZERO]] : !tle.ptr<i32, "block">
// CHECK:   tle_struct.barrier_arrive %[[FULL]]
// CHECK-NOT: tle.debug_barrier
// CHECK: tle.return
tle.func @two_roles(%x: !tle.ptr<f32>, %out: !tle.ptr<f32>, %n: i32) {
  %p = tle.pipe.create "chunks" : !tle.pipe<2, [f32]>
  tle_struct.warp_specialize [4, 1] {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
      %valid, %v = tle.pipe.reader_wait %p : !tle.pipe<2, [f32]> -> f32
      %s = arith.addf %acc, %v : f32
      tle.pipe.reader_release %p : !tle.pipe<2, [f32]>
      scf.yield %s : f32
    }
    tle.store %out, %sum : !tle.ptr<f32>
    tle_struct.yield
  }, {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %k = %c0 to %n step %c1 : i32 {
      %v = tle.load %x : !tle.ptr<f32>
      tle.pipe.writer_acquire %p : !tle.pipe<2, [f32]>
      tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
    }
    tle.pipe.writer_close %p : !tle.pipe<2, [f32]>
    tle_struct.yield
  }
  tle.return
}

// -----

// Two roles, capacity 3 (not a power of two: slots by remainder, rounds by
// division). The reader waits twice before releasing twice: each release
// arrives on `empty` of the oldest slot held (its own counter), not of the
// last slot waited on. The writer commits twice without acquiring: each
// commit waits for its slot itself.
// CHECK-LABEL: tle.func @fifo_release
// CHECK: %[[FULL:.*]] = tle_struct.barrier_alloc 1 {num = 3 : i32}
// CHECK: %[[EMPTY:.*]] = tle_struct.barrier_alloc 1 {num = 3 : i32}
// CHECK: tle_struct.warp_specialize [4, 1] {
// CHECK:   %[[R0:.*]] = arith.remui %[[READ:.*]], %{{.*}} : i32
// CHECK:   arith.divui %[[READ]], %{{.*}} : i32
// CHECK:   tle_struct.barrier_wait %[[FULL]][%[[R0]]]
// CHECK:   tle_struct.barrier_wait %[[FULL]]
// CHECK:   %[[REL0:.*]] = arith.remui %[[RELEASED:.*]], %{{.*}} : i32
// CHECK:   tle_struct.barrier_arrive %[[EMPTY]][%[[REL0]]]
// CHECK:   %[[REL1N:.*]] = arith.addi %[[RELEASED]], %{{.*}} : i32
// CHECK:   %[[REL1:.*]] = arith.remui %[[REL1N]], %{{.*}} : i32
// CHECK:   tle_struct.barrier_arrive %[[EMPTY]][%[[REL1]]]
// CHECK: }, {
// CHECK:   tle_struct.barrier_wait %[[EMPTY]]
// CHECK:   tle_struct.barrier_arrive %[[FULL]]
// CHECK:   tle_struct.barrier_wait %[[EMPTY]]
// CHECK:   tle_struct.barrier_arrive %[[FULL]]
tle.func @fifo_release(%v: f32, %out: !tle.ptr<f32>) {
  %p = tle.pipe.create "pairs" : !tle.pipe<3, [f32]>
  tle_struct.warp_specialize [4, 1] {
    %valid0, %x0 = tle.pipe.reader_wait %p : !tle.pipe<3, [f32]> -> f32
    %valid1, %x1 = tle.pipe.reader_wait %p : !tle.pipe<3, [f32]> -> f32
    %s = arith.addf %x0, %x1 : f32
    tle.store %out, %s : !tle.ptr<f32>
    tle.pipe.reader_release %p : !tle.pipe<3, [f32]>
    tle.pipe.reader_release %p : !tle.pipe<3, [f32]>
    tle_struct.yield
  }, {
    tle.pipe.writer_commit %p, %v : !tle.pipe<3, [f32]>, f32
    tle.pipe.writer_commit %p, %v : !tle.pipe<3, [f32]>, f32
    tle_struct.yield
  }
  tle.return
}
