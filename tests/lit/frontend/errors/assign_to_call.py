# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}assign_to_call.py:11:5: error: cannot assign to function call
# CHECK-NEXT:    tl.load(x) = y
# CHECK-NEXT:    ^~~~~~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    tl.load(x) = y
