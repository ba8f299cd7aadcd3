// Vector add in distributed IR, as the core's distribution writes it for
// `*fp32:16` pointers: each of the 128 threads loads and stores 4 contiguous
// floats with 128-bit accesses. Since LLVM 21 the NVPTX backend spells
// loads and stores by size only (.b32), as Triton's own PTX does; the f32
// arithmetic keeps its type.
// RUN: tle-plugin-compile %s --target h200 --emit=asm | FileCheck %s --check-prefix=SM90
// RUN: tle-plugin-compile %s --target a100 --emit=asm | FileCheck %s --check-prefix=SM80

// SM90: .version 8.3
// SM90: .target sm_90a
// SM90: .address_size 64
// SM90: .visible .entry add_kernel(
// SM90: .reqntid 128, 1, 1
// SM90: mov.u32 {{.*}}%ctaid.x
// SM90: mov.u32 {{.*}}%tid.x
// SM90: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// SM90: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// SM90: add.f32
// SM90: st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};

// SM80: .version 7.1
// SM80: .target sm_80
// SM80: .reqntid 128, 1, 1
// SM80: ld.global.v4.b32
// SM80: st.global.v4.b32

module attributes {tle.num_warps = 4 : i32} {
  llvm.func @add_kernel(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %out: !llvm.ptr<1>,
                        %n: i32) attributes {tle.kernel} {
    %pid = nvvm.read.ptx.sreg.ctaid.x : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c512 = llvm.mlir.constant(512 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %base = llvm.mul %pid, %c512 : i32
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
