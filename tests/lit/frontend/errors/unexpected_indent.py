# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}unexpected_indent.py:12:9: error: unexpected indent
# CHECK-NEXT:        b = y
# CHECK-NEXT:        ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = x
        b = y
