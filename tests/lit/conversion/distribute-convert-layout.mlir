// RUN: tle-opt %s -split-input-file --tle-distribute --canonicalize --cse | FileCheck %s

// Through block-level scratch (the one buffer all conversions share): each
// thread writes its 2 contiguous elements as one vector, a barrier, then
// reads the 2 the new layout gives it (strided by 128, so one at a time).
// No barrier frees the scratch afterwards: no op after it uses scratch.
// CHECK: tle.shared_memory = 1024 : i64
// CHECK: llvm.mlir.global external @__tle_scratch() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @convert
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: gpu.barrier
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: gpu.barrier
// CHECK: llvm.return
#a = #tle.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @convert(%p: !tle.ptr<i32>) {
    %r = tle.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #a>
    %c = tle.convert_layout %r : tensor<256xi32, #a> -> tensor<256xi32, #b>
    %s = tle.splat %p : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>, #b>
    %q = tle.addptr %s, %c : tensor<256x!tle.ptr<i32>, #b>, tensor<256xi32, #b>
    tle.store %q, %c : tensor<256x!tle.ptr<i32>, #b>
    tle.return
  }
}

// -----

// Same mapping (a 1-D slice equal to a blocked layout thread by thread): no
// scratch at all.
// CHECK-LABEL: llvm.func @same
// CHECK-NOT: gpu.barrier
// CHECK: llvm.return
#p = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
#s = #tle.slice<dim = 0, parent = #p>
#b = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @same(%p: !tle.ptr<i32>) {
    %r = tle.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #s>
    %c = tle.convert_layout %r : tensor<128xi32, #s> -> tensor<128xi32, #b>
    %sp = tle.splat %p : !tle.ptr<i32> -> tensor<128x!tle.ptr<i32>, #b>
    %q = tle.addptr %sp, %c : tensor<128x!tle.ptr<i32>, #b>, tensor<128xi32, #b>
    tle.store %q, %c : tensor<128x!tle.ptr<i32>, #b>
    tle.return
  }
}
