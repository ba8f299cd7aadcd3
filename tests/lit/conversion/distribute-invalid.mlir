// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute -verify-diagnostics

// Device-side printing is not distributed yet: the error names the op at its
// location (the kernel's source line when compiled from Python).
tle.func @print(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tle.print' is not supported by distribution yet}}
  tle.print "x = " {hex = false} : %x : tensor<128xf32>
  tle.return
}

// -----

// A tle_raw.call needs a variant in a language the target accepts (none
// here: no raw-languages).
tle.func @raw(%x: i32) {
  // expected-error @+2 {{tle_raw.call "add1" has no variant in a language this target accepts (offered: ptx)}}
  // expected-error @+1 {{failed to legalize operation 'tle_raw.call'}}
  %r = tle_raw.call "add1" [#tle_raw.variant<"ptx", "add.s32 $0, $1, 1;" constraints "=r,r">](%x) : (i32) -> i32
  tle.return
}

// -----

// Reverse scans are refused, naming the op.
tle.func @reverse(%p: !tle.ptr<i32>) {
  %r = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %s0 = tle.splat %p : !tle.ptr<i32> -> tensor<128x!tle.ptr<i32>>
  %ps = tle.addptr %s0, %r : tensor<128x!tle.ptr<i32>>, tensor<128xi32>
  %x = tle.load %ps : tensor<128x!tle.ptr<i32>>
  // expected-error @+2 {{reverse scans are not supported by distribution yet}}
  // expected-error @+1 {{failed to legalize operation 'tle.scan'}}
  %s = "tle.scan"(%x) ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tle.scan.return %c : i32
  }) {axis = 0 : i32, reverse = true} : (tensor<128xi32>) -> tensor<128xi32>
  tle.store %ps, %s : tensor<128x!tle.ptr<i32>>
  tle.return
}
