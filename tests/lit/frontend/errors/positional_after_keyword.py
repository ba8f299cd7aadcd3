# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}positional_after_keyword.py:11:25: error: positional argument follows keyword argument
# CHECK-NEXT:    tl.store(x, mask=y, 0)
# CHECK-NEXT:                        ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    tl.store(x, mask=y, 0)
