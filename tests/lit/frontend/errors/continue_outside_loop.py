# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}continue_outside_loop.py:11:5: error: 'continue' outside loop
# CHECK-NEXT:    continue
# CHECK-NEXT:    ^~~~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    continue
