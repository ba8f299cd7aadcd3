# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}invalid_hex_literal.py:11:9: error: invalid hexadecimal literal
# CHECK-NEXT:    a = 0x1G
# CHECK-NEXT:        ^~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = 0x1G
