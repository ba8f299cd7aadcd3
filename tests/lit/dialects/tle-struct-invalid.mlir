// RUN: tle-opt %s -split-input-file -verify-diagnostics
// One case per verifier rule of the tle_struct dialect.

tle.func @alloc_init() {
  // expected-error @+1 {{init value type 'f32' does not match the element type 'i32'}}
  %0 = tle_struct.alloc {init = 0.0 : f32} : !tle_struct.buffer<64xi32, "block">
  tle.return
}

// -----

// expected-error @+1 {{local buffer must have at least one dimension}}
tle.func @buffer_rank0(%b: !tle_struct.buffer<f32, "block">) {
  tle.return
}

// -----

// expected-error @+1 {{local buffer dimensions must be positive}}
tle.func @buffer_dim(%b: !tle_struct.buffer<0xf32, "block">) {
  tle.return
}

// -----

// expected-error @+1 {{local buffer elements must be integers or floats, got 'index'}}
tle.func @buffer_elem(%b: !tle_struct.buffer<4xindex, "block">) {
  tle.return
}

// -----

// expected-error @+1 {{local buffer needs a memory level name}}
tle.func @buffer_level(%b: !tle_struct.buffer<4xf32, "">) {
  tle.return
}

// -----

// expected-error @+1 {{layout order has 1 entries for a buffer of rank 2}}
tle.func @buffer_layout_rank(%b: !tle_struct.buffer<4x4xf32, "block", #tle_struct.layout<order = [0]>>) {
  tle.return
}

// -----

// expected-error @+1 {{layout order must be a permutation of [0, 2)}}
tle.func @layout_perm(%b: !tle_struct.buffer<4x4xf32, "block", #tle_struct.layout<order = [0, 0]>>) {
  tle.return
}

// -----

// expected-error @+1 {{layout padding must be non-negative}}
tle.func @layout_negative(%b: !tle_struct.buffer<4xf32, "block", #tle_struct.layout<order = [0], pad_interval = -1, pad_amount = 1>>) {
  tle.return
}

// -----

// expected-error @+1 {{layout padding needs both pad_interval and pad_amount}}
tle.func @layout_half(%b: !tle_struct.buffer<4xf32, "block", #tle_struct.layout<order = [0], pad_interval = 32>>) {
  tle.return
}

// -----

tle.func @local_ptr_pointee(%b: !tle_struct.buffer<64xi32, "block">) {
  // expected-error @+1 {{pointee type 'f32' does not match the buffer element type 'i32'}}
  %0 = tle_struct.local_ptr %b : !tle_struct.buffer<64xi32, "block"> -> tensor<64x!tle.ptr<f32, "block">>
  tle.return
}

// -----

tle.func @local_ptr_level(%b: !tle_struct.buffer<64xi32, "block">) {
  // expected-error @+1 {{pointers into a buffer at level "block" must carry that level}}
  %0 = tle_struct.local_ptr %b : !tle_struct.buffer<64xi32, "block"> -> tensor<64x!tle.ptr<i32>>
  tle.return
}

// -----

tle.func @local_ptr_full_shape(%b: !tle_struct.buffer<64xi32, "block">) {
  // expected-error @+1 {{without indices the result must have the buffer's shape}}
  %0 = tle_struct.local_ptr %b : !tle_struct.buffer<64xi32, "block"> -> tensor<32x!tle.ptr<i32, "block">>
  tle.return
}

// -----

tle.func @local_ptr_count(%b: !tle_struct.buffer<8x8xi32, "block">, %i: tensor<16xi32>) {
  // expected-error @+1 {{expected 2 index operands (one per buffer dimension), got 1}}
  %0 = tle_struct.local_ptr %b[%i] : tensor<16xi32> : !tle_struct.buffer<8x8xi32, "block"> -> tensor<16x!tle.ptr<i32, "block">>
  tle.return
}

// -----

tle.func @local_ptr_index_shapes(%b: !tle_struct.buffer<8x8xi32, "block">, %i: tensor<16xi32>, %j: tensor<8xi32>) {
  // expected-error @+1 {{index operands must all have one shape}}
  %0 = tle_struct.local_ptr %b[%i, %j] : tensor<16xi32>, tensor<8xi32> : !tle_struct.buffer<8x8xi32, "block"> -> tensor<16x!tle.ptr<i32, "block">>
  tle.return
}

