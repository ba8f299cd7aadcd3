// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-pipeline-loads | FileCheck %s
// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-pipeline-loads --tle-distribute | FileCheck %s --check-prefix=DIST
// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-pipeline-loads="num-stages=1" --tle-distribute | FileCheck %s --check-prefix=PLAIN

// Attention's two products on the test target's warpgroup unit (operands in
// block-level memory, A also from registers): S = Q K^T uses S in the
// iteration, O += P V has P in registers, so neither moves to the top of
// the body as the matmul's dot does. Both run where they are on this
// iteration's slots (synchronous dots); S is waited for there, O only
// where the next iteration first uses it (its result goes to the next
// iteration alone), so O runs on while the next S starts:
//  - K reaches its dot through tl.trans: the load takes the transposed
//    pointers instead, so the ring holds K^T with D contiguous (order
//    [1, 2, 0]) and the copy moves 16-byte pieces along D;
//  - Q, loaded before the loop, is stored to its buffer once, before it;
//  - P, computed in the loop, stays in registers (tle.matrix_register_a):
//    the accumulator layout of S is the A layout of the second product;
//  - the copies go last, after the barrier that frees the slots, into the
//    previous iteration's slot (O may still read this one): 3 slots.
// CHECK-LABEL: tle.func @attention
// CHECK: %[[KRING:.*]] = tle_struct.alloc : !tle_struct.buffer<3x64x64xbf16, "block", #tle_struct.layout<order = [1, 2, 0], swizzle = 128>>
// CHECK: %[[VRING:.*]] = tle_struct.alloc : !tle_struct.buffer<3x64x64xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
// CHECK: %[[QBUF:.*]] = tle_struct.alloc : !tle_struct.buffer<1x64x64xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
// CHECK: tle_struct.local_store %{{.*}}, %[[QBUF]][%{{.*}}] : tensor<64x64xbf16, #blocked>
// CHECK-NOT: tle_struct.alloc
// CHECK: tle.trans %{{.*}} : tensor<64x64x!tle.ptr<bf16>, #blocked> -> tensor<64x64x!tle.ptr<bf16>, #[[KT:blocked[0-9]*]]>
// CHECK: tle_struct.async_copy %{{.*}}, %[[KRING]]
// CHECK: scf.for
// CHECK: tle_struct.async_wait 1
// CHECK-NEXT: %[[S:.*]] = tle_struct.local_dot %[[QBUF]][%{{.*}}], %[[KRING]][%[[SLOT:arg[0-9]+]]]
// CHECK-NEXT: tle_struct.local_dot_wait %[[S]], 0
// CHECK-NEXT: math.exp2
// CHECK-NEXT: %[[P:.*]] = arith.truncf
// CHECK-NEXT: %[[ACC:.*]] = tle_struct.local_dot_wait %arg{{[0-9]+}}, 0
// CHECK-NEXT: %[[O:.*]] = tle_struct.local_dot %[[P]], %[[VRING]][%[[SLOT]]], %[[ACC]] {{{.*}}tle.matrix_register_a} : tensor<64x64xbf16, #linear>
// CHECK-NEXT: tle.debug_barrier {tle.slot_release}
// CHECK-NEXT: tle.trans %{{.*}} -> tensor<64x64x!tle.ptr<bf16>, #[[KT]]>
// CHECK: tle_struct.async_copy %{{.*}}, %[[KRING]]
// CHECK: tle_struct.async_copy %{{.*}}, %[[VRING]]
// CHECK-NEXT: tle_struct.async_commit
// CHECK: scf.yield %[[O]],
// CHECK: tle_struct.local_dot_wait %{{.*}}#0, 0
// CHECK-NEXT: tle_struct.async_wait 0

