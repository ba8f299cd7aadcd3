# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}fstring_nested_too_deeply.py:9:29: error: f-string: expressions nested too deeply
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    tl.static_print(f"{x:{y:{x}}}")
