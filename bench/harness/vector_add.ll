; HARNESS CHECK ONLY -- not output of the TLE compiler.
; A hand-written vector add that proves the loader and timing path of
; bench/run_h200.sh (and of the NVIDIA runtime) independently of our code
; generator: out[i] = x[i] + y[i], each of 256 threads per block adding 4
; contiguous floats with 128-bit accesses (a scalar loop for the last, partial
; group), so one block covers 1024 elements as Triton's BLOCK_SIZE=1024 does.
; Built by bench/prepare_h200.sh (here) with llc-22 -mcpu=sm_90 and ptxas.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @harness_add(ptr addrspace(1) noalias %x, ptr addrspace(1) noalias %y,
                                    ptr addrspace(1) noalias %out, i32 %n) {
entry:
  %pid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = shl i32 %pid, 10
  %lane = shl i32 %tid, 2
  %off = add i32 %base, %lane
  %end = add i32 %off, 4
  %full = icmp sle i32 %end, %n
  br i1 %full, label %vector, label %tail

vector:
  %idx = sext i32 %off to i64
  %px = getelementptr float, ptr addrspace(1) %x, i64 %idx
  %py = getelementptr float, ptr addrspace(1) %y, i64 %idx
  %po = getelementptr float, ptr addrspace(1) %out, i64 %idx
  %vx = load <4 x float>, ptr addrspace(1) %px, align 16
  %vy = load <4 x float>, ptr addrspace(1) %py, align 16
  %vs = fadd <4 x float> %vx, %vy
  store <4 x float> %vs, ptr addrspace(1) %po, align 16
  ret void

tail:
  %i = phi i32 [ %off, %entry ], [ %next, %body ]
  %more = icmp slt i32 %i, %n
  %inchunk = icmp slt i32 %i, %end
  %go = and i1 %more, %inchunk
  br i1 %go, label %body, label %done

body:
  %j = sext i32 %i to i64
  %qx = getelementptr float, ptr addrspace(1) %x, i64 %j
  %qy = getelementptr float, ptr addrspace(1) %y, i64 %j
  %qo = getelementptr float, ptr addrspace(1) %out, i64 %j
  %sx = load float, ptr addrspace(1) %qx, align 4
  %sy = load float, ptr addrspace(1) %qy, align 4
  %ss = fadd float %sx, %sy
  store float %ss, ptr addrspace(1) %qo, align 4
  %next = add i32 %i, 1
  br label %tail

done:
  ret void
}
