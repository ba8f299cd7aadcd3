# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}missing_attribute_name.py:11:12: error: expected attribute name after '.'
# CHECK-NEXT:    a = tl.
# CHECK-NEXT:           ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = tl.
