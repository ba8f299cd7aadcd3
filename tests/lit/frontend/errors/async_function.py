# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}async_function.py:9:1: error: unsupported syntax in a jit function: 'async' function
# CHECK-NEXT:async def kernel(x):
# CHECK-NEXT:^~~~~
import triton


@triton.jit
async def kernel(x):
    pass
