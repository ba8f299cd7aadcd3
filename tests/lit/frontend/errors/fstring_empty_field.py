# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}fstring_empty_field.py:9:25: error: f-string: valid expression required before '}'
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    tl.device_print(f"a{ }b", x)
