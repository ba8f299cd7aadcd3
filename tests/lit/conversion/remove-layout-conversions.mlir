// RUN: tle-opt %s -split-input-file --tle-remove-layout-conversions | FileCheck %s

#A = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>

// Matmul's K mask: built once (in #B, for the B operand) and converted in
// the loop for the A operand. The conversion goes; the mask is rebuilt in
// #A from a make_range built in #A's slice, and the loop-invariant part
// stays before the loop.
// CHECK: #[[A:.*]] = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4]
// CHECK-NOT: threadsPerWarp = [2, 16]
// CHECK: #[[SL:.*]] = #tle.slice<dim = 0, parent = #[[A]]>
// CHECK-LABEL: tle.func @k_mask
// CHECK: %[[R:.*]] = tle.make_range {{.*}} : tensor<32xi32, #[[SL]]>
// CHECK: %[[E:.*]] = tle.expand_dims %[[R]] {axis = 0 : i32} {{.*}} -> tensor<1x32xi32, #[[A]]>
// CHECK: scf.for
// CHECK: %[[S:.*]] = tle.splat %{{.*}} : i32 -> tensor<1x32xi32, #[[A]]>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[E]], %[[S]] : tensor<1x32xi32, #[[A]]>
// CHECK: tle.broadcast %[[M]] : tensor<1x32xi1, #[[A]]> -> tensor<128x32xi1, #[[A]]>
// CHECK-NOT: tle.convert_layout
module attributes {tle.num_warps = 4 : i32} {
  tle.func @k_mask(%ptr: tensor<128x32x!tle.ptr<f16>, #A>, %k: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tle.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tle.slice<dim = 0, parent = #B>>
    %e = tle.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tle.slice<dim = 0, parent = #B>> -> tensor<1x32xi32, #B>
    %cst = arith.constant dense<0.0> : tensor<128x32xf16, #A>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = tle.splat %k : i32 -> tensor<1x32xi32, #B>
      %m = arith.cmpi slt, %e, %s : tensor<1x32xi32, #B>
      %c = tle.convert_layout %m : tensor<1x32xi1, #B> -> tensor<1x32xi1, #A>
      %b = tle.broadcast %c : tensor<1x32xi1, #A> -> tensor<128x32xi1, #A>
      %v = tle.load %ptr, %b, %cst : tensor<128x32x!tle.ptr<f16>, #A>
      tle.store %ptr, %v : tensor<128x32x!tle.ptr<f16>, #A>
    }
    tle.return
  }
}

// -----

#A = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#B = #tle.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>

// A loaded value is not rebuilt: loading it again would cost more than the
// conversion, and memory may have changed.
// CHECK-LABEL: tle.func @loaded
// CHECK: tle.load
// CHECK-NOT: tle.load
// CHECK: tle.convert_layout
module attributes {tle.num_warps = 4 : i32} {
  tle.func @loaded(%pa: tensor<128x32x!tle.ptr<f16>, #A>, %pb: tensor<128x32x!tle.ptr<f16>, #B>) {
    %v = tle.load %pb : tensor<128x32x!tle.ptr<f16>, #B>
    %w = arith.addf %v, %v : tensor<128x32xf16, #B>
    %c = tle.convert_layout %w : tensor<128x32xf16, #B> -> tensor<128x32xf16, #A>
    tle.store %pa, %c : tensor<128x32x!tle.ptr<f16>, #A>
    tle.return
  }
}

// -----

