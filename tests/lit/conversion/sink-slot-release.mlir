// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-pipeline-loads --tle-distribute --canonicalize --cse | FileCheck %s
// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-pipeline-loads --tle-distribute=early-refill=false --canonicalize --cse | FileCheck %s --check-prefix=LATE

// A row loop that asked for num_stages, with a sum across warps per row, as
// softmax. The sum's barrier between its scratch write and reads already
// separates the slot's reads from the refill, so the slot-release barrier
// is dropped and the refill (here a synchronous copy: a global load and a
// store to the ring) moves up to just after that barrier, issued before
// the rest of the row's work. The sum's release barrier is dropped at the
// end of the body: the next iteration starts with the wait's barrier. Two
// barriers per row.
// With early-refill=false the dropped release leaves the refill where the
// pipeliner put it: after the row's store, at the end of the body.
// LATE-LABEL: llvm.func @rows_sum
// LATE: scf.for
// LATE: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<2xf32>
// LATE: llvm.store %{{.*}}, %{{.*}} : vector<2xf32>, !llvm.ptr<1>
// LATE-NOT: gpu.barrier
// LATE: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<2xf32>
// LATE-NOT: gpu.barrier
// LATE: llvm.store %{{.*}}, %{{.*}} : vector<2xf32>, !llvm.ptr<3>
// LATE-NOT: llvm.{{load|store}}
// LATE: scf.yield
// CHECK-LABEL: llvm.func @rows_sum
// CHECK: scf.for
// CHECK-NOT: llvm.load
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK-NEXT: llvm.return
module attributes {tle.num_warps = 4 : i32} {
tle.func @rows_sum(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32) {
  %start = tle.get_program_id 0 : i32
  %step = tle.get_num_programs 0 : i32
  %c256 = arith.constant 256 : i32
  %offs = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  scf.for %r = %start to %rows step %step : i32 {
    %base = arith.muli %r, %c256 : i32
    %rowin = tle.addptr %in, %base : !tle.ptr<f32>, i32
    %pin = tle.splat %rowin : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %ptrs = tle.addptr %pin, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %x = tle.load %ptrs : tensor<256x!tle.ptr<f32>>
    %t = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<256xf32>) -> f32
    %ts = tle.splat %t : f32 -> tensor<256xf32>
    %y = arith.divf %x, %ts : tensor<256xf32>
    %rowout = tle.addptr %out, %base : !tle.ptr<f32>, i32
    %pout = tle.splat %rowout : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %optrs = tle.addptr %pout, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    tle.store %optrs, %y : tensor<256x!tle.ptr<f32>>
  } {tle.num_stages = 3 : i32}
  tle.return
}
}

// -----

// The same loop without the sum: nothing else separates the slot's reads
// from the refill, so the slot-release barrier stays, and it and the refill
// move up to just after the slot's read, ahead of the row's work.
// CHECK-LABEL: llvm.func @rows_scaled
// CHECK: scf.for
// CHECK-NOT: llvm.load
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NEXT: scf.yield
module attributes {tle.num_warps = 4 : i32} {
tle.func @rows_scaled(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32) {
  %start = tle.get_program_id 0 : i32
  %step = tle.get_num_programs 0 : i32
  %c256 = arith.constant 256 : i32
  %offs = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  scf.for %r = %start to %rows step %step : i32 {
    %base = arith.muli %r, %c256 : i32
    %rowin = tle.addptr %in, %base : !tle.ptr<f32>, i32
    %pin = tle.splat %rowin : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %ptrs = tle.addptr %pin, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %x = tle.load %ptrs : tensor<256x!tle.ptr<f32>>
    %ts = arith.constant dense<2.0> : tensor<256xf32>
    %y = arith.divf %x, %ts : tensor<256xf32>
    %rowout = tle.addptr %out, %base : !tle.ptr<f32>, i32
    %pout = tle.splat %rowout : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %optrs = tle.addptr %pout, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    tle.store %optrs, %y : tensor<256x!tle.ptr<f32>>
  } {tle.num_stages = 3 : i32}
  tle.return
}
}
