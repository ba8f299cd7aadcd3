# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}annotated_tuple.py:11:5: error: only a single target (not a tuple or list) is allowed here
# CHECK-NEXT:    a, b: tl.constexpr = 1, 2
# CHECK-NEXT:    ^~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a, b: tl.constexpr = 1, 2
