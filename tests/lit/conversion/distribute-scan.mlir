// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute --canonicalize --cse | FileCheck %s

// Inclusive cumsum of 1024 i32 on 4 warps, 4 per thread: the layout's tile
// (512) repeats twice. Per repetition: the thread's 4 elements summed, a
// Hillis-Steele scan of the run totals over the 32 lanes by shuffles up
// (1, 2, 4, 8, 16; a lane takes the value only when its position allows),
// one more shuffle up for the prefix of the lanes before, warp totals
// through scratch (one slot per repetition and warp), then the prefix of
// earlier warps and repetitions combined in.
// CHECK: tle.shared_memory = 32 : i64
// CHECK: llvm.mlir.global external @__tle_scratch() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @cumsum
// CHECK: %[[X0:.*]] = llvm.extractelement %{{.*}}[%c0_i32 : i32] : vector<4xi32>
// CHECK: %[[POS:.*]] = arith.remui %{{.*}}, %c32_i32 : i32
// CHECK: %[[WARP:.*]] = arith.remui %{{.*}}, %c4_i32 : i32
// CHECK: %[[S1:.*]] = arith.addi %[[X0]], %{{.*}} : i32
// CHECK: %[[S2:.*]] = arith.addi %[[S1]], %{{.*}} : i32
// CHECK: %[[T:.*]] = arith.addi %[[S2]], %{{.*}} : i32
// CHECK: %[[UP1:.*]], %{{.*}} = gpu.shuffle up %[[T]], %c1_i32, %c32_i32 : i32
// CHECK: %[[HAS1:.*]] = arith.cmpi uge, %[[POS]], %c1_i32 : i32
// CHECK: %[[ADD1:.*]] = arith.addi %[[UP1]], %[[T]] : i32
// CHECK: arith.select %[[HAS1]], %[[ADD1]], %[[T]] : i32
// CHECK: gpu.shuffle up %{{.*}}, %c2_i32, %c32_i32 : i32
// CHECK: gpu.shuffle up %{{.*}}, %c4_i32, %c32_i32 : i32
// CHECK: gpu.shuffle up %{{.*}}, %c8_i32, %c32_i32 : i32
// CHECK: gpu.shuffle up %{{.*}}, %c16_i32, %c32_i32 : i32
// CHECK: %[[LANEPRE:.*]], %{{.*}} = gpu.shuffle up %{{.*}}, %c1_i32, %c32_i32 : i32
// CHECK: %[[HASLANE:.*]] = arith.cmpi ugt, %[[POS]], %c0_i32 : i32
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[POS]], %c31_i32 : i32
// CHECK: scf.if %[[LAST]] {
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: %[[HASWARP:.*]] = arith.cmpi ugt, %[[WARP]], %c0_i32 : i32
// The first element of the first repetition: its own value unless some lane
// or warp comes before it.
// CHECK: %[[ANY:.*]] = arith.ori %[[HASWARP]], %[[HASLANE]] : i1
// CHECK: %[[WITH:.*]] = arith.addi %[[PRE:.*]], %[[X0]] : i32
// CHECK: arith.select %[[ANY]], %[[WITH]], %[[X0]] : i32
// No barrier frees the scratch at the kernel's end.
// CHECK-NOT: gpu.barrier
// CHECK: llvm.return
module attributes {tle.num_warps = 4 : i32} {
  tle.func @cumsum(%in: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<i32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<i32> -> tensor<1024x!tle.ptr<i32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<i32>>, tensor<1024xi32>
    %x = tle.load %p : tensor<1024x!tle.ptr<i32>>
    %c = "tle.scan"(%x) ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tle.scan.return %t : i32
    }) {axis = 0 : i32, reverse = false} : (tensor<1024xi32>) -> tensor<1024xi32>
    %so = tle.splat %out : !tle.ptr<i32> -> tensor<1024x!tle.ptr<i32>>
    %q = tle.addptr %so, %r : tensor<1024x!tle.ptr<i32>>, tensor<1024xi32>
    tle.store %q, %c : tensor<1024x!tle.ptr<i32>>
    tle.return
  }
}

// -----

