# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}two_expressions.py:11:11: error: expected newline after statement
# CHECK-NEXT:    a = x y
# CHECK-NEXT:          ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = x y
