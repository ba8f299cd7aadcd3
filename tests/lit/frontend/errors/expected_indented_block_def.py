# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}expected_indented_block_def.py:10:1: error: expected an indented block after function definition on line 9
# CHECK-NEXT:return x
# CHECK-NEXT:^~~~~~
import triton


@triton.jit
def kernel(x):
return x
