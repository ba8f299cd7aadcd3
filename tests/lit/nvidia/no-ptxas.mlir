// Without ptxas the plugin returns the PTX and says so in one line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env CUDA_HOME=%t tle-plugin-compile %S/vector-add.mlir --target h200 --emit=info 2>&1 | FileCheck %s
// RUN: env CUDA_HOME=%t tle-plugin-compile %S/vector-add.mlir --target h200 -o %t/add.ptx 2>/dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/add.ptx

// CHECK: nvidia: ptxas not found (set CUDA_HOME); emitting PTX only
// CHECK-NEXT: entry: add_kernel
// CHECK-NEXT: format: ptx
// CHECK: threads-per-block: 128
// CHECK-NOT: registers:

// PTX: .target sm_90a
// PTX: .entry add_kernel(
