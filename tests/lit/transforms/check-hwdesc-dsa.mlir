// RUN: tle-opt %s -tle-check-hwdesc=target=dsa-spirv -split-input-file -verify-diagnostics

// The same kernel maps onto the DSA: "block" is an alias of its per-core
// scratchpad, which holds 1 MiB, and its parallel level "core" exists.
tle.func @counters() {
  %c = tle_struct.alloc {init = 0 : i32} : !tle_struct.buffer<64xi32, "block">
  %big = tle_struct.alloc : !tle_struct.buffer<256x256xf32, "spm">
  tle_struct.parallel "core" x 4 {
  }
  tle.return
}

// -----

tle.func @gpu_level() {
  // expected-error @below {{memory level 'smem' is not defined by dsa-spirv}}
  %b = tle_struct.alloc : !tle_struct.buffer<64xf32, "smem">
  tle.return
}

// -----

tle.func @raw_ptx(%a: i32) {
  // expected-error @below {{no variant of 'mov' is in a language dsa-spirv}}
  %r = tle_raw.call "mov" [#tle_raw.variant<"ptx", "mov.b32 $0, $1;" constraints "=r,r">] (%a) : (i32) -> i32
  tle.return
}
