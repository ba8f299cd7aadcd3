// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" | FileCheck %s --check-prefix=LAYOUT
// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-distribute | FileCheck %s

// A matrix accumulator cut into two column halves (reshape, permute, split:
// the subtiled epilogue of Triton's persistent matmul), combined, and joined
// again. In the test target's m16n8k16 layout over 64x64 (4 warps) column
// 32 is a register bit, so each shape op keeps every element in its thread:
// layout assignment relabels the bases, distribution renumbers registers,
// and the only exchange is the store's conversion at the end.
// LAYOUT-DAG: #[[ACC:linear[0-9]*]] = #tle.linear<shape = [64, 64], regs = {{\[}}[0, 1], [0, 16], [0, 32], [8, 0], [32, 0]], lanes = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warps = {{\[}}[16, 0], [0, 8]]>
// LAYOUT-DAG: #[[RESHAPED:linear[0-9]*]] = #tle.linear<shape = [64, 2, 32], regs = {{\[}}[0, 0, 1], [0, 0, 16], [0, 1, 0], [8, 0, 0], [32, 0, 0]], lanes = {{\[}}[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warps = {{\[}}[16, 0, 0], [0, 0, 8]]>
// LAYOUT-DAG: #[[PERMUTED:linear[0-9]*]] = #tle.linear<shape = [64, 32, 2], regs = {{\[}}[0, 1, 0], [0, 16, 0], [0, 0, 1], [8, 0, 0], [32, 0, 0]], lanes = {{\[}}[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warps = {{\[}}[16, 0, 0], [0, 8, 0]]>
// LAYOUT-DAG: #[[HALF:linear[0-9]*]] = #tle.linear<shape = [64, 32], regs = {{\[}}[0, 1], [0, 16], [8, 0], [32, 0]], lanes = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warps = {{\[}}[16, 0], [0, 8]]>
// LAYOUT-DAG: #[[JOINED:linear[0-9]*]] = #tle.linear<shape = [64, 32, 2], regs = {{\[}}[0, 0, 1], [0, 1, 0], [0, 16, 0], [8, 0, 0], [32, 0, 0]], lanes = {{\[}}[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warps = {{\[}}[16, 0, 0], [0, 8, 0]]>
// LAYOUT: tle.reshape {{.*}} : tensor<64x64xf32, #[[ACC]]> -> tensor<64x2x32xf32, #[[RESHAPED]]>
// LAYOUT: tle.trans {{.*}} : tensor<64x2x32xf32, #[[RESHAPED]]> -> tensor<64x32x2xf32, #[[PERMUTED]]>
// LAYOUT: tle.split {{.*}} : tensor<64x32x2xf32, #[[PERMUTED]]> -> tensor<64x32xf32, #[[HALF]]>
// LAYOUT: arith.addf {{.*}} : tensor<64x32xf32, #[[HALF]]>
// LAYOUT: tle.join {{.*}} : tensor<64x32xf32, #[[HALF]]> -> tensor<64x32x2xf32, #[[JOINED]]>
// LAYOUT: tle.convert_layout {{.*}} : tensor<64x32x2xf32, #[[JOINED]]> -> tensor<64x32x2xf32, #blocked

// Each thread adds pairs of its own accumulator registers (32 columns
// apart), with no scratch access or barrier between the last matrix
// instruction and the store's conversion.
// CHECK-LABEL: llvm.func @subtiles
// CHECK-COUNT-16: llvm.inline_asm "test.mma.m16n8k16"
// CHECK-NOT: gpu.barrier
// CHECK-NOT: !llvm.ptr<3>
// The join moves nothing either: one barrier after the adds, the store's.
// CHECK-COUNT-16: arith.addf
// CHECK-NOT: arith.addf
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: llvm.return
tle.func @subtiles(%pa: !tle.ptr<f16>, %pb: !tle.ptr<f16>, %out: !tle.ptr<f32>) {
  %ptra = tle.splat %pa : !tle.ptr<f16> -> tensor<64x32x!tle.ptr<f16>>
  %ptrb = tle.splat %pb : !tle.ptr<f16> -> tensor<32x64x!tle.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tle.load %ptra : tensor<64x32x!tle.ptr<f16>>
  %b = tle.load %ptrb : tensor<32x64x!tle.ptr<f16>>
  %acc = tle.dot %a, %b, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %r = tle.reshape %acc : tensor<64x64xf32> -> tensor<64x2x32xf32>
  %t = tle.trans %r {order = array<i32: 0, 2, 1>} : tensor<64x2x32xf32> -> tensor<64x32x2xf32>
  %lo, %hi = tle.split %t : tensor<64x32x2xf32> -> tensor<64x32xf32>
  %sum = arith.addf %lo, %hi : tensor<64x32xf32>
  %j = tle.join %sum, %lo : tensor<64x32xf32> -> tensor<64x32x2xf32>
  %ptro = tle.splat %out : !tle.ptr<f32> -> tensor<64x32x2x!tle.ptr<f32>>
  tle.store %ptro, %j : tensor<64x32x2x!tle.ptr<f32>>
  tle.return
}

// -----

// Halves 8 columns apart: a warp bit selects the half, so the split keeps
// the default layout and exchanges through scratch (its operand's reshape
// and permute still move nothing).
// LAYOUT-LABEL: tle.func @warp_selects_half
// LAYOUT: tle.reshape {{.*}} -> tensor<64x4x2x8xf32, #linear
// LAYOUT: tle.trans {{.*}} -> tensor<64x4x8x2xf32, #linear
// LAYOUT: tle.split {{.*}} : tensor<64x4x8x2xf32, #linear{{[0-9]*}}> -> tensor<64x4x8xf32, #blocked
// CHECK-LABEL: llvm.func @warp_selects_half
// CHECK-COUNT-16: llvm.inline_asm "test.mma.m16n8k16"
// CHECK: gpu.barrier
// CHECK: arith.addf
tle.func @warp_selects_half(%pa: !tle.ptr<f16>, %pb: !tle.ptr<f16>, %out: !tle.ptr<f32>) {
  %ptra = tle.splat %pa : !tle.ptr<f16> -> tensor<64x32x!tle.ptr<f16>>
  %ptrb = tle.splat %pb : !tle.ptr<f16> -> tensor<32x64x!tle.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tle.load %ptra : tensor<64x32x!tle.ptr<f16>>
  %b = tle.load %ptrb : tensor<32x64x!tle.ptr<f16>>
  %acc = tle.dot %a, %b, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %r = tle.reshape %acc : tensor<64x64xf32> -> tensor<64x4x2x8xf32>
  %t = tle.trans %r {order = array<i32: 0, 1, 3, 2>} : tensor<64x4x2x8xf32> -> tensor<64x4x8x2xf32>
  %lo, %hi = tle.split %t : tensor<64x4x8x2xf32> -> tensor<64x4x8xf32>
  %sum = arith.addf %lo, %hi : tensor<64x4x8xf32>
  %ptro = tle.splat %out : !tle.ptr<f32> -> tensor<64x4x8x!tle.ptr<f32>>
  tle.store %ptro, %sum : tensor<64x4x8x!tle.ptr<f32>>
  tle.return
}
