// A kernel without tle.num_warps: the launch size comes from --num-warps.
module {
  llvm.func @copy(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {tle.kernel} {
    %tid = rocdl.workitem.id.x : i32
    %pi = llvm.getelementptr %in[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %po = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %pi {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    llvm.store %v, %po {alignment = 4 : i64} : f32, !llvm.ptr<1>
    llvm.return
  }
}
