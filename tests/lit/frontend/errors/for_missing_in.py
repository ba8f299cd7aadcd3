# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}for_missing_in.py:11:11: error: expected 'in' after 'for' target
# CHECK-NEXT:    for i range(10):
# CHECK-NEXT:          ^~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    for i range(10):
        pass
