// RUN: tle-opt %s -split-input-file --tle-lower-tensor-descriptors="tensor-copies=1" | FileCheck %s --check-prefix=KEEP
// RUN: tle-opt %s -split-input-file --tle-lower-tensor-descriptors="tensor-copies=1" --canonicalize --tle-assign-layouts-test-mma="" --tle-pipeline-loads | FileCheck %s
// RUN: tle-opt %s -split-input-file --tle-lower-tensor-descriptors="tensor-copies=1" --canonicalize --tle-assign-layouts-test-mma="" --tle-pipeline-loads --tle-distribute | FileCheck %s --check-prefix=DIST
// RUN: tle-opt %s -split-input-file --tle-lower-tensor-descriptors="tensor-copies=1" --canonicalize --tle-assign-layouts-test-mma="" --tle-pipeline-loads="num-stages=1" --tle-distribute | FileCheck %s --check-prefix=PLAIN
// RUN: tle-opt %s -split-input-file --tle-lower-tensor-descriptors="tensor-copies=1" --canonicalize --tle-assign-layouts-test-mma="" --tle-pipeline-loads --tle-distribute | FileCheck %s --check-prefix=NESTED --strict-whitespace

// Attention's loop on descriptor tiles, on a target with tensor copies
// (the test target's warpgroup unit reads block-level operands). Q, loaded
// before the loop, becomes a masked pointer load; K and V stay descriptor
// loads until software pipelining stages them: one tensor map per
// descriptor right after it (64x64 boxes, one 128-byte panel of bf16), a
// ring per tile in that swizzle (K^T: the tile's rows are the ring's N,
// its contiguous D the fastest dimension) with a barrier per slot, the
// copies of the first two iterations before the loop and of iteration
// i + 2 after the slot-release barrier. Each product waits for its slot's
// phase (the wraps of the slots so far, carried) right before it, V's
// after the softmax; no async_wait in the loop, one after it, which ends
// the rings' lifetime.
// KEEP-LABEL: tle.func @attention
// KEEP: tle.load
// KEEP: scf.for
// KEEP: tle.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}]
// KEEP: tle.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}]
// CHECK-LABEL: tle.func @attention
// CHECK-NOT: tle.make_tensor_descriptor
// CHECK: %[[KMAP:.*]] = tle_struct.tensor_map %arg1, [%arg4, %{{.*}}], [%{{.*}}, %{{.*}}] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !tle.ptr<bf16> -> !tle.ptr<i8>
// CHECK: %[[VMAP:.*]] = tle_struct.tensor_map %arg2,
// CHECK: tle.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!tle.ptr<bf16>, #blocked{{[0-9]*}}>
// CHECK: %[[KRING:.*]] = tle_struct.alloc : !tle_struct.buffer<3x64x64xbf16, "block", #tle_struct.layout<order = [1, 2, 0], swizzle = 128>>
// CHECK: %[[KBAR:.*]] = tle_struct.barrier_alloc 1 {num = 3 : i32}
// CHECK: %[[VRING:.*]] = tle_struct.alloc : !tle_struct.buffer<3x64x64xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
// CHECK: %[[VBAR:.*]] = tle_struct.barrier_alloc 1 {num = 3 : i32}
// CHECK: tle_struct.local_store
// CHECK-NEXT: tle.debug_barrier
// CHECK: tle_struct.async_tensor_copy %[[KMAP]][%{{.*}}, %{{.*}}], %[[KRING]][%{{.*}}], %[[KBAR]] if %{{.*}} {transposed}
// CHECK: tle_struct.async_tensor_copy %[[VMAP]][%{{.*}}, %{{.*}}], %[[VRING]][%{{.*}}], %[[VBAR]] if
// CHECK: tle_struct.async_tensor_copy %[[KMAP]]
// CHECK: tle_struct.async_tensor_copy %[[VMAP]]
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[ROUND:arg[0-9]+]] = %c0_i32{{.*}}, %[[SLOT:arg[0-9]+]] = %c0_i32
// CHECK-NOT: tle_struct.async_wait
// CHECK: tle_struct.barrier_wait %[[KBAR]][%[[SLOT]]], %[[ROUND]]
// CHECK-NEXT: tle_struct.local_dot %{{.*}}, %[[KRING]][%[[SLOT]]]
// CHECK: math.exp2
// CHECK: tle_struct.barrier_wait %[[VBAR]][%[[SLOT]]], %[[ROUND]]
// CHECK: tle_struct.local_dot %{{.*}}, %[[VRING]][%[[SLOT]]]
// CHECK: tle.debug_barrier {tle.slot_release}
// CHECK-NEXT: tle_struct.async_tensor_copy %[[KMAP]]
// CHECK-NEXT: tle_struct.async_tensor_copy %[[VMAP]]
// CHECK: scf.yield
// CHECK: tle_struct.async_wait 0
// CHECK-NOT: tle.descriptor_load

