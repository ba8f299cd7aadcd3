// RUN: tle-opt %s -tle-check-hwdesc=target=h200 -split-input-file -verify-diagnostics

// A padded counter array in block-level memory fits every chip.
tle.func @counters() {
  %c = tle_struct.alloc {init = 0 : i32} : !tle_struct.buffer<64xi32, "block", #tle_struct.layout<order = [0], pad_interval = 32, pad_amount = 1>>
  tle.return
}

// -----

// 256 KiB of fp32 is more than the 227 KiB a block may opt in to on Hopper.
tle.func @too_big() {
  // expected-error @below {{local buffer of 262144 bytes does not fit the 232448 bytes of 'shared' a block may use on H200}}
  %b = tle_struct.alloc : !tle_struct.buffer<256x256xf32, "block">
  tle.return
}

// -----

// Two buffers that fit alone but not together.
// expected-error @below {{the block-level buffers of 'together' need 262144 bytes together, more than the 232448 bytes a block may use on H200}}
tle.func @together() {
  %a = tle_struct.alloc : !tle_struct.buffer<128x256xf32, "shared">
  %b = tle_struct.alloc : !tle_struct.buffer<128x256xf32, "shared">
  tle.return
}

// -----

tle.func @unknown_level() {
  // expected-error @below {{memory level 'spm' is not defined by H200}}
  %b = tle_struct.alloc : !tle_struct.buffer<64xf32, "spm">
  tle.return
}

// -----

tle.func @unknown_parallel_level() {
  // expected-error @below {{parallel level 'core' is not defined by H200}}
  tle_struct.parallel "core" x 4 {
  }
  tle.return
}

// -----

tle.func @raw_language(%a: i32) {
  // expected-error @below {{no variant of 'add' is in a language H200}}
  %r = tle_raw.call "add" [#tle_raw.variant<"opencl", "int add(int a) { return a; }" entry "add">] (%a) : (i32) -> i32
  tle.return
}

// -----

tle.func @raw_ok(%a: i32) {
  %r = tle_raw.call "mov" [#tle_raw.variant<"ptx", "mov.b32 $0, $1;" constraints "=r,r">] (%a) : (i32) -> i32
  tle.return
}
