// RUN: tle-opt %s -split-input-file --tle-prefetch-loads --canonicalize | FileCheck %s

// A reduction over K tiles: the first tile is loaded before the loop (masked
// off when the loop runs zero times), each iteration loads the next tile
// (masked off past the end) and then adds the tile loaded before; the
// pointer increment moves with the loads.
// CHECK-LABEL: tle.func @sum_tiles
// CHECK: %[[RUNS:.*]] = arith.cmpi sgt, %[[N:.*]], %c0_i32 : i32
// CHECK: %[[M0:.*]] = tle.splat %[[RUNS]] : i1 -> tensor<128xi1>
// CHECK: %[[FIRST:.*]] = tle.load %[[P:.*]], %[[M0]] : tensor<128x!tle.ptr<f32>>
// CHECK: %[[NEXTP:.*]] = tle.addptr %[[P]]
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[PTR:.*]] = %[[NEXTP]], %[[CUR:.*]] = %[[FIRST]])
// CHECK:   %[[LAST:.*]] = arith.subi %[[N]], %c1_i32
// CHECK:   %[[MORE:.*]] = arith.cmpi slt, %[[I]], %[[LAST]]
// CHECK:   %[[M:.*]] = tle.splat %[[MORE]] : i1 -> tensor<128xi1>
// CHECK:   %[[NEXT:.*]] = tle.load %[[PTR]], %[[M]]
// CHECK:   %[[PTR2:.*]] = tle.addptr %[[PTR]]
// CHECK:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[CUR]]
// CHECK:   scf.yield %[[SUM]], %[[PTR2]], %[[NEXT]]
tle.func @sum_tiles(%p: !tle.ptr<f32>, %n: i32, %out: !tle.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %s = tle.splat %p : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
  %ptrs = tle.addptr %s, %r : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
  %step = arith.constant dense<128> : tensor<128xi32>
  %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %q = %ptrs) -> (tensor<128xf32>, tensor<128x!tle.ptr<f32>>) : i32 {
    %x = tle.load %q : tensor<128x!tle.ptr<f32>>
    %sum = arith.addf %a, %x : tensor<128xf32>
    %next = tle.addptr %q, %step : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
    scf.yield %sum, %next : tensor<128xf32>, tensor<128x!tle.ptr<f32>>
  }
  %os = tle.splat %out : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
  %optrs = tle.addptr %os, %r : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
  tle.store %optrs, %acc#0 : tensor<128x!tle.ptr<f32>>
  tle.return
}

// -----

// A loop that stores may feed its own later loads: left alone.
// CHECK-LABEL: tle.func @stores
// CHECK: scf.for
// CHECK-NEXT: tle.load
// CHECK-NEXT: tle.store
tle.func @stores(%p: !tle.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tle.load %p : !tle.ptr<f32>
    tle.store %p, %x : !tle.ptr<f32>
  }
  tle.return
}

// -----

// num_stages 1 turns it off.
// CHECK-LABEL: tle.func @off
// CHECK: scf.for
// CHECK-NEXT: tle.load
module attributes {tle.num_stages = 1 : i32} {
  tle.func @off(%p: !tle.ptr<f32>, %n: i32, %o: !tle.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.0 : f32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (f32) : i32 {
      %x = tle.load %p : !tle.ptr<f32>
      %t = arith.addf %a, %x : f32
      scf.yield %t : f32
    }
    tle.store %o, %s : !tle.ptr<f32>
    tle.return
  }
}
