// RUN: tle-opt %s --tle-assign-layouts --tle-pipeline-loads="shared-memory-limit=4096" | FileCheck %s
// RUN: tle-opt %s --tle-assign-layouts --tle-pipeline-loads="shared-memory-limit=4096 scratch-alternation=1" | FileCheck %s --check-prefix=ALT

// Rows of 1 KiB with a sum across 4 warps (16 bytes of scratch, a 1 KiB
// ring-aligned share) and num_stages 4, under a 4 KiB limit. The scratch's
// bound counts its alternation allowance (1 KiB more) only where
// tle-distribute alternates: without it three 1 KiB slots fit beside the
// scratch; with it, two.
// CHECK: tle_struct.alloc : !tle_struct.buffer<3x256xf32
// ALT: tle_struct.alloc : !tle_struct.buffer<2x256xf32
module attributes {tle.num_warps = 4 : i32} {
tle.func @rows_sum(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32) {
  %start = tle.get_program_id 0 : i32
  %step = tle.get_num_programs 0 : i32
  %c256 = arith.constant 256 : i32
  %offs = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  scf.for %r = %start to %rows step %step : i32 {
    %base = arith.muli %r, %c256 : i32
    %rowin = tle.addptr %in, %base : !tle.ptr<f32>, i32
    %pin = tle.splat %rowin : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %ptrs = tle.addptr %pin, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %x = tle.load %ptrs : tensor<256x!tle.ptr<f32>>
    %t = "tle.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tle.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<256xf32>) -> f32
    %ts = tle.splat %t : f32 -> tensor<256xf32>
    %y = arith.divf %x, %ts : tensor<256xf32>
    %rowout = tle.addptr %out, %base : !tle.ptr<f32>, i32
    %pout = tle.splat %rowout : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %optrs = tle.addptr %pout, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    tle.store %optrs, %y : tensor<256x!tle.ptr<f32>>
  } {tle.num_stages = 4 : i32}
  tle.return
}
}
