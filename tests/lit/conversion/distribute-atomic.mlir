// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s

// 64 counters on 128 threads: the layout holds every element twice, so only
// the owner (unwrapped position inside the tensor) performs the atomic, and
// only where the mask holds; the old values reach both copies through
// scratch (owners write, barrier, everyone reads). Storing them, only the
// owners store, and no barrier follows the reads at the kernel's end.
// CHECK-LABEL: llvm.func @count
// CHECK: %[[POS:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: %[[IDX:.*]] = arith.remui %[[POS]], %c64_i32 : i32
// CHECK: %[[PTR:.*]] = llvm.getelementptr %arg0[%[[IDX]]]
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[IDX]], %arg2 : i32
// CHECK: %[[OWNER:.*]] = arith.cmpi ult, %[[POS]], %c64_i32 : i32
// CHECK: %[[PRED:.*]] = arith.andi %[[OWNER]], %[[MASK]] : i1
// CHECK: %[[OLD:.*]] = scf.if %[[PRED]] -> (i32) {
// CHECK:   llvm.atomicrmw add %[[PTR]], %c1_i32 acq_rel : !llvm.ptr<1>, i32
// CHECK: scf.if %[[OWNER]] {
// CHECK:   llvm.store %[[OLD]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: %[[PUB:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: gpu.barrier
// CHECK: scf.if %[[OWNER]] {
// CHECK-NEXT: llvm.store %[[PUB]], %{{.*}} : i32, !llvm.ptr<1>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @count(%p: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %n: i32) {
    %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %s = tle.splat %p : !tle.ptr<i32> -> tensor<64x!tle.ptr<i32>>
    %ptrs = tle.addptr %s, %r : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
    %ns = tle.splat %n : i32 -> tensor<64xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
    %one = arith.constant dense<1> : tensor<64xi32>
    %old = tle.atomic_rmw add %ptrs, %one, %m : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
    %so = tle.splat %out : !tle.ptr<i32> -> tensor<64x!tle.ptr<i32>>
    %po = tle.addptr %so, %r : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
    tle.store %po, %old : tensor<64x!tle.ptr<i32>>
    tle.return
  }
}

// -----

// A scalar atomic runs once per program, on thread 0; its old value is
// published to all threads, and thread 0 stores it.
// CHECK-LABEL: llvm.func @lock
// CHECK: %[[T0:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK: scf.if %[[T0]] {
// CHECK:   %[[PAIR:.*]] = llvm.cmpxchg %arg0, %c0_i32, %c1_i32 acq_rel monotonic
// CHECK:   %[[OLD:.*]] = llvm.extractvalue %[[PAIR]][0]
// CHECK:   llvm.store %[[OLD]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: %[[PUB:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: gpu.barrier
// CHECK: scf.if %[[T0]] {
// CHECK-NEXT: llvm.store %[[PUB]], %arg1
module attributes {tle.num_warps = 4 : i32} {
  tle.func @lock(%p: !tle.ptr<i32>, %out: !tle.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %old = tle.atomic_cas %p, %c0, %c1 : !tle.ptr<i32>, i32
    tle.store %out, %old : !tle.ptr<i32>
    tle.return
  }
}

// -----

// Float max as Triton does it: IEEE floats of one sign order like their
// bits, so a non-negative operand takes a signed integer max and a negative
// one an unsigned min.
// CHECK-LABEL: llvm.func @fmax
// CHECK: %[[BITS:.*]] = arith.bitcast %arg1 : f32 to i32
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[BITS]], %c0_i32 : i32
// CHECK: scf.if %[[NEG]] {
// CHECK:   llvm.atomicrmw umin %arg0, %[[BITS]] acq_rel
// CHECK: } else {
// CHECK:   llvm.atomicrmw max %arg0, %[[BITS]] acq_rel
module attributes {tle.num_warps = 4 : i32} {
  tle.func @fmax(%p: !tle.ptr<f32>, %x: f32) {
    %old = tle.atomic_rmw max %p, %x : !tle.ptr<f32>, f32
    tle.return
  }
}
