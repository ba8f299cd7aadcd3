// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s

// Two sums with a loop of global loads between them, as in layer norm. The
// first sum's slice of the scratch ends within kRotatingScratchBytes, so
// the second takes the bytes after it: nothing orders the first's reads
// before the second's writes, and the first's release barrier goes. The
// second sum's own release barrier is dropped at the kernel's end. One
// barrier per sum.
// CHECK-LABEL: llvm.func @sums_around_a_loop
// CHECK: %[[FIRST:.*]] = llvm.mlir.addressof @__tle_scratch
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: %[[SECOND:.*]] = llvm.getelementptr %[[FIRST]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: llvm.load %[[SECOND]] : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: llvm.return
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sums_around_a_loop(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %n: i32) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %x = tle.load %p : tensor<1024x!tle.ptr<f32>>
    %t = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
    %ts = tle.splat %t : f32 -> tensor<1024xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %ts) -> (tensor<1024xf32>) : i32 {
      %y = tle.load %p : tensor<1024x!tle.ptr<f32>>
      %d = arith.subf %y, %a : tensor<1024xf32>
      scf.yield %d : tensor<1024xf32>
    }
    %u = "tle.reduce"(%acc) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
    tle.store %out, %u : !tle.ptr<f32>
    tle.return
  }
}

// -----

// Column sums of a 32x128 tile take 2048 bytes from the scratch's start,
// and so does the second one after the loop: the first's release barrier
// moves down past the loop to just before the second writes the scratch.
// CHECK-LABEL: llvm.func @column_sums_around_a_loop
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
module attributes {tle.num_warps = 4 : i32} {
  tle.func @column_sums_around_a_loop(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32) {
    %r = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %c = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    %c128 = arith.constant dense<128> : tensor<32x1xi32>
    %re = tle.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %rs = arith.muli %re, %c128 : tensor<32x1xi32>
    %ce = tle.expand_dims %c {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %rb = tle.broadcast %rs : tensor<32x1xi32> -> tensor<32x128xi32>
    %cb = tle.broadcast %ce : tensor<1x128xi32> -> tensor<32x128xi32>
    %off = arith.addi %rb, %cb : tensor<32x128xi32>
    %base = tle.splat %in : !tle.ptr<f32> -> tensor<32x128x!tle.ptr<f32>>
    %p = tle.addptr %base, %off : tensor<32x128x!tle.ptr<f32>>, tensor<32x128xi32>
    %x = tle.load %p : tensor<32x128x!tle.ptr<f32>>
    %cols = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tle.reduce.return %s : f32
    }) {axis = 0 : i32} : (tensor<32x128xf32>) -> tensor<128xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<32x128xf32>) : i32 {
      %y = tle.load %p : tensor<32x128x!tle.ptr<f32>>
      %d = arith.subf %y, %a : tensor<32x128xf32>
      scf.yield %d : tensor<32x128xf32>
    }
    %cols2 = "tle.reduce"(%acc) ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tle.reduce.return %s : f32
    }) {axis = 0 : i32} : (tensor<32x128xf32>) -> tensor<128xf32>
    %sum = arith.addf %cols, %cols2 : tensor<128xf32>
    %ob = tle.splat %out : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
    %op = tle.addptr %ob, %c : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
    tle.store %op, %sum : tensor<128x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// A sum in a loop body: the next iteration's sum writes the scratch again,
// so the release barrier stays in the body, before its end.
// CHECK-LABEL: llvm.func @sum_per_iteration
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_per_iteration(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %n: i32) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.0 : f32
    %total = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (f32) : i32 {
      %x = tle.load %p : tensor<1024x!tle.ptr<f32>>
      %t = "tle.reduce"(%x) ({
      ^bb0(%l: f32, %m: f32):
        %c = arith.addf %l, %m : f32
        tle.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
      %b = arith.addf %a, %t : f32
      scf.yield %b : f32
    }
    tle.store %out, %total : !tle.ptr<f32>
    tle.return
  }
}

// -----