// Distribution: Q's stores before the loop end with the operand fence; in
// the loop S reads A and B K-major (mn 0,0); O takes P's registers, eight
// 16-bit values per instruction, and V N-major (mn 1), with no store or
// barrier between the two products (nor a second operand fence: V's slot
// landed with the wait S's operands did), and is committed, not waited
// for, before the slot-release barrier.
// DIST-LABEL: llvm.func @attention
// DIST: llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr<3>
// DIST: "test.fence.operands"
// DIST: scf.for
// DIST: "test.wgmma.n64 swizzle 128,128 mn 0,0
// DIST: "test.wait 0"
// DIST-NOT: gpu.barrier
// DIST-NOT: "test.fence.operands"
// DIST-NOT: llvm.store
// P's registers are packed (two bf16 per i32, four per k-step) before the
// accumulator fence, none between it and the products that read them.
// DIST-COUNT-16: llvm.bitcast {{.*}} : vector<2xbf16> to i32
// DIST: "test.fence.accumulators"
// DIST-NOT: vector<2xbf16>
// DIST: "test.wgmma.n64.ra swizzle 128 mn 1 strides 1024,8192 offset 0", "{{[=f,]+}}l,r,r,r,r,f
// DIST-COUNT-3: "test.wgmma.n64.ra swizzle 128 mn 1
// DIST-NOT: "test.wait
// DIST: "test.commit"
// DIST-NOT: "test.wait
// DIST: gpu.barrier

// Without pipelining the first product stores both operands to scratch;
// the second stores only V (one fence and barrier) and takes P's registers.
// PLAIN-LABEL: llvm.func @attention
// PLAIN: scf.for
// PLAIN: "test.wgmma.n64 swizzle 128,128 mn 0,0
// PLAIN: "test.wait 0"
// PLAIN: llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr<3>
// PLAIN-NOT: vector<2xbf16>, !llvm.ptr<3>
// PLAIN: "test.fence.operands"
// PLAIN-NEXT: gpu.barrier
// PLAIN: "test.wgmma.n64.ra swizzle 128 mn 1 strides 1024,8192 offset 0"
// PLAIN: "test.wait 0"

module attributes {tle.num_stages = 3 : i32} {
tle.func @attention(%pq: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pk: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pv: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %n: i32) {
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rows = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rowoff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x64xi32>
  %sq = tle.splat %pq : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrq = tle.addptr %sq, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %sk = tle.splat %pk : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrk = tle.addptr %sk, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %sv = tle.splat %pv : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrv = tle.addptr %sv, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %step = arith.constant dense<4096> : tensor<64x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = tle.load %ptrq : tensor<64x64x!tle.ptr<bf16>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %kp = %ptrk, %vp = %ptrv) -> (tensor<64x64xf32>, tensor<64x64x!tle.ptr<bf16>>, tensor<64x64x!tle.ptr<bf16>>) : i32 {
    %k = tle.load %kp : tensor<64x64x!tle.ptr<bf16>>
    %kt = tle.trans %k {order = array<i32: 1, 0>} : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %s = tle.dot %q, %kt, %zero : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
    %v = tle.load %vp : tensor<64x64x!tle.ptr<bf16>>
    %d = tle.dot %p, %v, %acc : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %kn = tle.addptr %kp, %step : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
    %vn = tle.addptr %vp, %step : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
    scf.yield %d, %kn, %vn : tensor<64x64xf32>, tensor<64x64x!tle.ptr<bf16>>, tensor<64x64x!tle.ptr<bf16>>
  }
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
  tle.store %ptro, %res#0 : tensor<64x64x!tle.ptr<f32>>
  tle.return
}
}

// -----

