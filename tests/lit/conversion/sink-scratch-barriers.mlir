// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute=scratch-alternation=true --canonicalize --cse | FileCheck %s
// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s --check-prefix=SHARED

// With scratch alternation (tlec --enable-opt=scratch-alternation), which
// these barriers depend on. Off by default: consecutive small ops share the
// scratch's first bytes (SHARED below; tests/lit/nvidia/softmax-ptx.test).

// Two sums with a loop of global loads between them, as in layer norm. The
// second sum takes the scratch bytes after the first's, so nothing orders
// the first's reads before its writes: the barrier that frees the first
// sum's scratch moves down past the loop and merges into the second sum's
// barrier, and the second's own release barrier is dropped at the kernel's
// end.
// CHECK-LABEL: llvm.func @sums_around_a_loop
// CHECK-SAME: tle.shared_memory = 32
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: %[[SECOND:.*]] = llvm.getelementptr %{{.*}}[16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: llvm.load %[[SECOND]] : !llvm.ptr<3> -> f32
// CHECK-COUNT-3: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: llvm.return
// Without alternation the second sum writes over the first's bytes: the
// barrier that frees them still moves down past the loop, to right before
// those writes.
// SHARED-LABEL: llvm.func @sums_around_a_loop
// SHARED-SAME: tle.shared_memory = 16
// SHARED: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// SHARED-NEXT: }
// SHARED-NEXT: gpu.barrier
// SHARED-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// SHARED-NOT: gpu.barrier
// SHARED: scf.for
// SHARED-NOT: gpu.barrier
// SHARED: scf.yield
// SHARED: gpu.barrier
// SHARED-NEXT: scf.if
// SHARED: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// SHARED-NEXT: }
// SHARED-NEXT: gpu.barrier
// SHARED-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// SHARED-NOT: gpu.barrier
// SHARED: llvm.return
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

// A sum, then a loop of global loads, in a loop body: the next iteration's
// sum writes the scratch the sum read, so its release barrier stays in the
// body, but moves down past the inner loop to the body's end.
// CHECK-LABEL: llvm.func @sum_then_loads_per_iteration
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_then_loads_per_iteration(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %n: i32) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<1024xf32>
    %total = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (tensor<1024xf32>) : i32 {
      %x = tle.load %p : tensor<1024x!tle.ptr<f32>>
      %t = "tle.reduce"(%x) ({
      ^bb0(%l: f32, %m: f32):
        %c = arith.addf %l, %m : f32
        tle.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
      %ts = tle.splat %t : f32 -> tensor<1024xf32>
      %acc = scf.for %j = %c0 to %n step %c1 iter_args(%b = %ts) -> (tensor<1024xf32>) : i32 {
        %y = tle.load %p : tensor<1024x!tle.ptr<f32>>
        %d = arith.subf %y, %b : tensor<1024xf32>
        scf.yield %d : tensor<1024xf32>
      }
      %e = arith.addf %a, %acc : tensor<1024xf32>
      scf.yield %e : tensor<1024xf32>
    }
    %o = tle.splat %out : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %q = tle.addptr %o, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    tle.store %q, %total : tensor<1024x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// Three sums in a loop body take the scratch at bytes 0, 16 and 0: the
// second's writes and the third's need no barrier before them (the first's
// and the second's release barriers merge into the next sum's), but the
// next iteration's first sum writes the bytes the third read, so the third's
// release barrier stays at the end of the body: 4 barriers per iteration,
// not 6.
// CHECK-LABEL: llvm.func @three_sums_per_iteration
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: llvm.getelementptr %{{.*}}[16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
module attributes {tle.num_warps = 4 : i32} {
  tle.func @three_sums_per_iteration(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %n: i32) {
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
      %ts = tle.splat %t : f32 -> tensor<1024xf32>
      %x2 = arith.mulf %x, %ts : tensor<1024xf32>
      %t2 = "tle.reduce"(%x2) ({
      ^bb0(%l: f32, %m: f32):
        %c = arith.addf %l, %m : f32
        tle.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
      %ts2 = tle.splat %t2 : f32 -> tensor<1024xf32>
      %x3 = arith.mulf %x2, %ts2 : tensor<1024xf32>
      %t3 = "tle.reduce"(%x3) ({
      ^bb0(%l: f32, %m: f32):
        %c = arith.addf %l, %m : f32
        tle.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
      %b = arith.addf %a, %t3 : f32
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
// CHECK-NEXT: }
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

// As above, with a sum after the loop: it takes the scratch bytes after
// the loop's sum (16), so the release barrier is dropped there too.
// CHECK-LABEL: llvm.func @sum_after_the_loop_too
// CHECK: scf.for
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: llvm.getelementptr %{{.*}}[16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_after_the_loop_too(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %n: i32) {
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
    %y = tle.load %p : tensor<1024x!tle.ptr<f32>>
    %ts = tle.splat %total : f32 -> tensor<1024xf32>
    %w = arith.mulf %y, %ts : tensor<1024xf32>
    %u = "tle.reduce"(%w) ({
    ^bb0(%l: f32, %m: f32):
      %c = arith.addf %l, %m : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
    tle.store %out, %u : !tle.ptr<f32>
    tle.return
  }
}

// -----

// A sum of 128 rows after the loop takes 1024 bytes (two warps along a
// row), which would end past the alternation's 1024 after the loop sum's
// 32, so it starts at the scratch's start again: the scratch stays the
// size of the larger sum. On
// the way out of the loop nothing else separates the last iteration's
// scratch reads from its writes, so the loop's release barrier stays at
// the end of the body.
// CHECK-LABEL: llvm.func @large_sum_after_the_loop
// CHECK-SAME: tle.shared_memory = 1024
// CHECK: scf.for
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
module attributes {tle.num_warps = 8 : i32} {
  tle.func @large_sum_after_the_loop(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32) {
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
    %cols = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
    %rows = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    %ce = tle.expand_dims %cols {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %re = tle.expand_dims %rows {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %c256 = arith.constant dense<256> : tensor<128x1xi32>
    %rm = arith.muli %re, %c256 : tensor<128x1xi32>
    %cb = tle.broadcast %ce : tensor<1x256xi32> -> tensor<128x256xi32>
    %rb = tle.broadcast %rm : tensor<128x1xi32> -> tensor<128x256xi32>
    %o = arith.addi %cb, %rb : tensor<128x256xi32>
    %s2 = tle.splat %in : !tle.ptr<f32> -> tensor<128x256x!tle.ptr<f32>>
    %p2 = tle.addptr %s2, %o : tensor<128x256x!tle.ptr<f32>>, tensor<128x256xi32>
    %y = tle.load %p2 : tensor<128x256x!tle.ptr<f32>>
    %ts = tle.splat %total : f32 -> tensor<128x256xf32>
    %w = arith.mulf %y, %ts : tensor<128x256xf32>
    %u = "tle.reduce"(%w) ({
    ^bb0(%l: f32, %m: f32):
      %c = arith.addf %l, %m : f32
      tle.reduce.return %c : f32
    }) {axis = 1 : i32} : (tensor<128x256xf32>) -> tensor<128xf32>
    %so = tle.splat %out : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
    %q = tle.addptr %so, %rows : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
    tle.store %q, %u : tensor<128x!tle.ptr<f32>>
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
