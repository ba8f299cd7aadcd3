// A call into ROCm's device libraries, as MLIR's own math-to-ROCDL lowering
// would leave it.
module attributes {tle.num_warps = 1 : i32} {
  llvm.func @__ocml_erf_f32(f32) -> f32
  llvm.func @erf_kernel(%out: !llvm.ptr<1>, %v: f32) attributes {tle.kernel} {
    %e = llvm.call @__ocml_erf_f32(%v) : (f32) -> f32
    llvm.store %e, %out {alignment = 4 : i64} : f32, !llvm.ptr<1>
    llvm.return
  }
}
