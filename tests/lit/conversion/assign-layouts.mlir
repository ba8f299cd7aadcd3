// RUN: tle-opt %s -split-input-file --tle-assign-layouts | FileCheck %s
// RUN: tle-opt %s -split-input-file --tle-assign-layouts=warp-size=64 | FileCheck %s --check-prefix=W64
// RUN: tle-opt %s -split-input-file --tle-assign-layouts="num-warps=8 vector-bytes=8" | FileCheck %s --check-prefix=W8

// Vector add (tlec examples/vector_add.py -D BLOCK_SIZE=1024, *fp32:16
// pointers): 16-byte aligned contiguous fp32 gives 4 elements per thread.
// CHECK: #[[B:.*]] = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: module attributes {{{.*}}tle.num_warps = 4 : i32, tle.warp_size = 32 : i32}
// CHECK: tle.make_range {{.*}} : tensor<1024xi32, #[[B]]>
// CHECK: tle.load %{{.*}}, %{{.*}} : tensor<1024x!tle.ptr<f32>, #[[B]]>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<1024xf32, #[[B]]>
// CHECK-NOT: tle.convert_layout
// W64: #tle.blocked<sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]>
// W8: #tle.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @add_kernel(%arg0: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %arg1: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %arg2: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %arg3: i32) {
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

// -----

// Unaligned pointers: one element per thread.
// CHECK: #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
tle.func @unaligned(%p: !tle.ptr<f32>) {
  %r = tle.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %s = tle.splat %p : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
  %a = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
  %v = tle.load %a : tensor<1024x!tle.ptr<f32>>
  tle.store %a, %v : tensor<1024x!tle.ptr<f32>>
  tle.return
}

// -----

// A 2-D tile: rows via expand_dims of a slice, a row reduction gives a slice
// of the load's layout; the 1-D store wants a blocked layout, so a
// convert_layout appears there. Both make_range users get their own copy.
// CHECK: #[[B2:.*]] = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: #[[B1:.*]] = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: #[[S1:.*]] = #tle.slice<dim = 1, parent = #[[B2]]>
// CHECK: #[[S0:.*]] = #tle.slice<dim = 0, parent = #[[B2]]>
// CHECK-LABEL: tle.func @row_sum
// CHECK: tle.make_range {{.*}} : tensor<32xi32, #[[S1]]>
// CHECK: tle.make_range {{.*}} : tensor<32xi32, #[[B1]]>
// CHECK: tle.make_range {{.*}} : tensor<128xi32, #[[S0]]>
// CHECK: arith.constant dense<128> : tensor<32x1xi32, #[[B2]]>
// CHECK: tle.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xi32, #[[S1]]> -> tensor<32x1xi32, #[[B2]]>
// CHECK: tle.broadcast %{{.*}} : tensor<32x1xi32, #[[B2]]> -> tensor<32x128xi32, #[[B2]]>
// CHECK: tle.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<32x128xf32, #[[B2]]>) -> tensor<32xf32, #[[S1]]>
// CHECK: tle.convert_layout %{{.*}} : tensor<32xf32, #[[S1]]> -> tensor<32xf32, #[[B1]]>
// CHECK: tle.store %{{.*}}, %{{.*}} : tensor<32x!tle.ptr<f32>, #[[B1]]>
tle.func @row_sum(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
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
  %s = "tle.reduce"(%x) ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tle.reduce.return %t : f32
  }) {axis = 1 : i32} : (tensor<32x128xf32>) -> tensor<32xf32>
  %ob = tle.splat %out : !tle.ptr<f32> -> tensor<32x!tle.ptr<f32>>
  %op = tle.addptr %ob, %r : tensor<32x!tle.ptr<f32>>, tensor<32xi32>
  tle.store %op, %s : tensor<32x!tle.ptr<f32>>
  tle.return
}

// -----

