# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}generator_expression.py:11:13: error: unsupported syntax in a jit function: generator expression
# CHECK-NEXT:    a = sum(i for i in range(4))
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = sum(i for i in range(4))
