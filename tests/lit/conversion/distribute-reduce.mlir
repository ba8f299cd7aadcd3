// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s
// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute=shuffled-partials=true --canonicalize --cse | FileCheck %s --check-prefix=SHFL

// Sum of 1024 fp32 over 4 warps: 8 registers per thread combined in-thread
// as a pairwise tree (three dependent adds, not seven), then xor shuffles 16, 8, 4, 2, 1 within the warp, then one partial per
// warp, written by its lane 0 alone, through block-level scratch (address
// space 3) after a barrier,
// the four partials combined as a tree pairing warp w with w + 2, as
// Triton's xor butterfly over them does (two dependent adds, not three).
// The barrier that would let a next op reuse the scratch is dropped at the
// kernel's end, and thread 0 alone stores the sum (every thread holds it).
// CHECK: tle.shared_memory = 16 : i64
// CHECK: llvm.mlir.global external @__tle_scratch() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @sum
// CHECK: llvm.mlir.addressof @__tle_scratch : !llvm.ptr<3>
// CHECK: %[[V0:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: %[[E0:.*]] = llvm.extractelement %[[V0]][%c0_i32
// CHECK: %[[E1:.*]] = llvm.extractelement %[[V0]][%c1_i32
// CHECK: %[[E2:.*]] = llvm.extractelement %[[V0]][%c2_i32
// CHECK: %[[E3:.*]] = llvm.extractelement %[[V0]][%c3_i32
// CHECK: %[[V1:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: %[[E4:.*]] = llvm.extractelement %[[V1]][%c0_i32
// CHECK: %[[E5:.*]] = llvm.extractelement %[[V1]][%c1_i32
// CHECK: %[[E6:.*]] = llvm.extractelement %[[V1]][%c2_i32
// CHECK: %[[E7:.*]] = llvm.extractelement %[[V1]][%c3_i32
// CHECK: %[[S01:.*]] = arith.addf %[[E0]], %[[E1]] : f32
// CHECK: %[[S23:.*]] = arith.addf %[[E2]], %[[E3]] : f32
// CHECK: %[[S45:.*]] = arith.addf %[[E4]], %[[E5]] : f32
// CHECK: %[[S67:.*]] = arith.addf %[[E6]], %[[E7]] : f32
// CHECK: %[[S03:.*]] = arith.addf %[[S01]], %[[S23]] : f32
// CHECK: %[[S47:.*]] = arith.addf %[[S45]], %[[S67]] : f32
// CHECK: arith.addf %[[S03]], %[[S47]] : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: %[[LANE_AXIS:.*]] = arith.andi %{{.*}}, %c31_i32 : i32
// CHECK: %[[WRITER:.*]] = arith.cmpi eq, %[[LANE_AXIS]], %c0_i32 : i32
// CHECK: scf.if %[[WRITER]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[P0:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[P1:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[P2:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[P3:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[P02:.*]] = arith.addf %[[P0]], %[[P2]] : f32
// CHECK-NEXT: %[[P13:.*]] = arith.addf %[[P1]], %[[P3]] : f32
// CHECK-NEXT: arith.addf %[[P02]], %[[P13]] : f32
// CHECK-NOT: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK-NOT: gpu.barrier
// CHECK: llvm.return
// With shuffled-partials, lane l reads warp (l mod 4)'s partial (lane bits
// 0 and 1 lie along the axis) and xor shuffles 2 then 1 combine them: the
// same pairs, w with w + 2 first, as the tree.
// SHFL-LABEL: llvm.func @sum
// SHFL: gpu.barrier
// SHFL-NEXT: %[[LANE:.*]] = arith.andi %{{.*}}, %c3_i32 : i32
// SHFL-NEXT: %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[%[[LANE]]]
// SHFL-NEXT: %[[MINE:.*]] = llvm.load %[[SLOT]] : !llvm.ptr<3> -> f32
// SHFL-NEXT: %[[O2:.*]], %{{.*}} = gpu.shuffle xor %[[MINE]], %c2_i32, %c32_i32 : f32
// SHFL-NEXT: %[[S2:.*]] = arith.addf %[[MINE]], %[[O2]] : f32
// SHFL-NEXT: %[[O1:.*]], %{{.*}} = gpu.shuffle xor %[[S2]], %c1_i32, %c32_i32 : f32
// SHFL-NEXT: arith.addf %[[S2]], %[[O1]] : f32
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
    %x = tle.load %p : tensor<1024x!tle.ptr<f32>>
    %t = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<1024xf32>) -> f32
    tle.store %out, %t : !tle.ptr<f32>
    tle.return
  }
}

