# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}param_without_default.py:9:26: error: parameter without a default follows parameter with a default
# CHECK-NEXT:def kernel(x, BLOCK=128, y):
# CHECK-NEXT:                         ^
import triton


@triton.jit
def kernel(x, BLOCK=128, y):
    pass
