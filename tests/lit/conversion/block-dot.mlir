// RUN: tle-opt %s --tle-assign-layouts-test-mma="" --tle-pipeline-loads | FileCheck %s
// RUN: tle-opt %s --tle-assign-layouts-test-mma="" --tle-pipeline-loads --tle-distribute | FileCheck %s --check-prefix=DIST
// RUN: tle-opt %s --tle-assign-layouts-test-mma="" --tle-pipeline-loads="num-stages=1" --tle-distribute | FileCheck %s --check-prefix=PLAIN

// A bf16 K loop on the test target's warpgroup unit (operands in block-level
// memory, 4 warps = one group, m64n64k16): A and B keep the layouts they
// are loaded in (no operand conversions). Pipelining stages both into rings in the
// unit's swizzled layout -- A 64x32 (64-byte rows: 64-byte swizzle), B 32x64
// (128-byte rows: 128-byte swizzle) -- and the dot becomes a local_dot on
// this iteration's slots right after the wait. Only the previous
// iteration's group is waited for (one pending), then a block barrier (each
// warp's wait covers only its share of the instruction) before the copies
// refill that slot, and the dot runs on into the next iteration. After the
// loop everything is waited for.
// CHECK-LABEL: tle.func @dot
// CHECK-NOT: tle.convert_layout {{.*}} : tensor<{{64x32|32x64}}xbf16
// CHECK: %[[RA:.*]] = tle_struct.alloc : !tle_struct.buffer<3x64x32xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 64>>
// CHECK: %[[RB:.*]] = tle_struct.alloc : !tle_struct.buffer<3x32x64xbf16, "block", #tle_struct.layout<order = [2, 1, 0], swizzle = 128>>
// CHECK: scf.for
// CHECK: tle_struct.async_wait 1
// CHECK: %[[D:.*]] = tle_struct.local_dot %[[RA]][%[[SLOT:arg[0-9]+]]], %[[RB]][%[[SLOT]]], %{{.*}} {tle.matrix_block_operands, tle.matrix_instruction = "test.wgmma.m64n64k16"}
// CHECK-NEXT: %[[W:.*]] = tle_struct.local_dot_wait %[[D]], 1
// CHECK-NEXT: tle.debug_barrier
// CHECK: tle_struct.async_copy
// CHECK: tle_struct.async_copy
// CHECK: tle_struct.async_commit
// CHECK: scf.yield %[[W]]
// CHECK-NOT: tle.dot
// CHECK: %[[DONE:.*]] = tle_struct.local_dot_wait %{{.*}}#0, 0
// CHECK-NEXT: tle_struct.async_wait 0
// CHECK-NEXT: arith.truncf %[[DONE]]

// Distribution: per iteration one group of two instructions (K = 32 in two
// steps of 16) on descriptors of the slot: A K-major (8-row groups 512 bytes
// apart, one 4096-byte panel), B N-major (groups 1024 bytes apart, one
// 4096-byte panel); the accumulator registers (32 per thread) go through
// the wait.
// DIST-LABEL: llvm.func @dot
// DIST-NOT: tle_struct
// After the wait's barrier, the landed operands are made visible to the
// unit, then its instructions start.
// DIST: gpu.barrier
// DIST-NOT: "test.wgmma
// DIST: "test.fence.operands"
// DIST-NOT: "test.wgmma
// DIST: llvm.inline_asm has_side_effects "test.fence.accumulators"
// The second instruction reads the same addresses plus constants: 16 bf16
// further along K in A (32 bytes), 16 rows further in B (2048 bytes).
// DIST: "test.wgmma.n64 swizzle 64,128 mn 0,1 strides 512,4096,1024,4096 offsets 0,0", "{{[=f,]*}}l,l,{{[f,]*}}" %[[A:[^,]*]], %[[B:[^,]*]],
// DIST: "test.wgmma.n64 swizzle 64,128 mn 0,1 strides 512,4096,1024,4096 offsets 32,2048", "{{[=f,]*}}l,l,{{[f,]*}}" %[[A]], %[[B]],
// DIST: "test.commit"
// DIST: "test.wait 1"
// DIST-SAME: -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// DIST: "test.wait 0"

// Without pipelining the dot stores its register operands into scratch in
// the same layouts, fences them for the unit, and waits for its group
// before the scratch is reused.
// PLAIN-LABEL: llvm.func @dot
// PLAIN: llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr<3>
// PLAIN: "test.fence.operands"
// PLAIN-NEXT: gpu.barrier
// PLAIN: "test.fence.accumulators"
// PLAIN: "test.wgmma.n64 swizzle 64,128 mn 0,1 strides 512,4096,1024,4096 offsets 0,0"
// PLAIN: "test.wgmma.n64 swizzle 64,128 mn 0,1 strides 512,4096,1024,4096 offsets 32,2048"
// PLAIN: "test.commit"
// PLAIN: "test.wait 0"
// PLAIN: gpu.barrier
module attributes {tle.num_stages = 3 : i32} {
tle.func @dot(%pa: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %pb: !tle.ptr<bf16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<bf16>, %n: i32, %k: i32) {
  %ra = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %ra2 = tle.expand_dims %ra {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %ka = tle.broadcast %ra2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sa = tle.splat %pa : !tle.ptr<bf16> -> tensor<64x32x!tle.ptr<bf16>>
  %ptra = tle.addptr %sa, %ka : tensor<64x32x!tle.ptr<bf16>>, tensor<64x32xi32>
  %rb = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rb2 = tle.expand_dims %rb {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %nb = tle.broadcast %rb2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %sb = tle.splat %pb : !tle.ptr<bf16> -> tensor<32x64x!tle.ptr<bf16>>
  %ptrb = tle.addptr %sb, %nb : tensor<32x64x!tle.ptr<bf16>>, tensor<32x64xi32>
  %step_a = arith.constant dense<32> : tensor<64x32xi32>
  %step_b = arith.constant dense<2048> : tensor<32x64xi32>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %acc:3 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c, %qa = %ptra, %qb = %ptrb) -> (tensor<64x64xf32>, tensor<64x32x!tle.ptr<bf16>>, tensor<32x64x!tle.ptr<bf16>>) : i32 {
    %off = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %off : i32
    %lefts = tle.splat %left : i32 -> tensor<64x32xi32>
    %ma = arith.cmpi slt, %ka, %lefts : tensor<64x32xi32>
    %a = tle.load %qa, %ma : tensor<64x32x!tle.ptr<bf16>>
    %b = tle.load %qb : tensor<32x64x!tle.ptr<bf16>>
    %d = tle.dot %a, %b, %x : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
    %na = tle.addptr %qa, %step_a : tensor<64x32x!tle.ptr<bf16>>, tensor<64x32xi32>
    %nb2 = tle.addptr %qb, %step_b : tensor<32x64x!tle.ptr<bf16>>, tensor<32x64xi32>
    scf.yield %d, %na, %nb2 : tensor<64x64xf32>, tensor<64x32x!tle.ptr<bf16>>, tensor<32x64x!tle.ptr<bf16>>
  }
  %h = arith.truncf %acc#0 : tensor<64x64xf32> to tensor<64x64xbf16>
  %ptro = tle.splat %out : !tle.ptr<bf16> -> tensor<64x64x!tle.ptr<bf16>>
  tle.store %ptro, %h : tensor<64x64x!tle.ptr<bf16>>
  tle.return
}
}

