// RUN: tle-opt %s -split-input-file -tle-assign-layouts -verify-diagnostics

// A partition's tiles are laid out for its own warps: a tile loaded outside
// cannot be used inside.
tle.func @tile_from_outside(%x: !tle.ptr<f32>, %out: !tle.ptr<f32>) {
  %r = tle.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %s = tle.splat %x : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
  %p = tle.addptr %s, %r : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
  %v = tle.load %p : tensor<128x!tle.ptr<f32>>
  tle_struct.warp_specialize [4, 4] {
    %so = tle.splat %out : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
    %po = tle.addptr %so, %r : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
    // expected-error @+1 {{a warp_specialize partition cannot use a tile made outside it; pass pointers or scalars and build the tile inside}}
    tle.store %po, %v : tensor<128x!tle.ptr<f32>>
    tle_struct.yield
  }, {
    tle_struct.yield
  }
  tle.return
}

// -----

tle.func @three_warps() {
  // expected-error @+1 {{a warp_specialize partition runs on 3 warps; layouts need a power of two}}
  tle_struct.warp_specialize [4, 3] {
    tle_struct.yield
  }, {
    tle_struct.yield
  }
  tle.return
}

// -----

tle.func @nested() {
  tle_struct.warp_specialize [4, 1] {
    // expected-error @+1 {{warp_specialize inside a warp_specialize partition is not supported}}
    tle_struct.warp_specialize [2, 2] {
      tle_struct.yield
    }, {
      tle_struct.yield
    }
    tle_struct.yield
  }, {
    tle_struct.yield
  }
  tle.return
}

// -----

// With partitions of 5 warps in all, a tile outside them has no layout.
tle.func @outside_tile_odd_block(%x: !tle.ptr<i32>) {
  // expected-error @+1 {{the warp_specialize partitions take 5 warps in all, not a power of two: tiles outside the partitions cannot be laid out; build them inside a partition}}
  %r = tle.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %s = tle.splat %x : !tle.ptr<i32> -> tensor<128x!tle.ptr<i32>>
  %p = tle.addptr %s, %r : tensor<128x!tle.ptr<i32>>, tensor<128xi32>
  tle.store %p, %r : tensor<128x!tle.ptr<i32>>
  tle_struct.warp_specialize [4, 1] {
    tle_struct.yield
  }, {
    tle_struct.yield
  }
  tle.return
}
