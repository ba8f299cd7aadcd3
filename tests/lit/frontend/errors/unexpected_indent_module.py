# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace --match-full-lines --implicit-check-not=error:
# CHECK:{{.*}}unexpected_indent_module.py:6:3: error: unexpected indent
# CHECK-NEXT:  X = 1
# CHECK-NEXT:  ^
import triton
  X = 1
