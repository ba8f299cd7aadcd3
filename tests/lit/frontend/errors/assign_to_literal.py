# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}assign_to_literal.py:11:5: error: cannot assign to literal
# CHECK-NEXT:    1 = x
# CHECK-NEXT:    ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    1 = x
