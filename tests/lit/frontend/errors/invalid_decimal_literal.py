# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}invalid_decimal_literal.py:11:9: error: invalid decimal literal
# CHECK-NEXT:    a = 1_000_
# CHECK-NEXT:        ^~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = 1_000_
