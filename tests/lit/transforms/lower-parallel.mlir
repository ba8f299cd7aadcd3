// RUN: tle-opt %s -split-input-file -tle-lower-parallel | FileCheck %s

// A parallel region over 4 units becomes a loop over them (the unit id is
// the loop index), each unit ending with a block barrier; to_tensor is a
// load of the whole buffer, to_buffer a new buffer, a store and a barrier.
// CHECK-LABEL: tle.func @dsa
// CHECK: %[[SRC:.*]] = tle_struct.alloc : !tle_struct.buffer<64xf32, "spm">
// CHECK: %[[ALL:.*]] = tle_struct.local_ptr %[[SRC]] : !tle_struct.buffer<64xf32, "spm"> -> tensor<64x!tle.ptr<f32, "spm">>
// CHECK: %[[T:.*]] = tle.load %[[ALL]] : tensor<64x!tle.ptr<f32, "spm">>
// CHECK: %[[D:.*]] = arith.mulf %[[T]]
// CHECK: %[[DST:.*]] = tle_struct.alloc : !tle_struct.buffer<64xf32, "spm">
// CHECK: %[[DALL:.*]] = tle_struct.local_ptr %[[DST]] : !tle_struct.buffer<64xf32, "spm"> -> tensor<64x!tle.ptr<f32, "spm">>
// CHECK: tle.store %[[DALL]], %[[D]] : tensor<64x!tle.ptr<f32, "spm">>
// CHECK-NEXT: tle.debug_barrier
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: scf.for %[[U:.*]] = %[[C0]] to %[[C4]] step %[[C1]] : i32 {
// CHECK:   arith.muli %[[U]], %{{.*}} : i32
// CHECK:   tle_struct.local_ptr %[[DST]][%{{.*}}]
// CHECK:   tle.store
// CHECK-NEXT: tle.debug_barrier
// CHECK-NEXT: }
// CHECK-NOT: tle_struct.parallel
// CHECK-NOT: tle_struct.unit_id
tle.func @dsa(%x: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
  %0 = tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %1 = tle_struct.alloc : !tle_struct.buffer<64xf32, "spm">
  %2 = tle.splat %x : !tle.ptr<f32> -> tensor<64x!tle.ptr<f32>>
  %3 = tle.addptr %2, %0 : tensor<64x!tle.ptr<f32>>, tensor<64xi32>
  tle_struct.copy %3 to %1 : tensor<64x!tle.ptr<f32>> to !tle_struct.buffer<64xf32, "spm">
  %4 = tle_struct.to_tensor %1 : !tle_struct.buffer<64xf32, "spm"> -> tensor<64xf32>
  %cst = arith.constant 2.000000e+00 : f32
  %5 = tle.splat %cst : f32 -> tensor<64xf32>
  %6 = arith.mulf %4, %5 {tle.hint.vectorize = 4 : i64} : tensor<64xf32>
  %7 = tle_struct.to_buffer %6 : tensor<64xf32> -> !tle_struct.buffer<64xf32, "spm">
  tle_struct.parallel "core" x 4 {
    %8 = tle_struct.unit_id : i32
    %c16 = arith.constant 16 : i32
    %9 = arith.muli %8, %c16 : i32
    %10 = tle.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %11 = tle.splat %9 : i32 -> tensor<16xi32>
    %12 = arith.addi %11, %10 : tensor<16xi32>
    %13 = tle_struct.local_ptr %7[%12] : tensor<16xi32> : !tle_struct.buffer<64xf32, "spm"> -> tensor<16x!tle.ptr<f32, "spm">>
    %14 = tle.load %13 : tensor<16x!tle.ptr<f32, "spm">>
    %16 = tle.addptr %out, %9 : !tle.ptr<f32>, i32
    %18 = tle.splat %16 : !tle.ptr<f32> -> tensor<16x!tle.ptr<f32>>
    %19 = tle.addptr %18, %10 : tensor<16x!tle.ptr<f32>>, tensor<16xi32>
    tle.store %19, %14 : tensor<16x!tle.ptr<f32>>
  }
  tle.return
}

// -----

// Nested regions: each unit id is its own region's loop index.
// CHECK-LABEL: tle.func @nested
// CHECK: scf.for %[[OUTER:.*]] = {{.*}} : i32 {
// CHECK:   scf.for %[[INNER:.*]] = {{.*}} : i32 {
// CHECK:     %[[SUM:.*]] = arith.addi %[[OUTER]], %[[INNER]] : i32
// CHECK:     tle.store %{{.*}}, %[[SUM]]
tle.func @nested(%out: !tle.ptr<i32>) {
  tle_struct.parallel "core" x 2 {
    %a = tle_struct.unit_id : i32
    tle_struct.parallel "simd" x 3 {
      %b = tle_struct.unit_id : i32
      %s = arith.addi %a, %b : i32
      tle.store %out, %s : !tle.ptr<i32>
    }
  }
  tle.return
}
