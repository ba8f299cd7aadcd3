// RUN: tle-opt %s -split-input-file --tle-lower-tensor-descriptors="tensor-copies=1" --canonicalize --tle-assign-layouts-test-mma="" --tle-pipeline-loads --tle-distribute | FileCheck %s
// RUN: tle-opt %s -split-input-file --tle-lower-tensor-descriptors="tensor-copies=1" --canonicalize --tle-assign-layouts-test-mma="" --tle-pipeline-loads --tle-distribute="launch-tensor-maps=0" | FileCheck %s --check-prefix=OFF

// On a target whose launcher builds tensor maps, a map whose base, shape
// and strides are all the kernel's own arguments (A's: a descriptor
// argument as the front end expands it, the last stride 1) is taken by
// value after those arguments (128 bytes, aligned to 64, marked for the
// backend) and described for the launcher (argument indices, box, element
// type, swizzle): its copies read the argument, and nothing writes it. B's
// map has a constant stride: the kernel writes it into the global scratch
// the launcher passes last. launch-tensor-maps=0 writes both.
// CHECK-LABEL: llvm.func @launched(
// CHECK-SAME: %[[A:[a-z0-9]+]]: !llvm.ptr<1> {llvm.align = 16 : i64},
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, tle.launch_tensor_map},
// CHECK-SAME: %[[SCRATCH:[a-z0-9]+]]: !llvm.ptr<1>)
// CHECK-SAME: tle.global_scratch = 128 : i64
// CHECK-SAME: tle.launch_tensor_maps = [{base = 0 : i64, box = array<i64: 64, 64>, element = "bf16", shape = [3, 4], strides = [5], swizzle = 128 : i32}]
// CHECK-COUNT-1: "test.tensormap box 32 64 swizzle 64"
// CHECK-NOT: "test.tensormap
// CHECK: "test.tensor.copy ordered", "r,r,r,r,r" %{{[0-9]+}}, %arg7,
// OFF-LABEL: llvm.func @launched(
// OFF-NOT: tle.launch_tensor_map
// OFF-SAME: tle.global_scratch = 256 : i64
// OFF: "test.tensormap box 64 64 swizzle 128"
// OFF: "test.tensormap box 32 64 swizzle 64"
module attributes {tle.num_stages = 3 : i32} {
tle.func @launched(%pa: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pb: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %ra: i32, %ka: i32, %sa: i64 {tle.divisibility = 8 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %s32 = arith.constant 32 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %da = tle.make_tensor_descriptor %pa, [%ra, %ka], [%sa, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %db = tle.make_tensor_descriptor %pb, [%ka, %c32], [%s32, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x32xbf16>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %off = %c0) -> (tensor<64x32xf32>, i32) : i32 {
    %a = tle.descriptor_load %da[%c0, %off] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
    %b = tle.descriptor_load %db[%off, %c0] : !tle.tensordesc<tensor<64x32xbf16>> -> tensor<64x32xbf16>
    %d = tle.dot %a, %b, %acc : tensor<64x64xbf16> * tensor<64x32xbf16> -> tensor<64x32xf32>
    %offn = arith.addi %off, %c64 : i32
    scf.yield %d, %offn : tensor<64x32xf32>, i32
  }
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows2 = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cst = arith.constant dense<32> : tensor<64x1xi32>
  %rowoff = arith.muli %rows2, %cst : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x32xi32>
  %r32 = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %cols = tle.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %colb = tle.broadcast %cols : tensor<1x32xi32> -> tensor<64x32xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x32xi32>
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x32x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x32x!tle.ptr<f32>>, tensor<64x32xi32>
  tle.store %ptro, %res#0 : tensor<64x32x!tle.ptr<f32>>
  tle.return
}
}
