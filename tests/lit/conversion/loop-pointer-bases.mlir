// RUN: tle-opt %s -split-input-file --tle-loop-pointer-bases | FileCheck %s

// A pointer tile advanced by a uniform step (the matmul's a_ptrs +=
// BLOCK_SIZE_K * stride_ak): the loop carries the scalar base, the tile is
// rebuilt from it and the offsets made before the loop, and the step moves
// out of the loop. After the loop, the tile from the last base.
// CHECK-LABEL: tle.func @walk
// CHECK: %[[OFFS:.*]] = tle.make_range
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[BASE:.*]] = %arg0) -> (tensor<64xf16>, !tle.ptr<f16>)
// CHECK-NEXT: %[[SPLAT:.*]] = tle.splat %[[BASE]] : !tle.ptr<f16> -> tensor<64x!tle.ptr<f16>>
// CHECK-NEXT: %[[TILE:.*]] = tle.addptr %[[SPLAT]], %[[OFFS]]
// CHECK-NEXT: tle.load %[[TILE]]
// CHECK: %[[NEXT:.*]] = tle.addptr %[[BASE]], %[[STEP]] : !tle.ptr<f16>, i32
// CHECK-NEXT: scf.yield %{{.*}}, %[[NEXT]]
// CHECK: %[[LAST:.*]] = tle.splat %[[LOOP]]#1
// CHECK-NEXT: %[[AFTER:.*]] = tle.addptr %[[LAST]], %[[OFFS]]
// CHECK-NEXT: tle.store %[[AFTER]], %[[LOOP]]#0
tle.func @walk(%a: !tle.ptr<f16>, %out: !tle.ptr<f16>, %n: i32, %stride: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %s = tle.splat %a : !tle.ptr<f16> -> tensor<64x!tle.ptr<f16>>
  %p0 = tle.addptr %s, %r : tensor<64x!tle.ptr<f16>>, tensor<64xi32>
  %z = arith.constant dense<0.0> : tensor<64xf16>
  %acc, %p = scf.for %i = %c0 to %n step %c1 iter_args(%x = %z, %q = %p0) -> (tensor<64xf16>, tensor<64x!tle.ptr<f16>>) : i32 {
    %v = tle.load %q : tensor<64x!tle.ptr<f16>>
    %y = arith.addf %x, %v : tensor<64xf16>
    %step = arith.muli %c32, %stride : i32
    %st = tle.splat %step : i32 -> tensor<64xi32>
    %q2 = tle.addptr %q, %st : tensor<64x!tle.ptr<f16>>, tensor<64xi32>
    scf.yield %y, %q2 : tensor<64xf16>, tensor<64x!tle.ptr<f16>>
  }
  tle.store %p, %acc : tensor<64x!tle.ptr<f16>>
  tle.return
}

// -----

// A step that changes with the iteration is no uniform walk: left alone.
// CHECK-LABEL: tle.func @growing_step
// CHECK: scf.for {{.*}} -> (tensor<64x!tle.ptr<f16>>)
tle.func @growing_step(%a: !tle.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %s = tle.splat %a : !tle.ptr<f16> -> tensor<64x!tle.ptr<f16>>
  %p0 = tle.addptr %s, %r : tensor<64x!tle.ptr<f16>>, tensor<64xi32>
  %p = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p0) -> (tensor<64x!tle.ptr<f16>>) : i32 {
    %v = tle.load %q : tensor<64x!tle.ptr<f16>>
    tle.store %q, %v : tensor<64x!tle.ptr<f16>>
    %st = tle.splat %i : i32 -> tensor<64xi32>
    %q2 = tle.addptr %q, %st : tensor<64x!tle.ptr<f16>>, tensor<64xi32>
    scf.yield %q2 : tensor<64x!tle.ptr<f16>>
  }
  tle.return
}

// -----

// A contiguous, aligned tile is read in vectors: a pointer per vector is
// cheap to carry, and rebuilding them in the loop would cost instructions.
// Left alone.
// CHECK-LABEL: tle.func @vectors
// CHECK: scf.for {{.*}} -> (tensor<64x!tle.ptr<f16>>)
tle.func @vectors(%a: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %s = tle.splat %a : !tle.ptr<f16> -> tensor<64x!tle.ptr<f16>>
  %p0 = tle.addptr %s, %r : tensor<64x!tle.ptr<f16>>, tensor<64xi32>
  %p = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p0) -> (tensor<64x!tle.ptr<f16>>) : i32 {
    %v = tle.load %q : tensor<64x!tle.ptr<f16>>
    tle.store %q, %v : tensor<64x!tle.ptr<f16>>
    %st = tle.splat %c64 : i32 -> tensor<64xi32>
    %q2 = tle.addptr %q, %st : tensor<64x!tle.ptr<f16>>, tensor<64xi32>
    scf.yield %q2 : tensor<64x!tle.ptr<f16>>
  }
  tle.return
}
