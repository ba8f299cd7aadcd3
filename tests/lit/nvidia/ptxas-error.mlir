// ptxas's own message comes back as the error, with the PTX named after the
// kernel instead of a temporary file.
// REQUIRES: ptxas
// RUN: not tle-plugin-compile %s --target h200 2>&1 | FileCheck %s

// CHECK: tle-plugin-compile: error: target h200: nvidia plugin: ptxas -arch=sm_90a failed:
// CHECK-NEXT: ptxas {{.*}}bad_asm.ptx, line {{[0-9]+}}; error {{.*}}
// CHECK-NOT: tle-nvidia-{{.*}}.ptx

module {
  llvm.func @bad_asm(%x: !llvm.ptr<1>) attributes {tle.kernel} {
    %v = llvm.inline_asm has_side_effects "not.an.instruction $0;", "=r" : () -> i32
    llvm.store %v, %x : i32, !llvm.ptr<1>
    llvm.return
  }
}
