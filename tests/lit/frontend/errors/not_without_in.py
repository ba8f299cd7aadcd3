# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}not_without_in.py:11:11: error: expected 'in' after 'not' in a comparison
# CHECK-NEXT:    a = x not y
# CHECK-NEXT:          ^~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = x not y
