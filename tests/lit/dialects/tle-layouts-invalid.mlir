// RUN: tle-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{sizePerThread, threadsPerWarp and warpsPerCTA must have the same number of entries}}
#b = #tle.blocked<sizePerThread = [4, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// -----

// expected-error @+1 {{threadsPerWarp entries must be powers of two, got 24}}
#b = #tle.blocked<sizePerThread = [4], threadsPerWarp = [24], warpsPerCTA = [4], order = [0]>

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
#b = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]>

// -----

#b = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// expected-error @+1 {{slice parent must have rank at least 2, got 1}}
#s = #tle.slice<dim = 0, parent = #b>

// -----

#b = #tle.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// expected-error @+1 {{slice dimension 2 out of range for a parent of rank 2}}
#s = #tle.slice<dim = 2, parent = #b>

// -----

// expected-error @+1 {{vec, perPhase and maxPhase must be at least 1}}
#s = #tle.shared<vec = 0, perPhase = 1, maxPhase = 8, order = [1, 0]>

// -----

#b = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
tle.func @rank_mismatch() {
  // expected-error @+1 {{blocked layout of rank 1 on a tensor of rank 2}}
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64x1xi32, #b>
  tle.return
}

// -----

#b = #tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
tle.func @convert_no_encoding(%x: tensor<64xi32, #b>) {
  // expected-error @+1 {{'tle.convert_layout' op operand and result need distributed layout encodings}}
  %c = tle.convert_layout %x : tensor<64xi32, #b> -> tensor<64xi32>
  tle.return
}

// -----

// expected-error @+1 {{basis must have 2 entries, one per dimension}}
#l = #tle.linear<shape = [16, 8], regs = [[0, 1, 0]], lanes = [], warps = []>

// -----

// expected-error @+1 {{register basis 0 must move along exactly one dimension}}
#l = #tle.linear<shape = [16, 8], regs = [[1, 1]], lanes = [], warps = []>

// -----

// expected-error @+1 {{register bases of dimension 1 must be adjacent}}
#l = #tle.linear<shape = [16, 8], regs = [[0, 1], [8, 0], [0, 4]], lanes = [], warps = []>

// -----

// expected-error @+1 {{basis entries must be zero or powers of two inside the shape, got 16}}
#l = #tle.linear<shape = [16, 8], regs = [[0, 1]], lanes = [[16, 0]], warps = []>

// -----

#l = #tle.linear<shape = [16, 8], regs = [[0, 1], [8, 0]], lanes = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warps = []>
tle.func @linear_shape(%x: f32) {
  // expected-error @+1 {{linear layout for a tensor of shape [16, 8] (or 1 in any dimension) on a tensor of shape [16, 16]}}
  %s = tle.splat %x : f32 -> tensor<16x16xf32, #l>
  tle.return
}
