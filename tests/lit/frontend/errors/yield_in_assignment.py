# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}yield_in_assignment.py:11:9: error: unsupported syntax in a jit function: 'yield' expression
# CHECK-NEXT:    a = yield x
# CHECK-NEXT:        ^~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = yield x
