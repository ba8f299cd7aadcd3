# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}fstring_comment.py:9:25: error: f-string: a comment in a replacement field must end at a line break
import triton
import triton.language as tl


@triton.jit
def kernel(x, y):
    tl.static_print(f"{x#}")