#A = #tle.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#B = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// FlagGems' index_select: loaded indices, and two masks computed from
// them, each converted to the gather's layout. The indices' conversion
// stays and moves up to right after the load; the masks are rebuilt from
// its result instead of converted: one round trip through block-level
// memory instead of three.
// CHECK-LABEL: tle.func @masks_of_loaded
// CHECK: %[[I:.*]] = tle.load
// CHECK-NEXT: %[[C:.*]] = tle.convert_layout %[[I]] : tensor<256xi64, #{{.*}}> -> tensor<256xi64, #[[B:.*]]>
// CHECK-NOT: tle.convert_layout
// CHECK-DAG: arith.cmpi sge, %[[C]], %{{.*}} : tensor<256xi64, #[[B]]>
// CHECK-DAG: arith.cmpi slt, %[[C]], %{{.*}} : tensor<256xi64, #[[B]]>
// CHECK-NOT: tle.convert_layout
// CHECK: tle.load
// Where nothing converts the loaded value, or only inside a region below
// it (the conversion would have to run where it did not), the mask's
// conversion stays.
// CHECK-LABEL: tle.func @not_converted
// CHECK: tle.convert_layout %{{.*}} : tensor<256xi1
// CHECK-LABEL: tle.func @converted_in_region
// CHECK: tle.convert_layout %{{.*}} : tensor<256xi1
// CHECK: scf.if
// CHECK: tle.convert_layout %{{.*}} : tensor<256xi64
module attributes {tle.num_warps = 4 : i32} {
  tle.func @masks_of_loaded(%idx: tensor<256x!tle.ptr<i64>, #A>, %x: !tle.ptr<f32>, %out: tensor<256x!tle.ptr<f32>, #B>, %n: i64) {
    %i = tle.load %idx : tensor<256x!tle.ptr<i64>, #A>
    %zero = arith.constant dense<0> : tensor<256xi64, #A>
    %lo = arith.cmpi sge, %i, %zero : tensor<256xi64, #A>
    %ns = tle.splat %n : i64 -> tensor<256xi64, #A>
    %hi = arith.cmpi slt, %i, %ns : tensor<256xi64, #A>
    %clo = tle.convert_layout %lo : tensor<256xi1, #A> -> tensor<256xi1, #B>
    %chi = tle.convert_layout %hi : tensor<256xi1, #A> -> tensor<256xi1, #B>
    %m = arith.andi %clo, %chi : tensor<256xi1, #B>
    %ci = tle.convert_layout %i : tensor<256xi64, #A> -> tensor<256xi64, #B>
    %px = tle.splat %x : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>, #B>
    %p = tle.addptr %px, %ci : tensor<256x!tle.ptr<f32>, #B>, tensor<256xi64, #B>
    %v = tle.load %p, %m : tensor<256x!tle.ptr<f32>, #B>
    tle.store %out, %v : tensor<256x!tle.ptr<f32>, #B>
    tle.return
  }
  tle.func @not_converted(%idx: tensor<256x!tle.ptr<i64>, #A>, %out: tensor<256x!tle.ptr<i1>, #B>) {
    %i = tle.load %idx : tensor<256x!tle.ptr<i64>, #A>
    %zero = arith.constant dense<0> : tensor<256xi64, #A>
    %lo = arith.cmpi sge, %i, %zero : tensor<256xi64, #A>
    %clo = tle.convert_layout %lo : tensor<256xi1, #A> -> tensor<256xi1, #B>
    tle.store %out, %clo : tensor<256x!tle.ptr<i1>, #B>
    tle.return
  }
  tle.func @converted_in_region(%idx: tensor<256x!tle.ptr<i64>, #A>, %out: tensor<256x!tle.ptr<i1>, #B>, %out2: tensor<256x!tle.ptr<i64>, #B>, %c: i1) {
    %i = tle.load %idx : tensor<256x!tle.ptr<i64>, #A>
    %zero = arith.constant dense<0> : tensor<256xi64, #A>
    %lo = arith.cmpi sge, %i, %zero : tensor<256xi64, #A>
    %clo = tle.convert_layout %lo : tensor<256xi1, #A> -> tensor<256xi1, #B>
    tle.store %out, %clo : tensor<256x!tle.ptr<i1>, #B>
    scf.if %c {
      %ci = tle.convert_layout %i : tensor<256xi64, #A> -> tensor<256xi64, #B>
      tle.store %out2, %ci : tensor<256x!tle.ptr<i64>, #B>
    }
    tle.return
  }
}

// -----

#B = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#Z = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]>