// Loop-carried tensors keep the layout of their initial value.
// CHECK-LABEL: tle.func @loop
// CHECK: scf.for {{.*}} -> (tensor<256xf32, #[[L:.*]]>)
// CHECK: scf.yield %{{.*}} : tensor<256xf32, #[[L]]>
tle.func @loop(%p: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %r = tle.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %s = tle.splat %p : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
  %a = tle.addptr %s, %r : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<256xf32>) : i32 {
    %v = tle.load %a : tensor<256x!tle.ptr<f32>>
    %sum = arith.addf %acc, %v : tensor<256xf32>
    scf.yield %sum : tensor<256xf32>
  }
  tle.store %a, %acc : tensor<256x!tle.ptr<f32>>
  tle.return
}

// -----

// A reduction of a reduction's result: the row sums are a slice of the
// tile's layout; the second reduction reads them converted to the blocked
// layout of their shape (distribution reduces blocked operands).
// CHECK-LABEL: tle.func @sum_of_row_sums
// CHECK: %[[ROWS:.*]] = tle.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<32x128xf32, #[[TILE:blocked[0-9]*]]>) -> tensor<32xf32, #[[SLICE:slice[0-9]*]]>
// CHECK: %[[BLOCKED:.*]] = tle.convert_layout %[[ROWS]] : tensor<32xf32, #[[SLICE]]> -> tensor<32xf32, #[[ROW:blocked[0-9]*]]>
// CHECK: tle.reduce(%[[BLOCKED]]) {axis = 0 : i32} : (tensor<32xf32, #[[ROW]]>) -> f32
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_of_row_sums(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32>) {
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
    %rows = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tle.reduce.return %s : f32
    }) {axis = 1 : i32} : (tensor<32x128xf32>) -> tensor<32xf32>
    %t = "tle.reduce"(%rows) ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tle.reduce.return %s : f32
    }) {axis = 0 : i32} : (tensor<32xf32>) -> f32
    tle.store %out, %t : !tle.ptr<f32>
    tle.return
  }
}

// -----

// A tile loaded along its rows and stored along its columns (a transposing
// copy): the load proposes 4 elements per thread along dimension 1, the
// store 4 along dimension 0. The load's proposal becomes the shape's
// layout; the store keeps its own (vector stores rather than one element
// each), and the tile is converted between them.
// CHECK-DAG: #[[ROWS:.*]] = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[COLS:.*]] = #tle.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: tle.func @transpose_copy
// CHECK: tle.load %{{.*}} : tensor<64x64x!tle.ptr<f32>, #[[ROWS]]>
// CHECK: tle.convert_layout %{{.*}} : tensor<64x64xf32, #[[ROWS]]> -> tensor<64x64xf32, #[[COLS]]>
// CHECK: tle.store %{{.*}}, %{{.*}} : tensor<64x64x!tle.ptr<f32>, #[[COLS]]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @transpose_copy(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rows = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rowoff = arith.muli %rows, %c64 : tensor<64x1xi32>
    %rb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %inoff = arith.addi %rb, %cb : tensor<64x64xi32>
    %ip = tle.splat %in : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %ipp = tle.addptr %ip, %inoff : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    %x = tle.load %ipp : tensor<64x64x!tle.ptr<f32>>
    %c64c = arith.constant dense<64> : tensor<1x64xi32>
    %coloff = arith.muli %cols, %c64c : tensor<1x64xi32>
    %rb2 = tle.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb2 = tle.broadcast %coloff : tensor<1x64xi32> -> tensor<64x64xi32>
    %outoff = arith.addi %rb2, %cb2 : tensor<64x64xi32>
    %op = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %opp = tle.addptr %op, %outoff : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    tle.store %opp, %x : tensor<64x64x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// A bias read as a full tile, one value per row (contiguous down the rows,