// -----

tle.func @local_ptr_result_shape(%b: !tle_struct.buffer<64xi32, "block">, %i: tensor<16xi32>) {
  // expected-error @+1 {{result must have the shape of the indices}}
  %0 = tle_struct.local_ptr %b[%i] : tensor<16xi32> : !tle_struct.buffer<64xi32, "block"> -> tensor<8x!tle.ptr<i32, "block">>
  tle.return
}

// -----

tle.func @copy_endpoint(%x: tensor<64xf32>, %b: !tle_struct.buffer<64xf32, "block">) {
  // expected-error @+1 {{source must be a local buffer or a tensor of pointers, got 'tensor<64xf32>'}}
  tle_struct.copy %x to %b : tensor<64xf32> to !tle_struct.buffer<64xf32, "block">
  tle.return
}

// -----

tle.func @copy_shape(%p: tensor<32x!tle.ptr<f32>>, %b: !tle_struct.buffer<64xf32, "block">) {
  // expected-error @+1 {{source and destination shapes differ}}
  tle_struct.copy %p to %b : tensor<32x!tle.ptr<f32>> to !tle_struct.buffer<64xf32, "block">
  tle.return
}

// -----

tle.func @copy_elem(%p: tensor<64x!tle.ptr<f16>>, %b: !tle_struct.buffer<64xf32, "block">) {
  // expected-error @+1 {{source element type 'f16' differs from destination element type 'f32'}}
  tle_struct.copy %p to %b : tensor<64x!tle.ptr<f16>> to !tle_struct.buffer<64xf32, "block">
  tle.return
}

// -----

tle.func @copy_mask(%p: tensor<64x!tle.ptr<f32>>, %b: !tle_struct.buffer<64xf32, "block">, %m: tensor<32xi1>) {
  // expected-error @+1 {{mask shape must match the copied shape}}
  tle_struct.copy %p to %b mask %m : tensor<32xi1> : tensor<64x!tle.ptr<f32>> to !tle_struct.buffer<64xf32, "block">
  tle.return
}

// -----

tle.func @copy_async(%p: tensor<64x!tle.ptr<f32>>, %b: !tle_struct.buffer<64xf32, "block">) {
  // expected-error @+1 {{an async copy needs a barrier to complete on}}
  tle_struct.copy %p to %b {async} : tensor<64x!tle.ptr<f32>> to !tle_struct.buffer<64xf32, "block">
  tle.return
}

// -----

tle.func @to_tensor(%b: !tle_struct.buffer<64xf32, "spm">) {
  // expected-error @+1 {{result must have the buffer's shape and element type}}
  %0 = tle_struct.to_tensor %b : !tle_struct.buffer<64xf32, "spm"> -> tensor<32xf32>
  tle.return
}

// -----

tle.func @to_buffer(%t: tensor<64xf32>) {
  // expected-error @+1 {{buffer must have the tile's shape and element type}}
  %0 = tle_struct.to_buffer %t : tensor<64xf32> -> !tle_struct.buffer<64xf16, "spm">
  tle.return
}

// -----

tle.func @barrier_inval_argument(%bar: !tle_struct.barrier<"block">) {
  // expected-error @+1 {{needs barriers from tle_struct.barrier_alloc}}
  tle_struct.barrier_inval %bar : !tle_struct.barrier<"block">
  tle.return
}

// -----

tle.func @barrier_count() {
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %0 = tle_struct.barrier_alloc 0 : !tle_struct.barrier<"block">
  tle.return
}

// -----

tle.func @unit_id_outside() {
  // expected-error @+1 {{must be nested in a tle_struct.parallel region}}
  %0 = tle_struct.unit_id : i32
  tle.return
}

// -----

tle.func @ws_count() {
  // expected-error @+1 {{has 1 partitions but 2 warp counts}}
  tle_struct.warp_specialize [4, 1] {
    tle_struct.yield
  }
  tle.return
}

// -----

