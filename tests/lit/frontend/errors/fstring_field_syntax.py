# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}fstring_field_syntax.py:11:30: error: expected expression
# CHECK-NEXT:    tl.device_print(f"ab{y + }", x)
# CHECK-NEXT:                             ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    tl.device_print(f"ab{y + }", x)
