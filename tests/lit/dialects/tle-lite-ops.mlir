// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

// CHECK-LABEL: tle.func @subtiles
tle.func @subtiles(%x: tensor<64x128xf32>, %i: i32) -> tensor<64x128xf32> {
  // CHECK: tle.extract_tile %{{.*}}[%{{.*}}] : tensor<64x128xf32> -> tensor<16x32xf32>
  %t = tle.extract_tile %x[%i] : tensor<64x128xf32> -> tensor<16x32xf32>
  %two = arith.constant dense<2.0> : tensor<16x32xf32>
  %s = arith.mulf %t, %two : tensor<16x32xf32>
  // CHECK: tle.insert_tile %{{.*}} into %{{.*}}[%{{.*}}] : tensor<16x32xf32> into tensor<64x128xf32>
  %y = tle.insert_tile %s into %x[%i] : tensor<16x32xf32> into tensor<64x128xf32>
  // Partial edge tiles are allowed: 48 does not divide 64.
  %c1 = arith.constant 1 : i32
  // CHECK: tle.extract_tile %{{.*}}[%{{.*}}] : tensor<64x128xf32> -> tensor<48x128xf32>
  %e = tle.extract_tile %x[%c1] : tensor<64x128xf32> -> tensor<48x128xf32>
  tle.return %y : tensor<64x128xf32>
}

// CHECK-LABEL: tle.func @cumsum
tle.func @cumsum(%x: tensor<64xi32>, %m: tensor<8x16xi32>) {
  // CHECK: tle.exclusive_cumsum %{{.*}} {axis = 0 : i32} : tensor<64xi32> -> tensor<64xi32>, i32
  %ex, %total = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<64xi32> -> tensor<64xi32>, i32
  // CHECK: tle.exclusive_cumsum %{{.*}} {axis = 1 : i32} : tensor<8x16xi32> -> tensor<8x16xi32>, tensor<8xi32>
  %ex2, %total2 = tle.exclusive_cumsum %m {axis = 1 : i32} : tensor<8x16xi32> -> tensor<8x16xi32>, tensor<8xi32>
  tle.return
}

// CHECK-LABEL: tle.func @pipes
tle.func @pipes(%a: tensor<128xf32>, %b: tensor<128xi32>) {
  // CHECK: tle.pipe.create "loads" {one_shot, readers = 2 : i32} : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>
  %p = tle.pipe.create "loads" {readers = 2 : i32, one_shot} : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>
  // CHECK: tle.pipe.writer_acquire %{{.*}} : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>
  tle.pipe.writer_acquire %p : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>
  // CHECK: tle.pipe.writer_commit %{{.*}}, %{{.*}}, %{{.*}} : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>, tensor<128xf32>, tensor<128xi32>
  tle.pipe.writer_commit %p, %a, %b : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>, tensor<128xf32>, tensor<128xi32>
  // CHECK: tle.pipe.writer_close
  tle.pipe.writer_close %p : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>
  // CHECK: %{{.*}}, %{{.*}}:2 = tle.pipe.reader_wait %{{.*}} : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]> -> tensor<128xf32>, tensor<128xi32>
  %valid, %x, %y = tle.pipe.reader_wait %p : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]> -> tensor<128xf32>, tensor<128xi32>
  // CHECK: tle.pipe.reader_release
  tle.pipe.reader_release %p : !tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>
  tle.return
}

// After layout assignment the committed and read tensors carry encodings
// (the writer's and the reader's may differ) while the pipe's fields, written
// at pipe.create, do not: shape and element type are what must match.
#wb = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#rb = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: tle.func @pipes_with_layouts
tle.func @pipes_with_layouts(%a: tensor<128xf32, #wb>, %k: i32) {
  %p = tle.pipe.create "loads" : !tle.pipe<2, [tensor<128xf32>, i32]>
  // CHECK: tle.pipe.writer_commit %{{.*}}, %{{.*}}, %{{.*}} : !tle.pipe<2, [tensor<128xf32>, i32]>, tensor<128xf32, #{{.*}}>, i32
  tle.pipe.writer_commit %p, %a, %k : !tle.pipe<2, [tensor<128xf32>, i32]>, tensor<128xf32, #wb>, i32
  // CHECK: tle.pipe.reader_wait %{{.*}} : !tle.pipe<2, [tensor<128xf32>, i32]> -> tensor<128xf32, #{{.*}}>, i32
  %valid, %x, %i = tle.pipe.reader_wait %p : !tle.pipe<2, [tensor<128xf32>, i32]> -> tensor<128xf32, #rb>, i32
  tle.return
}

// CHECK-LABEL: tle.func @mesh
tle.func @mesh(%p: !tle.ptr<f32>, %flag: !tle.ptr<i32>) {
  // CHECK: tle.device_mesh : !tle.mesh<["node", "device", "block"], [2, 8, 132]>
  %m = tle.device_mesh : !tle.mesh<["node", "device", "block"], [2, 8, 132]>
  // CHECK: tle.shard_id %{{.*}}, "device" : !tle.mesh<["node", "device", "block"], [2, 8, 132]>
  %d = tle.shard_id %m, "device" : !tle.mesh<["node", "device", "block"], [2, 8, 132]>
  // CHECK: tle.remote_ptr %{{.*}}, %{{.*}} {space = #tle.remote<device>} : !tle.ptr<f32>
  %r = tle.remote_ptr %p, %d {space = #tle.remote<device>} : !tle.ptr<f32>
  // CHECK: tle.distributed_barrier %{{.*}}, "node"
  tle.distributed_barrier %m, "node" : !tle.mesh<["node", "device", "block"], [2, 8, 132]>
  %one = arith.constant 1 : i32
  // CHECK: tle.signal add %{{.*}}, %{{.*}} : !tle.ptr<i32>
  tle.signal add %flag, %one : !tle.ptr<i32>
  // CHECK: tle.signal_wait ge %{{.*}}, %{{.*}} : !tle.ptr<i32>
  %seen = tle.signal_wait ge %flag, %one : !tle.ptr<i32>
  tle.return
}
