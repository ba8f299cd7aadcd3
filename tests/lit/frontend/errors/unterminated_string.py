# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}unterminated_string.py:11:9: error: unterminated string literal
# CHECK-NEXT:    s = 'abc
# CHECK-NEXT:        ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    s = 'abc
