// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s

// A sub-tile at a constant index whose layout tiles both shapes evenly is a
// subset of the registers: tile 1 (rows 16..31) of a 64x128 fp32 tile with
// 4 rows per layout tile is the 5th to 8th row of registers, i.e. the 5th
// to 8th 128-bit load; insert_tile puts the results back in place. No
// scratch, no barrier.
// CHECK-LABEL: llvm.func @subtile
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: %[[ROW4:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: %[[E:.*]] = llvm.extractelement %[[ROW4]][%c0_i32 : i32] : vector<4xf32>
// CHECK: %[[D:.*]] = arith.addf %[[E]], %[[E]] : f32
// CHECK-COUNT-4: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<1>
// CHECK: llvm.insertelement %[[D]]
// CHECK-NOT: gpu.barrier
module attributes {tle.num_warps = 4 : i32} {
  tle.func @subtile(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
    %rows = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %cols = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    %r2 = tle.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c128 = arith.constant dense<128> : tensor<64x1xi32>
    %rm = arith.muli %r2, %c128 : tensor<64x1xi32>
    %rb = tle.broadcast %rm : tensor<64x1xi32> -> tensor<64x128xi32>
    %c2 = tle.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %cb = tle.broadcast %c2 : tensor<1x128xi32> -> tensor<64x128xi32>
    %offs = arith.addi %rb, %cb : tensor<64x128xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<64x128x!tle.ptr<f32>>
    %p = tle.addptr %s, %offs : tensor<64x128x!tle.ptr<f32>>, tensor<64x128xi32>
    %x = tle.load %p : tensor<64x128x!tle.ptr<f32>>
    %c1 = arith.constant 1 : i32
    %t = tle.extract_tile %x[%c1] : tensor<64x128xf32> -> tensor<16x128xf32>
    %t2 = arith.addf %t, %t : tensor<16x128xf32>
    %y = tle.insert_tile %t2 into %x[%c1] : tensor<16x128xf32> into tensor<64x128xf32>
    %so = tle.splat %out : !tle.ptr<f32> -> tensor<64x128x!tle.ptr<f32>>
    %q = tle.addptr %so, %offs : tensor<64x128x!tle.ptr<f32>>, tensor<64x128xi32>
    tle.store %q, %y : tensor<64x128x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// Reshape and trans move elements between threads through the scratch
// arena (2048 fp32 = 8192 bytes, shared by the three exchanges): write,
// barrier, read, and a barrier before the next exchange writes; none after
// the last, at the kernel's end.
// CHECK: tle.shared_memory = 8192 : i64
// CHECK: llvm.mlir.global external @__tle_scratch() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @trans
// CHECK-COUNT-5: gpu.barrier
// CHECK-NOT: gpu.barrier
module attributes {tle.num_warps = 4 : i32} {
  tle.func @trans(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<2048x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<2048x!tle.ptr<f32>>, tensor<2048xi32>
    %x = tle.load %p : tensor<2048x!tle.ptr<f32>>
    %x2 = tle.reshape %x : tensor<2048xf32> -> tensor<32x64xf32>
    %t = tle.trans %x2 {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
    %f = tle.reshape %t : tensor<64x32xf32> -> tensor<2048xf32>
    %so = tle.splat %out : !tle.ptr<f32> -> tensor<2048x!tle.ptr<f32>>
    %q = tle.addptr %so, %r : tensor<2048x!tle.ptr<f32>>, tensor<2048xi32>
    tle.store %q, %f : tensor<2048x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// Histogram: bins zeroed in scratch, one atomic add per element by its
// owner (64 values on 128 threads: each held twice) when in [0, 16), then
// the bins read back and stored by their owners (16 bins on 128 threads).
// CHECK-LABEL: llvm.func @hist
// CHECK: %[[POS:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// CHECK: %[[OWNER:.*]] = arith.cmpi ult, %[[POS]], %c64_i32 : i32
// CHECK: llvm.store %c0_i32, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[X]], %c0_i32 : i32
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[X]], %c16_i32 : i32
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[DO:.*]] = arith.andi %[[IN]], %[[OWNER]] : i1
// CHECK: scf.if %[[DO]] {
// CHECK:   llvm.atomicrmw add %{{.*}}, %c1_i32 acq_rel : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// CHECK: %[[BIN:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: gpu.barrier
// CHECK: %[[BINOWNER:.*]] = arith.cmpi ult, %{{.*}}, %c16_i32 : i32
// CHECK-NEXT: scf.if %[[BINOWNER]] {
// CHECK-NEXT: llvm.store %[[BIN]]
module attributes {tle.num_warps = 4 : i32} {
  tle.func @hist(%in: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<i32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %s = tle.splat %in : !tle.ptr<i32> -> tensor<64x!tle.ptr<i32>>
    %p = tle.addptr %s, %r : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
    %x = tle.load %p : tensor<64x!tle.ptr<i32>>
    %h = tle.histogram %x : tensor<64xi32> -> tensor<16xi32>
    %r16 = tle.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %so = tle.splat %out : !tle.ptr<i32> -> tensor<16x!tle.ptr<i32>>
    %q = tle.addptr %so, %r16 : tensor<16x!tle.ptr<i32>>, tensor<16xi32>
    tle.store %q, %h : tensor<16x!tle.ptr<i32>>
    tle.return
  }
}
