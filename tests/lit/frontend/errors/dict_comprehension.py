# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}dict_comprehension.py:11:9: error: unsupported syntax in a jit function: dict comprehension
# CHECK-NEXT:    a = {i: i for i in range(4)}
# CHECK-NEXT:        ^~~~~~~~~~~~~~~~~~~~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = {i: i for i in range(4)}
