# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}mixed_bytes_and_str.py:11:9: error: cannot mix bytes and nonbytes literals
# CHECK-NEXT:    a = 'a' b'b'
# CHECK-NEXT:        ^~~~~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    a = 'a' b'b'
