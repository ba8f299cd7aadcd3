# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}del_statement.py:11:5: error: unsupported syntax in a jit function: 'del' statement
# CHECK-NEXT:    del x
# CHECK-NEXT:    ^~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    del x
