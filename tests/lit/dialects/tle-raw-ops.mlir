// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

// CHECK-LABEL: tle.func @raw
tle.func @raw(%a: i32, %b: i32, %t: tensor<128xf32>) -> i32 {
  // CHECK: tle_raw.call "add" [#tle_raw.variant<"ptx", "add.s32 $0, $1, $2;" constraints "=r,r,r">, #tle_raw.variant<"opencl", "int add(int a, int b) { return a + b; }" entry "add">](%{{.*}}, %{{.*}}) : (i32, i32) -> i32
  %r = tle_raw.call "add" [#tle_raw.variant<"ptx", "add.s32 $0, $1, $2;" constraints "=r,r,r">, #tle_raw.variant<"opencl", "int add(int a, int b) { return a + b; }" entry "add">] (%a, %b) : (i32, i32) -> i32
  // CHECK: tle_raw.call "scale" [#tle_raw.variant<"cuda", {{.*}} entry "scale">](%{{.*}}) : (tensor<128xf32>) -> tensor<128xf32>
  %s = tle_raw.call "scale" [#tle_raw.variant<"cuda", "__device__ float scale(float x) { return 2.f * x; }" entry "scale">] (%t) : (tensor<128xf32>) -> tensor<128xf32>
  tle.return %r : i32
}
