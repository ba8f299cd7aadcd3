// RUN: tle-opt %s --tle-assign-layouts --tle-distribute | FileCheck %s

// tl.num_programs goes to the target's grid size, as tl.program_id goes to
// its block id.
// CHECK-LABEL: llvm.func @grid
// CHECK: gpu.block_id x
// CHECK: gpu.grid_dim y
tle.func @grid(%out: !tle.ptr<i32>) {
  %pid = tle.get_program_id 0 : i32
  %n = tle.get_num_programs 1 : i32
  %s = arith.addi %pid, %n : i32
  tle.store %out, %s : !tle.ptr<i32>
  tle.return
}
