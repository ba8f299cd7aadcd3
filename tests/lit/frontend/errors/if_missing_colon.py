# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}if_missing_colon.py:11:9: error: expected ':' after 'if' condition
# CHECK-NEXT:    if x
# CHECK-NEXT:        ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    if x
        pass