// constant along them): the tile's layout loads each value once per run
// of a row, so the load takes it, with no conversion.
// CHECK: #[[ROWS2:.*]] = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: tle.func @bias_rows
// CHECK-COUNT-2: tle.load %{{.*}} : tensor<64x64x!tle.ptr<f32>, #[[ROWS2]]>
// CHECK-NOT: tle.convert_layout
module attributes {tle.num_warps = 4 : i32} {
  tle.func @bias_rows(%x: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %bias: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %y: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rows = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rowoff = arith.muli %rows, %c64 : tensor<64x1xi32>
    %rb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %off = arith.addi %rb, %cb : tensor<64x64xi32>
    %xp = tle.splat %x : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %xpp = tle.addptr %xp, %off : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    %xv = tle.load %xpp : tensor<64x64x!tle.ptr<f32>>
    %zero = arith.constant dense<0> : tensor<64x64xi32>
    %rb2 = tle.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
    %boff = arith.addi %rb2, %zero : tensor<64x64xi32>
    %bp = tle.splat %bias : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %bpp = tle.addptr %bp, %boff : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    %bv = tle.load %bpp : tensor<64x64x!tle.ptr<f32>>
    %sum = arith.addf %xv, %bv : tensor<64x64xf32>
    %yp = tle.splat %y : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %ypp = tle.addptr %yp, %off : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    tle.store %ypp, %sum : tensor<64x64x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// Two tiles advanced by a loop, A along its rows and B down its columns:
// B's load keeps its own layout, and the loop carries B's pointer tile in
// it (converted once before the loop, not every iteration).
// CHECK-DAG: #[[ROWS3:.*]] = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[COLS3:.*]] = #tle.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: tle.func @sum_tiles
// CHECK: tle.convert_layout %{{.*}} : tensor<64x64x!tle.ptr<f32>, #[[ROWS3]]> -> tensor<64x64x!tle.ptr<f32>, #[[COLS3]]>
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #[[ROWS3]]>, tensor<64x64x!tle.ptr<f32>, #[[ROWS3]]>, tensor<64x64x!tle.ptr<f32>, #[[COLS3]]>)
// CHECK-NOT: tle.convert_layout %{{.*}} : tensor<64x64x!tle.ptr
// CHECK: tle.load %{{.*}} : tensor<64x64x!tle.ptr<f32>, #[[COLS3]]>
// CHECK-NEXT: tle.convert_layout %{{.*}} : tensor<64x64xf32, #[[COLS3]]> -> tensor<64x64xf32, #[[ROWS3]]>
// CHECK-NOT: tle.convert_layout %{{.*}} : tensor<64x64x!tle.ptr
// CHECK: scf.yield
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_tiles(%a: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %b: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32) {
    %r = tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rows = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %c64r = arith.constant dense<64> : tensor<64x1xi32>
    %c64c = arith.constant dense<64> : tensor<1x64xi32>
    %rowoff = arith.muli %rows, %c64r : tensor<64x1xi32>
    %colmajor = arith.muli %cols, %c64c : tensor<1x64xi32>
    %rb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %rowmajor = arith.addi %rb, %cb : tensor<64x64xi32>
    %rb2 = tle.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb2 = tle.broadcast %colmajor : tensor<1x64xi32> -> tensor<64x64xi32>
    %tposed = arith.addi %rb2, %cb2 : tensor<64x64xi32>
    %ap = tle.splat %a : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %app = tle.addptr %ap, %rowmajor : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    %bp = tle.splat %b : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %bpp = tle.addptr %bp, %tposed : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %step = arith.constant dense<4096> : tensor<64x64xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %app, %pb = %bpp) -> (tensor<64x64xf32>, tensor<64x64x!tle.ptr<f32>>, tensor<64x64x!tle.ptr<f32>>) : i32 {
      %av = tle.load %pa : tensor<64x64x!tle.ptr<f32>>
      %bv = tle.load %pb : tensor<64x64x!tle.ptr<f32>>
      %s = arith.addf %av, %bv : tensor<64x64xf32>
      %acc2 = arith.addf %acc, %s : tensor<64x64xf32>
      %pa2 = tle.addptr %pa, %step : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
      %pb2 = tle.addptr %pb, %step : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
      scf.yield %acc2, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x64x!tle.ptr<f32>>, tensor<64x64x!tle.ptr<f32>>
    }
    %op = tle.splat %out : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %opp = tle.addptr %op, %rowmajor : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    tle.store %opp, %res#0 : tensor<64x64x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// A tile read before a loop down its columns (W), and one read along its
// rows in every iteration (X): the loop's access gives the shape its
// layout, W keeps its own and is converted (after the loop's load, where
// it is used: LICM, later in the pipeline, takes it out of the loop), and
// X's tile is not converted every iteration.
// CHECK-DAG: #[[ROWS4:.*]] = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[COLS4:.*]] = #tle.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: tle.func @loop_access_first
// CHECK: tle.load %{{.*}} : tensor<64x64x!tle.ptr<f32>, #[[COLS4]]>
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #[[ROWS4]]>)
// CHECK: tle.load %{{.*}} : tensor<64x64x!tle.ptr<f32>, #[[ROWS4]]>
// CHECK-NEXT: tle.convert_layout %{{.*}} : tensor<64x64xf32, #[[COLS4]]> -> tensor<64x64xf32, #[[ROWS4]]>
// CHECK: tle.store %{{.*}}, %{{.*}} : tensor<64x64x!tle.ptr<f32>, #[[ROWS4]]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @loop_access_first(%x: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %w: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %y: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32) {
    %r = tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rows = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %cols = tle.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %c64r = arith.constant dense<64> : tensor<64x1xi32>
    %c64c = arith.constant dense<64> : tensor<1x64xi32>
    %rowoff = arith.muli %rows, %c64r : tensor<64x1xi32>
    %coloff = arith.muli %cols, %c64c : tensor<1x64xi32>
    %rb = tle.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %byrows = arith.addi %rb, %cb : tensor<64x64xi32>
    %rb2 = tle.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb2 = tle.broadcast %coloff : tensor<1x64xi32> -> tensor<64x64xi32>
    %bycols = arith.addi %rb2, %cb2 : tensor<64x64xi32>
    %wp = tle.splat %w : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %wpp = tle.addptr %wp, %bycols : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    %wt = tle.load %wpp : tensor<64x64x!tle.ptr<f32>>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4096 = arith.constant 4096 : i32
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<64x64xf32>) : i32 {
      %off = arith.muli %i, %c4096 : i32
      %xi = tle.addptr %x, %off : !tle.ptr<f32>, i32
      %xp = tle.splat %xi : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
      %xpp = tle.addptr %xp, %byrows : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
      %xt = tle.load %xpp : tensor<64x64x!tle.ptr<f32>>
      %p = arith.mulf %xt, %wt : tensor<64x64xf32>
      %s = arith.addf %a, %p : tensor<64x64xf32>
      scf.yield %s : tensor<64x64xf32>
    }
    %yp = tle.splat %y : !tle.ptr<f32> -> tensor<64x64x!tle.ptr<f32>>
    %ypp = tle.addptr %yp, %byrows : tensor<64x64x!tle.ptr<f32>>, tensor<64x64xi32>
    tle.store %ypp, %acc : tensor<64x64x!tle.ptr<f32>>
    tle.return
  }
}

