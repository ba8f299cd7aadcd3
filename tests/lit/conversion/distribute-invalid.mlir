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
