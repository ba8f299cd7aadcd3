// With ptxas, compile() returns a cubin and what ptxas -v reported; the
// H100/H200 descriptions assemble for sm_90a, the A100 one for sm_80.
// REQUIRES: ptxas
// RUN: tle-plugin-compile %S/vector-add.mlir --target h200 --emit=info | FileCheck %s --check-prefixes=CHECK,CUBIN
// RUN: tle-plugin-compile %S/vector-add.mlir --target h100-sxm --emit=info | FileCheck %s --check-prefixes=CHECK,CUBIN
// RUN: tle-plugin-compile %S/vector-add.mlir --target a100 --emit=info | FileCheck %s --check-prefixes=CHECK,CUBIN
// RUN: tle-plugin-compile %S/reduce.mlir --target h200 --emit=info | FileCheck %s --check-prefix=REDUCE
// RUN: tle-plugin-compile %S/vector-add.mlir --target h200 -o %t.cubin
// RUN: od -A n -t x1 -N 4 %t.cubin | FileCheck %s --check-prefix=ELF

// CHECK: entry: add_kernel
// CUBIN-NEXT: format: cubin
// CHECK: threads-per-block: 128
// CHECK-NEXT: shared-memory: 0
// CHECK-NEXT: registers: {{[1-9][0-9]*}}
// CHECK-NEXT: spill-stores: 0
// CHECK-NEXT: spill-loads: 0
// CHECK-NEXT: stack-frame: 0
// CHECK-NEXT: static-shared-memory: 0

// REDUCE: entry: block_sum
// REDUCE: threads-per-block: 256
// REDUCE-NEXT: shared-memory: 32
// REDUCE-NEXT: registers: {{[1-9][0-9]*}}

// ELF: 7f 45 4c 46
