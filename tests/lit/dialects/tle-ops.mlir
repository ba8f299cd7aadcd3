// RUN: tle-opt %s | FileCheck %s
// Round trip: print, then parse the printed form again.
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

// CHECK-LABEL: tle.func @add_kernel
// CHECK-SAME: (%{{.*}}: !tle.ptr<f32> {tle.divisibility = 16 : i32}
tle.func @add_kernel(%x: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %y: !tle.ptr<f32>, %out: !tle.ptr<f32>, %n: i32) {
  // CHECK: %[[PID:.*]] = tle.get_program_id 0 : i32
  %pid = tle.get_program_id 0 : i32
  // CHECK: tle.get_num_programs 1 : i32
  %np = tle.get_num_programs 1 : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  // CHECK: tle.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  // CHECK: tle.splat %{{.*}} : i32 -> tensor<1024xi32>
  %s = tle.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %ns = tle.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tle.splat %x : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
  // CHECK: tle.addptr %{{.*}}, %{{.*}} : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
  %xp = tle.addptr %xs, %offs : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
  // CHECK: tle.load %{{.*}}, %{{.*}} : tensor<1024x!tle.ptr<f32>>
  %xv = tle.load %xp, %mask : tensor<1024x!tle.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  // CHECK: tle.load %{{.*}}, %{{.*}}, %{{.*}} {cache = #tle.cache<cg>, evict = #tle.evict<evict_last>, isVolatile} : tensor<1024x!tle.ptr<f32>>
  %yv = tle.load %xp, %mask, %zero {cache = #tle.cache<cg>, evict = #tle.evict<evict_last>, isVolatile} : tensor<1024x!tle.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<1024xf32>
  %os = tle.splat %out : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
  %op = tle.addptr %os, %offs : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
  // CHECK: tle.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tle.ptr<f32>>
  tle.store %op, %sum, %mask : tensor<1024x!tle.ptr<f32>>
  // CHECK: tle.store %{{.*}}, %{{.*}} {cache = #tle.cache<wt>} : !tle.ptr<f32>
  %one = arith.constant 1.0 : f32
  tle.store %out, %one {cache = #tle.cache<wt>} : !tle.ptr<f32>
  // CHECK: tle.return
  tle.return
}

// CHECK-LABEL: tle.func @shapes
tle.func @shapes(%a: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<4x8xf16>) -> tensor<32xf32> {
  // CHECK: tle.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %e = tle.expand_dims %a {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  // CHECK: tle.broadcast %{{.*}} : tensor<16x1xf32> -> tensor<16x8xf32>
  %bc = tle.broadcast %e : tensor<16x1xf32> -> tensor<16x8xf32>
  // CHECK: tle.reshape %{{.*}} {allow_reorder} : tensor<16x8xf32> -> tensor<128xf32>
  %rs = tle.reshape %bc {allow_reorder} : tensor<16x8xf32> -> tensor<128xf32>
  // CHECK: tle.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf16> -> tensor<8x4xf16>
  %t = tle.trans %m {order = array<i32: 1, 0>} : tensor<4x8xf16> -> tensor<8x4xf16>
  // CHECK: tle.join %{{.*}}, %{{.*}} : tensor<16xf32> -> tensor<16x2xf32>
  %j = tle.join %a, %b : tensor<16xf32> -> tensor<16x2xf32>
  // CHECK: tle.split %{{.*}} : tensor<16x2xf32> -> tensor<16xf32>
  %l, %r = tle.split %j : tensor<16x2xf32> -> tensor<16xf32>
  // CHECK: tle.cat %{{.*}}, %{{.*}} : tensor<16xf32>, tensor<16xf32> -> tensor<32xf32>
  %c = tle.cat %l, %r : tensor<16xf32>, tensor<16xf32> -> tensor<32xf32>
  tle.return %c : tensor<32xf32>
}

// CHECK-LABEL: tle.func @casts
tle.func @casts(%p: !tle.ptr<f32>, %v: tensor<8xf32>, %h: tensor<8xf16>) {
  // CHECK: tle.ptr_to_int %{{.*}} : !tle.ptr<f32> -> i64
  %i = tle.ptr_to_int %p : !tle.ptr<f32> -> i64
  // CHECK: tle.int_to_ptr %{{.*}} : i64 -> !tle.ptr<i32>
  %q = tle.int_to_ptr %i : i64 -> !tle.ptr<i32>
  // CHECK: tle.bitcast %{{.*}} : !tle.ptr<f32> -> !tle.ptr<i8>
  %b = tle.bitcast %p : !tle.ptr<f32> -> !tle.ptr<i8>
  // CHECK: tle.bitcast %{{.*}} : tensor<8xf32> -> tensor<8xi32>
  %bi = tle.bitcast %v : tensor<8xf32> -> tensor<8xi32>
  // CHECK: tle.fp_to_fp %{{.*}} {rounding = #tle.rounding<rtne>} : tensor<8xf32> -> tensor<8xf8E5M2>
  %f8 = tle.fp_to_fp %v {rounding = #tle.rounding<rtne>} : tensor<8xf32> -> tensor<8xf8E5M2>
  // CHECK: tle.fp_to_fp %{{.*}} : tensor<8xf16> -> tensor<8xf32>
  %up = tle.fp_to_fp %h : tensor<8xf16> -> tensor<8xf32>
  tle.return
}

// CHECK-LABEL: tle.func @atomics
tle.func @atomics(%p: tensor<64x!tle.ptr<i32>>, %v: tensor<64xi32>, %m: tensor<64xi1>, %fp: !tle.ptr<f32>, %f: f32) {
  // CHECK: tle.atomic_rmw add %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
  %0 = tle.atomic_rmw add %p, %v, %m : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
  // CHECK: tle.atomic_rmw fadd %{{.*}}, %{{.*}} {scope = #tle.scope<block>, sem = #tle.sem<relaxed>} : !tle.ptr<f32>, f32
  %1 = tle.atomic_rmw fadd %fp, %f {sem = #tle.sem<relaxed>, scope = #tle.scope<block>} : !tle.ptr<f32>, f32
  // CHECK: tle.atomic_rmw xchg
  %2 = tle.atomic_rmw xchg %p, %v : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
  // CHECK: tle.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
  %3 = tle.atomic_cas %p, %v, %0 : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
  tle.return
}

// CHECK-LABEL: tle.func @descriptors
tle.func @descriptors(%base: !tle.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64) {
  // CHECK: tle.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : !tle.ptr<f16> -> !tle.tensordesc<tensor<64x64xf16>>
  %d = tle.make_tensor_descriptor %base, [%m, %n], [%s, %one] : !tle.ptr<f16> -> !tle.tensordesc<tensor<64x64xf16>>
  %c0 = arith.constant 0 : i32
  // CHECK: tle.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tle.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  %t = tle.descriptor_load %d[%c0, %c0] : !tle.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  // CHECK: tle.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tle.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  tle.descriptor_store %d[%c0, %c0], %t : !tle.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  tle.return
}

// CHECK-LABEL: tle.func @compute
tle.func @compute(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>, %ba: tensor<2x16x16xf8E4M3FN>, %bb: tensor<2x16x16xf8E5M2>, %bc: tensor<2x16x16xf32>, %idx: tensor<128xi32>) -> f32 {
  // CHECK: tle.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %d = tle.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  // CHECK: tle.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tle.precision<ieee>, maxNumImpreciseAcc = 32 : i32}
  %e = tle.dot %ba, %bb, %bc {inputPrecision = #tle.precision<ieee>, maxNumImpreciseAcc = 32 : i32} : tensor<2x16x16xf8E4M3FN> * tensor<2x16x16xf8E5M2> -> tensor<2x16x16xf32>
  // CHECK: tle.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32>
  // CHECK: tle.reduce.return %{{.*}} : f32
  %row = tle.reduce(%d) {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
  ^bb0(%acc: f32, %x: f32):
    %m = arith.maximumf %acc, %x : f32
    tle.reduce.return %m : f32
  }
  // Argmax-style reduction over (value, index) pairs down to scalars.
  %iota = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %max, %arg = tle.reduce(%row, %iota) {axis = 0 : i32} : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32) {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v1, %v0 : f32
    %v = arith.select %gt, %v1, %v0 : f32
    %i = arith.select %gt, %i1, %i0 : i32
    tle.reduce.return %v, %i : f32, i32
  }
  // CHECK: tle.scan(%{{.*}}) {axis = 0 : i32, reverse = false} : (tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tle.scan.return
  %cs = tle.scan(%row) {axis = 0 : i32, reverse = false} : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%acc: f32, %x: f32):
    %s = arith.addf %acc, %x : f32
    tle.scan.return %s : f32
  }
  // CHECK: tle.histogram %{{.*}} : tensor<128xi32> -> tensor<16xi32>
  %h = tle.histogram %idx : tensor<128xi32> -> tensor<16xi32>
  // CHECK: tle.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : tensor<128xi32>, tensor<16xi32> -> tensor<16xi32>
  %g = tle.gather %idx[%h] {axis = 0 : i32} : tensor<128xi32>, tensor<16xi32> -> tensor<16xi32>
  tle.return %max : f32
}

// CHECK-LABEL: tle.func @debug
tle.func @debug(%c: tensor<8xi1>, %v: tensor<8xf32>, %s: i1) {
  // CHECK: tle.assert %{{.*}}, "x must be positive" : tensor<8xi1>
  tle.assert %c, "x must be positive" : tensor<8xi1>
  // CHECK: tle.print "v = " {hex = false} : %{{.*}} : tensor<8xf32>
  tle.print "v = " {hex = false} : %v : tensor<8xf32>
  // CHECK: tle.assume %{{.*}}
  tle.assume %s
  // CHECK: tle.debug_barrier
  tle.debug_barrier
  tle.return
}

// CHECK-LABEL: tle.func private @helper
tle.func private @helper(%x: f32) -> f32 {
  tle.return %x : f32
}
// CHECK-LABEL: tle.func @caller
tle.func @caller(%x: f32) -> f32 {
  // CHECK: tle.call @helper(%{{.*}}) : (f32) -> f32
  %y = tle.call @helper(%x) : (f32) -> f32
  tle.return %y : f32
}
