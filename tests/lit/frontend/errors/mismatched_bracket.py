# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}mismatched_bracket.py:11:23: error: closing parenthesis ']' does not match opening parenthesis '('
# CHECK-NEXT:    a = tl.zeros((4, 4], dtype=tl.float32)
# CHECK-NEXT:                      ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = tl.zeros((4, 4], dtype=tl.float32)