// -----

// A row of no known divisibility (FlagGems' rms_norm at 4097x1031): the
// aligned weight load gives the shape 4 contiguous elements per thread,
// in which the row's fp16 store would write one element at a time, lanes 8
// bytes apart. The store keeps its own layout, consecutive lanes on
// consecutive elements, and its value is converted once, after the
// truncation to fp16 (converting the fp32 operands of the multiply and
// truncation would move four times the bytes). Its pointers and mask are
// converted here too; tle-remove-layout-conversions builds them again.
// CHECK-LABEL: tle.func @unaligned_row_store
// CHECK: tle.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<512x!tle.ptr<f16>, #[[ROW:blocked[0-9]*]]>
// CHECK: tle.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<512x!tle.ptr<f16>, #[[ROW]]>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<512xf32, #[[ROW]]>
// CHECK: arith.truncf %{{.*}} : tensor<512xf32, #[[ROW]]> to tensor<512xf16, #[[ROW]]>
// CHECK-NOT: arith.
// CHECK: tle.convert_layout %{{.*}} : tensor<512xf16, #[[ROW]]> -> tensor<512xf16, #[[STORE:blocked[0-9]*]]>
// CHECK: tle.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<512x!tle.ptr<f16>, #[[STORE]]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @unaligned_row_store(%y: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %x: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %w: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %stride: i32, %n: i32) {
    %0 = tle.get_program_id 0 : i32
    %1 = arith.muli %0, %stride : i32
    %2 = tle.addptr %x, %1 : !tle.ptr<f16>, i32
    %3 = tle.addptr %y, %1 : !tle.ptr<f16>, i32
    %4 = tle.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %5 = tle.splat %n : i32 -> tensor<512xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<512xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<512xf16>
    %7 = tle.splat %2 : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %8 = tle.addptr %7, %4 : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    %9 = tle.load %8, %6, %cst : tensor<512x!tle.ptr<f16>>
    %10 = tle.splat %w : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %11 = tle.addptr %10, %4 : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    %12 = tle.load %11, %6, %cst : tensor<512x!tle.ptr<f16>>
    %13 = arith.extf %9 : tensor<512xf16> to tensor<512xf32>
    %14 = arith.extf %12 : tensor<512xf16> to tensor<512xf32>
    %15 = arith.mulf %13, %14 : tensor<512xf32>
    %16 = arith.truncf %15 : tensor<512xf32> to tensor<512xf16>
    %17 = tle.splat %3 : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %18 = tle.addptr %17, %4 : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    tle.store %18, %16, %6 : tensor<512x!tle.ptr<f16>>
    tle.return
  }
}

