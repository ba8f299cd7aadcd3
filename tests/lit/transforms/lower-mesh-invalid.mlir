// RUN: tle-opt %s -split-input-file -tle-lower-mesh -verify-diagnostics

// A kernel runs on one device: peers at the device level would never start.
tle.func @eight_devices(%data: !tle.ptr<f32>) {
  // expected-error @+1 {{mesh level 'device' has 8 shards, but a kernel runs on one device for now: levels above 'block' must have one shard (multi-device meshes: issue 15)}}
  %m = tle.device_mesh : !tle.mesh<["node", "device", "block"], [1, 8, 4]>
  %d = tle.shard_id %m, "device" : !tle.mesh<["node", "device", "block"], [1, 8, 4]>
  tle.return
}

// -----

tle.func @two_nodes() {
  // expected-error @+1 {{mesh level 'node' has 2 shards}}
  %m = tle.device_mesh : !tle.mesh<["node"], [2]>
  tle.distributed_barrier %m, "node" : !tle.mesh<["node"], [2]>
  tle.return
}

// -----

// The programs of a grid are not all resident at once.
tle.func @grid_barrier() {
  %m = tle.device_mesh : !tle.mesh<["device", "block"], [1, 4]>
  // expected-error @+1 {{a distributed barrier across the 4 programs of level 'block' is not supported: the programs of a grid are not all resident at once}}
  tle.distributed_barrier %m, "block" : !tle.mesh<["device", "block"], [1, 4]>
  tle.return
}

// -----

tle.func @other_device(%data: !tle.ptr<f32>) {
  %one = arith.constant 1 : i32
  // expected-error @+1 {{tle.remote to shard 1, but a kernel runs on one device for now: shard 0 is the only one (multi-device meshes: issue 15)}}
  %r = tle.remote_ptr %data, %one {space = #tle.remote<device>} : !tle.ptr<f32>
  tle.return
}
