// RUN: tle-opt %s --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s

// A loop carrying a 256-element tensor over 4 warps carries 2 scalars per
// thread (1:N structural conversion of scf.for).
// CHECK-LABEL: llvm.func @loop
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (f32, f32)  : i32 {
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK: arith.addf %[[A]], %{{.*}} : f32
// CHECK: arith.addf %[[B]], %{{.*}} : f32
// CHECK: scf.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @loop(%p: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<256xf32>
    %r = tle.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %s = tle.splat %p : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %a = tle.addptr %s, %r : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<256xf32>) : i32 {
      %v = tle.load %a : tensor<256x!tle.ptr<f32>>
      %sum = arith.addf %acc, %v : tensor<256xf32>
      scf.yield %sum : tensor<256xf32>
    }
    tle.store %a, %acc : tensor<256x!tle.ptr<f32>>
    tle.return
  }
}