// -----

// The same row with a stride divisible by 16: the store writes 8-byte
// vectors in the shape's layout, nothing is converted.
// CHECK-LABEL: tle.func @aligned_row_store
// CHECK: tle.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<512x!tle.ptr<f16>, #[[ROW:blocked[0-9]*]]>
// CHECK-NOT: tle.convert_layout
// CHECK: tle.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<512x!tle.ptr<f16>, #[[ROW]]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @aligned_row_store(%y: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %x: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %stride: i32 {tle.divisibility = 16 : i32}, %n: i32) {
    %0 = tle.get_program_id 0 : i32
    %1 = arith.muli %0, %stride : i32
    %2 = tle.addptr %x, %1 : !tle.ptr<f16>, i32
    %3 = tle.addptr %y, %1 : !tle.ptr<f16>, i32
    %4 = tle.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %5 = tle.splat %n : i32 -> tensor<512xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<512xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<512xf16>
    %7 = tle.splat %2 : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %8 = tle.addptr %7, %4 : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    %9 = tle.load %8, %6, %cst : tensor<512x!tle.ptr<f16>>
    %10 = arith.addf %9, %9 : tensor<512xf16>
    %11 = tle.splat %3 : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %12 = tle.addptr %11, %4 : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    tle.store %12, %10, %6 : tensor<512x!tle.ptr<f16>>
    tle.return
  }
}

// -----

// An unaligned row updated in place in a loop: the store goes through the
// pointer tile the loop carries, which the load reads through too: in the
// store's own layout one of them would convert it every iteration. It
// stays in the shape's layout.
// CHECK: #[[ROW:blocked[0-9]*]] = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: tle.func @unaligned_in_place
// CHECK-NOT: tle.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<512x!tle.ptr<f16>, #[[ROW]]>)
// CHECK: tle.load %{{.*}} : tensor<512x!tle.ptr<f16>, #[[ROW]]>
// CHECK-NOT: tle.convert_layout
// CHECK: tle.store %{{.*}}, %{{.*}} : tensor<512x!tle.ptr<f16>, #[[ROW]]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @unaligned_in_place(%x: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %w: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %stride: i32, %n: i32) {
    %0 = tle.get_program_id 0 : i32
    %1 = arith.muli %0, %stride : i32
    %2 = tle.addptr %x, %1 : !tle.ptr<f16>, i32
    %r = tle.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %3 = tle.splat %2 : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %p0 = tle.addptr %3, %r : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    %4 = tle.splat %w : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %wp = tle.addptr %4, %r : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    %wv = tle.load %wp : tensor<512x!tle.ptr<f16>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c512 = arith.constant 512 : i32
    %step = tle.splat %c512 : i32 -> tensor<512xi32>
    %end = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0) -> (tensor<512x!tle.ptr<f16>>) : i32 {
      %v = tle.load %p : tensor<512x!tle.ptr<f16>>
      %y = arith.mulf %v, %wv : tensor<512xf16>
      tle.store %p, %y : tensor<512x!tle.ptr<f16>>
      %p2 = tle.addptr %p, %step : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
      scf.yield %p2 : tensor<512x!tle.ptr<f16>>
    }
    tle.return
  }
}

