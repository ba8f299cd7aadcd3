// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute="raw-languages=ptx" --canonicalize --cse | FileCheck %s

// tle_raw.call sees a tile per thread: the PTX variant (the first variant in
// an accepted language with inline-asm constraints) runs once per element
// the thread holds, here 2 of 256 on 128 threads; the OpenCL variant is
// skipped.
// CHECK-LABEL: llvm.func @raw_add
// CHECK: %[[X:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
// CHECK: %[[X0:.*]] = llvm.extractelement %[[X]][%c0_i32 : i32]
// CHECK: %[[X1:.*]] = llvm.extractelement %[[X]][%c1_i32 : i32]
// CHECK: %[[Y:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
// CHECK: %[[Y0:.*]] = llvm.extractelement %[[Y]][%c0_i32 : i32]
// CHECK: %[[Y1:.*]] = llvm.extractelement %[[Y]][%c1_i32 : i32]
// CHECK: llvm.inline_asm has_side_effects "add.s32 $0, $1, $2;", "=r,r,r" %[[X0]], %[[Y0]] : (i32, i32) -> i32
// CHECK: llvm.inline_asm has_side_effects "add.s32 $0, $1, $2;", "=r,r,r" %[[X1]], %[[Y1]] : (i32, i32) -> i32
// CHECK-NOT: llvm.inline_asm
module attributes {tle.num_warps = 4 : i32} {
  tle.func @raw_add(%x: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %y: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<i32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
    %sx = tle.splat %x : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>>
    %px = tle.addptr %sx, %r : tensor<256x!tle.ptr<i32>>, tensor<256xi32>
    %a = tle.load %px : tensor<256x!tle.ptr<i32>>
    %sy = tle.splat %y : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>>
    %py = tle.addptr %sy, %r : tensor<256x!tle.ptr<i32>>, tensor<256xi32>
    %b = tle.load %py : tensor<256x!tle.ptr<i32>>
    %c = tle_raw.call "add" [#tle_raw.variant<"opencl", "int add_i32(int a, int b) { return a + b; }" entry "add_i32">, #tle_raw.variant<"ptx", "add.s32 $0, $1, $2;" constraints "=r,r,r">](%a, %b) : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi32>
    %so = tle.splat %out : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>>
    %po = tle.addptr %so, %r : tensor<256x!tle.ptr<i32>>, tensor<256xi32>
    tle.store %po, %c : tensor<256x!tle.ptr<i32>>
    tle.return
  }
}

// -----

// pack = 4: one asm block per 4 elements of a thread. The i8 operand
// travels as one vector<4xi8> register, the f32 results as 4 registers
// each; 2 elements per thread here, so the last two lanes of the group
// are poison and their results are dropped.
// CHECK-LABEL: llvm.func @raw_packed
// CHECK: %[[P:.*]] = llvm.mlir.poison : i8
// CHECK: %[[V:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%c0_i32 : i32] : vector<4xi8>
// CHECK: %[[V1:.*]] = llvm.insertelement %{{.*}}, %[[V]][%c1_i32 : i32] : vector<4xi8>
// CHECK: %[[V2:.*]] = llvm.insertelement %[[P]], %[[V1]][%c2_i32 : i32] : vector<4xi8>
// CHECK: %[[V3:.*]] = llvm.insertelement %[[P]], %[[V2]][%c3_i32 : i32] : vector<4xi8>
// CHECK: %[[R:.*]] = llvm.inline_asm has_side_effects "cvt4", "=r,=r,=r,=r,r" %[[V3]] : (vector<4xi8>) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-2: llvm.extractvalue %[[R]]
// CHECK-NOT: llvm.extractvalue %[[R]]
// CHECK-NOT: llvm.inline_asm
module attributes {tle.num_warps = 4 : i32} {
  tle.func @raw_packed(%x: !tle.ptr<i8> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
    %sx = tle.splat %x : !tle.ptr<i8> -> tensor<256x!tle.ptr<i8>>
    %px = tle.addptr %sx, %r : tensor<256x!tle.ptr<i8>>, tensor<256xi32>
    %a = tle.load %px : tensor<256x!tle.ptr<i8>>
    %c = tle_raw.call "cvt" [#tle_raw.variant<"ptx", "cvt4" constraints "=r,=r,=r,=r,r">](%a) {pack = 4 : i32} : (tensor<256xi8>) -> tensor<256xf32>
    %so = tle.splat %out : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %po = tle.addptr %so, %r : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    tle.store %po, %c : tensor<256x!tle.ptr<f32>>
    tle.return
  }
}
