// RUN: tle-opt %s -split-input-file -verify-diagnostics
// One case per verifier rule of the tle dialect.

tle.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 2}}
  %0 = tle.get_program_id 3 : i32
  tle.return
}

// -----

tle.func @range_negative_start() {
  // expected-error @+1 {{start must be non-negative, got -1}}
  %0 = tle.make_range {start = -1 : i32, end = 1 : i32} : tensor<2xi32>
  tle.return
}

// -----

tle.func @range_empty() {
  // expected-error @+1 {{end (4) must be greater than start (4)}}
  %0 = tle.make_range {start = 4 : i32, end = 4 : i32} : tensor<1xi32>
  tle.return
}

// -----

tle.func @range_size() {
  // expected-error @+1 {{result must be a 1-D tensor of 16 elements, got 'tensor<8xi32>'}}
  %0 = tle.make_range {start = 0 : i32, end = 16 : i32} : tensor<8xi32>
  tle.return
}

// -----

tle.func @range_pow2() {
  // expected-error @+1 {{range size 12 must be a power of 2}}
  %0 = tle.make_range {start = 0 : i32, end = 12 : i32} : tensor<12xi32>
  tle.return
}

// -----

tle.func @splat_type(%x: i32) {
  // expected-error @+1 {{result element type 'f32' does not match the splatted type 'i32'}}
  %0 = tle.splat %x : i32 -> tensor<4xf32>
  tle.return
}

// -----

tle.func @broadcast_elem(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'f16'}}
  %0 = tle.broadcast %x : tensor<1x4xf32> -> tensor<8x4xf16>
  tle.return
}

// -----

tle.func @broadcast_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{rank changes from 1 to 2; insert dimensions with tle.expand_dims first}}
  %0 = tle.broadcast %x : tensor<4xf32> -> tensor<8x4xf32>
  tle.return
}

// -----

tle.func @broadcast_dim(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{cannot broadcast dimension 0 of size 2 to 8}}
  %0 = tle.broadcast %x : tensor<2x4xf32> -> tensor<8x4xf32>
  tle.return
}

// -----

tle.func @expand_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a tensor of rank 1}}
  %0 = tle.expand_dims %x {axis = 2 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  tle.return
}

// -----

tle.func @expand_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type must be 'tensor<1x4xf32>', got 'tensor<4x1xf32>'}}
  %0 = tle.expand_dims %x {axis = 0 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  tle.return
}

// -----

tle.func @reshape_count(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{cannot reshape 16 elements into 32}}
  %0 = tle.reshape %x : tensor<4x4xf32> -> tensor<32xf32>
  tle.return
}

// -----

tle.func @reshape_elem(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'i32'}}
  %0 = tle.reshape %x : tensor<4x4xf32> -> tensor<16xi32>
  tle.return
}

// -----

tle.func @trans_order_size(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order has 3 entries for a tensor of rank 2}}
  %0 = tle.trans %x {order = array<i32: 0, 1, 2>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tle.return
}

// -----

tle.func @trans_not_perm(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order must be a permutation of [0, 2)}}
  %0 = tle.trans %x {order = array<i32: 1, 1>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tle.return
}

// -----

tle.func @trans_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result type must be 'tensor<8x4xf32>', got 'tensor<4x8xf32>'}}
  %0 = tle.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tle.return
}

// -----

tle.func @join_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type must be 'tensor<4x2xf32>', got 'tensor<2x4xf32>'}}
  %0 = tle.join %x, %x : tensor<4xf32> -> tensor<2x4xf32>
  tle.return
}

// -----

tle.func @split_last_dim(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{the last dimension of the operand must be 2, got 'tensor<4x3xf32>'}}
  %0, %1 = tle.split %x : tensor<4x3xf32> -> tensor<4xf32>
  tle.return
}

// -----

tle.func @split_result(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{results must have type 'tensor<4xf32>'}}
  %0, %1 = tle.split %x : tensor<4x2xf32> -> tensor<8xf32>
  tle.return
}

// -----

tle.func @cat_operands(%x: tensor<4x2xf32>, %y: tensor<4x3xf32>) {
  // expected-error @+1 {{operands 'tensor<4x2xf32>' and 'tensor<4x3xf32>' differ in more than dimension 0}}
  %0 = tle.cat %x, %y : tensor<4x2xf32>, tensor<4x3xf32> -> tensor<8x2xf32>
  tle.return
}

