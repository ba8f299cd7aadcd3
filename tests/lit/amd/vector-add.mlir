// Vector add in distributed IR, as the core's distribution writes it for
// `*fp32:16` pointers: each of the 256 work-items (4 wavefronts of 64) loads
// and stores 4 contiguous floats with 128-bit accesses, which the AMDGPU
// backend selects as global_load_dwordx4 / global_store_dwordx4.
// REQUIRES: ld.lld
// RUN: tle-plugin-compile %s --target mi300x --emit=asm | FileCheck %s --check-prefix=GFX942
// RUN: tle-plugin-compile %s --target mi250x --emit=asm | FileCheck %s --check-prefix=GFX90A
// RUN: tle-plugin-compile %s --target mi300x --emit=info | FileCheck %s --check-prefix=INFO

// GFX942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// GFX942: add_kernel:
// GFX942: global_load_dwordx4
// GFX942: global_load_dwordx4
// GFX942: v_pk_add_f32
// GFX942: global_store_dwordx4
// GFX942: .amdhsa_kernel add_kernel
// GFX942: .amdhsa_private_segment_fixed_size 0
// GFX942: .amdhsa_user_sgpr_kernarg_segment_ptr 1
// GFX942: .amdhsa_uses_dynamic_stack 0
// GFX942: .amdhsa_next_free_vgpr
// GFX942: amdhsa.kernels:
// GFX942: .max_flat_workgroup_size: 256
// GFX942: .name: add_kernel
// GFX942: .uniform_work_group_size: 1
// GFX942: .wavefront_size: 64
// GFX942: amdhsa.target: amdgcn-amd-amdhsa--gfx942

// GFX90A: .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
// GFX90A: global_load_dwordx4
// GFX90A: global_store_dwordx4
// GFX90A: .wavefront_size: 64

// INFO: entry: add_kernel
// INFO-NEXT: format: hsaco
// INFO-NEXT: bytes: {{[1-9][0-9]*}}
// INFO-NEXT: threads-per-block: 256
// INFO-NEXT: shared-memory: 0
// INFO-NEXT: registers: {{[1-9][0-9]*}}
// INFO-NEXT: spill-stores: 0
// INFO-NEXT: spill-loads: 0
// INFO-NEXT: stack-frame: 0
// INFO-NEXT: static-shared-memory: 0

module attributes {tle.num_warps = 4 : i32} {
  llvm.func @add_kernel(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %out: !llvm.ptr<1>,
                        %n: i32) attributes {tle.kernel} {
    %pid = rocdl.workgroup.id.x : i32
    %tid = rocdl.workitem.id.x : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %base = llvm.mul %pid, %c1024 : i32
    %lane = llvm.mul %tid, %c4 : i32
    %off = llvm.add %base, %lane : i32
    %inside = llvm.icmp "slt" %off, %n : i32
    llvm.cond_br %inside, ^body, ^exit
  ^body:
    %px = llvm.getelementptr %x[%off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %py = llvm.getelementptr %y[%off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %po = llvm.getelementptr %out[%off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %vx = llvm.load %px {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
    %vy = llvm.load %py {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
    %sum = llvm.fadd %vx, %vy : vector<4xf32>
    llvm.store %sum, %po {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}
