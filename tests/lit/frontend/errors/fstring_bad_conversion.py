# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}fstring_bad_conversion.py:9:26: error: f-string: invalid conversion character: expected 's', 'r', or 'a'
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    tl.device_print(f"a{y!z}b", x)