// idx[:, None] == idx[None, :] of loaded indices, computed in #Z and
// converted to #B: rebuilding it in #B needs the indices as they are for
// the rows and, for the columns, in the other slice, which a conversion
// already made would give. One value cannot stand for both: the
// conversion stays (and the IR stays valid).
// CHECK-LABEL: tle.func @row_and_column
// CHECK: arith.cmpi eq, {{.*}} : tensor<64x64xi32, #[[Z:[a-z0-9_]+]]>
// CHECK: tle.convert_layout %{{.*}} : tensor<64x64xi1, #[[Z]]> -> tensor<64x64xi1,
module attributes {tle.num_warps = 4 : i32} {
  tle.func @row_and_column(%p: tensor<64x!tle.ptr<i32>, #tle.slice<dim = 1, parent = #B>>, %out: tensor<64x64x!tle.ptr<i1>, #B>, %cols: tensor<64x!tle.ptr<i32>, #tle.slice<dim = 0, parent = #B>>) {
    %v = tle.load %p : tensor<64x!tle.ptr<i32>, #tle.slice<dim = 1, parent = #B>>
    %c0 = tle.convert_layout %v : tensor<64xi32, #tle.slice<dim = 1, parent = #B>> -> tensor<64xi32, #tle.slice<dim = 0, parent = #B>>
    tle.store %cols, %c0 : tensor<64x!tle.ptr<i32>, #tle.slice<dim = 0, parent = #B>>
    %r = tle.convert_layout %v : tensor<64xi32, #tle.slice<dim = 1, parent = #B>> -> tensor<64xi32, #tle.slice<dim = 1, parent = #Z>>
    %c = tle.convert_layout %v : tensor<64xi32, #tle.slice<dim = 1, parent = #B>> -> tensor<64xi32, #tle.slice<dim = 0, parent = #Z>>
    %er = tle.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #tle.slice<dim = 1, parent = #Z>> -> tensor<64x1xi32, #Z>
    %ec = tle.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #tle.slice<dim = 0, parent = #Z>> -> tensor<1x64xi32, #Z>
    %br = tle.broadcast %er : tensor<64x1xi32, #Z> -> tensor<64x64xi32, #Z>
    %bc = tle.broadcast %ec : tensor<1x64xi32, #Z> -> tensor<64x64xi32, #Z>
    %eq = arith.cmpi eq, %br, %bc : tensor<64x64xi32, #Z>
    %ceq = tle.convert_layout %eq : tensor<64x64xi1, #Z> -> tensor<64x64xi1, #B>
    tle.store %out, %ceq : tensor<64x64x!tle.ptr<i1>, #B>
    tle.return
  }
}

// -----

// A stored value whose threads hold whole vectors of the store's layout (8
// contiguous floats where the pointers have 4: tl.interleave's result) is
// stored where it is: the pointers and the mask are rebuilt in its layout
// and the conversion goes.
#W = #tle.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#V = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: tle.func @store_wide_runs
// CHECK-SAME: %arg1: tensor<2048xf32, #[[W:blocked[0-9]*]]>
// CHECK-NOT: tle.convert_layout
// CHECK: %[[P:.*]] = tle.addptr {{.*}} : tensor<2048x!tle.ptr<f32>, #[[W]]>
// CHECK: %[[M:.*]] = arith.cmpi slt, {{.*}} : tensor<2048xi32, #[[W]]>
// CHECK-NOT: tle.convert_layout
// CHECK: tle.store %[[P]], %arg1, %[[M]] : tensor<2048x!tle.ptr<f32>, #[[W]]>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @store_wide_runs(%base: !tle.ptr<f32>, %v: tensor<2048xf32, #W>, %n: i32) {
    %r = tle.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #V>
    %s = tle.splat %base : !tle.ptr<f32> -> tensor<2048x!tle.ptr<f32>, #V>
    %p = tle.addptr %s, %r : tensor<2048x!tle.ptr<f32>, #V>, tensor<2048xi32, #V>
    %bound = tle.splat %n : i32 -> tensor<2048xi32, #V>
    %m = arith.cmpi slt, %r, %bound : tensor<2048xi32, #V>
    %c = tle.convert_layout %v : tensor<2048xf32, #W> -> tensor<2048xf32, #V>
    tle.store %p, %c, %m : tensor<2048x!tle.ptr<f32>, #V>
    tle.return
  }
}