// Distribution: the kernel takes 256 bytes of global scratch per program
// after its arguments (two maps); the first warp writes each map through
// block-level scratch, then the block synchronizes. The first thread
// issues each copy: one arrival expecting the tile's 8 KiB, one copy of
// the 64x64 box; the copies before the loop are ordered after the ordinary
// accesses before them (the ring's bytes may have been scratch, the barrier
// was just set up). Neither product fences its operands: tensor copies and
// the store of Q make them visible themselves.
// DIST-LABEL: llvm.func @attention
// DIST-SAME: %arg6: !llvm.ptr<1>) attributes {tle.global_scratch = 256 : i64
// DIST: "test.tensormap box 64 64 swizzle 128"
// DIST: gpu.barrier
// DIST: "test.tensormap box 64 64 swizzle 128"
// DIST: "test.barrier.expect 8192"
// DIST-NOT: test.barrier.expect
// DIST: "test.tensor.copy ordered"
// DIST: scf.for
// DIST-NOT: "test.fence.operands"
// DIST: "test.barrier.wait"
// DIST: "test.wgmma.n64 swizzle 128,128 mn 0,0
// DIST: "test.barrier.wait"
// DIST: "test.wgmma.n64.ra swizzle 128 mn 1
// DIST: gpu.barrier
// DIST: "test.barrier.expect 8192"
// DIST: "test.tensor.copy"

// Without pipelining the tiles kept for tensor copies become the masked
// pointer loads they mean, in the layouts assignment gave them.
// PLAIN-LABEL: llvm.func @attention
// PLAIN-NOT: test.tensormap
// PLAIN-SAME: %arg5: i32) attributes
// PLAIN-NOT: test.tensor.copy
// PLAIN: scf.for
// PLAIN: llvm.load {{.*}} : !llvm.ptr<1> -> bf16
// PLAIN: "test.wgmma.n64 swizzle 128,128

