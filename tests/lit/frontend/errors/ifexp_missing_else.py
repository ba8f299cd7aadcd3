# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}ifexp_missing_else.py:11:15: error: expected 'else' after 'if' expression condition
# CHECK-NEXT:    a = x if y
# CHECK-NEXT:              ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = x if y
