# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --implicit-check-not=error:
# After an error the parser resynchronizes at the next statement, so every
# problem in a file is reported once, without cascades.
# CHECK: recovery.py:15:5: error: unsupported syntax in a jit function: 'with' statement
# CHECK: recovery.py:18:13: error: expected ':' after 'if' condition
# CHECK: recovery.py:21:9: error: unsupported syntax in a jit function: 'del' statement
# CHECK: recovery.py:24:5: error: 'break' outside loop
# CHECK: recovery.py:28:17: error: expected expression
import triton
import triton.language as tl


@triton.jit
def first(x):
    with x:
        y = 1
    z = 2
    if x > 0
        z = 3
    for i in range(4):
        del z
        if i:
            continue
    break


@triton.jit
def second(x, y=):
    pass
