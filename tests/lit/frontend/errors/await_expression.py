# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}await_expression.py:11:9: error: unsupported syntax in a jit function: 'await' expression
# CHECK-NEXT:    a = await x
# CHECK-NEXT:        ^~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = await x
