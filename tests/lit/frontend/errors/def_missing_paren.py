# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}def_missing_paren.py:9:11: error: expected '(' after function name
# CHECK-NEXT:def kernel:
# CHECK-NEXT:          ^
import triton


@triton.jit
def kernel:
    pass
