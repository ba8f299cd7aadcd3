// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

// MoE expert counting: one counter per expert in a block-level buffer, padded
// so that neighbouring counters fall into different banks.
// CHECK-LABEL: tle.func @expert_count
tle.func @expert_count(%ids: tensor<256xi32>, %out: tensor<64x!tle.ptr<i32>>) {
  // CHECK: tle_struct.alloc {init = 0 : i32} : !tle_struct.buffer<64xi32, "block", #tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>>
  %counts = tle_struct.alloc {init = 0 : i32} : !tle_struct.buffer<64xi32, "block", #tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>>
  // CHECK: tle_struct.local_ptr %{{.*}}[%{{.*}}] : tensor<256xi32> : !tle_struct.buffer<64xi32, "block", {{.*}}> -> tensor<256x!tle.ptr<i32, "block">>
  %ptrs = tle_struct.local_ptr %counts[%ids] : tensor<256xi32> : !tle_struct.buffer<64xi32, "block", #tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>> -> tensor<256x!tle.ptr<i32, "block">>
  %ones = arith.constant dense<1> : tensor<256xi32>
  %old = tle.atomic_rmw add %ptrs, %ones {scope = #tle.scope<block>} : tensor<256x!tle.ptr<i32, "block">>, tensor<256xi32>
  // CHECK: tle_struct.local_ptr %{{.*}} : !tle_struct.buffer<{{.*}}> -> tensor<64x!tle.ptr<i32, "block">>
  %all = tle_struct.local_ptr %counts : !tle_struct.buffer<64xi32, "block", #tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>> -> tensor<64x!tle.ptr<i32, "block">>
  %v = tle.load %all : tensor<64x!tle.ptr<i32, "block">>
  tle.store %out, %v : tensor<64x!tle.ptr<i32>>
  tle.return
}

// CHECK-LABEL: tle.func @copies
tle.func @copies(%src: tensor<64x64x!tle.ptr<f16>>, %mask: tensor<64x64xi1>) {
  // CHECK: tle_struct.alloc : !tle_struct.buffer<64x64xf16, "spm">
  %buf = tle_struct.alloc : !tle_struct.buffer<64x64xf16, "spm">
  // CHECK: tle_struct.barrier_alloc 1 : !tle_struct.barrier<"block">
  %bar = tle_struct.barrier_alloc 1 : !tle_struct.barrier<"block">
  // CHECK: tle_struct.copy %{{.*}} to %{{.*}} mask %{{.*}} : tensor<64x64xi1> barrier %{{.*}} : !tle_struct.barrier<"block"> {async} : tensor<64x64x!tle.ptr<f16>> to !tle_struct.buffer<64x64xf16, "spm">
  tle_struct.copy %src to %buf mask %mask : tensor<64x64xi1> barrier %bar : !tle_struct.barrier<"block"> {async} : tensor<64x64x!tle.ptr<f16>> to !tle_struct.buffer<64x64xf16, "spm">
  // CHECK: tle_struct.barrier_arrive %{{.*}} : !tle_struct.barrier<"block">
  tle_struct.barrier_arrive %bar : !tle_struct.barrier<"block">
  %phase = arith.constant 0 : i32
  // CHECK: tle_struct.barrier_wait %{{.*}}, %{{.*}} : !tle_struct.barrier<"block">
  tle_struct.barrier_wait %bar, %phase : !tle_struct.barrier<"block">
  // CHECK: tle_struct.barrier_inval %{{.*}} : !tle_struct.barrier<"block">
  tle_struct.barrier_inval %bar : !tle_struct.barrier<"block">
  // CHECK: tle_struct.to_tensor %{{.*}} : !tle_struct.buffer<64x64xf16, "spm"> -> tensor<64x64xf16>
  %t = tle_struct.to_tensor %buf : !tle_struct.buffer<64x64xf16, "spm"> -> tensor<64x64xf16>
  // CHECK: tle_struct.to_buffer %{{.*}} {level = "spm"} : tensor<64x64xf16> -> !tle_struct.buffer<64x64xf16, "spm">
  %b2 = tle_struct.to_buffer %t {level = "spm"} : tensor<64x64xf16> -> !tle_struct.buffer<64x64xf16, "spm">
  // CHECK: tle_struct.copy %{{.*}} to %{{.*}} : !tle_struct.buffer<64x64xf16, "spm"> to tensor<64x64x!tle.ptr<f16>>
  tle_struct.copy %b2 to %src : !tle_struct.buffer<64x64xf16, "spm"> to tensor<64x64x!tle.ptr<f16>>
  tle.return
}

// CHECK-LABEL: tle.func @levels
tle.func @levels() {
  // CHECK: tle_struct.parallel "warp" x 4 {
  tle_struct.parallel "warp" x 4 {
    // CHECK: tle_struct.unit_id : i32
    %u = tle_struct.unit_id : i32
  }
  // CHECK: tle_struct.warp_specialize [4, 1] {
  tle_struct.warp_specialize [4, 1] {
    tle_struct.yield
  }, {
    tle_struct.yield
  }
  tle.return
}

// Tensor copies (TMA): a map of a 2-D bf16 tensor for 64x64 boxes in the
// 128-byte swizzle, and a copy of one tile into a slot of a ring, landing
// transposed, completing on the slot's barrier, issued if %p.
// CHECK-LABEL: tle.func @tensor_copy
// CHECK: %[[MAP:.*]] = tle_struct.tensor_map %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !tle.ptr<bf16> -> !tle.ptr<i8>
// CHECK: tle_struct.async_tensor_copy %[[MAP]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} if %{{.*}} {transposed} : !tle.ptr<i8>, !tle_struct.buffer<3x64x64xbf16, "block", #tle_struct.layout<order = [1, 2, 0], swizzle = 128>>, !tle_struct.barrier<"block">
tle.func @tensor_copy(%base: !tle.ptr<bf16>, %rows: i32, %cols: i32, %stride: i64, %one: i64, %i: i32, %slot: i32, %p: i1) {
  %map = tle_struct.tensor_map %base, [%rows, %cols], [%stride, %one] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !tle.ptr<bf16> -> !tle.ptr<i8>
  %ring = tle_struct.alloc : !tle_struct.buffer<3x64x64xbf16, "block", #tle_struct.layout<order = [1, 2, 0], swizzle = 128>>
  %bar = tle_struct.barrier_alloc 1 {num = 3 : i32} : !tle_struct.barrier<"block">
  tle_struct.async_tensor_copy %map[%i, %i], %ring[%slot], %bar if %p {transposed} : !tle.ptr<i8>, !tle_struct.buffer<3x64x64xbf16, "block", #tle_struct.layout<order = [1, 2, 0], swizzle = 128>>, !tle_struct.barrier<"block">
  tle.return
}

// A register tile written to a slot of a swizzled operand buffer.
// CHECK-LABEL: tle.func @local_store
tle.func @local_store(%t: tensor<64x64xf16>, %slot: i32) {
  %b = tle_struct.alloc : !tle_struct.buffer<2x64x64xf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
  // CHECK: tle_struct.local_store %{{.*}}, %{{.*}}[%{{.*}}] : tensor<64x64xf16>, !tle_struct.buffer<2x64x64xf16
  tle_struct.local_store %t, %b[%slot] : tensor<64x64xf16>, !tle_struct.buffer<2x64x64xf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
  tle.return
}

// A local_dot whose A is in registers (no slot).
// CHECK-LABEL: tle.func @local_dot_register_a
tle.func @local_dot_register_a(%a: tensor<64x16xf16>, %c: tensor<64x64xf32>, %s: i32) {
  %b = tle_struct.alloc : !tle_struct.buffer<2x16x64xf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
  // CHECK: tle_struct.local_dot %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : tensor<64x16xf16>, !tle_struct.buffer<2x16x64xf16
  %d = tle_struct.local_dot %a, %b[%s], %c : tensor<64x16xf16>, !tle_struct.buffer<2x16x64xf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>, tensor<64x64xf32> -> tensor<64x64xf32>
  tle.return
}
