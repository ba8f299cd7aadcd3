// The launch size: tle.num_warps of the kernel, else of the module, else
// --num-warps (the CompileOptions), times the description's warp size.
// RUN: tle-plugin-compile %S/Inputs/copy.mlir --target h200 --emit=asm | FileCheck %s --check-prefix=DEFAULT
// RUN: tle-plugin-compile %S/Inputs/copy.mlir --target h200 --num-warps 2 --emit=asm | FileCheck %s --check-prefix=OPTION
// RUN: tle-plugin-compile %S/vector-add.mlir --target h200 --num-warps 2 --emit=asm | FileCheck %s --check-prefix=MODULE
// RUN: tle-plugin-compile %S/reduce.mlir --target h200 --num-warps 2 --emit=asm | FileCheck %s --check-prefix=FUNCTION

// DEFAULT: .reqntid 128, 1, 1
// OPTION: .reqntid 64, 1, 1
// MODULE: .reqntid 128, 1, 1
// FUNCTION: .reqntid 256, 1, 1
