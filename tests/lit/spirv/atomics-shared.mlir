// Atomics as SpirvTargetInfo emits them (OpenCL sync scopes: device for
// global memory, workgroup for local memory), a float add through
// SPV_EXT_shader_atomic_float_add, and the dynamic block-level array of
// tle.shared_memory made a fixed 256-byte Workgroup array (OpenCL sizes
// local memory only through kernel arguments; the optimizer shrinks it to
// the one word used).
// REQUIRES: spirv-val
// RUN: rm -rf %t && mkdir -p %t
// RUN: tle-plugin-compile %s --target cpu-spirv --emit=binary -o %t/k.spv
// RUN: spirv-val --target-env spv1.2 %t/k.spv
// RUN: spirv-dis %t/k.spv | FileCheck %s
// RUN: tle-plugin-compile %s --target cpu-spirv --emit=info | FileCheck %s --check-prefix=INFO

// CHECK-DAG: OpExtension "SPV_EXT_shader_atomic_float_add"
// CHECK-DAG: OpEntryPoint Kernel %atomics "atomics"
// CHECK-DAG: OpExecutionMode %atomics LocalSize 8 1 1
// CHECK-DAG: %tle_shared = OpVariable {{.*}} Workgroup
// CHECK: OpAtomicFAddEXT %float
// CHECK: OpAtomicIAdd %uint
// CHECK: OpAtomicCompareExchange %uint
// INFO: entry: atomics
// INFO: format: spv
// INFO: threads-per-block: 8
// INFO: shared-memory: 0
// INFO-NOT: registers

module attributes {tle.num_warps = 1 : i32} {
  llvm.mlir.global external @tle_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

  llvm.func @atomics(%sum: !llvm.ptr<1>, %flag: !llvm.ptr<1>, %v: f32) attributes {tle.kernel, tle.shared_memory = 256 : i64} {
    %old = llvm.atomicrmw fadd %sum, %v syncscope("device") acq_rel : !llvm.ptr<1>, f32
    %smem = llvm.mlir.addressof @tle_shared : !llvm.ptr<3>
    %one = llvm.mlir.constant(1 : i32) : i32
    %count = llvm.atomicrmw add %smem, %one syncscope("workgroup") acq_rel : !llvm.ptr<3>, i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %pair = llvm.cmpxchg %flag, %zero, %count syncscope("device") acq_rel monotonic : !llvm.ptr<1>, i32
    %prev = llvm.extractvalue %pair[0] : !llvm.struct<(i32, i1)>
    llvm.store %prev, %flag : i32, !llvm.ptr<1>
    llvm.return
  }
}
