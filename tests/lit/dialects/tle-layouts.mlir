// RUN: tle-opt %s | FileCheck %s
// Round trip: print, then parse the printed form again.
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

#b1 = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b2 = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#s1 = #tle.slice<dim = 1, parent = #b2>
#s0 = #tle.slice<dim = 0, parent = #b2>
#sh = #tle.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>

// CHECK: #[[B1:.*]] = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: #[[B2:.*]] = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: #[[SH:.*]] = #tle.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
// CHECK: #[[S1:.*]] = #tle.slice<dim = 1, parent = #[[B2]]>
// CHECK: #[[S0:.*]] = #tle.slice<dim = 0, parent = #[[B2]]>

// CHECK-LABEL: tle.func @layouts
tle.func @layouts(%p: !tle.ptr<f32>) {
  // CHECK: tle.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[B1]]>
  %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b1>
  // CHECK: tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[S1]]>
  %m = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #s1>
  // CHECK: tle.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xi32, #[[S1]]> -> tensor<64x1xi32, #[[B2]]>
  %e = tle.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #s1> -> tensor<64x1xi32, #b2>
  // CHECK: tle.convert_layout %{{.*}} : tensor<64xi32, #[[S1]]> -> tensor<64xi32, #[[S0]]>
  %c = tle.convert_layout %m : tensor<64xi32, #s1> -> tensor<64xi32, #s0>
  tle.return
}

// CHECK-LABEL: tle.func @shared
// CHECK-SAME: smem = #[[SH]]
tle.func @shared() attributes {smem = #sh} {
  tle.return
}

// A linear layout applies to its shape and to that shape with size-1
// dimensions (a row statistic expanded back before a broadcast).
#l = #tle.linear<shape = [16, 8], regs = [[0, 1], [8, 0]], lanes = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warps = []>
#ls = #tle.slice<dim = 1, parent = #l>
// CHECK-LABEL: tle.func @linear_rows
tle.func @linear_rows(%x: f32) {
  // CHECK: tle.splat %{{.*}} : f32 -> tensor<16xf32, #{{.*}}>
  %s = tle.splat %x : f32 -> tensor<16xf32, #ls>
  // CHECK: tle.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xf32, #{{.*}}> -> tensor<16x1xf32, #[[L:linear]]>
  %e = tle.expand_dims %s {axis = 1 : i32} : tensor<16xf32, #ls> -> tensor<16x1xf32, #l>
  // CHECK: tle.broadcast %{{.*}} : tensor<16x1xf32, #[[L]]> -> tensor<16x8xf32, #[[L]]>
  %b = tle.broadcast %e : tensor<16x1xf32, #l> -> tensor<16x8xf32, #l>
  tle.return
}
