# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}elif_missing_colon.py:13:11: error: expected ':' after 'elif' condition
# CHECK-NEXT:    elif y
# CHECK-NEXT:          ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    if x:
        pass
    elif y
        pass
