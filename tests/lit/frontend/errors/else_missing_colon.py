# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}else_missing_colon.py:13:9: error: expected ':' after 'else'
# CHECK-NEXT:    else
# CHECK-NEXT:        ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    if x:
        pass
    else
        pass
