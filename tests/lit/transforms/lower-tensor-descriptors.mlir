// RUN: tle-opt %s -split-input-file -verify-diagnostics -tle-lower-tensor-descriptors | FileCheck %s

// A 2-D tile at (%i, %j): per dimension the coordinates offset + arange
// and the mask 0 <= coordinate < size; the pointers are the tile's first
// element, base + i * stride0 + j * stride1 (scalar, 64-bit), plus the
// offsets inside the tile, arange * stride per dimension made 2-D by
// expand_dims and broadcast, which do not depend on (%i, %j) (a loop
// computes them once). Elements outside read as zero; the store writes
// under the same mask.
// CHECK-LABEL: tle.func @tile
// CHECK-SAME: (%[[BASE:[^:]*]]: !tle.ptr<f16>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[S:[^:]*]]: i64, %[[ONE:[^:]*]]: i64, %[[I:[^:]*]]: i32, %[[J:[^:]*]]: i32)
// CHECK-NOT: tle.make_tensor_descriptor
// CHECK: %[[R64:.*]] = tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK: %[[ROWS:.*]] = arith.addi %{{.*}}, %[[R64]] : tensor<64xi32>
// CHECK: arith.cmpi sge, %[[ROWS]]
// CHECK: arith.cmpi slt, %[[ROWS]]
// CHECK: %[[IW:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK: %[[IS:.*]] = arith.muli %[[IW]], %[[S]] : i64
// CHECK: %[[RW:.*]] = arith.extsi %[[R64]] : tensor<64xi32> to tensor<64xi64>
// CHECK: %[[SS:.*]] = tle.splat %[[S]] : i64 -> tensor<64xi64>
// CHECK: %[[ROFF:.*]] = arith.muli %[[RW]], %[[SS]] : tensor<64xi64>
// CHECK: tle.expand_dims %[[ROFF]] {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
// CHECK: %[[COLS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<32xi32>
// CHECK: %[[JS:.*]] = arith.muli %{{.*}}, %[[ONE]] : i64
// CHECK: %[[START:.*]] = arith.addi %[[IS]], %[[JS]] : i64
// CHECK: tle.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<64x32xi64>
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x32xi1>
// CHECK: %[[FIRST:.*]] = tle.addptr %[[BASE]], %[[START]] : !tle.ptr<f16>, i64
// CHECK: %[[SPLAT:.*]] = tle.splat %[[FIRST]]
// CHECK: %[[PTRS:.*]] = tle.addptr %[[SPLAT]], %[[OFF]] : tensor<64x32x!tle.ptr<f16>>, tensor<64x32xi64>
// CHECK: %[[T:.*]] = tle.load %[[PTRS]], %[[MASK]], %{{.*}} : tensor<64x32x!tle.ptr<f16>>
// CHECK: tle.store %{{.*}}, %[[T]], %{{.*}} : tensor<64x32x!tle.ptr<f16>>
// CHECK-NOT: tle.descriptor
tle.func @tile(%base: !tle.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64, %i: i32, %j: i32) {
  %d = tle.make_tensor_descriptor %base, [%m, %n], [%s, %one] : !tle.ptr<f16> -> !tle.tensordesc<tensor<64x32xf16>>
  %t = tle.descriptor_load %d[%i, %j] : !tle.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tle.descriptor_store %d[%j, %i], %t : !tle.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  tle.return
}

// -----

// A block pointer's boundary_check: the mask covers the listed dimensions
// only (here the rows), and with none listed there is no mask and no
// padding.
// CHECK-LABEL: tle.func @checked_rows
// CHECK: %[[ROWS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[ROWS]]
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[ROWS]]
// CHECK: %[[INSIDE:.*]] = arith.andi %[[GE]], %[[LT]] : tensor<64xi1>
// CHECK: %[[MASK:.*]] = tle.broadcast %{{.*}} : tensor<64x1xi1> -> tensor<64x32xi1>
// CHECK-NOT: arith.andi {{.*}} : tensor<64x32xi1>
// CHECK: tle.load %{{.*}}, %[[MASK]], %{{.*}} : tensor<64x32x!tle.ptr<f16>>
// CHECK: %[[ALL:.*]] = tle.load %{{[^,]*}} : tensor<64x32x!tle.ptr<f16>>
// CHECK: tle.store %{{[^,]*}}, %[[ALL]] : tensor<64x32x!tle.ptr<f16>>
tle.func @checked_rows(%base: !tle.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64, %i: i32, %j: i32) {
  %d = tle.make_tensor_descriptor %base, [%m, %n], [%s, %one] : !tle.ptr<f16> -> !tle.tensordesc<tensor<64x32xf16>>
  %t = tle.descriptor_load %d[%i, %j] {boundary_check = array<i32: 0>} : !tle.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  %u = tle.descriptor_load %d[%j, %i] {boundary_check = array<i32>} : !tle.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tle.descriptor_store %d[%j, %j], %u {boundary_check = array<i32>} : !tle.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  tle.return
}

// -----

// padding_option "nan": masked-off elements read as NaN.
// CHECK-LABEL: tle.func @nan_padding
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<128xf32>
// CHECK: tle.load %{{.*}}, %{{.*}}, %[[NAN]] : tensor<128x!tle.ptr<f32>>
tle.func @nan_padding(%base: !tle.ptr<f32>, %n: i32, %one: i64, %i: i32, %out: !tle.ptr<f32>) {
  %d = tle.make_tensor_descriptor %base, [%n], [%one] {padding = #tle.padding<nan>} : !tle.ptr<f32> -> !tle.tensordesc<tensor<128xf32>>
  %t = tle.descriptor_load %d[%i] : !tle.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  %o = tle.make_tensor_descriptor %out, [%n], [%one] : !tle.ptr<f32> -> !tle.tensordesc<tensor<128xf32>>
  tle.descriptor_store %o[%i], %t : !tle.tensordesc<tensor<128xf32>>, tensor<128xf32>
  tle.return
}

// -----

tle.func @nan_integers(%base: !tle.ptr<i32>, %n: i32, %one: i64, %i: i32) {
  %d = tle.make_tensor_descriptor %base, [%n], [%one] {padding = #tle.padding<nan>} : !tle.ptr<i32> -> !tle.tensordesc<tensor<128xi32>>
  // expected-error @+1 {{padding_option 'nan' needs a floating-point descriptor, not 'i32'}}
  %t = tle.descriptor_load %d[%i] : !tle.tensordesc<tensor<128xi32>> -> tensor<128xi32>
  tle.return
}

// -----

tle.func @through_loop(%base: !tle.ptr<f32>, %n: i32, %one: i64, %i: i32) {
  %d = tle.make_tensor_descriptor %base, [%n], [%one] : !tle.ptr<f32> -> !tle.tensordesc<tensor<128xf32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%dk = %d) -> (!tle.tensordesc<tensor<128xf32>>) : i32 {
    // expected-error @+1 {{this tensor descriptor must come from tl.make_tensor_descriptor in the same kernel}}
    %t = tle.descriptor_load %dk[%k] : !tle.tensordesc<tensor<128xf32>> -> tensor<128xf32>
    scf.yield %dk : !tle.tensordesc<tensor<128xf32>>
  }
  tle.return
}