// -----

// Runs of 2 where the store wants 4: the accesses would narrow, the
// conversion stays.
#T = #tle.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#Q = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: tle.func @store_narrow_runs
// CHECK: tle.convert_layout
// CHECK: tle.store
module attributes {tle.num_warps = 4 : i32} {
  tle.func @store_narrow_runs(%base: !tle.ptr<f32>, %v: tensor<1024xf32, #T>) {
    %r = tle.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #Q>
    %s = tle.splat %base : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>, #Q>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<f32>, #Q>, tensor<1024xi32, #Q>
    %c = tle.convert_layout %v : tensor<1024xf32, #T> -> tensor<1024xf32, #Q>
    tle.store %p, %c : tensor<1024x!tle.ptr<f32>, #Q>
    tle.return
  }
}

// -----

// A store of one element per thread (its pointers not known contiguous):
// storing the runs of 8 in place would be 8 scalar stores 32 bytes apart per
// lane; the conversion stays.
#R8 = #tle.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#R1 = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: tle.func @store_unknown_contiguity
// CHECK: tle.convert_layout
// CHECK: tle.store
module attributes {tle.num_warps = 4 : i32} {
  tle.func @store_unknown_contiguity(%base: !tle.ptr<f32>, %v: tensor<2048xf32, #R8>) {
    %r = tle.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #R1>
    %s = tle.splat %base : !tle.ptr<f32> -> tensor<2048x!tle.ptr<f32>, #R1>
    %p = tle.addptr %s, %r : tensor<2048x!tle.ptr<f32>, #R1>, tensor<2048xi32, #R1>
    %c = tle.convert_layout %v : tensor<2048xf32, #R8> -> tensor<2048xf32, #R1>
    tle.store %p, %c : tensor<2048x!tle.ptr<f32>, #R1>
    tle.return
  }
}

// -----

// A row statistic (a reduction's result, here an argument: neither can be
// rebuilt) converted to a 1-D layout, computed on there and converted again
// to be stored in the rows' layout: the inner conversion converts to the
// store's layout instead, the product is computed there, and the outer
// conversion goes (one conversion instead of two; FlagGems' l2_norm_kernel).
// When the 1-D value has another user, both stay: retargeting would add a
// conversion, not replace one.
#R = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
#C = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#V = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: tle.func @row_statistic
// CHECK-NEXT: %[[C:.*]] = tle.convert_layout %{{.*}} : tensor<4xf32, #[[SR:[a-z0-9_]+]]> -> tensor<4xf32, #[[SC:[a-z0-9_]+]]>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[C]], %[[C]] : tensor<4xf32, #[[SC]]>
// CHECK-NEXT: tle.expand_dims %[[M]]
// CHECK-NOT: tle.convert_layout
// CHECK: tle.return
// CHECK-LABEL: tle.func @row_statistic_used_twice
// CHECK: tle.convert_layout
// CHECK: arith.mulf %{{.*}} : tensor<4xf32, #[[V:[a-z0-9_]+]]>
// CHECK: tle.convert_layout %{{.*}} : tensor<4xf32, #[[V]]> ->
module attributes {tle.num_warps = 4 : i32} {
  tle.func @row_statistic(%sum: tensor<4xf32, #tle.slice<dim = 1, parent = #R>>, %out: tensor<4x1x!tle.ptr<f32>, #C>) {
    %v = tle.convert_layout %sum : tensor<4xf32, #tle.slice<dim = 1, parent = #R>> -> tensor<4xf32, #V>
    %sq = arith.mulf %v, %v : tensor<4xf32, #V>
    %c = tle.convert_layout %sq : tensor<4xf32, #V> -> tensor<4xf32, #tle.slice<dim = 1, parent = #C>>
    %e = tle.expand_dims %c {axis = 1 : i32} : tensor<4xf32, #tle.slice<dim = 1, parent = #C>> -> tensor<4x1xf32, #C>
    tle.store %out, %e : tensor<4x1x!tle.ptr<f32>, #C>
    tle.return
  }
  tle.func @row_statistic_used_twice(%sum: tensor<4xf32, #tle.slice<dim = 1, parent = #R>>, %out: tensor<4x1x!tle.ptr<f32>, #C>, %out2: tensor<4x!tle.ptr<f32>, #V>) {
    %v = tle.convert_layout %sum : tensor<4xf32, #tle.slice<dim = 1, parent = #R>> -> tensor<4xf32, #V>
    %sq = arith.mulf %v, %v : tensor<4xf32, #V>
    tle.store %out2, %v : tensor<4x!tle.ptr<f32>, #V>
    %c = tle.convert_layout %sq : tensor<4xf32, #V> -> tensor<4xf32, #tle.slice<dim = 1, parent = #C>>
    %e = tle.expand_dims %c {axis = 1 : i32} : tensor<4xf32, #tle.slice<dim = 1, parent = #C>> -> tensor<4x1xf32, #C>
    tle.store %out, %e : tensor<4x1x!tle.ptr<f32>, #C>
    tle.return
  }
}

