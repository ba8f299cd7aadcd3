// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-pipeline-loads="own-slot-waits=1" | FileCheck %s
// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-pipeline-loads="own-slot-waits=0" | FileCheck %s --check-prefix=BARRIER
// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-pipeline-loads="num-stages=2" | FileCheck %s --check-prefix=TWO
// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-pipeline-loads="shared-memory-limit=4096" | FileCheck %s --check-prefix=SMALL
// RUN: tle-opt %s -split-input-file --tle-assign-layouts-test-mma="" --tle-pipeline-loads --tle-distribute | FileCheck %s --check-prefix=DIST

// A K loop of dot operands (loaded with a K mask, pointers advanced per
// iteration), num_stages 3 from the module: both operands get a ring of 2
// slots (the operands are read into registers, done at the barrier after
// the reads, so the copies refill the slot just read, as Triton's two
// buffers for three stages), 16-byte rows padded by 8 fp16. Two
// iterations' copies go before the loop (masked off if the loop is
// shorter); in the loop the wait for all but one group comes first, then
// the reads of this iteration's slot, the barrier, then the copies of
// iteration i+2 (their mask also says i+2 < n), one commit, the dot. After
// the loop, the copies past the end are waited for.
// CHECK-LABEL: tle.func @dot
// CHECK: %[[RA:.*]] = tle_struct.alloc : !tle_struct.buffer<2x64x32xf16, "block", #tle_struct.layout<order = [2, 1, 0], pad_interval = 32, pad_amount = 8>>
// CHECK: %[[RB:.*]] = tle_struct.alloc : !tle_struct.buffer<2x32x64xf16, "block", #tle_struct.layout<order = [2, 1, 0], pad_interval = 64, pad_amount = 8>>
// CHECK: tle_struct.async_copy {{.*}}, %[[RA]][{{.*}}] mask
// CHECK: tle_struct.async_copy {{.*}}, %[[RB]][{{.*}}] mask
// CHECK: tle_struct.async_commit
// CHECK: tle_struct.async_copy {{.*}}, %[[RA]][{{.*}}] mask
// CHECK: tle_struct.async_copy {{.*}}, %[[RB]][{{.*}}] mask
// CHECK: tle_struct.async_commit
// The slots are iteration arguments: the copies write slot W, the reads
// take slot R, which was W two iterations before (W -> M -> R; with two
// slots R and W are the same slot).
// CHECK: scf.for {{.*}} iter_args({{.*}}%[[WSLOT:arg[0-9]+]] = %{{[^,]+}}, %[[SLOT:arg[0-9]+]] = %{{[^,]+}}, %[[MID:arg[0-9]+]] = %{{[^)]+}})
// CHECK: tle_struct.async_wait 1{{$}}
// CHECK: %[[A:.*]] = tle_struct.local_load %[[RA]][%[[SLOT]]]
// CHECK: %[[B:.*]] = tle_struct.local_load %[[RB]][%[[SLOT]]]
// CHECK-NEXT: tle.debug_barrier
// CHECK: arith.cmpi slt
// CHECK: tle_struct.async_copy {{.*}}, %[[RA]][%[[WSLOT]]]
// CHECK: tle_struct.async_copy {{.*}}, %[[RB]][%[[WSLOT]]]
// CHECK: tle_struct.async_commit
// The slots wrap by an increment and a select, not a remainder.
// CHECK: %[[INC:.*]] = arith.addi %[[WSLOT]], %{{.*}} : i32
// CHECK: %[[WRAP:.*]] = arith.cmpi eq, %[[INC]], %c2
// CHECK: %[[NEXT:.*]] = arith.select %[[WRAP]], %c0{{.*}}, %[[INC]] : i32
// CHECK: tle.dot %[[A]], %[[B]]
// CHECK-NOT: tle.load
// CHECK: scf.yield {{.*}}, %[[NEXT]], %[[MID]], %[[WSLOT]] :
// CHECK: tle_struct.async_wait 0
// TWO: !tle_struct.buffer<1x64x32xf16
// TWO: scf.for
// TWO: tle_struct.async_wait 0
// 4096 bytes hold neither 2 slots nor 1 of both operands: left alone.
// SMALL-NOT: tle_struct
// SMALL: tle.load
// Distribution: the test target has no asynchronous copies, so the copies
// are loads and stores, and each wait is a block barrier.
// DIST-LABEL: llvm.func @dot
// DIST-NOT: tle_struct
// DIST: gpu.barrier
// DIST: llvm.inline_asm "test.ldmatrix.x4
module attributes {tle.num_stages = 3 : i32} {
tle.func @dot(%pa: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %pb: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f16>, %n: i32, %k: i32) {
  %ra = tle.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %ra2 = tle.expand_dims %ra {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %ka = tle.broadcast %ra2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sa = tle.splat %pa : !tle.ptr<f16> -> tensor<64x32x!tle.ptr<f16>>
  %ptra = tle.addptr %sa, %ka : tensor<64x32x!tle.ptr<f16>>, tensor<64x32xi32>
  %rb = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rb2 = tle.expand_dims %rb {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %nb = tle.broadcast %rb2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %sb = tle.splat %pb : !tle.ptr<f16> -> tensor<32x64x!tle.ptr<f16>>
  %ptrb = tle.addptr %sb, %nb : tensor<32x64x!tle.ptr<f16>>, tensor<32x64xi32>
  %step_a = arith.constant dense<32> : tensor<64x32xi32>
  %step_b = arith.constant dense<2048> : tensor<32x64xi32>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %acc:3 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c, %qa = %ptra, %qb = %ptrb) -> (tensor<64x64xf32>, tensor<64x32x!tle.ptr<f16>>, tensor<32x64x!tle.ptr<f16>>) : i32 {
    %off = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %off : i32
    %lefts = tle.splat %left : i32 -> tensor<64x32xi32>
    %ma = arith.cmpi slt, %ka, %lefts : tensor<64x32xi32>
    %a = tle.load %qa, %ma : tensor<64x32x!tle.ptr<f16>>
    %b = tle.load %qb : tensor<32x64x!tle.ptr<f16>>
    %d = tle.dot %a, %b, %x : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %na = tle.addptr %qa, %step_a : tensor<64x32x!tle.ptr<f16>>, tensor<64x32xi32>
    %nb2 = tle.addptr %qb, %step_b : tensor<32x64x!tle.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %na, %nb2 : tensor<64x64xf32>, tensor<64x32x!tle.ptr<f16>>, tensor<32x64x!tle.ptr<f16>>
  }
  %h = arith.truncf %acc#0 : tensor<64x64xf32> to tensor<64x64xf16>
  %ptro = tle.splat %out : !tle.ptr<f16> -> tensor<64x64x!tle.ptr<f16>>
  tle.store %ptro, %h : tensor<64x64x!tle.ptr<f16>>
  tle.return
}
}

// -----

// A loop that stores may feed its own later loads: left alone.
// CHECK-LABEL: tle.func @stores
// CHECK-NOT: tle_struct
// CHECK: tle.store
tle.func @stores(%p: !tle.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = tle.splat %p : !tle.ptr<f16> -> tensor<64x32x!tle.ptr<f16>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tle.load %s : tensor<64x32x!tle.ptr<f16>>
    %t = tle.trans %a {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %b = tle.reshape %t : tensor<32x64xf16> -> tensor<64x32xf16>
    tle.store %s, %b : tensor<64x32x!tle.ptr<f16>>
  }
  tle.return
}

// -----

// A grid-strided row loop that asked for num_stages (tl.range) and only
// stores: pipelined as Triton does, the row load (any user, -inf outside
// the mask) read back in its own layout and the masked-off elements, which
// the copy zero-fills, set to -inf after the read. Slots follow an
// iteration count carried by the loop (no division by the dynamic step).
// With num_stages 2 the ring has one slot. As Triton orders them, the
// barrier that ends its reads and the refill come after the row's work, the
// barrier marked as one distribution may drop (tle.slot_release). Each
// thread reads back only the elements it copied (the load's layout holds
// each once): with own-slot-waits (on by default, off in the BARRIER run) the wait
// in the loop says so (own_slots), the one after it, which ends the copies
// for whatever uses the ring's bytes next, does not.
// BARRIER-LABEL: tle.func @rows
// BARRIER: scf.for
// BARRIER: tle_struct.async_wait 0{{$}}
// CHECK-LABEL: tle.func @rows
// CHECK: %[[RING:.*]] = tle_struct.alloc : !tle_struct.buffer<1x256xf32, "block", #tle_struct.layout<order = [1, 0]>>
// CHECK: tle_struct.async_copy {{.*}}, %[[RING]][{{.*}}] mask
// CHECK: tle_struct.async_commit
// CHECK-NOT: arith.divui
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK: tle_struct.async_wait 0 own_slots
// CHECK: %[[ROW:.*]] = tle_struct.local_load %[[RING]][%{{arg[0-9]+}}] : {{.*}} -> tensor<256xf32
// CHECK-NEXT: arith.select %{{.*}}, %[[ROW]], %{{.*}} : tensor<256xi1
// CHECK: tle.store
// CHECK-NEXT: tle.debug_barrier {tle.slot_release}
// CHECK-NOT: tle.store
// CHECK: tle_struct.async_copy
// CHECK: tle_struct.async_commit
// CHECK-NOT: tle.store
// CHECK: scf.yield
// CHECK-NOT: tle.load
// CHECK: tle_struct.async_wait 0{{$}}
tle.func @rows(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32, %cols: i32) {
  %start = tle.get_program_id 0 : i32
  %step = tle.get_num_programs 0 : i32
  %c256 = arith.constant 256 : i32
  %neginf = arith.constant dense<0xFF800000> : tensor<256xf32>
  %offs = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %ncols = tle.splat %cols : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %offs, %ncols : tensor<256xi32>
  scf.for %r = %start to %rows step %step : i32 {
    %base = arith.muli %r, %c256 : i32
    %rowin = tle.addptr %in, %base : !tle.ptr<f32>, i32
    %pin = tle.splat %rowin : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %ptrs = tle.addptr %pin, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %x = tle.load %ptrs, %mask, %neginf : tensor<256x!tle.ptr<f32>>
    %y = arith.addf %x, %x : tensor<256xf32>
    %rowout = tle.addptr %out, %base : !tle.ptr<f32>, i32
    %pout = tle.splat %rowout : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %optrs = tle.addptr %pout, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    tle.store %optrs, %y, %mask : tensor<256x!tle.ptr<f32>>
  } {tle.num_stages = 2 : i32}
  tle.return
}

// -----

// Rows whose stride is a runtime value of unknown divisibility: each
// thread's pieces of the row are single 4-byte elements. Staged only to be
// read back in the load's own layout, they would cost a copy and a
// block-memory read per element (softmax over rows of 1031: 0.96 of
// Triton's speed staged, 1.23 not), so the loop keeps its load.
// CHECK-LABEL: tle.func @rows_unaligned
// CHECK-NOT: tle_struct
// CHECK: scf.for
// CHECK: tle.load
// BARRIER-LABEL: tle.func @rows_unaligned
// BARRIER-NOT: tle_struct
// BARRIER: tle.return
tle.func @rows_unaligned(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32, %stride: i32) {
  %start = tle.get_program_id 0 : i32
  %step = tle.get_num_programs 0 : i32
  %offs = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  scf.for %r = %start to %rows step %step : i32 {
    %base = arith.muli %r, %stride : i32
    %rowin = tle.addptr %in, %base : !tle.ptr<f32>, i32
    %pin = tle.splat %rowin : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %ptrs = tle.addptr %pin, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %x = tle.load %ptrs : tensor<256x!tle.ptr<f32>>
    %y = arith.addf %x, %x : tensor<256xf32>
    %rowout = tle.addptr %out, %base : !tle.ptr<f32>, i32
    %pout = tle.splat %rowout : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %optrs = tle.addptr %pout, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    tle.store %optrs, %y : tensor<256x!tle.ptr<f32>>
  } {tle.num_stages = 2 : i32}
  tle.return
}

// -----

// Rows of 64 on 4 warps: the load's layout holds each element in two
// threads, which both copy it, so a thread may read another's copy: the
// wait keeps its barrier (no own_slots).
// CHECK-LABEL: tle.func @short_rows
// CHECK: scf.for
// CHECK: tle_struct.async_wait 0{{$}}
// CHECK: tle_struct.local_load
tle.func @short_rows(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32) {
  %start = tle.get_program_id 0 : i32
  %step = tle.get_num_programs 0 : i32
  %c64 = arith.constant 64 : i32
  %offs = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  scf.for %r = %start to %rows step %step : i32 {
    %base = arith.muli %r, %c64 : i32
    %rowin = tle.addptr %in, %base : !tle.ptr<f32>, i32
    %pin = tle.splat %rowin : !tle.ptr<f32> -> tensor<64x!tle.ptr<f32>>
    %ptrs = tle.addptr %pin, %offs : tensor<64x!tle.ptr<f32>>, tensor<64xi32>
    %x = tle.load %ptrs : tensor<64x!tle.ptr<f32>>
    %y = arith.addf %x, %x : tensor<64xf32>
    %rowout = tle.addptr %out, %base : !tle.ptr<f32>, i32
    %pout = tle.splat %rowout : !tle.ptr<f32> -> tensor<64x!tle.ptr<f32>>
    %optrs = tle.addptr %pout, %offs : tensor<64x!tle.ptr<f32>>, tensor<64xi32>
    tle.store %optrs, %y : tensor<64x!tle.ptr<f32>>
  } {tle.num_stages = 2 : i32}
  tle.return
}

// -----

// The same loop with an atomic besides its store: left alone.
// CHECK-LABEL: tle.func @rows_atomic
// CHECK-NOT: tle_struct
// CHECK: tle.load
tle.func @rows_atomic(%in: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %count: !tle.ptr<i32>, %rows: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i32
  %offs = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  scf.for %r = %c0 to %rows step %c1 : i32 {
    %base = arith.muli %r, %c256 : i32
    %rowin = tle.addptr %in, %base : !tle.ptr<f32>, i32
    %pin = tle.splat %rowin : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %ptrs = tle.addptr %pin, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %x = tle.load %ptrs : tensor<256x!tle.ptr<f32>>
    %y = arith.addf %x, %x : tensor<256xf32>
    tle.store %ptrs, %y : tensor<256x!tle.ptr<f32>>
    %old = tle.atomic_rmw add %count, %c1 : !tle.ptr<i32>, i32
  } {tle.num_stages = 2 : i32}
  tle.return
}

// -----

// A gather in a loop that asked for num_stages: the index load, in 16-byte
// pieces, is staged and read back in its own layout for the gather's
// addresses; the gathered load, whose addresses are not known contiguous
// (4-byte pieces), stays in the loop as it is. The next row's indices are
// copied into the slot after the barrier that ends this row's reads of it.
// CHECK-LABEL: tle.func @gather
// CHECK: %[[IDX:.*]] = tle_struct.alloc : !tle_struct.buffer<1x256xi32
// CHECK: scf.for
// CHECK: %[[I:.*]] = tle_struct.local_load %[[IDX]]
// CHECK: %[[P:.*]] = tle.addptr %{{.*}}, %[[I]]
// CHECK: tle.load %[[P]]
// CHECK: tle.debug_barrier {tle.slot_release}
// CHECK-NOT: tle.load
// CHECK: tle_struct.async_copy %{{.*}}, %[[IDX]]
// CHECK-NOT: tle.load
// CHECK: tle.return
tle.func @gather(%idx: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %x: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %rows: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i32
  %offs = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  scf.for %r = %c0 to %rows step %c1 : i32 {
    %base = arith.muli %r, %c256 : i32
    %rowidx = tle.addptr %idx, %base : !tle.ptr<i32>, i32
    %pidx = tle.splat %rowidx : !tle.ptr<i32> -> tensor<256x!tle.ptr<i32>>
    %iptrs = tle.addptr %pidx, %offs : tensor<256x!tle.ptr<i32>>, tensor<256xi32>
    %i = tle.load %iptrs : tensor<256x!tle.ptr<i32>>
    %px = tle.splat %x : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %xptrs = tle.addptr %px, %i : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    %v = tle.load %xptrs : tensor<256x!tle.ptr<f32>>
    %rowout = tle.addptr %out, %base : !tle.ptr<f32>, i32
    %pout = tle.splat %rowout : !tle.ptr<f32> -> tensor<256x!tle.ptr<f32>>
    %optrs = tle.addptr %pout, %offs : tensor<256x!tle.ptr<f32>>, tensor<256xi32>
    tle.store %optrs, %v : tensor<256x!tle.ptr<f32>>
  } {tle.num_stages = 2 : i32}
  tle.return
}
