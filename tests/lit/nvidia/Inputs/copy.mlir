// A kernel without tle.num_warps: the compile option decides.
module {
  llvm.func @copy(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>) attributes {tle.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %px = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %py = llvm.getelementptr %y[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %px {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    llvm.store %v, %py {alignment = 4 : i64} : f32, !llvm.ptr<1>
    llvm.return
  }
}
