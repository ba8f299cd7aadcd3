# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}expected_indented_block.py:12:5: error: expected an indented block after 'for' statement on line 11
# CHECK-NEXT:    pass
# CHECK-NEXT:    ^~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    for i in range(4):
    pass
