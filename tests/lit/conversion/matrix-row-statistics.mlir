// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" | FileCheck %s --check-prefix=LAYOUT
// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-distribute | FileCheck %s

// The online softmax of attention on a score tile from a matrix unit (the
// test target's m16n8k16, 4 warps over 64x64: 2 row groups x 2 column
// groups). The scores are reduced in the accumulator layout, the row
// statistics stay in its slice, are carried by the loop in it (their initial
// constants built there) and are broadcast back into it: no conversion in
// the loop.
// LAYOUT-DAG: #[[C:linear[0-9]*]] = #tle.linear<shape = [64, 64], regs = {{\[}}[0, 1], [0, 16], [0, 32], [8, 0], [32, 0]], lanes = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warps = {{\[}}[16, 0], [0, 8]]>
// LAYOUT-DAG: #[[ROW:slice[0-9]*]] = #tle.slice<dim = 1, parent = #[[C]]>
// LAYOUT: arith.constant dense<0xFF800000> : tensor<64xf32, #[[ROW]]>
// LAYOUT: scf.for {{.*}} -> (tensor<64xf32, #[[ROW]]>, tensor<64xf32, #[[ROW]]>)
// LAYOUT-NOT: tle.convert_layout {{.*}}f32
// LAYOUT: tle.reduce({{.*}}) {axis = 1 : i32} : (tensor<64x64xf32, #[[C]]>) -> tensor<64xf32, #[[ROW]]>
// LAYOUT: tle.expand_dims {{.*}} : tensor<64xf32, #[[ROW]]> -> tensor<64x1xf32, #[[C]]>
// LAYOUT: tle.broadcast {{.*}} : tensor<64x1xf32, #[[C]]> -> tensor<64x64xf32, #[[C]]>
// LAYOUT: math.exp2 {{.*}} : tensor<64x64xf32, #[[C]]>
// LAYOUT-NOT: tle.convert_layout {{.*}}f32
// LAYOUT: scf.yield {{.*}} : tensor<64xf32, #[[ROW]]>, tensor<64xf32, #[[ROW]]>
// LAYOUT: tle.convert_layout {{.*}} : tensor<64xf32, #[[ROW]]> -> tensor<64xf32, #blocked

// The row max: 32 registers per thread hold 4 rows x 8 columns (an
// in-thread tree of 7 combines per row), lane bits 0 and 1 the other
// columns of a row within the warp (xor shuffles 2, then 1), warp bit 1 the
// other 32 columns (one exchange through scratch, then 4 combines).
// CHECK-LABEL: llvm.func @online_softmax
// CHECK: llvm.inline_asm "test.mma.m16n8k16"
// CHECK-COUNT-28: arith.maxnumf
// CHECK-NOT: arith.maxnumf
// CHECK-COUNT-4: gpu.shuffle {{ *}}xor %{{[0-9]+}}, %c2_i32
// CHECK-COUNT-4: gpu.shuffle {{ *}}xor %{{[0-9]+}}, %c1_i32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.barrier
// CHECK-COUNT-4: arith.maxnumf
// The running max with the loop-carried one, register by register.
// CHECK-COUNT-4: arith.maxnumf %arg
// CHECK-COUNT-32: math.exp2
tle.func @online_softmax(%pq: !tle.ptr<f16>, %pk: !tle.ptr<f16>, %out: !tle.ptr<f32>, %n: i32) {
  %ptrq = tle.splat %pq : !tle.ptr<f16> -> tensor<64x32x!tle.ptr<f16>>
  %ptrk = tle.splat %pk : !tle.ptr<f16> -> tensor<32x64x!tle.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %l0 = arith.constant dense<0.0> : tensor<64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = tle.load %ptrq : tensor<64x32x!tle.ptr<f16>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0) -> (tensor<64xf32>, tensor<64xf32>) : i32 {
    %k = tle.load %ptrk : tensor<32x64x!tle.ptr<f16>>
    %s = tle.dot %q, %k, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %rowmax = tle.reduce(%s) {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.maxnumf %a, %b : f32
      tle.reduce.return %r : f32
    }
    %mnew = arith.maxnumf %m, %rowmax : tensor<64xf32>
    %e = tle.expand_dims %mnew {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %bc = tle.broadcast %e : tensor<64x1xf32> -> tensor<64x64xf32>
    %d = arith.subf %s, %bc : tensor<64x64xf32>
    %p = math.exp2 %d : tensor<64x64xf32>
    %rowsum = tle.reduce(%p) {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      tle.reduce.return %r : f32
    }
    %dm = arith.subf %m, %mnew : tensor<64xf32>
    %alpha = math.exp2 %dm : tensor<64xf32>
    %ls = arith.mulf %l, %alpha : tensor<64xf32>
    %lnew = arith.addf %ls, %rowsum : tensor<64xf32>
    scf.yield %mnew, %lnew : tensor<64xf32>, tensor<64xf32>
  }
  %ptro = tle.splat %out : !tle.ptr<f32> -> tensor<64x!tle.ptr<f32>>
  %offs = tle.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ptrs = tle.addptr %ptro, %offs : tensor<64x!tle.ptr<f32>>, tensor<64xi32>
  tle.store %ptrs, %res#1 : tensor<64x!tle.ptr<f32>>
  tle.return
}

