// RUN: tle-opt %s --tle-assign-layouts --tle-distribute="raw-languages=opencl,ptx" --canonicalize --cse | FileCheck %s

// A variant in a function language (the first accepted one in the kernel's
// order, OpenCL C here, although PTX is accepted too) becomes one llvm.func
// declaration carrying the variant, which the plugin compiles and links
// (tle/Backend/RawCode.h), called once per element the thread holds (2 of
// 256 on 128 threads); the scalar operand is passed to every call.
// CHECK: llvm.func @__tle_raw_add_i32(i32, i32, i32) -> i32 attributes {tle_raw.variant = #tle_raw.variant<"opencl", "int add_i32(int a, int b, int s) { return a + b * s; }" entry "add_i32" at "k.py" line 12 col 8>}
// CHECK-LABEL: llvm.func @raw_add
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> vector<2xi32>
// CHECK: %[[X0:.*]] = llvm.extractelement %[[X]][%c0_i32 : i32]
// CHECK: %[[X1:.*]] = llvm.extractelement %[[X]][%c1_i32 : i32]
// CHECK: %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> vector<2xi32>
// CHECK: %[[Y0:.*]] = llvm.extractelement %[[Y]][%c0_i32 : i32]
// CHECK: %[[Y1:.*]] = llvm.extractelement %[[Y]][%c1_i32 : i32]
// CHECK: llvm.call @__tle_raw_add_i32(%[[X0]], %[[Y0]], %arg3) : (i32, i32, i32) -> i32
// CHECK: llvm.call @__tle_raw_add_i32(%[[X1]], %[[Y1]], %arg3) : (i32, i32, i32) -> i32
// CHECK-NOT: llvm.inline_asm
module attributes {tle.num_warps = 4 : i32} {
  tle.func @raw_add(%x: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %y: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %s: i32) {
    %r = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
    %sx = tle.splat %x : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>>
    %px = tle.addptr %sx, %r : tensor<256x!tle.ptr<i32>>, tensor<256xi32>
    %a = tle.load %px : tensor<256x!tle.ptr<i32>>
    %sy = tle.splat %y : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>>
    %py = tle.addptr %sy, %r : tensor<256x!tle.ptr<i32>>, tensor<256xi32>
    %b = tle.load %py : tensor<256x!tle.ptr<i32>>
    %c = tle_raw.call "add" [#tle_raw.variant<"opencl", "int add_i32(int a, int b, int s) { return a + b * s; }" entry "add_i32" at "k.py" line 12 col 8>, #tle_raw.variant<"ptx", "mad.lo.s32 $0, $2, $3, $1;" constraints "=r,r,r,r">](%a, %b, %s) : (tensor<256xi32>, tensor<256xi32>, i32) -> tensor<256xi32>
    %so = tle.splat %out : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>>
    %po = tle.addptr %so, %r : tensor<256x!tle.ptr<i32>>, tensor<256xi32>
    tle.store %po, %c : tensor<256x!tle.ptr<i32>>
    tle.return
  }
}
