// RUN: tle-opt %s --tle-distribute --canonicalize --cse | FileCheck %s

// A row mask `rows[:, None] < n` (a matmul's B tile over K) is constant over
// runs of 16 rows when n is divisible by 16. Each thread holds rows r,
// r + 8, r + 16 and r + 24 (r = 0..7), 8 columns each: rows r and r + 8 lie
// in one run for every thread, so they share a comparison, as do r + 16 and
// r + 24 -- 2 comparisons for the 32 registers (the columns are one run,
// the broadcast). Without the divisibility, one per row.

// CHECK-LABEL: llvm.func @aligned(
// CHECK-COUNT-2: arith.cmpi slt
// CHECK-NOT: arith.cmpi slt
// CHECK: llvm.return

// CHECK-LABEL: llvm.func @unaligned(
// CHECK-COUNT-4: arith.cmpi slt
// CHECK-NOT: arith.cmpi slt
// CHECK: llvm.return
#l = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
#rows = #tle.slice<dim = 1, parent = #l>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @aligned(%p: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32 {tle.divisibility = 16 : i32}) {
    %zero = arith.constant dense<0.000000e+00> : tensor<32x128xf32, #l>
    %r = tle.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #rows>
    %r2 = tle.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #rows> -> tensor<32x1xi32, #l>
    %rb = tle.broadcast %r2 : tensor<32x1xi32, #l> -> tensor<32x128xi32, #l>
    %ns = tle.splat %n : i32 -> tensor<32x128xi32, #l>
    %m = arith.cmpi slt, %rb, %ns : tensor<32x128xi32, #l>
    %s = tle.splat %p : !tle.ptr<f32> -> tensor<32x128x!tle.ptr<f32>, #l>
    %q = tle.addptr %s, %rb : tensor<32x128x!tle.ptr<f32>, #l>, tensor<32x128xi32, #l>
    tle.store %q, %zero, %m : tensor<32x128x!tle.ptr<f32>, #l>
    tle.return
  }
  tle.func @unaligned(%p: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<32x128xf32, #l>
    %r = tle.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #rows>
    %r2 = tle.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #rows> -> tensor<32x1xi32, #l>
    %rb = tle.broadcast %r2 : tensor<32x1xi32, #l> -> tensor<32x128xi32, #l>
    %ns = tle.splat %n : i32 -> tensor<32x128xi32, #l>
    %m = arith.cmpi slt, %rb, %ns : tensor<32x128xi32, #l>
    %s = tle.splat %p : !tle.ptr<f32> -> tensor<32x128x!tle.ptr<f32>, #l>
    %q = tle.addptr %s, %rb : tensor<32x128x!tle.ptr<f32>, #l>, tensor<32x128xi32, #l>
    tle.store %q, %zero, %m : tensor<32x128x!tle.ptr<f32>, #l>
    tle.return
  }
}
