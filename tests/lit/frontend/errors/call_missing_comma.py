# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}call_missing_comma.py:11:19: error: expected ',' or ')' after call argument
# CHECK-NEXT:    a = tl.load(x y)
# CHECK-NEXT:                  ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = tl.load(x y)
