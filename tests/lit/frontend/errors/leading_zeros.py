# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}leading_zeros.py:11:13: error: leading zeros in decimal integer literals are not permitted
# CHECK-NEXT:    a = x + 012
# CHECK-NEXT:            ^~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = x + 012
