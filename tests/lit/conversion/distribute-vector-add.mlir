// RUN: tle-opt %s --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s
// The same after the upstream lowerings lowerToDistributedIR finishes with.
// RUN: tle-opt %s --tle-assign-layouts --tle-distribute --canonicalize --cse --convert-scf-to-cf --convert-arith-to-llvm --convert-cf-to-llvm | FileCheck %s --check-prefix=LLVM

// Vector add as the front end emits it (BLOCK_SIZE=1024, *fp32:16 pointers,
// n unaligned). Each thread holds 2 groups of 4 contiguous elements, loaded
// and stored as vector<4xf32> with 16-byte alignment; a group whose lanes
// are all in bounds takes the wide access, a partial one per-element ones.

// CHECK: module attributes {{{.*}}tle.num_warps = 4 : i32, tle.shared_memory = 0 : i64
// CHECK-LABEL: llvm.func @add_kernel(
// CHECK-SAME: %[[X:.*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[N:.*]]: i32)
// CHECK-SAME: attributes {tle.kernel{{.*}}}
// CHECK: gpu.block_id x
// CHECK: gpu.thread_id x
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[X]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: arith.andi
// CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK-NEXT: llvm.load %[[P0]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: } else {
// CHECK: llvm.load %[[P0]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-COUNT-8: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: llvm.return
// CHECK-NOT: tle.

// LLVM-LABEL: llvm.func @add_kernel
// LLVM: llvm.cond_br
// LLVM: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// LLVM: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// LLVM-NOT: scf.
module attributes {tle.num_stages = 3 : i32, tle.num_warps = 4 : i32} {
  tle.func @add_kernel(%arg0: !tle.ptr<f32> {tle.divisibility = 16 : i32, tle.name = "x_ptr"}, %arg1: !tle.ptr<f32> {tle.divisibility = 16 : i32, tle.name = "y_ptr"}, %arg2: !tle.ptr<f32> {tle.divisibility = 16 : i32, tle.name = "output_ptr"}, %arg3: i32 {tle.name = "n_elements"}) attributes {tle.constexprs = {BLOCK_SIZE = 1024 : i64}} {
    %0 = tle.get_program_id 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tle.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tle.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tle.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tle.splat %arg0 : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %8 = tle.addptr %7, %4 : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %9 = tle.load %8, %6 : tensor<1024x!tle.ptr<f32>>
    %10 = tle.splat %arg1 : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %11 = tle.addptr %10, %4 : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %12 = tle.load %11, %6 : tensor<1024x!tle.ptr<f32>>
    %13 = tle.splat %arg2 : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %14 = tle.addptr %13, %4 : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %15 = arith.addf %9, %12 : tensor<1024xf32>
    tle.store %14, %15, %6 : tensor<1024x!tle.ptr<f32>>
    tle.return
  }
}
