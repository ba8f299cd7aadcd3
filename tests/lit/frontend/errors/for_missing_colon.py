# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}for_missing_colon.py:11:23: error: expected ':' after 'for' iterable
# CHECK-NEXT:    for i in range(10)
# CHECK-NEXT:                      ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    for i in range(10)
        pass
