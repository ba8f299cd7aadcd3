// RUN: tle-opt %s --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s --check-prefix=PACKED
// RUN: tle-opt %s --tle-assign-layouts --tle-distribute=block-memory-row-bytes=128 --canonicalize --cse | FileCheck %s --check-prefix=ROWS

// A local buffer after a reduction's scratch (4 warp partials, 16 bytes).
// Without a bank row (a description without banks) it follows the scratch
// at the next 16 bytes; with 128-byte rows of banks (32 banks of 4 bytes,
// NVIDIA's and AMD's block memory) it starts on the next row, so the 128-byte
// lines its warps copy or read each fall in one row.
// PACKED: tle.shared_memory = 1040 : i64
// PACKED: %[[BASE:.*]] = llvm.mlir.addressof @__tle_scratch : !llvm.ptr<3>
// PACKED: llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// ROWS: tle.shared_memory = 1152 : i64
// ROWS: %[[BASE:.*]] = llvm.mlir.addressof @__tle_scratch : !llvm.ptr<3>
// ROWS: llvm.getelementptr %[[BASE]][128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
module attributes {tle.num_warps = 4 : i32} {
  tle.func @sum_then_buffer(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}) {
    %buf = tle_struct.alloc : !tle_struct.buffer<256xf32, "block", #tle_struct.layout<order = [0]>>
    %r = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
    %s = tle.splat %in : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %p = tle.addptr %s, %r : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %x = tle.load %p : tensor<256x!tle.ptr<f32>>
    %t = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<256xf32>) -> f32
    %ts = tle.splat %t : f32 -> tensor<256xf32>
    %y = arith.divf %x, %ts : tensor<256xf32>
    %lp = tle_struct.local_ptr %buf : !tle_struct.buffer<256xf32, "block", #tle_struct.layout<order = [0]>> -> tensor<256x!tle.ptr<f32, "block">>
    tle.store %lp, %y : tensor<256x!tle.ptr<f32, "block">>
    tle.debug_barrier
    %v = tle.load %lp : tensor<256x!tle.ptr<f32, "block">>
    %so = tle.splat %out : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %q = tle.addptr %so, %r : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    tle.store %q, %v : tensor<256x!tle.ptr<f32>>
    tle.return
  }
}