// The same loop with a barrier at the top of its body (as a pipelined
// loop's wait for its copies has): that barrier already separates this
// iteration's scratch reads from the next one's writes, and after the loop
// nothing touches block memory before the kernel ends, so the release
// barrier at the end of the body is dropped.
// CHECK-LABEL: llvm.func @sum_after_a_barrier
// CHECK: scf.for
// CHECK-NEXT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: llvm.return
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_after_a_barrier(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %n: i32) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.0 : f32
    %total = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (f32) : i32 {
      tle.debug_barrier
      %x = tle.load %p : tensor<1024x!tle.ptr<f32>>
      %t = "tle.reduce"(%x) ({
      ^bb0(%l: f32, %m: f32):
        %c = arith.addf %l, %m : f32
        tle.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
      %b = arith.addf %a, %t : f32
      scf.yield %b : f32
    }
    tle.store %out, %total : !tle.ptr<f32>
    tle.return
  }
}

// -----

// As above, but column sums after the loop (2048 bytes from the scratch's
// start) write the loop's sum's bytes before any barrier: on the way out of
// the loop nothing else separates the last iteration's reads from that
// write, so the release barrier stays at the end of the body.
// CHECK-LABEL: llvm.func @sum_after_the_loop_too
// CHECK: scf.for
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_after_the_loop_too(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.0 : f32
    %total = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (f32) : i32 {
      tle.debug_barrier
      %x = tle.load %p : tensor<1024x!tle.ptr<f32>>
      %t = "tle.reduce"(%x) ({
      ^bb0(%l: f32, %m: f32):
        %c = arith.addf %l, %m : f32
        tle.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
      %b = arith.addf %a, %t : f32
      scf.yield %b : f32
    }
    %rr = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %cc = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    %c128 = arith.constant dense<128> : tensor<32x1xi32>
    %re = tle.expand_dims %rr {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %rs = arith.muli %re, %c128 : tensor<32x1xi32>
    %ce = tle.expand_dims %cc {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %rb = tle.broadcast %rs : tensor<32x1xi32> -> tensor<32x128xi32>
    %cb = tle.broadcast %ce : tensor<1x128xi32> -> tensor<32x128xi32>
    %off = arith.addi %rb, %cb : tensor<32x128xi32>
    %base = tle.splat %in : !tle.ptr<f32> -> tensor<32x128x!tle.ptr<f32>>
    %q = tle.addptr %base, %off : tensor<32x128x!tle.ptr<f32>>, tensor<32x128xi32>
    %y = tle.load %q : tensor<32x128x!tle.ptr<f32>>
    %ts = tle.splat %total : f32 -> tensor<32x128xf32>
    %w = arith.mulf %y, %ts : tensor<32x128xf32>
    %cols = "tle.reduce"(%w) ({
    ^bb0(%l: f32, %m: f32):
      %c = arith.addf %l, %m : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<32x128xf32>) -> tensor<128xf32>
    %ob = tle.splat %out : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
    %op = tle.addptr %ob, %cc : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
    tle.store %op, %cols : tensor<128x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// A sum before a warp_specialize whose first partition touches no block
// memory: the release barrier stays before the partitions. Moved between
// them, it would hold the second partition's warps until the first
// partition's had finished.
// CHECK-LABEL: llvm.func @sum_before_partitions
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %arg1
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: } {tle.partition = array<i32: 0, 0, 4>}
// CHECK-NOT: gpu.barrier
// CHECK: } {tle.partition = array<i32: 1, 4, 4>}
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_before_partitions(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out2: !tle.ptr<i32>) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %x = tle.load %p : tensor<1024x!tle.ptr<f32>>
    %t = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
    tle.store %out, %t : !tle.ptr<f32>
    tle_struct.warp_specialize [4, 4] {
      %r2 = tle.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
      %s2 = tle.splat %in : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
      %p2 = tle.addptr %s2, %r2 : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
      %y = tle.load %p2 : tensor<128x!tle.ptr<f32>>
      %o2 = tle.splat %out : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
      %q2 = tle.addptr %o2, %r2 : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
      tle.store %q2, %y : tensor<128x!tle.ptr<f32>>
      tle_struct.yield
    }, {
      %r3 = tle.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
      %n = "tle.reduce"(%r3) ({
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
