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
