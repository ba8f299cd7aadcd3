// RUN: tle-opt %s --tle-math-to-library | FileCheck %s

// The inverse trigonometric and hyperbolic ops become C library calls
// (single precision: the f-suffixed names); other math stays for the LLVM
// lowering, also a math.sin of an acos's result (math.sin has an intrinsic
// every target selects).
// CHECK-NOT: @sinf
// CHECK-LABEL: tle.func @inverse
// CHECK: %[[ACOS:.*]] = func.call @acosf(%{{.*}}) : (f32) -> f32
// CHECK: call @atan2(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: call @sinhf(%{{.*}}) : (f32) -> f32
// CHECK: math.sin %[[ACOS]] : f32
// CHECK-NOT: math.acos
tle.func @inverse(%p: !tle.ptr<f32>, %q: !tle.ptr<f64>, %x: f32, %y: f64) {
  %0 = math.acos %x : f32
  %1 = math.atan2 %y, %y : f64
  %2 = math.sinh %x : f32
  %3 = math.sin %0 : f32
  %4 = arith.addf %2, %3 : f32
  tle.store %p, %4 : !tle.ptr<f32>
  tle.store %q, %1 : !tle.ptr<f64>
  tle.return
}
