# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}unterminated_triple_quoted.py:15:5: error: unterminated triple-quoted string
# CHECK-NEXT:    '''docs
# CHECK-NEXT:    ^~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    return x


def host():
    '''docs
    never closed
