# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}unindent_mismatch.py:13:7: error: unindent does not match any outer indentation level
# CHECK-NEXT:      b = 2
# CHECK-NEXT:      ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    if x:
        a = 1
      b = 2
