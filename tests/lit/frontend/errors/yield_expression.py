# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}yield_expression.py:11:5: error: unsupported syntax in a jit function: 'yield' expression
# CHECK-NEXT:    yield x
# CHECK-NEXT:    ^~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    yield x
