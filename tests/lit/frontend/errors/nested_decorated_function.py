# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}nested_decorated_function.py:11:5: error: unsupported syntax in a jit function: nested function definition
# CHECK-NEXT:    @triton.jit
# CHECK-NEXT:    ^
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    @triton.jit
    def helper(a):
        return a
