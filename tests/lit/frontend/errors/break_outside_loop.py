# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}break_outside_loop.py:12:9: error: 'break' outside loop
# CHECK-NEXT:        break
# CHECK-NEXT:        ^~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    if x:
        break