// -----

// An unaligned row stored in a loop through a pointer tile nothing else
// reads: the tile is carried in the store's own layout, converted once
// before the loop, not every iteration.
// CHECK: #[[STORE:blocked[0-9]*]] = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: tle.func @unaligned_store_loop
// CHECK: tle.convert_layout %{{.*}} : tensor<512x!tle.ptr<f16>, #{{blocked[0-9]*}}> -> tensor<512x!tle.ptr<f16>, #[[STORE]]>
// CHECK: scf.for {{.*}} -> (tensor<512x!tle.ptr<f16>, #[[STORE]]>)
// CHECK: tle.store %{{.*}}, %{{.*}} : tensor<512x!tle.ptr<f16>, #[[STORE]]>
// CHECK: tle.addptr %{{.*}}, %{{.*}} : tensor<512x!tle.ptr<f16>, #[[STORE]]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @unaligned_store_loop(%x: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %w: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %stride: i32, %n: i32) {
    %0 = tle.get_program_id 0 : i32
    %1 = arith.muli %0, %stride : i32
    %2 = tle.addptr %x, %1 : !tle.ptr<f16>, i32
    %r = tle.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %3 = tle.splat %2 : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %p0 = tle.addptr %3, %r : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    %4 = tle.splat %w : !tle.ptr<f16> -> tensor<512x!tle.ptr<f16>>
    %wp = tle.addptr %4, %r : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
    %wv = tle.load %wp : tensor<512x!tle.ptr<f16>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c512 = arith.constant 512 : i32
    %step = tle.splat %c512 : i32 -> tensor<512xi32>
    %end = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0) -> (tensor<512x!tle.ptr<f16>>) : i32 {
      tle.store %p, %wv : tensor<512x!tle.ptr<f16>>
      %p2 = tle.addptr %p, %step : tensor<512x!tle.ptr<f16>>, tensor<512xi32>
      scf.yield %p2 : tensor<512x!tle.ptr<f16>>
    }
    tle.return
  }
}

// -----

// A shape without a memory access of its own does not take the default of
// a smaller such shape of its rank: the 8x8x2 tiles below keep their own
// default (2x8x2 lanes) instead of the 1x1x2 indicator's (16x1x2 lanes,
// 16 elements per lane repeated), as a bitonic sort's hypercube needs.
// CHECK: #[[HYPER:.*]] = #tle.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [2, 8, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// CHECK: tle.func @indicator_broadcast
// CHECK: arith.addi {{.*}} : tensor<8x8x2xi32, #[[HYPER]]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @indicator_broadcast(%arg0: !tle.ptr<i32> {tle.divisibility = 16 : i32}) {
    %0 = tle.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %1 = tle.reshape %0 : tensor<2xi32> -> tensor<1x1x2xi32>
    %2 = tle.broadcast %1 : tensor<1x1x2xi32> -> tensor<8x8x2xi32>
    %3 = tle.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %4 = tle.reshape %3 : tensor<128xi32> -> tensor<8x8x2xi32>
    %5 = arith.addi %4, %2 : tensor<8x8x2xi32>
    %6 = tle.reshape %5 : tensor<8x8x2xi32> -> tensor<128xi32>
    %7 = tle.splat %arg0 : !tle.ptr<i32> -> tensor<128x!tle.ptr<i32>>
    %8 = tle.addptr %7, %3 : tensor<128x!tle.ptr<i32>>, tensor<128xi32>
    tle.store %8, %6 : tensor<128x!tle.ptr<i32>>
    tle.return
  }
}
