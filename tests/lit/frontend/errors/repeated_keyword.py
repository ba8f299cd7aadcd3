# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}repeated_keyword.py:11:24: error: keyword argument repeated: mask
# CHECK-NEXT:    tl.load(x, mask=y, mask=y)
# CHECK-NEXT:                       ^~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    tl.load(x, mask=y, mask=y)
