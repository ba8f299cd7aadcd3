# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}def_missing_colon.py:9:17: error: expected ':' after function signature
# CHECK-NEXT:def kernel(x, y)
# CHECK-NEXT:                ^
import triton


@triton.jit
def kernel(x, y)
    pass