// -----

// A row statistic used as a row and, converted once more, as a column (an
// outer product): rebuilding the product in #R would need the 1-D value
// both collapsed onto the statistic (the rows) and retargeted to the
// other slice (the columns). One value cannot be both: every conversion
// stays and the IR stays valid.
#R = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]>
#Z = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0, 1]>
#V = #tle.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: tle.func @row_times_column
// CHECK-COUNT-3: tle.convert_layout %{{.*}} : tensor<8xf32,
// CHECK: arith.mulf %{{.*}} : tensor<8x8xf32, #[[Z:[a-z0-9_]+]]>
// CHECK: tle.convert_layout %{{.*}} : tensor<8x8xf32, #[[Z]]> -> tensor<8x8xf32,
module attributes {tle.num_warps = 4 : i32} {
  tle.func @row_times_column(%s: tensor<8xf32, #tle.slice<dim = 1, parent = #R>>, %out: tensor<8x8x!tle.ptr<f32>, #R>) {
    %a = tle.convert_layout %s : tensor<8xf32, #tle.slice<dim = 1, parent = #R>> -> tensor<8xf32, #V>
    %r = tle.convert_layout %a : tensor<8xf32, #V> -> tensor<8xf32, #tle.slice<dim = 1, parent = #Z>>
    %c = tle.convert_layout %a : tensor<8xf32, #V> -> tensor<8xf32, #tle.slice<dim = 0, parent = #Z>>
    %er = tle.expand_dims %r {axis = 1 : i32} : tensor<8xf32, #tle.slice<dim = 1, parent = #Z>> -> tensor<8x1xf32, #Z>
    %ec = tle.expand_dims %c {axis = 0 : i32} : tensor<8xf32, #tle.slice<dim = 0, parent = #Z>> -> tensor<1x8xf32, #Z>
    %br = tle.broadcast %er : tensor<8x1xf32, #Z> -> tensor<8x8xf32, #Z>
    %bc = tle.broadcast %ec : tensor<1x8xf32, #Z> -> tensor<8x8xf32, #Z>
    %m = arith.mulf %br, %bc : tensor<8x8xf32, #Z>
    %cm = tle.convert_layout %m : tensor<8x8xf32, #Z> -> tensor<8x8xf32, #R>
    tle.store %out, %cm : tensor<8x8x!tle.ptr<f32>, #R>
    tle.return
  }
}

// -----

