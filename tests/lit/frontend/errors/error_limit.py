# RUN: not tlec %s --emit=ast 2>&1 | FileCheck %s
# Garbage input stops after 20 errors with a note instead of flooding.
# CHECK-COUNT-20: error: invalid character '$' (U+0024)
# CHECK-NEXT: ${{.*}}
# CHECK-NEXT: ^
# CHECK-NEXT: {{.*}}error_limit.py:{{[0-9]+}}:1: note: too many errors emitted, stopping now
# CHECK-NOT: error:
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
$
