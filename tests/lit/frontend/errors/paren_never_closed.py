# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}paren_never_closed.py:11:16: error: '(' was never closed
# CHECK-NEXT:    a = tl.load(x + y,
# CHECK-NEXT:               ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = tl.load(x + y,
                mask=None