module attributes {tle.num_stages = 3 : i32} {
tle.func @attention(%pq: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pk: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pv: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %rows: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %s64 = arith.constant 64 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %dq = tle.make_tensor_descriptor %pq, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %dk = tle.make_tensor_descriptor %pk, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %dv = tle.make_tensor_descriptor %pv, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %q = tle.descriptor_load %dq[%c0, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %off = %c0) -> (tensor<64x64xf32>, i32) : i32 {
    %k = tle.descriptor_load %dk[%off, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
    %kt = tle.trans %k {order = array<i32: 1, 0>} : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %s = tle.dot %q, %kt, %zero : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
    %v = tle.descriptor_load %dv[%off, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
    %d = tle.dot %p, %v, %acc : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %offn = arith.addi %off, %c64 : i32
    scf.yield %d, %offn : tensor<64x64xf32>, i32
  }
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows2 = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cst = arith.constant dense<64> : tensor<64x1xi32>
  %rowoff = arith.muli %rows2, %cst : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x64xi32>
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
  tle.store %ptro, %res#0 : tensor<64x64x!tle.ptr<f32>>
  tle.return
}
}

// -----

// Tiles a tensor copy cannot take stay masked pointer loads from the
// start: a base not known to be 16-byte aligned (%pa), a row stride that
// is not a multiple of 16 bytes (%pb: 36 bf16), rows of 16 bytes, which no
// swizzle panel fills (%pc), a tile not read by a dot (%pd).
// KEEP-LABEL: tle.func @not_copied
// KEEP-NOT: tle.descriptor_load
// KEEP: tle.return
// CHECK-LABEL: tle.func @not_copied
// CHECK-NOT: tle_struct.tensor_map
// CHECK-NOT: tle.descriptor_load
// CHECK: tle.return
module attributes {tle.num_stages = 3 : i32} {
tle.func @not_copied(%pa: !tle.ptr<bf16>, %pb: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pc: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pd: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %s64 = arith.constant 64 : i64
  %s36 = arith.constant 36 : i64
  %s32 = arith.constant 32 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %zero8 = arith.constant dense<0.0> : tensor<64x8xf32>
  %da = tle.make_tensor_descriptor %pa, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %db = tle.make_tensor_descriptor %pb, [%rows, %c64], [%s36, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %dc = tle.make_tensor_descriptor %pc, [%rows, %c64], [%s32, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x8xbf16>>
  %dd = tle.make_tensor_descriptor %pd, [%rows, %c64], [%s64, %one] : !tle.ptr<f32> -> !tle.tensordesc<tensor<64x64xf32>>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %acc8 = %zero8, %sum = %zero) -> (tensor<64x64xf32>, tensor<64x8xf32>, tensor<64x64xf32>) : i32 {
    %a = tle.descriptor_load %da[%i, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
    %b = tle.descriptor_load %db[%i, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
    %d = tle.dot %a, %b, %acc : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %c = tle.descriptor_load %dc[%i, %c0] : !tle.tensordesc<tensor<64x8xbf16>> -> tensor<64x8xbf16>
    %d8 = tle.dot %a, %c, %acc8 : tensor<64x64xbf16> * tensor<64x8xbf16> -> tensor<64x8xf32>
    %e = tle.descriptor_load %dd[%i, %c0] : !tle.tensordesc<tensor<64x64xf32>> -> tensor<64x64xf32>
    %s = arith.addf %sum, %e : tensor<64x64xf32>
    scf.yield %d, %d8, %s : tensor<64x64xf32>, tensor<64x8xf32>, tensor<64x64xf32>
  }
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows2 = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cst = arith.constant dense<64> : tensor<64x1xi32>
  %rowoff = arith.muli %rows2, %cst : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x64xi32>
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
  %t = arith.addf %res#0, %res#2 : tensor<64x64xf32>
  tle.store %ptro, %t : tensor<64x64x!tle.ptr<f32>>
  tle.return
}
}

// -----

// Rows of 64 bytes (B: 32 bf16) take the 64-byte swizzle: the tensor map
// boxes one 64-byte panel, the ring is laid out in that swizzle, and the
// unit reads it there; A's 128-byte rows keep the 128-byte one.
// CHECK-LABEL: tle.func @copied_64_byte_rows
// CHECK-DAG: tle_struct.tensor_map %arg0, {{.*}} {box = array<i64: 64, 64>, swizzle = 128 : i32}
// CHECK-DAG: tle_struct.tensor_map %arg1, {{.*}} {box = array<i64: 64, 32>, swizzle = 64 : i32}
// CHECK-DAG: tle_struct.alloc : !tle_struct.buffer<3x64x64xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
// CHECK-DAG: tle_struct.alloc : !tle_struct.buffer<3x64x32xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 64>>
// CHECK: scf.for
// CHECK: tle_struct.local_dot
// DIST-LABEL: llvm.func @copied_64_byte_rows
// DIST: "test.wgmma.n32 swizzle 128,64 mn 0,1
module attributes {tle.num_stages = 3 : i32} {
tle.func @copied_64_byte_rows(%pa: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pb: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %s64 = arith.constant 64 : i64
  %s32 = arith.constant 32 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %da = tle.make_tensor_descriptor %pa, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %db = tle.make_tensor_descriptor %pb, [%rows, %c32], [%s32, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x32xbf16>>
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

// -----

// A loop inside another (a persistent kernel's K loop in its tile loop)
// keeps its tensor copies: the rings and their barriers are set up in the
// outer body before the inner loop, so every tile starts its slots' phases
// over, and after the inner loop (its copies all waited for) one
// barrier_inval ends the barriers' lifetime before the next tile sets them
// up again.
// KEEP-LABEL: tle.func @nested
// KEEP: scf.for
// KEEP: scf.for
// KEEP: tle.descriptor_load
// KEEP: tle.descriptor_load
// CHECK-LABEL: tle.func @nested
// CHECK: %[[MAP:.*]] = tle_struct.tensor_map
// CHECK: scf.for
// CHECK: %[[ABAR:.*]] = tle_struct.barrier_alloc 1 {num = 3 : i32}
// CHECK: %[[BBAR:.*]] = tle_struct.barrier_alloc 1 {num = 3 : i32}
// CHECK: tle_struct.async_tensor_copy %[[MAP]]
// CHECK: scf.for
// CHECK: tle_struct.barrier_wait %[[ABAR]]
// CHECK: tle_struct.barrier_wait %[[BBAR]]
// CHECK: tle_struct.local_dot
// CHECK: scf.yield
// CHECK: tle_struct.async_wait 0
// CHECK-NEXT: tle_struct.barrier_inval %[[ABAR]], %[[BBAR]] : !tle_struct.barrier<"block">, !tle_struct.barrier<"block">
// CHECK: tle.store
// NESTED (indentation shows the nesting): the six barriers are set up in
// the tile loop's body, each ring's three by the first thread and then a
// block barrier; the four copies before the K loop are ordered after
// ordinary accesses, those in it are not; after the K loop, the wait's
// block barrier, the invalidation's own, and the first thread invalidates
// all six, still in the tile loop.
// NESTED-LABEL: llvm.func @nested
// NESTED: {{^    }}scf.for
// NESTED-COUNT-3: {{^        }}llvm.inline_asm has_side_effects "test.barrier.init 1"
// NESTED-NEXT: {{^      }}}
// NESTED-NEXT: {{^      }}gpu.barrier
// NESTED-COUNT-3: {{^        }}llvm.inline_asm has_side_effects "test.barrier.init 1"
// NESTED-NEXT: {{^      }}}
// NESTED-NEXT: {{^      }}gpu.barrier
// NESTED-COUNT-4: "test.tensor.copy ordered"
// NESTED: {{^      }}%{{.*}} = scf.for
// NESTED-NOT: "test.tensor.copy ordered"
// NESTED: "test.barrier.wait"
// NESTED-NOT: "test.tensor.copy ordered"
// NESTED: {{^          }}llvm.inline_asm has_side_effects "test.tensor.copy", "r,r,r,r,r"
// NESTED-NOT: "test.tensor.copy ordered"
// NESTED: {{^      }}}
// NESTED-NOT: "test.barrier
// NESTED: {{^      }}gpu.barrier
// NESTED-NEXT: {{^      }}gpu.barrier
// NESTED-NOT: "test.barrier.init
// NESTED-COUNT-6: {{^        }}llvm.inline_asm has_side_effects "test.barrier.inval"
// NESTED-NOT: "test.barrier
// NESTED: {{^    }}}
// NESTED-NEXT: {{^    }}llvm.return
module attributes {tle.num_stages = 3 : i32} {
tle.func @nested(%pa: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32, %n: i32, %tiles: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %s64 = arith.constant 64 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %da = tle.make_tensor_descriptor %pa, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows2 = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cst = arith.constant dense<64> : tensor<64x1xi32>
  %rowoff = arith.muli %rows2, %cst : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x64xi32>
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
  scf.for %t = %c0 to %tiles step %c64 : i32 {
    %res = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
      %a = tle.descriptor_load %da[%t, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
      %b = tle.descriptor_load %da[%i, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
      %d = tle.dot %a, %b, %acc : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    tle.store %ptro, %res : tensor<64x64x!tle.ptr<f32>>
  }
  tle.return
}
}

// -----

// A descriptor made inside the tile loop would have its tensor map written
// again on every tile: its tiles stay pointer loads, which software
// pipelining copies with cp.async, and no barrier is invalidated.
// KEEP-LABEL: tle.func @descriptor_per_tile
// KEEP-NOT: tle.descriptor_load
// KEEP: tle.return
// CHECK-LABEL: tle.func @descriptor_per_tile
// CHECK-NOT: tle_struct.tensor_map
// CHECK-NOT: tle_struct.barrier_inval
// CHECK: tle_struct.async_copy
// CHECK-NOT: tle_struct.barrier_inval
// CHECK: tle.return
module attributes {tle.num_stages = 3 : i32} {
tle.func @descriptor_per_tile(%pa: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32, %n: i32, %tiles: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %s64 = arith.constant 64 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows2 = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cst = arith.constant dense<64> : tensor<64x1xi32>
  %rowoff = arith.muli %rows2, %cst : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x64xi32>
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
  scf.for %t = %c0 to %tiles step %c64 : i32 {
    %da = tle.make_tensor_descriptor %pa, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
    %res = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
      %a = tle.descriptor_load %da[%t, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
      %b = tle.descriptor_load %da[%i, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
      %d = tle.dot %a, %b, %acc : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    tle.store %ptro, %res : tensor<64x64x!tle.ptr<f32>>
  }
  tle.return
}
}

// -----

// K through a tensor copy, V through cp.async (a pointer tile): Q K^T needs
// no operand fence (Q was stored and fenced, K came by the unit's proxy),
// and so covers nothing; P V reads V's slot, which cp.async wrote, and
// fences it itself.
// CHECK-LABEL: tle.func @mixed
// CHECK: tle_struct.async_tensor_copy
// CHECK: tle_struct.async_copy
// DIST-LABEL: llvm.func @mixed
// DIST: scf.for
// DIST: "test.barrier.wait"
// DIST-NOT: "test.fence.operands"
// DIST: "test.wgmma.n64 swizzle 128,128 mn 0,0
// DIST: "test.fence.operands"
// DIST: "test.wgmma.n64.ra swizzle 128 mn 1
module attributes {tle.num_stages = 3 : i32} {
tle.func @mixed(%pq: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pk: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pv: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %s64 = arith.constant 64 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows2 = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cst = arith.constant dense<64> : tensor<64x1xi32>
  %rowoff = arith.muli %rows2, %cst : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x64xi32>
  %sq = tle.splat %pq : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrq = tle.addptr %sq, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %q = tle.load %ptrq : tensor<64x64x!tle.ptr<bf16>>
  %sv = tle.splat %pv : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrv = tle.addptr %sv, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %step = arith.constant dense<4096> : tensor<64x64xi32>
  %dk = tle.make_tensor_descriptor %pk, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %off = %c0, %vp = %ptrv) -> (tensor<64x64xf32>, i32, tensor<64x64x!tle.ptr<bf16>>) : i32 {
    %k = tle.descriptor_load %dk[%off, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
    %kt = tle.trans %k {order = array<i32: 1, 0>} : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %s = tle.dot %q, %kt, %zero : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
    %v = tle.load %vp : tensor<64x64x!tle.ptr<bf16>>
    %d = tle.dot %p, %v, %acc : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %offn = arith.addi %off, %c64 : i32
    %vn = tle.addptr %vp, %step : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
    scf.yield %d, %offn, %vn : tensor<64x64xf32>, i32, tensor<64x64x!tle.ptr<bf16>>
  }
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
  tle.store %ptro, %res#0 : tensor<64x64x!tle.ptr<f32>>
  tle.return
}
}

// -----

// A dot no unit reading block-level operands takes (16 rows: the test
// target's FMA fallback): its tiles, kept for tensor copies, become pointer
// loads before pipelining, in a vectorized layout, and are copied with
// cp.async like any other.
// KEEP-LABEL: tle.func @small_dot
// KEEP: tle.descriptor_load
// CHECK-LABEL: tle.func @small_dot
// CHECK-NOT: tle_struct.tensor_map
// CHECK: tle_struct.async_copy
// CHECK: tle_struct.async_copy
// CHECK-NOT: tle.descriptor_load
module attributes {tle.num_stages = 3 : i32} {
tle.func @small_dot(%pa: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pb: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %s64 = arith.constant 64 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<16x64xf32>
  %da = tle.make_tensor_descriptor %pa, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<16x64xbf16>>
  %db = tle.make_tensor_descriptor %pb, [%rows, %c64], [%s64, %one] : !tle.ptr<bf16> -> !tle.tensordesc<tensor<64x64xbf16>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %off = %c0) -> (tensor<16x64xf32>, i32) : i32 {
    %a = tle.descriptor_load %da[%off, %c0] : !tle.tensordesc<tensor<16x64xbf16>> -> tensor<16x64xbf16>
    %b = tle.descriptor_load %db[%off, %c0] : !tle.tensordesc<tensor<64x64xbf16>> -> tensor<64x64xbf16>
    %d = tle.dot %a, %b, %acc : tensor<16x64xbf16> * tensor<64x64xbf16> -> tensor<16x64xf32>
    %offn = arith.addi %off, %c64 : i32
    scf.yield %d, %offn : tensor<16x64xf32>, i32
  }
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r16 = tle.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %rows2 = tle.expand_dims %r16 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cst = arith.constant dense<64> : tensor<16x1xi32>
  %rowoff = arith.muli %rows2, %cst : tensor<16x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<16x1xi32> -> tensor<16x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<16x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<16x64xi32>
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<16x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<16x64x!tle.ptr<f32>>, tensor<16x64xi32>
  tle.store %ptro, %res#0 : tensor<16x64x!tle.ptr<f32>>
  tle.return
}
}
