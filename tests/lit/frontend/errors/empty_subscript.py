# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}empty_subscript.py:11:11: error: expected index or slice in subscript
# CHECK-NEXT:    a = x[]
# CHECK-NEXT:          ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = x[]