// A [4, 1] column of a row statistic, smaller than the block's 128 threads:
// stored in the reduction's layout (the parent of its slice), the value,
// pointers and mask rebuilt there, no conversion left. A [256, 1] column
// (as many elements as threads and more) keeps its conversion, as does a
// column stored to block-level memory (every thread holding an element
// writes it there, to read it back without a barrier); a scalar store is
// left alone.
#R = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>
#C = #tle.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: #[[R:[a-z0-9_]+]] = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>
// CHECK-LABEL: tle.func @small_column
// CHECK-NOT: tle.convert_layout
// CHECK: %[[S:.*]] = math.sqrt %arg0 : tensor<4xf32, #[[SR:[a-z0-9_]+]]>
// CHECK: %[[E:.*]] = tle.expand_dims %[[S]] {axis = 1 : i32} : tensor<4xf32, #[[SR]]> -> tensor<4x1xf32, #[[R]]>
// CHECK-NOT: tle.convert_layout
// CHECK: tle.store %{{.*}}, %[[E]], %{{.*}} : tensor<4x1x!tle.ptr<f32>, #[[R]]>
// CHECK-NEXT: tle.return
// CHECK-LABEL: tle.func @large_column
// CHECK: tle.convert_layout
// CHECK-LABEL: tle.func @block_level_column
// CHECK: tle.convert_layout
// CHECK: tle.store %arg2, %arg3 : !tle.ptr<f32>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @small_column(%sum: tensor<4xf32, #tle.slice<dim = 1, parent = #R>>, %out: !tle.ptr<f32>, %m: i32) {
    %c = tle.convert_layout %sum : tensor<4xf32, #tle.slice<dim = 1, parent = #R>> -> tensor<4xf32, #tle.slice<dim = 1, parent = #C>>
    %s = math.sqrt %c : tensor<4xf32, #tle.slice<dim = 1, parent = #C>>
    %e = tle.expand_dims %s {axis = 1 : i32} : tensor<4xf32, #tle.slice<dim = 1, parent = #C>> -> tensor<4x1xf32, #C>
    %r = tle.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #tle.slice<dim = 1, parent = #C>>
    %re = tle.expand_dims %r {axis = 1 : i32} : tensor<4xi32, #tle.slice<dim = 1, parent = #C>> -> tensor<4x1xi32, #C>
    %base = tle.splat %out : !tle.ptr<f32> -> tensor<4x1x!tle.ptr<f32>, #C>
    %p = tle.addptr %base, %re : tensor<4x1x!tle.ptr<f32>, #C>, tensor<4x1xi32, #C>
    %ms = tle.splat %m : i32 -> tensor<4x1xi32, #C>
    %mask = arith.cmpi slt, %re, %ms : tensor<4x1xi32, #C>
    tle.store %p, %e, %mask : tensor<4x1x!tle.ptr<f32>, #C>
    tle.return
  }
  tle.func @large_column(%sum: tensor<256xf32, #tle.slice<dim = 1, parent = #R>>, %out: !tle.ptr<f32>) {
    %c = tle.convert_layout %sum : tensor<256xf32, #tle.slice<dim = 1, parent = #R>> -> tensor<256xf32, #tle.slice<dim = 1, parent = #C>>
    %e = tle.expand_dims %c {axis = 1 : i32} : tensor<256xf32, #tle.slice<dim = 1, parent = #C>> -> tensor<256x1xf32, #C>
    %r = tle.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #tle.slice<dim = 1, parent = #C>>
    %re = tle.expand_dims %r {axis = 1 : i32} : tensor<256xi32, #tle.slice<dim = 1, parent = #C>> -> tensor<256x1xi32, #C>
    %base = tle.splat %out : !tle.ptr<f32> -> tensor<256x1x!tle.ptr<f32>, #C>
    %p = tle.addptr %base, %re : tensor<256x1x!tle.ptr<f32>, #C>, tensor<256x1xi32, #C>
    tle.store %p, %e : tensor<256x1x!tle.ptr<f32>, #C>
    tle.return
  }
  tle.func @block_level_column(%sum: tensor<4xf32, #tle.slice<dim = 1, parent = #R>>, %p: tensor<4x1x!tle.ptr<f32, "block">, #C>, %q: !tle.ptr<f32>, %x: f32) {
    %c = tle.convert_layout %sum : tensor<4xf32, #tle.slice<dim = 1, parent = #R>> -> tensor<4xf32, #tle.slice<dim = 1, parent = #C>>
    %e = tle.expand_dims %c {axis = 1 : i32} : tensor<4xf32, #tle.slice<dim = 1, parent = #C>> -> tensor<4x1xf32, #C>
    tle.store %p, %e : tensor<4x1x!tle.ptr<f32, "block">, #C>
    tle.store %q, %x : !tle.ptr<f32>
    tle.return
  }
}