// -----

// Row max of a 32x128 tile: each warp owns whole rows, so the reduction
// needs no scratch, only shuffles across the 32 lanes of a row; the result
// (a slice of the tile's layout) meets the store's layout through scratch.
// CHECK-LABEL: llvm.func @row_max
// CHECK-NOT: gpu.barrier
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.barrier
module attributes {tle.num_warps = 4 : i32} {
  tle.func @row_max(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %c = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    %c128 = arith.constant dense<128> : tensor<32x1xi32>
    %re = tle.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %rs = arith.muli %re, %c128 : tensor<32x1xi32>
    %ce = tle.expand_dims %c {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %rb = tle.broadcast %rs : tensor<32x1xi32> -> tensor<32x128xi32>
    %cb = tle.broadcast %ce : tensor<1x128xi32> -> tensor<32x128xi32>
    %off = arith.addi %rb, %cb : tensor<32x128xi32>
    %base = tle.splat %in : !tle.ptr<f32> -> tensor<32x128x!tle.ptr<f32>>
    %p = tle.addptr %base, %off : tensor<32x128x!tle.ptr<f32>>, tensor<32x128xi32>
    %x = tle.load %p : tensor<32x128x!tle.ptr<f32>>
    %m = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maximumf %a, %b : f32
      tle.reduce.return %t : f32
    }) {axis = 1 : i32} : (tensor<32x128xf32>) -> tensor<32xf32>
    %ob = tle.splat %out : !tle.ptr<f32> -> tensor<32x!tle.ptr<f32>>
    %op = tle.addptr %ob, %r : tensor<32x!tle.ptr<f32>>, tensor<32xi32>
    tle.store %op, %m : tensor<32x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// i64 values cross lanes as two 32-bit shuffles.
// CHECK-LABEL: llvm.func @sum_i64
// CHECK: gpu.shuffle xor %{{.*}} : i32
// CHECK: gpu.shuffle xor %{{.*}} : i32
// CHECK: arith.addi %{{.*}} : i64
module attributes {tle.num_warps = 1 : i32} {
  tle.func @sum_i64(%out: !tle.ptr<i64>) {
    %r = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %w = arith.extsi %r : tensor<32xi32> to tensor<32xi64>
    %t = "tle.reduce"(%w) ({
    ^bb0(%a: i64, %b: i64):
      %c = arith.addi %a, %b : i64
      tle.reduce.return %c : i64
    }) {axis = 0 : i32} : (tensor<32xi64>) -> i64
    tle.store %out, %t : !tle.ptr<i64>
    tle.return
  }
}

// -----

// A layout wider than the tensor along the kept dimension (4 rows per thread
// over 2 rows): result registers 0 and 2, 1 and 3 hold the same row. Each
// row is reduced once (one in-thread add, shuffles 16, 8, 4, 2, 1, one
// exchange across the 4 warps) and its result copied to both registers.
#wide = #tle.blocked<sizePerThread = [4, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: llvm.func @rows_wider_than_tensor
// CHECK-COUNT-2: arith.addf
// CHECK-COUNT-10: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.barrier
// CHECK-COUNT-6: arith.addf
// CHECK-NOT: arith.addf
// CHECK: llvm.store
tle.func @rows_wider_than_tensor(%p: !tle.ptr<f32>, %out: !tle.ptr<f32>) {
  %x = tle.splat %p : !tle.ptr<f32> -> tensor<2x256x!tle.ptr<f32>, #wide>
  %cols = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #tle.slice<dim = 0, parent = #wide>>
  %r2 = tle.expand_dims %cols {axis = 0 : i32} : tensor<256xi32, #tle.slice<dim = 0, parent = #wide>> -> tensor<1x256xi32, #wide>
  %c = tle.broadcast %r2 : tensor<1x256xi32, #wide> -> tensor<2x256xi32, #wide>
  %m = tle.make_range {start = 0 : i32, end = 2 : i32} : tensor<2xi32, #tle.slice<dim = 1, parent = #wide>>
  %m2 = tle.expand_dims %m {axis = 1 : i32} : tensor<2xi32, #tle.slice<dim = 1, parent = #wide>> -> tensor<2x1xi32, #wide>
  %k = arith.constant dense<256> : tensor<2x1xi32, #wide>
  %m3 = arith.muli %m2, %k : tensor<2x1xi32, #wide>
  %rows = tle.broadcast %m3 : tensor<2x1xi32, #wide> -> tensor<2x256xi32, #wide>
  %offs = arith.addi %rows, %c : tensor<2x256xi32, #wide>
  %ptrs = tle.addptr %x, %offs : tensor<2x256x!tle.ptr<f32>, #wide>, tensor<2x256xi32, #wide>
  %v = tle.load %ptrs : tensor<2x256x!tle.ptr<f32>, #wide>
  %s = tle.reduce(%v) {axis = 1 : i32} : (tensor<2x256xf32, #wide>) -> tensor<2xf32, #tle.slice<dim = 1, parent = #wide>> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tle.reduce.return %r : f32
  }
  %o = tle.splat %out : !tle.ptr<f32> -> tensor<2x!tle.ptr<f32>, #tle.slice<dim = 1, parent = #wide>>
  tle.store %o, %s : tensor<2x!tle.ptr<f32>, #tle.slice<dim = 1, parent = #wide>>
  tle.return
}

// -----

// An argmax-style reduce of two operands down the columns of a 64x32 tile:
// lanes 8 and 16 and the warps lie along the axis, so of each warp only the
// lanes with both of those bits zero write its (value, index) pairs, in one
// guarded block. Lanes that combined in another order never write a slot,
// so a value and its index always come from the same lane.
// CHECK-LABEL: llvm.func @argmax_columns
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK: %[[AXIS:.*]] = arith.andi %{{.*}}, %c24_i32 : i32
// CHECK: %[[WRITER:.*]] = arith.cmpi eq, %[[AXIS]], %c0_i32 : i32
// CHECK: scf.if %[[WRITER]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: }
// CHECK-NEXT: gpu.barrier
// With shuffled-partials the partial a lane reads is picked by its axis
// lane bits 3 and 4, and the (value, index) pairs are exchanged by xor
// shuffles 16 then 8, between lanes that hold the same columns.
// SHFL-LABEL: llvm.func @argmax_columns
// SHFL: gpu.barrier
// SHFL-NEXT: %[[HIGH:.*]] = arith.shrui %{{.*}}, %c3_i32 : i32
// SHFL-NEXT: arith.andi %[[HIGH]], %c3_i32 : i32
// SHFL: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// SHFL-NEXT: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : i32
// SHFL: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// SHFL-NEXT: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : i32
module attributes {tle.num_warps = 4 : i32} {
  tle.func @argmax_columns(%p: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<i32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %r2 = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %rows = tle.broadcast %r2 : tensor<64x1xi32> -> tensor<64x32xi32>
    %k = arith.constant dense<32> : tensor<64x32xi32>
    %rowOffs = arith.muli %rows, %k : tensor<64x32xi32>
    %c = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %c2 = tle.expand_dims %c {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %cols = tle.broadcast %c2 : tensor<1x32xi32> -> tensor<64x32xi32>
    %offs = arith.addi %rowOffs, %cols : tensor<64x32xi32>
    %x = tle.splat %p : !tle.ptr<f32> -> tensor<64x32x!tle.ptr<f32>>
    %ptrs = tle.addptr %x, %offs : tensor<64x32x!tle.ptr<f32>>, tensor<64x32xi32>
    %v = tle.load %ptrs : tensor<64x32x!tle.ptr<f32>>
    %m:2 = tle.reduce(%v, %rows) {axis = 0 : i32} : (tensor<64x32xf32>, tensor<64x32xi32>) -> (tensor<32xf32>, tensor<32xi32>) {
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %v2 = arith.select %gt, %a, %b : f32
      %i2 = arith.select %gt, %ai, %bi : i32
      tle.reduce.return %v2, %i2 : f32, i32
    }
    %o = tle.splat %out : !tle.ptr<i32> -> tensor<32x!tle.ptr<i32>>
    %op = tle.addptr %o, %c : tensor<32x!tle.ptr<i32>>, tensor<32xi32>
    tle.store %op, %m#1 : tensor<32x!tle.ptr<i32>>
    tle.return
  }
}