// -----

tle.func @cat_result(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{result type must be 'tensor<8x2xf32>', got 'tensor<4x2xf32>'}}
  %0 = tle.cat %x, %x : tensor<4x2xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
  tle.return
}

// -----

tle.func @addptr_shape(%p: tensor<8x!tle.ptr<f32>>, %o: tensor<4xi32>) {
  // expected-error @+1 {{offset shape [4] does not match pointer shape [8]}}
  %0 = tle.addptr %p, %o : tensor<8x!tle.ptr<f32>>, tensor<4xi32>
  tle.return
}

// -----

tle.func @int_to_ptr_shape(%x: tensor<4xi64>) {
  // expected-error @+1 {{operand and result shapes differ}}
  %0 = tle.int_to_ptr %x : tensor<4xi64> -> tensor<8x!tle.ptr<f32>>
  tle.return
}

// -----

tle.func @ptr_to_int_shape(%p: tensor<4x!tle.ptr<f32>>) {
  // expected-error @+1 {{operand and result shapes differ}}
  %0 = tle.ptr_to_int %p : tensor<4x!tle.ptr<f32>> -> tensor<2xi64>
  tle.return
}

// -----

tle.func @bitcast_width(%x: tensor<4xf32>) {
  // expected-error @+1 {{cannot bitcast a 32-bit type to a 16-bit type}}
  %0 = tle.bitcast %x : tensor<4xf32> -> tensor<4xi16>
  tle.return
}

// -----

tle.func @bitcast_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{operand and result shapes differ}}
  %0 = tle.bitcast %x : tensor<4xf32> -> tensor<8xi32>
  tle.return
}

// -----

tle.func @fp_narrow_no_rounding(%x: tensor<4xf32>) {
  // expected-error @+1 {{narrowing conversion from 'f32' to 'f16' requires a rounding mode}}
  %0 = tle.fp_to_fp %x : tensor<4xf32> -> tensor<4xf16>
  tle.return
}

// -----

tle.func @fp_widen_rounding(%x: tensor<4xf16>) {
  // expected-error @+1 {{rounding mode is only meaningful for narrowing conversions}}
  %0 = tle.fp_to_fp %x {rounding = #tle.rounding<rtz>} : tensor<4xf16> -> tensor<4xf32>
  tle.return
}

// -----

tle.func @fp_shape(%x: tensor<4xf16>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tle.fp_to_fp %x : tensor<4xf16> -> tensor<8xf32>
  tle.return
}

// -----

tle.func @load_mask_shape(%p: tensor<8x!tle.ptr<f32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{failed to verify that mask has the shape of ptr and i1 elements}}
  %0 = "tle.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x!tle.ptr<f32>>, tensor<4xi1>) -> tensor<8xf32>
  tle.return
}

// -----

tle.func @load_result(%p: tensor<8x!tle.ptr<f32>>) {
  // expected-error @+1 {{failed to verify that result has the pointee type of ptr}}
  %0 = "tle.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<8x!tle.ptr<f32>>) -> tensor<8xf16>
  tle.return
}

// -----

tle.func @load_other(%p: tensor<8x!tle.ptr<f32>>, %m: tensor<8xi1>, %o: tensor<8xf16>) {
  // expected-error @+1 {{failed to verify that other has the pointee type of ptr}}
  %0 = "tle.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<8x!tle.ptr<f32>>, tensor<8xi1>, tensor<8xf16>) -> tensor<8xf32>
  tle.return
}

// -----

tle.func @store_value(%p: tensor<8x!tle.ptr<f32>>, %v: tensor<8xi32>) {
  // expected-error @+1 {{failed to verify that value has the pointee type of ptr}}
  "tle.store"(%p, %v) : (tensor<8x!tle.ptr<f32>>, tensor<8xi32>) -> ()
  tle.return
}

// -----

tle.func @store_mask(%p: tensor<8x!tle.ptr<f32>>, %v: tensor<8xf32>, %m: tensor<8xi32>) {
  // expected-error @+1 {{operand #2 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values}}
  "tle.store"(%p, %v, %m) : (tensor<8x!tle.ptr<f32>>, tensor<8xf32>, tensor<8xi32>) -> ()
  tle.return
}

