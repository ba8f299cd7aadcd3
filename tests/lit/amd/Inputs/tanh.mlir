// llvm.tanh has no AMDGPU instruction sequence: the backend can only turn
// it into a call of a library function, and there is no library.
module attributes {tle.num_warps = 1 : i32} {
  llvm.func @tanh_kernel(%out: !llvm.ptr<1>, %v: f32) attributes {tle.kernel} {
    %t = llvm.intr.tanh(%v) : (f32) -> f32
    llvm.store %t, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
    llvm.return
  }
}
