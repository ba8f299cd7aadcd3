# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}invalid_character.py:11:11: error: invalid character '$' (U+0024)
# CHECK-NEXT:    a = x $ y
# CHECK-NEXT:          ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = x $ y