// -----

tle.func @rmw_shape(%p: tensor<8x!tle.ptr<i32>>, %v: tensor<4xi32>) {
  // expected-error @+1 {{value shape [4] does not match pointer shape [8]}}
  %0 = tle.atomic_rmw add %p, %v : tensor<8x!tle.ptr<i32>>, tensor<4xi32>
  tle.return
}

// -----

tle.func @rmw_pointee(%p: tensor<8x!tle.ptr<i32>>, %v: tensor<8xi64>) {
  // expected-error @+1 {{value element type 'i64' does not match pointee type 'i32'}}
  %0 = tle.atomic_rmw add %p, %v : tensor<8x!tle.ptr<i32>>, tensor<8xi64>
  tle.return
}

// -----

tle.func @rmw_fadd_int(%p: !tle.ptr<i32>, %v: i32) {
  // expected-error @+1 {{fadd needs a floating-point value, got 'i32'}}
  %0 = tle.atomic_rmw fadd %p, %v : !tle.ptr<i32>, i32
  tle.return
}

// -----

tle.func @rmw_and_float(%p: !tle.ptr<f32>, %v: f32) {
  // expected-error @+1 {{and needs an integer value, got 'f32'}}
  %0 = tle.atomic_rmw and %p, %v : !tle.ptr<f32>, f32
  tle.return
}

// -----

tle.func @cas_pointee(%p: !tle.ptr<i32>, %v: i64) {
  // expected-error @+1 {{value element type 'i64' does not match pointee type 'i32'}}
  %0 = tle.atomic_cas %p, %v, %v : !tle.ptr<i32>, i64
  tle.return
}

// -----

tle.func @desc_rank(%b: !tle.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{descriptor of rank 1 cannot move blocks of rank 2}}
  %0 = tle.make_tensor_descriptor %b, [%m], [%s] : !tle.ptr<f16> -> !tle.tensordesc<tensor<64x64xf16>>
  tle.return
}

// -----

tle.func @desc_elem(%b: !tle.ptr<f32>, %m: i32, %s: i64) {
  // expected-error @+1 {{block element type 'f16' does not match pointee type 'f32'}}
  %0 = tle.make_tensor_descriptor %b, [%m], [%s] : !tle.ptr<f32> -> !tle.tensordesc<tensor<64xf16>>
  tle.return
}

// -----

tle.func @desc_load_indices(%d: !tle.tensordesc<tensor<64x64xf16>>, %i: i32) {
  // expected-error @+1 {{expected 2 indices, got 1}}
  %0 = tle.descriptor_load %d[%i] : !tle.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tle.return
}

// -----

tle.func @desc_load_result(%d: !tle.tensordesc<tensor<64x64xf16>>, %i: i32) {
  // expected-error @+1 {{result type must be the descriptor's block type 'tensor<64x64xf16>'}}
  %0 = tle.descriptor_load %d[%i, %i] : !tle.tensordesc<tensor<64x64xf16>> -> tensor<32x64xf16>
  tle.return
}

// -----

tle.func @desc_store_indices(%d: !tle.tensordesc<tensor<64xf16>>, %i: i32, %v: tensor<64xf16>) {
  // expected-error @+1 {{expected 1 indices, got 2}}
  tle.descriptor_store %d[%i, %i], %v : !tle.tensordesc<tensor<64xf16>>, tensor<64xf16>
  tle.return
}

// -----

tle.func @desc_store_type(%d: !tle.tensordesc<tensor<64xf16>>, %i: i32, %v: tensor<64xf32>) {
  // expected-error @+1 {{stored type must be the descriptor's block type 'tensor<64xf16>'}}
  tle.descriptor_store %d[%i], %v : !tle.tensordesc<tensor<64xf16>>, tensor<64xf32>
  tle.return
}

// -----

tle.func @desc_load_check_twice(%d: !tle.tensordesc<tensor<64x64xf16>>, %i: i32) {
  // expected-error @+1 {{boundary_check must list distinct dimensions below 2}}
  %0 = tle.descriptor_load %d[%i, %i] {boundary_check = array<i32: 1, 1>} : !tle.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tle.return
}

// -----