// -----

#A = #tle.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [8, 2, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
#B = #tle.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [2, 2, 8], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]>

// tl.sort's indicator tiles: one tl.arange(0, 2) reshaped to [2, 1, 1] and
// [1, 2, 1] (reshapes that only insert size-1 dimensions), combined, and
// converted to the layout of the tile they select in. Each reshape gets its
// own range, built in #B sliced at the inserted dimensions, and the
// conversion goes.
// CHECK-DAG: #[[B:.*]] = #tle.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [2, 2, 8]
// CHECK-DAG: #[[B2:.*]] = #tle.slice<dim = 2, parent = #[[B]]>
// CHECK-DAG: #[[B21:.*]] = #tle.slice<dim = 1, parent = #[[B2]]>
// CHECK-DAG: #[[B20:.*]] = #tle.slice<dim = 0, parent = #[[B2]]>
// CHECK-LABEL: tle.func @unit_reshapes
// CHECK-DAG: %[[R0:.*]] = tle.make_range {{.*}} : tensor<2xi32, #[[B21]]>
// CHECK-DAG: %[[R1:.*]] = tle.make_range {{.*}} : tensor<2xi32, #[[B20]]>
// CHECK-DAG: tle.reshape %[[R0]] : tensor<2xi32, #[[B21]]> -> tensor<2x1x1xi32, #[[B]]>
// CHECK-DAG: tle.reshape %[[R1]] : tensor<2xi32, #[[B20]]> -> tensor<1x2x1xi32, #[[B]]>
// CHECK: arith.xori {{.*}} : tensor<2x2x1xi32, #[[B]]>
// CHECK-NOT: tle.convert_layout
// CHECK: tle.return
//
// A reshape that moves elements between dimensions is not rebuilt.
// CHECK-LABEL: tle.func @merging_reshape
// CHECK: tle.convert_layout
module attributes {tle.num_warps = 4 : i32} {
  tle.func @unit_reshapes(%x: tensor<2x2x2xi32, #B>, %p: tensor<2x2x2x!tle.ptr<i32>, #B>) {
    %r = tle.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #tle.slice<dim = 1, parent = #tle.slice<dim = 2, parent = #A>>>
    %a = tle.reshape %r : tensor<2xi32, #tle.slice<dim = 1, parent = #tle.slice<dim = 2, parent = #A>>> -> tensor<2x1x1xi32, #A>
    %b = tle.reshape %r : tensor<2xi32, #tle.slice<dim = 1, parent = #tle.slice<dim = 2, parent = #A>>> -> tensor<1x2x1xi32, #A>
    %ab = tle.broadcast %a : tensor<2x1x1xi32, #A> -> tensor<2x2x1xi32, #A>
    %bb = tle.broadcast %b : tensor<1x2x1xi32, #A> -> tensor<2x2x1xi32, #A>
    %f = arith.xori %ab, %bb : tensor<2x2x1xi32, #A>
    %c = tle.convert_layout %f : tensor<2x2x1xi32, #A> -> tensor<2x2x1xi32, #B>
    %w = tle.broadcast %c : tensor<2x2x1xi32, #B> -> tensor<2x2x2xi32, #B>
    %y = arith.xori %x, %w : tensor<2x2x2xi32, #B>
    tle.store %p, %y : tensor<2x2x2x!tle.ptr<i32>, #B>
    tle.return
  }

  tle.func @merging_reshape(%p: tensor<2x2x2x!tle.ptr<i32>, #B>) {
    %r = tle.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #tle.slice<dim = 1, parent = #tle.slice<dim = 2, parent = #A>>>
    %a = tle.reshape %r : tensor<8xi32, #tle.slice<dim = 1, parent = #tle.slice<dim = 2, parent = #A>>> -> tensor<2x2x2xi32, #A>
    %c = tle.convert_layout %a : tensor<2x2x2xi32, #A> -> tensor<2x2x2xi32, #B>
    tle.store %p, %c : tensor<2x2x2x!tle.ptr<i32>, #B>
    tle.return
  }
}
