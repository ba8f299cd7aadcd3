// RUN: tle-opt %s -split-input-file --tle-remove-layout-conversions | FileCheck %s

#A = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>

// Matmul's K mask: built once (in #B, for the B operand) and converted in
// the loop for the A operand. The conversion goes; the mask is rebuilt in
// #A from a make_range built in #A's slice, and the loop-invariant part
// stays before the loop.
// CHECK: #[[A:.*]] = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4]
// CHECK-NOT: threadsPerWarp = [2, 16]
// CHECK: #[[SL:.*]] = #tle.slice<dim = 0, parent = #[[A]]>
// CHECK-LABEL: tle.func @k_mask
// CHECK: %[[R:.*]] = tle.make_range {{.*}} : tensor<32xi32, #[[SL]]>
// CHECK: %[[E:.*]] = tle.expand_dims %[[R]] {axis = 0 : i32} {{.*}} -> tensor<1x32xi32, #[[A]]>
// CHECK: scf.for
// CHECK: %[[S:.*]] = tle.splat %{{.*}} : i32 -> tensor<1x32xi32, #[[A]]>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[E]], %[[S]] : tensor<1x32xi32, #[[A]]>
// CHECK: tle.broadcast %[[M]] : tensor<1x32xi1, #[[A]]> -> tensor<128x32xi1, #[[A]]>
// CHECK-NOT: tle.convert_layout
module attributes {tle.num_warps = 4 : i32} {
  tle.func @k_mask(%ptr: tensor<128x32x!tle.ptr<f16>, #A>, %k: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tle.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tle.slice<dim = 0, parent = #B>>
    %e = tle.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tle.slice<dim = 0, parent = #B>> -> tensor<1x32xi32, #B>
    %cst = arith.constant dense<0.0> : tensor<128x32xf16, #A>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = tle.splat %k : i32 -> tensor<1x32xi32, #B>
      %m = arith.cmpi slt, %e, %s : tensor<1x32xi32, #B>
      %c = tle.convert_layout %m : tensor<1x32xi1, #B> -> tensor<1x32xi1, #A>
      %b = tle.broadcast %c : tensor<1x32xi1, #A> -> tensor<128x32xi1, #A>
      %v = tle.load %ptr, %b, %cst : tensor<128x32x!tle.ptr<f16>, #A>
      tle.store %ptr, %v : tensor<128x32x!tle.ptr<f16>, #A>
    }
    tle.return
  }
}

// -----

#A = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>

// A loaded value is not rebuilt: loading it again would cost more than the
// conversion, and memory may have changed.
// CHECK-LABEL: tle.func @loaded
// CHECK: tle.load
// CHECK-NOT: tle.load
// CHECK: tle.convert_layout
module attributes {tle.num_warps = 4 : i32} {
  tle.func @loaded(%pa: tensor<128x32x!tle.ptr<f16>, #A>, %pb: tensor<128x32x!tle.ptr<f16>, #B>) {
    %v = tle.load %pb : tensor<128x32x!tle.ptr<f16>, #B>
    %w = arith.addf %v, %v : tensor<128x32xf16, #B>
    %c = tle.convert_layout %w : tensor<128x32xf16, #B> -> tensor<128x32xf16, #A>
    tle.store %pa, %c : tensor<128x32x!tle.ptr<f16>, #A>
    tle.return
  }
}
