// RUN: tle-opt %s -tle-lower-mesh | FileCheck %s --implicit-check-not=tle.remote_ptr \
// RUN:   --implicit-check-not='tle.signal ' --implicit-check-not=tle.signal_wait \
// RUN:   --implicit-check-not=tle.device_mesh --implicit-check-not=tle.distributed_barrier \
// RUN:   --implicit-check-not=tle.shard_id

// A mesh as one device runs it: the device level has one shard (0), the
// block level is the linear program id, a remote pointer is the local one,
// a distributed barrier a block barrier. A signal is a block barrier (the
// block's stores first) and one release atomic; a wait reads once, then
// loops on acquire reads until the comparison holds, and returns the value
// that passed it.
// CHECK-LABEL: tle.func @mesh
// CHECK: %[[DEVICE:.*]] = arith.constant 0 : i32
// CHECK: %[[Z:.*]] = tle.get_program_id 2
// CHECK: %[[NY:.*]] = tle.get_num_programs 1
// CHECK: %[[Y:.*]] = tle.get_program_id 1
// CHECK: %[[ZY:.*]] = arith.muli %[[NY]], %[[Z]]
// CHECK: %[[YZ:.*]] = arith.addi %[[Y]], %[[ZY]]
// CHECK: %[[NX:.*]] = tle.get_num_programs 0
// CHECK: %[[X:.*]] = tle.get_program_id 0
// CHECK: %[[XYZ:.*]] = arith.muli %[[NX]], %[[YZ]]
// CHECK: %[[BLOCK:.*]] = arith.addi %[[X]], %[[XYZ]]
// CHECK: %[[F:.*]] = arith.sitofp %[[BLOCK]]
// CHECK: tle.store %arg1, %[[F]]
// CHECK: %[[DF:.*]] = arith.sitofp %[[DEVICE]]
// CHECK: tle.store %arg1, %[[DF]] :
// CHECK: tle.debug_barrier
// CHECK-NEXT: tle.atomic_rmw add %arg0, %[[ONE:.*]] {sem = #tle.sem<release>}
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[FIRST:.*]] = tle.atomic_rmw add %arg0, %[[ZERO]] {sem = #tle.sem<acquire>}
// CHECK-NEXT: %[[SEEN:.*]] = scf.while (%[[S:.*]] = %[[FIRST]]) : (i32) -> i32 {
// CHECK-NEXT: %[[AGAIN:.*]] = arith.cmpi slt, %[[S]], %[[ONE]]
// CHECK-NEXT: scf.condition(%[[AGAIN]]) %[[S]]
// CHECK: } do {
// CHECK: %[[NEXT:.*]] = tle.atomic_rmw add %arg0, %{{.*}} {sem = #tle.sem<acquire>}
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK: tle.debug_barrier
// CHECK-NEXT: tle.debug_barrier
// CHECK-NEXT: tle.atomic_rmw xchg %arg0, %[[SEEN]] {sem = #tle.sem<release>}
// CHECK: tle.return
tle.func @mesh(%flag: !tle.ptr<i32>, %data: !tle.ptr<f32>) {
  %m = tle.device_mesh : !tle.mesh<["device", "block"], [1, 4]>
  %d = tle.shard_id %m, "device" : !tle.mesh<["device", "block"], [1, 4]>
  %b = tle.shard_id %m, "block" : !tle.mesh<["device", "block"], [1, 4]>
  %r = tle.remote_ptr %data, %d {space = #tle.remote<device>} : !tle.ptr<f32>
  %f = arith.sitofp %b : i32 to f32
  tle.store %r, %f : !tle.ptr<f32>
  %df = arith.sitofp %d : i32 to f32
  tle.store %r, %df : !tle.ptr<f32>
  %one = arith.constant 1 : i32
  tle.signal add %flag, %one : !tle.ptr<i32>
  %seen = tle.signal_wait ge %flag, %one : !tle.ptr<i32>
  tle.distributed_barrier %m, "device" : !tle.mesh<["device", "block"], [1, 4]>
  tle.signal set %flag, %seen : !tle.ptr<i32>
  tle.return
}

// A signal through a pointer to uint32 waits on an unsigned comparison
// (3000000000 is above 2^31).
// CHECK-LABEL: tle.func @unsigned_wait
// CHECK: scf.while
// CHECK-NEXT: arith.cmpi ult, %{{.*}}, %c-1294967296_i32
tle.func @unsigned_wait(%flag: !tle.ptr<i32>) {
  %v = arith.constant 3000000000 : i32
  %seen = tle.signal_wait ge %flag, %v {unsigned_cmp} : !tle.ptr<i32>
  tle.return
}
