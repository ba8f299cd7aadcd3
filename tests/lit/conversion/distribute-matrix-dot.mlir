// RUN: tle-opt %s --tle-assign-layouts-test-mma="" | FileCheck %s --check-prefix=LAYOUT
// RUN: tle-opt %s --tle-assign-layouts-test-mma="" --tle-distribute | FileCheck %s
// RUN: tle-opt %s --tle-assign-layouts-test-mma="" --tle-distribute | grep -c 'test.ldmatrix.x4.trans' | FileCheck %s --check-prefix=TRANS
// TRANS: {{^4$}}

// tl.dot on the test target's m16n8k16 instruction (NVIDIA mma.sync
// fragments). 4 warps split the 64x64 tile 2x2, so each warp owns 32x32:
// 2 (M) x 4 (N) instruction tiles, each over 2 K steps of 16.
//
// The accumulator keeps its #linear layout through the loop (the zero
// constant is built in it); A and B are converted from their blocked layouts
// once per iteration; the epilogue (truncf) stays in the accumulator layout,
// so the one conversion before the store moves fp16.
// LAYOUT-DAG: #[[C:linear[0-9]*]] = #tle.linear<shape = [64, 64], regs = {{\[}}[0, 1], [0, 16], [0, 32], [8, 0], [32, 0]], lanes = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warps = {{\[}}[16, 0], [0, 8]]>
// LAYOUT-DAG: #[[A:linear[0-9]*]] = #tle.linear<shape = [64, 32], regs = {{\[}}[0, 1], [0, 8], [0, 16], [8, 0], [32, 0]], lanes = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warps = {{\[}}[16, 0], [0, 0]]>
// LAYOUT-DAG: #[[B:linear[0-9]*]] = #tle.linear<shape = [32, 64], regs = {{\[}}[1, 0], [8, 0], [16, 0], [0, 16], [0, 32]], lanes = {{\[}}[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warps = {{\[}}[0, 0], [0, 8]]>
// LAYOUT: arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[C]]>
// LAYOUT: scf.for {{.*}} -> (tensor<64x64xf32, #[[C]]>)
// LAYOUT: tle.convert_layout {{.*}} -> tensor<64x32xf16, #[[A]]>
// LAYOUT: tle.convert_layout {{.*}} -> tensor<32x64xf16, #[[B]]>
// LAYOUT: tle.dot {{.*}} {tle.matrix_instruction = "test.mma.m16n8k16"} : tensor<64x32xf16, #[[A]]> * tensor<32x64xf16, #[[B]]> -> tensor<64x64xf32, #[[C]]>
// LAYOUT-NOT: tle.convert_layout {{.*}}f32
// LAYOUT: arith.truncf {{.*}} : tensor<64x64xf32, #[[C]]> to tensor<64x64xf16, #[[C]]>
// LAYOUT: tle.convert_layout {{.*}} : tensor<64x64xf16, #[[C]]> -> tensor<64x64xf16, #blocked{{[0-9]*}}>

// One scratch buffer serves every conversion: the largest (64x64 fp16 with
// rows padded by 16 bytes) sets its size.
// CHECK: tle.shared_memory = 9216 : i64
// CHECK: llvm.mlir.global external @__tle_scratch() {{.*}} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @dot
// The operands are read from scratch with the target's 8x8 tile loads, four
// tiles each: A (64x32, each warp pair shares a 32x32 half) as stored, B
// transposed.
// CHECK-COUNT-8: llvm.inline_asm "test.ldmatrix.x4{{(.trans)?}}", "=r,=r,=r,=r,l"
// Each instruction takes 8 registers of A, 4 of B and 4 accumulators.
// CHECK-COUNT-16: llvm.inline_asm "test.mma.m16n8k16", "=f,=f,=f,=f,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r"
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.return
tle.func @dot(%pa: !tle.ptr<f16>, %pb: !tle.ptr<f16>, %out: !tle.ptr<f16>, %n: i32) {
  %ptra = tle.splat %pa : !tle.ptr<f16> -> tensor<64x32x!tle.ptr<f16>>
  %ptrb = tle.splat %pb : !tle.ptr<f16> -> tensor<32x64x!tle.ptr<f16>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c) -> (tensor<64x64xf32>) : i32 {
    %a = tle.load %ptra : tensor<64x32x!tle.ptr<f16>>
    %b = tle.load %ptrb : tensor<32x64x!tle.ptr<f16>>
    %d = tle.dot %a, %b, %x : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %h = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
  %ptro = tle.splat %out : !tle.ptr<f16> -> tensor<64x64x!tle.ptr<f16>>
  tle.store %ptro, %h : tensor<64x64x!tle.ptr<f16>>
  tle.return
}
