// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s

// A block-level buffer of 64 counters with one pad slot after every 32:
// 65 i32 in the kernel's dynamic block-level memory (address space 3; no
// scratch comes before it here), counted into its bytes (260 rounded up to
// 16). All threads zero it together,
// then a barrier; indices are padded (i + i / 32) before the atomics.
// CHECK: module attributes {{{.*}}tle.shared_memory = 272 : i64
// CHECK: llvm.mlir.global external @__tle_scratch() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NOT: __tle_local
// CHECK-LABEL: llvm.func @counters
// CHECK: %[[BUF:.*]] = llvm.mlir.addressof @__tle_scratch : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = arith.index_cast
// CHECK: scf.for %[[I:.*]] = %[[TID]] to %c65_i32 step %c128_i32 : i32 {
// CHECK:   %[[SLOT:.*]] = llvm.getelementptr %[[BUF]][%[[I]]]
// CHECK:   llvm.store %c0_i32, %[[SLOT]] : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: %[[E:.*]] = llvm.extractelement
// CHECK: %[[GROUP:.*]] = arith.divui %[[E]], %c32_i32 : i32
// CHECK: %[[PADDED:.*]] = arith.addi %[[E]], %[[GROUP]] : i32
// CHECK: %[[P:.*]] = llvm.getelementptr %[[BUF]][%[[PADDED]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.atomicrmw add %[[P]], %c1_i32 acq_rel : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
module attributes {tle.num_warps = 4 : i32} {
  tle.func @counters(%ids: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<i32> {tle.divisibility = 16 : i32}) {
    %buf = tle_struct.alloc {init = 0 : i32} : !tle_struct.buffer<64xi32, "block", #tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>>
    %r = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
    %s = tle.splat %ids : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>>
    %p = tle.addptr %s, %r : tensor<256x!tle.ptr<i32>>, tensor<256xi32>
    %e = tle.load %p : tensor<256x!tle.ptr<i32>>
    %lp = tle_struct.local_ptr %buf[%e] : tensor<256xi32> : !tle_struct.buffer<64xi32, "block", #tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>> -> tensor<256x!tle.ptr<i32, "block">>
    %one = arith.constant dense<1> : tensor<256xi32>
    %old = tle.atomic_rmw add %lp, %one {scope = #tle.scope<block>, sem = #tle.sem<relaxed>} : tensor<256x!tle.ptr<i32, "block">>, tensor<256xi32>
    tle.debug_barrier
    %all = tle_struct.local_ptr %buf : !tle_struct.buffer<64xi32, "block", #tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>> -> tensor<64x!tle.ptr<i32, "block">>
    %v = tle.load %all : tensor<64x!tle.ptr<i32, "block">>
    %r64 = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %so = tle.splat %out : !tle.ptr<i32> -> tensor<64x!tle.ptr<i32>>
    %q = tle.addptr %so, %r64 : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
    tle.store %q, %v : tensor<64x!tle.ptr<i32>>
    tle.return
  }
}

// -----

// A scalar stored to block-level memory and loaded back: every thread
// stores its copy (only global stores are left to the owner), so each
// thread reads its own write without a barrier. The global store of the
// same value is thread 0's alone.
// CHECK-LABEL: llvm.func @scalar_round_trip
// CHECK-NOT: scf.if
// CHECK: llvm.store %arg1, %{{.*}} {{.*}}: i32, !llvm.ptr<3>
// CHECK: %[[BACK:.*]] = llvm.load %{{.*}} {{.*}}: !llvm.ptr<3> -> i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.store %[[BACK]], %arg0 {{.*}} : i32, !llvm.ptr<1>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @scalar_round_trip(%out: !tle.ptr<i32>, %v: i32) {
    %buf = tle_struct.alloc : !tle_struct.buffer<2xi32, "block">
    %c0 = arith.constant 0 : i32
    %p = tle_struct.local_ptr %buf[%c0] : i32 : !tle_struct.buffer<2xi32, "block"> -> !tle.ptr<i32, "block">
    tle.store %p, %v : !tle.ptr<i32, "block">
    %back = tle.load %p : !tle.ptr<i32, "block">
    tle.store %out, %back : !tle.ptr<i32>
    tle.return
  }
}
