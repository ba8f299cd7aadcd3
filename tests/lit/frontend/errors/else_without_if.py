# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}else_without_if.py:12:5: error: 'else' without a matching 'if'
# CHECK-NEXT:    else:
# CHECK-NEXT:    ^~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = x
    else:
        pass
