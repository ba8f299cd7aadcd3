# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}class_definition.py:11:5: error: unsupported syntax in a jit function: 'class' definition
# CHECK-NEXT:    class A:
# CHECK-NEXT:    ^~~~~
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    class A:
        pass
