// RUN: tle-opt %s --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s

// A mask `offsets < n` is constant over runs of elements where the axis
// analysis proves it (n divisible by 16: runs of 16 along the row). Each
// thread holds 2 groups of 4 contiguous elements of the 1024 (4 warps), so
// it compares once per group, and the 8 selects reuse the 2 comparisons.
// Without the divisibility every element is compared.

// CHECK-LABEL: llvm.func @aligned(
// CHECK: %[[M0:.*]] = arith.cmpi slt
// CHECK-NEXT: %[[M1:.*]] = arith.cmpi slt
// CHECK-NOT: arith.cmpi
// CHECK-COUNT-4: arith.select %[[M0]],
// CHECK-COUNT-4: arith.select %[[M1]],
// CHECK: llvm.return

// CHECK-LABEL: llvm.func @unaligned(
// CHECK-COUNT-8: arith.cmpi slt
// CHECK-NOT: arith.cmpi slt
// CHECK: llvm.return
module attributes {tle.num_stages = 3 : i32, tle.num_warps = 4 : i32} {
  tle.func @aligned(%arg0: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %arg1: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %arg2: i32 {tle.divisibility = 16 : i32}) {
    %cst = arith.constant dense<0xFF800000> : tensor<1024xf32>
    %0 = tle.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %1 = tle.splat %arg2 : i32 -> tensor<1024xi32>
    %2 = arith.cmpi slt, %0, %1 : tensor<1024xi32>
    %3 = tle.splat %arg0 : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %4 = tle.addptr %3, %0 : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %5 = tle.load %4 : tensor<1024x!tle.ptr<f32>>
    %6 = arith.select %2, %5, %cst : tensor<1024xi1>, tensor<1024xf32>
    %7 = tle.splat %arg1 : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %8 = tle.addptr %7, %0 : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    tle.store %8, %6 : tensor<1024x!tle.ptr<f32>>
    tle.return
  }
  tle.func @unaligned(%arg0: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %arg1: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %arg2: i32) {
    %cst = arith.constant dense<0xFF800000> : tensor<1024xf32>
    %0 = tle.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %1 = tle.splat %arg2 : i32 -> tensor<1024xi32>
    %2 = arith.cmpi slt, %0, %1 : tensor<1024xi32>
    %3 = tle.splat %arg0 : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %4 = tle.addptr %3, %0 : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %5 = tle.load %4 : tensor<1024x!tle.ptr<f32>>
    %6 = arith.select %2, %5, %cst : tensor<1024xi1>, tensor<1024xf32>
    %7 = tle.splat %arg1 : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %8 = tle.addptr %7, %0 : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    tle.store %8, %6 : tensor<1024x!tle.ptr<f32>>
    tle.return
  }
}
