# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}set_display.py:11:9: error: unsupported syntax in a jit function: set display
# CHECK-NEXT:    a = {x, y}
# CHECK-NEXT:        ^~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = {x, y}