tle.func @desc_store_check_rank(%d: !tle.tensordesc<tensor<64xf16>>, %i: i32, %v: tensor<64xf16>) {
  // expected-error @+1 {{boundary_check must list distinct dimensions below 1}}
  tle.descriptor_store %d[%i], %v {boundary_check = array<i32: 1>} : !tle.tensordesc<tensor<64xf16>>, tensor<64xf16>
  tle.return
}

// -----

tle.func @dot_rank(%a: tensor<4xf16>, %c: tensor<4xf32>) {
  // expected-error @+1 {{operands must be 2-D (or 3-D with a batch dimension), got rank 1}}
  %0 = tle.dot %a, %a, %c : tensor<4xf16> * tensor<4xf16> -> tensor<4xf32>
  tle.return
}

// -----

tle.func @dot_rank_mismatch(%a: tensor<4x4xf16>, %b: tensor<1x4x4xf16>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{operands must all have rank 2}}
  %0 = tle.dot %a, %b, %c : tensor<4x4xf16> * tensor<1x4x4xf16> -> tensor<4x4xf32>
  tle.return
}

// -----

tle.func @dot_batch(%a: tensor<2x4x4xf16>, %b: tensor<3x4x4xf16>, %c: tensor<2x4x4xf32>) {
  // expected-error @+1 {{batch dimensions differ: 2, 3, 2}}
  %0 = tle.dot %a, %b, %c : tensor<2x4x4xf16> * tensor<3x4x4xf16> -> tensor<2x4x4xf32>
  tle.return
}

// -----

tle.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{reduction dimensions differ: a is 16x32 but b is 16x16}}
  %0 = tle.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tle.return
}

// -----

tle.func @dot_acc(%a: tensor<16x32xf16>, %b: tensor<32x16xf16>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{accumulator must be 16x16, got 16x32}}
  %0 = tle.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x32xf32>
  tle.return
}

// -----

tle.func @dot_elem(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operand element types differ: 'f16' and 'bf16'}}
  %0 = tle.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  tle.return
}

// -----

tle.func @reduce_shapes(%a: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{operands must all have shape [4]}}
  %0:2 = tle.reduce(%a, %b) {axis = 0 : i32} : (tensor<4xf32>, tensor<8xf32>) -> (f32, f32) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32):
    tle.reduce.return %x, %y : f32, f32
  }
  tle.return
}

// -----

tle.func @reduce_axis(%a: tensor<4xf32>) {
  // expected-error @+1 {{axis 1 is out of range for a tensor of rank 1}}
  %0 = tle.reduce(%a) {axis = 1 : i32} : (tensor<4xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    tle.reduce.return %x : f32
  }
  tle.return
}

// -----

tle.func @reduce_num_results(%a: tensor<4xf32>) {
  // expected-error @+1 {{needs one result per operand}}
  %0:2 = tle.reduce(%a) {axis = 0 : i32} : (tensor<4xf32>) -> (f32, f32) {
  ^bb0(%x: f32, %y: f32):
    tle.reduce.return %x : f32
  }
  tle.return
}

// -----

tle.func @reduce_result_type(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{result type must be 'tensor<4xf32>', got 'tensor<8xf32>'}}
  %0 = tle.reduce(%a) {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    tle.reduce.return %x : f32
  }
  tle.return
}

// -----

tle.func @reduce_combiner_args(%a: tensor<4xf32>) {
  // expected-error @+1 {{combiner must take 2 scalar arguments (the accumulated values, then the new ones) of the operand element types}}
  %0 = tle.reduce(%a) {axis = 0 : i32} : (tensor<4xf32>) -> f32 {
  ^bb0(%x: f32, %y: i32):
    tle.reduce.return %x : f32
  }
  tle.return
}

// -----

tle.func @reduce_combiner_yield(%a: tensor<4xf32>) {
  // expected-error @+1 {{combiner must yield 1 scalars of the operand element types}}
  %0 = tle.reduce(%a) {axis = 0 : i32} : (tensor<4xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    %c = arith.constant 0 : i32
    tle.reduce.return %c : i32
  }
  tle.return
}

// -----

tle.func @scan_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{results must have the operand types}}
  %0 = tle.scan(%a) {axis = 0 : i32, reverse = false} : (tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%x: f32, %y: f32):
    tle.scan.return %x : f32
  }
  tle.return
}

// -----

