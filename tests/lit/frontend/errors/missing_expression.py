# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}missing_expression.py:11:9: error: expected expression
# CHECK-NEXT:    a = 
# CHECK-NEXT:        ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = 
