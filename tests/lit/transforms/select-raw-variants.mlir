// RUN: tle-opt %s -split-input-file -tle-select-raw-variants="languages=ptx,cuda" | FileCheck %s
// RUN: tle-opt %s -split-input-file -tle-select-raw-variants="languages=opencl" | FileCheck %s --check-prefix=FALLBACK
// RUN: not tle-opt %s -split-input-file -tle-select-raw-variants="languages=hip" 2>&1 | FileCheck %s --check-prefix=HIP

// A target with a variant keeps the native call and drops the fallback (so
// layouts are never assigned to code that will not run); a target without
// one gets the fallback's body in place of the call.
// CHECK-LABEL: tle.func @with_fallback
// CHECK: %[[R:.*]] = tle_raw.call "gelu" [#tle_raw.variant<"cuda", "{{.*}}" entry "gelu">](%arg0) : (tensor<128xf32>) -> tensor<128xf32>
// CHECK-NOT: fallback
// CHECK-NOT: tle_raw.yield
// CHECK: tle.return %[[R]]
// FALLBACK-LABEL: tle.func @with_fallback
// FALLBACK-NOT: tle_raw.call
// FALLBACK: %[[M:.*]] = arith.mulf %arg0, %arg0 : tensor<128xf32>
// FALLBACK-NEXT: tle.return %[[M]]
tle.func @with_fallback(%x: tensor<128xf32>) -> tensor<128xf32> {
  %r = tle_raw.call "gelu" [#tle_raw.variant<"cuda", "__device__ float gelu(float x) { return x * x; }" entry "gelu">](%x) fallback {
    %m = arith.mulf %x, %x : tensor<128xf32>
    tle_raw.yield %m : tensor<128xf32>
  } : (tensor<128xf32>) -> tensor<128xf32>
  tle.return %r : tensor<128xf32>
}

// -----

// Without a fallback, a target with no variant is an error at the call,
// naming the kernel and what the call offers (tlec reports it earlier,
// naming the chip, from tle-check-hwdesc).
// CHECK-LABEL: tle.func @no_fallback
// CHECK: tle_raw.call "add"
// FALLBACK-LABEL: tle.func @no_fallback
tle.func @no_fallback(%a: i32) -> i32 {
  // HIP: select-raw-variants.mlir:[[# @LINE + 1]]:8: error: kernel 'no_fallback': no variant of 'add' is in a language this target accepts (hip); the call has ptx, opencl and no portable fallback (a @triton.jit function in the list)
  %r = tle_raw.call "add" [#tle_raw.variant<"ptx", "add.s32 $0, $1, 1;" constraints "=r,r">, #tle_raw.variant<"opencl", "int add(int a) { return a + 1; }" entry "add">](%a) : (i32) -> i32
  tle.return %r : i32
}