tle.func @scan_combiner(%a: tensor<4xf32>) {
  // expected-error @+1 {{combiner must take 2 scalar arguments}}
  %0 = tle.scan(%a) {axis = 0 : i32, reverse = false} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32):
    tle.scan.return %x : f32
  }
  tle.return
}

// -----

tle.func @histogram_rank(%a: tensor<4x4xi32>) {
  // expected-error @+1 {{operand and result must be 1-D}}
  %0 = tle.histogram %a : tensor<4x4xi32> -> tensor<8xi32>
  tle.return
}

// -----

tle.func @gather_rank(%s: tensor<4x8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{indices must have the source's rank 2, got 1}}
  %0 = tle.gather %s[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<8xi32> -> tensor<8xf32>
  tle.return
}

// -----

tle.func @gather_axis(%s: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = tle.gather %s[%i] {axis = 2 : i32} : tensor<4x8xf32>, tensor<4x8xi32> -> tensor<4x8xf32>
  tle.return
}

// -----

tle.func @gather_other_axis(%s: tensor<4x8xf32>, %i: tensor<2x3xi32>) {
  // expected-error @+1 {{indices must match the source along axis 0 (2 vs 4)}}
  %0 = tle.gather %s[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<2x3xi32> -> tensor<2x3xf32>
  tle.return
}

// -----

tle.func @gather_result(%s: tensor<4x8xf32>, %i: tensor<4x3xi32>) {
  // expected-error @+1 {{the result must have the indices' shape and the source's element type}}
  %0 = tle.gather %s[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x3xi32> -> tensor<4x3xf16>
  tle.return
}

// -----

tle.func @call_unknown() {
  // expected-error @+1 {{'missing' does not reference a tle.func}}
  tle.call @missing() : () -> ()
  tle.return
}

// -----

tle.func private @callee(%x: f32) -> f32
tle.func @call_operands(%x: i32) {
  // expected-error @+1 {{operand types do not match the signature of 'callee': '(f32) -> f32'}}
  %0 = tle.call @callee(%x) : (i32) -> f32
  tle.return
}

// -----

tle.func private @callee(%x: f32) -> f32
tle.func @call_results(%x: f32) {
  // expected-error @+1 {{result types do not match the signature of 'callee': '(f32) -> f32'}}
  %0 = tle.call @callee(%x) : (f32) -> i32
  tle.return
}

// -----

tle.func @return_type(%x: i32) -> f32 {
  // expected-error @+1 {{returns ('i32') but the enclosing function returns ('f32')}}
  tle.return %x : i32
}

// -----

tle.func @extract_elem(%x: tensor<64xf32>, %i: i32) {
  // expected-error @+1 {{tile element type 'f16' differs from 'f32'}}
  %0 = "tle.extract_tile"(%x, %i) : (tensor<64xf32>, i32) -> tensor<16xf16>
  tle.return
}

// -----

tle.func @extract_rank(%x: tensor<64x64xf32>, %i: i32) {
  // expected-error @+1 {{tile rank 1 differs from rank 2}}
  %0 = tle.extract_tile %x[%i] : tensor<64x64xf32> -> tensor<16xf32>
  tle.return
}

// -----

tle.func @extract_larger(%x: tensor<64xf32>, %i: i32) {
  // expected-error @+1 {{tile dimension 0 (128) is larger than the tile it is taken from (64)}}
  %0 = tle.extract_tile %x[%i] : tensor<64xf32> -> tensor<128xf32>
  tle.return
}

// -----

tle.func @extract_index(%x: tensor<64x64xf32>) {
  %c = arith.constant 16 : i32
  // expected-error @+1 {{tile index 16 is out of range [0, 16)}}
  %0 = tle.extract_tile %x[%c] : tensor<64x64xf32> -> tensor<16x16xf32>
  tle.return
}

// -----

tle.func @insert_index(%x: tensor<64xf32>, %t: tensor<48xf32>) {
  %c = arith.constant 2 : i32
  // expected-error @+1 {{tile index 2 is out of range [0, 2)}}
  %0 = tle.insert_tile %t into %x[%c] : tensor<48xf32> into tensor<64xf32>
  tle.return
}

// -----

tle.func @cumsum_axis(%x: tensor<64xi32>) {
  // expected-error @+1 {{axis 1 is out of range for a tensor of rank 1}}
  %0, %1 = tle.exclusive_cumsum %x {axis = 1 : i32} : tensor<64xi32> -> tensor<64xi32>, i32
  tle.return
}

// -----

tle.func @cumsum_exclusive(%x: tensor<64xi32>) {
  // expected-error @+1 {{exclusive result must have the operand type}}
  %0, %1 = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<64xi32> -> tensor<64xi64>, i32
  tle.return
}

// -----

tle.func @cumsum_total(%x: tensor<8x64xi32>) {
  // expected-error @+1 {{total must have type 'tensor<64xi32>', got 'i32'}}
  %0, %1 = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<8x64xi32> -> tensor<8x64xi32>, i32
  tle.return
}

// -----

tle.func @pipe_name() {
  // expected-error @+1 {{pipe needs a name}}
  %0 = tle.pipe.create "" : !tle.pipe<1, [f32]>
  tle.return
}

// -----

tle.func @pipe_readers() {
  // expected-error @+1 {{pipe needs at least one reader, got 0}}
  %0 = tle.pipe.create "p" {readers = 0 : i32} : !tle.pipe<1, [f32]>
  tle.return
}

// -----

tle.func @pipe_capacity() {
  // expected-error @+1 {{pipe capacity must be at least 1}}
  %0 = tle.pipe.create "p" : !tle.pipe<0, [f32]>
  tle.return
}

// -----

tle.func @pipe_commit(%p: !tle.pipe<1, [f32]>, %v: i32) {
  // expected-error @+1 {{committed values must match the pipe fields ('f32')}}
  tle.pipe.writer_commit %p, %v : !tle.pipe<1, [f32]>, i32
  tle.return
}

// -----

tle.func @pipe_wait(%p: !tle.pipe<1, [f32]>) {
  // expected-error @+1 {{results must match the pipe fields ('f32')}}
  %valid, %v = tle.pipe.reader_wait %p : !tle.pipe<1, [f32]> -> i32
  tle.return
}

// -----

// Encodings are not compared, shapes are.
#blk = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
tle.func @pipe_commit_shape(%p: !tle.pipe<1, [tensor<128xf32>]>, %v: tensor<64xf32, #blk>) {
  // expected-error @+1 {{committed values must match the pipe fields ('tensor<128xf32>')}}
  tle.pipe.writer_commit %p, %v : !tle.pipe<1, [tensor<128xf32>]>, tensor<64xf32, #blk>
  tle.return
}

// -----

tle.func @mesh_unknown_level() {
  // expected-error @+1 {{unknown device mesh level 'rack' (expected one of node, device, chiplet, block_cluster, block)}}
  %0 = tle.device_mesh : !tle.mesh<["rack"], [2]>
  tle.return
}

// -----

tle.func @mesh_order() {
  // expected-error @+1 {{device mesh levels must be distinct and listed outermost first; 'node' is out of order}}
  %0 = tle.device_mesh : !tle.mesh<["device", "node"], [8, 2]>
  tle.return
}

// -----

tle.func @mesh_sizes() {
  // expected-error @+1 {{device mesh has 2 levels but 1 sizes}}
  %0 = tle.device_mesh : !tle.mesh<["node", "device"], [2]>
  tle.return
}

// -----

tle.func @mesh_size_positive() {
  // expected-error @+1 {{device mesh level 'device' must have a positive size, got 0}}
  %0 = tle.device_mesh : !tle.mesh<["device"], [0]>
  tle.return
}

// -----

tle.func @shard_level(%m: !tle.mesh<["device"], [8]>) {
  // expected-error @+1 {{level 'node' is not a level of the mesh}}
  %0 = tle.shard_id %m, "node" : !tle.mesh<["device"], [8]>
  tle.return
}

// -----

tle.func @barrier_level(%m: !tle.mesh<["device"], [8]>) {
  // expected-error @+1 {{level 'block' is not a level of the mesh}}
  tle.distributed_barrier %m, "block" : !tle.mesh<["device"], [8]>
  tle.return
}

// -----

// expected-error @+1 {{pointee must be an integer, float or pointer type, got 'tensor<4xf32>'}}
tle.func @ptr_pointee(%p: !tle.ptr<tensor<4xf32>>) {
  tle.return
}

// -----

// expected-error @+1 {{memory level name must not be empty}}
tle.func @ptr_level(%p: !tle.ptr<f32, "">) {
  tle.return
}