// -----

// Attention with HEAD_DIM 128 on the test target's warpgroup unit (bf16):
// the scores are 64x64, the output 64x128, two accumulator layouts whose
// rows sit in the same threads. The output's layout is carried by the loop
// although the dot adds to acc * alpha, not to the carried value, and the
// row statistic alpha reaches it through one conversion of the 64x1 tile
// between the two layouts -- one that moves nothing -- so no tile of the
// loop goes through scratch.
// LAYOUT-LABEL: tle.func @wider_output
// LAYOUT: scf.for {{.*}} -> (tensor<64x128xf32, #[[O:linear[0-9]*]]>, tensor<64xf32, #{{.*}}>)
// LAYOUT: tle.expand_dims {{.*}} -> tensor<64x1xf32, #[[S:linear[0-9]*]]>
// LAYOUT: tle.convert_layout {{.*}} : tensor<64x1xf32, #[[S]]> -> tensor<64x1xf32, #[[O]]>
// LAYOUT: tle.broadcast {{.*}} : tensor<64x1xf32, #[[O]]> -> tensor<64x128xf32, #[[O]]>
// LAYOUT: arith.mulf {{.*}} : tensor<64x128xf32, #[[O]]>
// LAYOUT-NOT: tle.convert_layout {{.*}}x{{(64|128)}}xf32
// LAYOUT: scf.yield
// Distribution (no pipelining here): from the scores' wait to the
// exponentials nothing goes through scratch; V is stored for the second
// product, whose A is P in registers.
// CHECK-LABEL: llvm.func @wider_output
// CHECK: scf.for
// CHECK: "test.wgmma.n64 swizzle
// CHECK: "test.wait 0"
// CHECK-NOT: gpu.barrier
// CHECK: math.exp2
// CHECK: "test.fence.operands"
// CHECK-NEXT: gpu.barrier
// CHECK: "test.wgmma.n64.ra
tle.func @wider_output(%pq: !tle.ptr<bf16>, %pk: !tle.ptr<bf16>, %pv: !tle.ptr<bf16>, %n: i32) {
  %ptrq = tle.splat %pq : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrk = tle.splat %pk : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  %ptrv = tle.splat %pv : !tle.ptr<bf16> -> tensor<64x128x!tle.ptr<bf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %o0 = arith.constant dense<0.0> : tensor<64x128xf32>
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = tle.load %ptrq : tensor<64x64x!tle.ptr<bf16>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %o0, %m = %m0) -> (tensor<64x128xf32>, tensor<64xf32>) : i32 {
    %k = tle.load %ptrk : tensor<64x64x!tle.ptr<bf16>>
    %s = tle.dot %q, %k, %zero : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
    %rowmax = tle.reduce(%s) {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.maxnumf %a, %b : f32
      tle.reduce.return %r : f32
    }
    %mnew = arith.maxnumf %m, %rowmax : tensor<64xf32>
    %e = tle.expand_dims %mnew {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %bs = tle.broadcast %e : tensor<64x1xf32> -> tensor<64x64xf32>
    %d = arith.subf %s, %bs : tensor<64x64xf32>
    %p = math.exp2 %d : tensor<64x64xf32>
    %pb = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xbf16>
    %dm = arith.subf %m, %mnew : tensor<64xf32>
    %alpha = math.exp2 %dm : tensor<64xf32>
    %ea = tle.expand_dims %alpha {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %ba = tle.broadcast %ea : tensor<64x1xf32> -> tensor<64x128xf32>
    %scaled = arith.mulf %acc, %ba : tensor<64x128xf32>
    %v = tle.load %ptrv : tensor<64x128x!tle.ptr<bf16>>
    %o = tle.dot %pb, %v, %scaled : tensor<64x64xbf16> * tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %o, %mnew : tensor<64x128xf32>, tensor<64xf32>
  }
  tle.return
}
