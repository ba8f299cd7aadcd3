// A kernel that reads its implicit arguments (hidden_block_count_x, the
// first of them under code object v5) gets the hidden argument slots that
// HIP fills after the explicit ones. tle-plugin-compile --emit=info lists
// the properties and argument slots the plugin read from the code object's
// metadata note; each is compared with what llvm-readobj-22 --notes reads
// from the same binary (note first, then the info, in one FileCheck run).
// REQUIRES: ld.lld, llvm-elf-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: tle-plugin-compile %s --target mi300x -o %t/k.hsaco
// RUN: tle-plugin-compile %s --target mi300x --emit=info > %t/info.txt
// RUN: llvm-readobj-22 --notes %t/k.hsaco > %t/notes.txt
// RUN: cat %t/notes.txt %t/info.txt | FileCheck %s

// CHECK:      .agpr_count: [[#AGPR:]]
// CHECK-NEXT: .args:
// CHECK-NEXT: - .address_space: global
// CHECK-NEXT:   .offset: 0
// CHECK-NEXT:   .size: 8
// CHECK-NEXT:   .value_kind: global_buffer
// CHECK-NEXT: - .offset: 8
// CHECK-NEXT:   .size: 4
// CHECK-NEXT:   .value_kind: by_value
// CHECK-NEXT: - .offset: [[#H0:]]
// CHECK-NEXT:   .size: 4
// CHECK-NEXT:   .value_kind: hidden_block_count_x
// CHECK-NEXT: - .offset: [[#H1:]]
// CHECK-NEXT:   .size: 4
// CHECK-NEXT:   .value_kind: hidden_block_count_y
// CHECK-NEXT: - .offset: [[#H2:]]
// CHECK-NEXT:   .size: 4
// CHECK-NEXT:   .value_kind: hidden_block_count_z
// CHECK-NEXT: - .offset: [[#H3:]]
// CHECK-NEXT:   .size: 2
// CHECK-NEXT:   .value_kind: hidden_group_size_x
// CHECK-NEXT: - .offset: [[#H4:]]
// CHECK-NEXT:   .size: 2
// CHECK-NEXT:   .value_kind: hidden_group_size_y
// CHECK-NEXT: - .offset: [[#H5:]]
// CHECK-NEXT:   .size: 2
// CHECK-NEXT:   .value_kind: hidden_group_size_z
// CHECK-NEXT: - .offset: [[#H6:]]
// CHECK-NEXT:   .size: 2
// CHECK-NEXT:   .value_kind: hidden_remainder_x
// CHECK-NEXT: - .offset: [[#H7:]]
// CHECK-NEXT:   .size: 2
// CHECK-NEXT:   .value_kind: hidden_remainder_y
// CHECK-NEXT: - .offset: [[#H8:]]
// CHECK-NEXT:   .size: 2
// CHECK-NEXT:   .value_kind: hidden_remainder_z
// CHECK-NEXT: - .offset: [[#H9:]]
// CHECK-NEXT:   .size: 8
// CHECK-NEXT:   .value_kind: hidden_global_offset_x
// CHECK-NEXT: - .offset: [[#H10:]]
// CHECK-NEXT:   .size: 8
// CHECK-NEXT:   .value_kind: hidden_global_offset_y
// CHECK-NEXT: - .offset: [[#H11:]]
// CHECK-NEXT:   .size: 8
// CHECK-NEXT:   .value_kind: hidden_global_offset_z
// CHECK-NEXT: - .offset: [[#H12:]]
// CHECK-NEXT:   .size: 2
// CHECK-NEXT:   .value_kind: hidden_grid_dims
// CHECK:      .kernarg_segment_size: [[#KSIZE:]]
// CHECK:      .sgpr_count: [[#SGPR:]]
// CHECK:      .vgpr_count: [[#VGPR:]]

// The info, from the plugin.
// CHECK:      entry: hidden_kernel
// CHECK:      threads-per-block: 64
// CHECK:      registers: [[#VGPR]]
// CHECK:      property target: amdgcn-amd-amdhsa--gfx942
// CHECK-NEXT: property wavefront_size: 64 lanes
// CHECK-NEXT: property sgpr_count: [[#SGPR]] registers
// CHECK-NEXT: property vgpr_count: [[#VGPR]] registers
// CHECK-NEXT: property agpr_count: [[#AGPR]] registers
// CHECK-NEXT: property sgpr_spill_count: 0 registers
// CHECK-NEXT: property vgpr_spill_count: 0 registers
// CHECK-NEXT: property group_segment_fixed_size: 0 bytes
// CHECK-NEXT: property private_segment_fixed_size: 0 bytes
// CHECK-NEXT: property kernarg_segment_size: [[#KSIZE]] bytes
// CHECK-NEXT: property kernarg_segment_align: 8 bytes
// CHECK-NEXT: property max_flat_workgroup_size: 64 work-items
// CHECK-NEXT: property uses_dynamic_stack: false
// CHECK-NEXT: argument: offset 0 size 8 global_buffer
// CHECK-NEXT: argument: offset 8 size 4 by_value
// CHECK-NEXT: argument: offset [[#H0]] size 4 hidden_block_count_x
// CHECK-NEXT: argument: offset [[#H1]] size 4 hidden_block_count_y
// CHECK-NEXT: argument: offset [[#H2]] size 4 hidden_block_count_z
// CHECK-NEXT: argument: offset [[#H3]] size 2 hidden_group_size_x
// CHECK-NEXT: argument: offset [[#H4]] size 2 hidden_group_size_y
// CHECK-NEXT: argument: offset [[#H5]] size 2 hidden_group_size_z
// CHECK-NEXT: argument: offset [[#H6]] size 2 hidden_remainder_x
// CHECK-NEXT: argument: offset [[#H7]] size 2 hidden_remainder_y
// CHECK-NEXT: argument: offset [[#H8]] size 2 hidden_remainder_z
// CHECK-NEXT: argument: offset [[#H9]] size 8 hidden_global_offset_x
// CHECK-NEXT: argument: offset [[#H10]] size 8 hidden_global_offset_y
// CHECK-NEXT: argument: offset [[#H11]] size 8 hidden_global_offset_z
// CHECK-NEXT: argument: offset [[#H12]] size 2 hidden_grid_dims
// CHECK-NOT:  argument:

module attributes {tle.num_warps = 1 : i32} {
  llvm.func @hidden_kernel(%out: !llvm.ptr<1>, %n: i32) attributes {tle.kernel} {
    %implicit = llvm.call_intrinsic "llvm.amdgcn.implicitarg.ptr"() : () -> !llvm.ptr<4>
    %blocks = llvm.load %implicit : !llvm.ptr<4> -> i32
    %sum = llvm.add %blocks, %n : i32
    llvm.store %sum, %out : i32, !llvm.ptr<1>
    llvm.return
  }
}
