// RUN: tle-opt %s -split-input-file --tle-distribute | FileCheck %s

// tl.trans into the permuted blocked layout of its operand (what layout
// assignment gives a transposed tile that a wgmma dot reads) moves no data:
// each thread's registers are the result's, no scratch, no barrier.
// CHECK-LABEL: llvm.func @permuted
// CHECK-NOT: gpu.barrier
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
#src = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#dst = #tle.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @permuted(%out: !tle.ptr<f32>) {
    %r = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tle.slice<dim = 0, parent = #src>>
    %e = tle.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tle.slice<dim = 0, parent = #src>> -> tensor<1x32xi32, #src>
    %b = tle.broadcast %e : tensor<1x32xi32, #src> -> tensor<16x32xi32, #src>
    %x = arith.sitofp %b : tensor<16x32xi32, #src> to tensor<16x32xf32, #src>
    %t = tle.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32, #src> -> tensor<32x16xf32, #dst>
    %p = tle.splat %out : !tle.ptr<f32> -> tensor<32x16x!tle.ptr<f32>, #dst>
    tle.store %p, %t : tensor<32x16x!tle.ptr<f32>, #dst>
    tle.return
  }
}

// -----

// Into any other layout it exchanges through scratch.
// CHECK-LABEL: llvm.func @exchanged
// CHECK: gpu.barrier
#src = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#other = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @exchanged(%out: !tle.ptr<f32>) {
    %r = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tle.slice<dim = 0, parent = #src>>
    %e = tle.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tle.slice<dim = 0, parent = #src>> -> tensor<1x32xi32, #src>
    %b = tle.broadcast %e : tensor<1x32xi32, #src> -> tensor<16x32xi32, #src>
    %x = arith.sitofp %b : tensor<16x32xi32, #src> to tensor<16x32xf32, #src>
    %t = tle.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32, #src> -> tensor<32x16xf32, #other>
    %p = tle.splat %out : !tle.ptr<f32> -> tensor<32x16x!tle.ptr<f32>, #other>
    tle.store %p, %t : tensor<32x16x!tle.ptr<f32>, #other>
    tle.return
  }
}