tle.func @ws_positive() {
  // expected-error @+1 {{warp counts must be positive}}
  tle_struct.warp_specialize [0] {
    tle_struct.yield
  }
  tle.return
}

// -----

tle.func @local_store_shape(%t: tensor<64x32xf16>, %slot: i32) {
  %b = tle_struct.alloc : !tle_struct.buffer<2x64x64xf16, "block">
  // expected-error @+1 {{value 'tensor<64x32xf16>' is not a slot of '!tle_struct.buffer<2x64x64xf16, "block">'}}
  tle_struct.local_store %t, %b[%slot] : tensor<64x32xf16>, !tle_struct.buffer<2x64x64xf16, "block">
  tle.return
}

// -----

// expected-error @+1 {{expected pad_interval, pad_amount or swizzle, got 'stride'}}
tle.func @layout_key() attributes {l = #tle_struct.layout<order = [0], stride = 4>} {
  tle.return
}

// -----

tle.func @local_dot_register_a_slot(%a: tensor<64x16xf16>, %c: tensor<64x64xf32>, %s: i32) {
  %b = tle_struct.alloc : !tle_struct.buffer<2x16x64xf16, "block">
  // expected-error @+1 {{an operand A in registers takes no slot}}
  %d = tle_struct.local_dot %a[%s], %b[%s], %c : tensor<64x16xf16>, !tle_struct.buffer<2x16x64xf16, "block">, tensor<64x64xf32> -> tensor<64x64xf32>
  tle.return
}

// -----

// expected-error @+1 {{'swizzle' given twice}}
tle.func @layout_twice() attributes {l = #tle_struct.layout<order = [1, 0], swizzle = 64, swizzle = 128>} {
  tle.return
}

// -----

tle.func @tensor_map_box(%base: !tle.ptr<bf16>, %rows: i32, %stride: i64) {
  // expected-error @+1 {{box of rank 2 for a tensor of rank 1}}
  %map = tle_struct.tensor_map %base, [%rows], [%stride] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !tle.ptr<bf16> -> !tle.ptr<i8>
  tle.return
}

// -----

tle.func @tensor_map_result(%base: !tle.ptr<bf16>, %rows: i32, %stride: i64) {
  // expected-error @+1 {{the map is a global !tle.ptr<i8>}}
  %map = tle_struct.tensor_map %base, [%rows], [%stride] {box = array<i64: 64>, swizzle = 0 : i32} : !tle.ptr<bf16> -> !tle.ptr<i8, "block">
  tle.return
}

// -----

tle.func @tensor_copy_unswizzled(%map: !tle.ptr<i8>, %i: i32) {
  %ring = tle_struct.alloc : !tle_struct.buffer<2x64x64xbf16, "block">
  %bar = tle_struct.barrier_alloc 1 {num = 2 : i32} : !tle_struct.barrier<"block">
  // expected-error @+1 {{copies into swizzled buffers without padding only}}
  tle_struct.async_tensor_copy %map[%i, %i], %ring[%i], %bar : !tle.ptr<i8>, !tle_struct.buffer<2x64x64xbf16, "block">, !tle_struct.barrier<"block">
  tle.return
}

// -----

tle.func @tensor_copy_indices(%map: !tle.ptr<i8>, %i: i32) {
  %ring = tle_struct.alloc : !tle_struct.buffer<2x64x64xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
  %bar = tle_struct.barrier_alloc 1 {num = 2 : i32} : !tle_struct.barrier<"block">
  // expected-error @+1 {{1 indices for a slot of rank 2}}
  tle_struct.async_tensor_copy %map[%i], %ring[%i], %bar : !tle.ptr<i8>, !tle_struct.buffer<2x64x64xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>, !tle_struct.barrier<"block">
  tle.return
}

// -----

tle.func @tensor_map_swizzle(%base: !tle.ptr<bf16>, %rows: i32, %stride: i64) {
  // expected-error @+1 {{swizzle of 48 bytes (0, 32, 64 or 128)}}
  %map = tle_struct.tensor_map %base, [%rows], [%stride] {box = array<i64: 64>, swizzle = 48 : i32} : !tle.ptr<bf16> -> !tle.ptr<i8>
  tle.return
}
