# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}while_missing_colon.py:11:17: error: expected ':' after 'while' condition
# CHECK-NEXT:    while x < 10
# CHECK-NEXT:                ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    while x < 10
        x += 1