// tle.cumsum (moe_align_block_size): 64 values on 128 threads, two warps
// along the axis and two replicas. The exclusive prefix of position 0 is 0;
// the total is the sum of the two warp totals. Only the first replica
// stores the prefixes, thread 0 the total.
// CHECK-LABEL: llvm.func @exclusive
// CHECK: %[[WARP:.*]] = arith.remui %{{.*}}, %c2_i32 : i32
// CHECK: gpu.shuffle up
// CHECK: gpu.barrier
// CHECK: %[[T0:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: %[[T1:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: %[[TOTAL:.*]] = arith.addi %[[T0]], %[[T1]] : i32
// CHECK: %[[ANY:.*]] = arith.ori
// CHECK: %[[EXCL:.*]] = arith.select %[[ANY]], %{{.*}}, %c0_i32 : i32
// CHECK-NOT: gpu.barrier
// CHECK: %[[REPLICA0:.*]] = arith.cmpi ult, %{{.*}}, %c64_i32 : i32
// CHECK-NEXT: scf.if %[[REPLICA0]] {
// CHECK-NEXT: llvm.store %[[EXCL]], %{{.*}} : i32, !llvm.ptr<1>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.store %[[TOTAL]], %arg1 {{.*}} : i32, !llvm.ptr<1>
module attributes {tle.num_warps = 4 : i32} {
  tle.func @exclusive(%in: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %total: !tle.ptr<i32>) {
    %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %s = tle.splat %in : !tle.ptr<i32> -> tensor<64x!tle.ptr<i32>>
    %p = tle.addptr %s, %r : tensor<64x!tle.ptr<i32>>, tensor<64xi32>
    %x = tle.load %p : tensor<64x!tle.ptr<i32>>
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<64xi32> -> tensor<64xi32>, i32
    tle.store %p, %e : tensor<64x!tle.ptr<i32>>
    tle.store %total, %t : !tle.ptr<i32>
    tle.return
  }
}

// -----

// A reverse scan is the same scan from the end of the axis: the last
// repetition's registers first, combined from the last (3, then 2), lane
// and warp positions counted backwards (31 - lane, 3 - warp), the lane scan
// by shuffles down.
// CHECK-LABEL: llvm.func @reverse_cumsum
// CHECK: llvm.extractelement %{{.*}}[%c3_i32 : i32] : vector<4xi32>
// CHECK: %[[E2:.*]] = llvm.extractelement %{{.*}}[%c2_i32 : i32] : vector<4xi32>
// CHECK: %[[E3:.*]] = llvm.extractelement %{{.*}}[%c3_i32 : i32] : vector<4xi32>
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32_i32 : i32
// CHECK: %[[POS:.*]] = arith.subi %c31_i32, %[[LANE]] : i32
// CHECK: arith.subi %c3_i32, %{{.*}} : i32
// CHECK: arith.addi %[[E3]], %[[E2]] : i32
// CHECK: gpu.shuffle  down %{{.*}}, %c1_i32, %c32_i32 : i32
// CHECK: arith.cmpi uge, %[[POS]], %c1_i32 : i32
// CHECK-NOT: gpu.shuffle  up
module attributes {tle.num_warps = 4 : i32} {
  tle.func @reverse_cumsum(%in: !tle.ptr<i32> {tle.divisibility = 16 : i32}, %out: !tle.ptr<i32> {tle.divisibility = 16 : i32}) {
    %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %s = tle.splat %in : !tle.ptr<i32> -> tensor<1024x!tle.ptr<i32>>
    %p = tle.addptr %s, %r : tensor<1024x!tle.ptr<i32>>, tensor<1024xi32>
    %x = tle.load %p : tensor<1024x!tle.ptr<i32>>
    %c = "tle.scan"(%x) ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tle.scan.return %t : i32
    }) {axis = 0 : i32, reverse = true} : (tensor<1024xi32>) -> tensor<1024xi32>
    %so = tle.splat %out : !tle.ptr<i32> -> tensor<1024x!tle.ptr<i32>>
    %q = tle.addptr %so, %r : tensor<1024x!tle.ptr<i32>>, tensor<1024xi32>
    tle.store %q, %c : tensor<1024x!tle.ptr<i32>>
    tle.return
  }
}

