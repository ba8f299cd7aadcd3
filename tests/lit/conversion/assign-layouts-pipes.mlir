// RUN: tle-opt %s --tle-assign-layouts | FileCheck %s

// Pipes that reach layout assignment still verify: the committed and read
// tensors get encodings, the pipe's field types (written once, at
// pipe.create) do not, and writer_commit/reader_wait compare shape and
// element type only. (tlec lowers pipes before assignment, tle-lower-pipes;
// before the verifier change this module failed writer_commit's verifier.)
// CHECK-LABEL: tle.func @pipes_keep_verifying
// CHECK: tle.pipe.writer_commit %{{.*}}, %{{.*}} : !tle.pipe<2, [tensor<256xf32>]>, tensor<256xf32, #{{.*}}>
// CHECK: tle.pipe.reader_wait %{{.*}} : !tle.pipe<2, [tensor<256xf32>]> -> tensor<256xf32, #{{.*}}>
module attributes {tle.num_warps = 4 : i32} {
tle.func @pipes_keep_verifying(%x: !tle.ptr<f32>, %out: !tle.ptr<f32>) {
  %p = tle.pipe.create "chunks" : !tle.pipe<2, [tensor<256xf32>]>
  %r = tle.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %s = tle.splat %x : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
  %ptrs = tle.addptr %s, %r : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
  %v = tle.load %ptrs : tensor<256x!tle.ptr<f32>>
  tle.pipe.writer_acquire %p : !tle.pipe<2, [tensor<256xf32>]>
  tle.pipe.writer_commit %p, %v : !tle.pipe<2, [tensor<256xf32>]>, tensor<256xf32>
  %valid, %y = tle.pipe.reader_wait %p : !tle.pipe<2, [tensor<256xf32>]> -> tensor<256xf32>
  %so = tle.splat %out : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
  %po = tle.addptr %so, %r : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
  tle.store %po, %y : tensor<256x!tle.ptr<f32>>
  tle.pipe.reader_release %p : !tle.pipe<2, [tensor<256xf32>]>
  tle.return
}
}
