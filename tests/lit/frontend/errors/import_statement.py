# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}import_statement.py:11:5: error: unsupported syntax in a jit function: 'import' statement
# CHECK-NEXT:    import math
# CHECK-NEXT:    ^~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    import math
