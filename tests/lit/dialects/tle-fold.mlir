// RUN: tle-opt %s --canonicalize | FileCheck %s

// A splat of a constant folds to a dense constant, so arith's folds see
// through it: `offs * stride` with the stride specialized to 1 (-D
// stride=1) is `offs` again, which keeps the axis analysis' contiguity and
// with it the vector width of the loads.
// CHECK-LABEL: tle.func @mul_by_splat_one
// CHECK-NEXT: tle.return %arg0
tle.func @mul_by_splat_one(%x: tensor<1x32xi32>) -> tensor<1x32xi32> {
  %c1 = arith.constant 1 : i32
  %s = tle.splat %c1 : i32 -> tensor<1x32xi32>
  %m = arith.muli %x, %s : tensor<1x32xi32>
  tle.return %m : tensor<1x32xi32>
}

// CHECK-LABEL: tle.func @splat_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<4xf32>
// CHECK-NEXT: tle.return %[[C]]
tle.func @splat_constant() -> tensor<4xf32> {
  %c = arith.constant 2.5 : f32
  %s = tle.splat %c : f32 -> tensor<4xf32>
  tle.return %s : tensor<4xf32>
}
