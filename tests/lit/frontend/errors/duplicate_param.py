# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}duplicate_param.py:9:18: error: duplicate argument 'x' in function definition
# CHECK-NEXT:def kernel(x, y, x):
# CHECK-NEXT:                 ^
import triton


@triton.jit
def kernel(x, y, x):
    pass
