// RUN: tle-opt %s --tle-assign-layouts="num-warps=4" | FileCheck %s --check-prefix=LAYOUT
// RUN: tle-opt %s --tle-assign-layouts="num-warps=4" --tle-distribute | FileCheck %s

// tl.dot without matrix units: A is converted so that each thread holds
// whole rows (sizePerThread K along dimension 1), B whole columns, and each
// accumulator register becomes a chain of K fused multiply-adds in fp32.
// LAYOUT-DAG: #[[C:blocked[0-9]*]] = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// LAYOUT-DAG: #[[A:blocked[0-9]*]] = #tle.blocked<sizePerThread = [1, 16], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// LAYOUT-DAG: #[[B:blocked[0-9]*]] = #tle.blocked<sizePerThread = [16, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// LAYOUT: tle.dot {{.*}} : tensor<16x16xf16, #[[A]]> * tensor<16x16xf16, #[[B]]> -> tensor<16x16xf32, #[[C]]>

// CHECK-LABEL: llvm.func @dot
// Each thread owns 2 of the 16x16 accumulators (8x16 threads cover it).
// CHECK-COUNT-32: math.fma {{.*}} : f32
// CHECK-NOT: math.fma
// CHECK: llvm.return
tle.func @dot(%p: f16, %q: f16, %out: !tle.ptr<f32>) {
  %a = tle.splat %p : f16 -> tensor<16x16xf16>
  %b = tle.splat %q : f16 -> tensor<16x16xf16>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tle.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %ptrs = tle.splat %out : !tle.ptr<f32> -> tensor<16x16x!tle.ptr<f32>>
  tle.store %ptrs, %d : tensor<16x16x!tle.ptr<f32>>
  tle.return
}