// A B computed in the loop (not a load) cannot stay in registers: it is
// stored to a buffer of its own in place and published by a barrier before
// the product, which reads A from its ring.
// CHECK-LABEL: tle.func @register_b
// CHECK: %[[ARING:.*]] = tle_struct.alloc : !tle_struct.buffer<2x64x64xbf16
// CHECK: %[[BBUF:.*]] = tle_struct.alloc : !tle_struct.buffer<1x64x64xbf16
// CHECK: scf.for
// CHECK: tle_struct.local_store %{{.*}}, %[[BBUF]][%{{.*}}]
// CHECK-NEXT: tle.debug_barrier
// CHECK-NEXT: %[[D:.*]] = tle_struct.local_dot %[[ARING]][%{{.*}}], %[[BBUF]][%{{.*}}]
// CHECK-NEXT: tle_struct.local_dot_wait %[[D]], 0
// DIST-LABEL: llvm.func @register_b
// DIST: scf.for
// DIST: "test.fence.operands"
// DIST-NEXT: gpu.barrier
// DIST-NEXT: "test.fence.operands"
// DIST: "test.wgmma.n64 swizzle 128,128
module attributes {tle.num_stages = 3 : i32} {
tle.func @register_b(%pa: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %x: bf16, %out: !tle.ptr<f32>, %n: i32) {
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rows = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rowoff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x64xi32>
  %sa = tle.splat %pa : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptra = tle.addptr %sa, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %step = arith.constant dense<4096> : tensor<64x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %ptra) -> (tensor<64x64xf32>, tensor<64x64x!tle.ptr<bf16>>) : i32 {
    %a = tle.load %ap : tensor<64x64x!tle.ptr<bf16>>
    %bs = tle.splat %x : bf16 -> tensor<64x64xbf16>
    %bb = arith.addf %bs, %bs : tensor<64x64xbf16>
    %s = tle.dot %a, %bb, %zero : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %d = arith.addf %acc, %s : tensor<64x64xf32>
    %an = tle.addptr %ap, %step : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
    scf.yield %d, %an : tensor<64x64xf32>, tensor<64x64x!tle.ptr<bf16>>
  }
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
  tle.store %ptro, %res#0 : tensor<64x64x!tle.ptr<f32>>
  tle.return
}
}

// -----

// A second product whose result only the loop's end reads (it does not
// accumulate: C is zero) is still deferred, but nothing in the next
// iteration waits for it before the slot release: it is waited for right
// before the release, so that the refill of its V slot cannot overtake it.
// CHECK-LABEL: tle.func @unread_product
// CHECK: scf.for
// CHECK: %[[O:.*]] = tle_struct.local_dot %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} {{{.*}}tle.matrix_register_a}
// CHECK-NEXT: tle_struct.local_dot_wait %arg{{[0-9]+}}, 0
// CHECK-NEXT: tle.debug_barrier {tle.slot_release}
module attributes {tle.num_stages = 3 : i32} {
tle.func @unread_product(%pq: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pk: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pv: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>, %n: i32) {
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rows = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rowoff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %rowb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowb, %colb : tensor<64x64xi32>
  %sq = tle.splat %pq : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrq = tle.addptr %sq, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %sk = tle.splat %pk : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrk = tle.addptr %sk, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %sv = tle.splat %pv : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrv = tle.addptr %sv, %offs : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
  %step = arith.constant dense<4096> : tensor<64x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = tle.load %ptrq : tensor<64x64x!tle.ptr<bf16>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%o = %zero, %kp = %ptrk, %vp = %ptrv) -> (tensor<64x64xf32>, tensor<64x64x!tle.ptr<bf16>>, tensor<64x64x!tle.ptr<bf16>>) : i32 {
    %k = tle.load %kp : tensor<64x64x!tle.ptr<bf16>>
    %kt = tle.trans %k {order = array<i32: 1, 0>} : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %s = tle.dot %q, %kt, %zero : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
    %v = tle.load %vp : tensor<64x64x!tle.ptr<bf16>>
    %d = tle.dot %p, %v, %zero : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %kn = tle.addptr %kp, %step : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
    %vn = tle.addptr %vp, %step : tensor<64x64x!tle.ptr<bf16>>, tensor<64x64xi32>
    scf.yield %d, %kn, %vn : tensor<64x64xf32>, tensor<64x64x!tle.ptr<bf16>>, tensor<64x64x!tle.ptr<bf16>>
  }
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
  %ptro = tle.addptr %so, %offs : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
  tle.store %ptro, %res#0 : tensor<64x64x!tle.ptr<f32>>
  tle.return
}
}
