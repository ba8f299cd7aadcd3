// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute -verify-diagnostics

tle.func @dot(%a: !tle.ptr<f32>) {
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tle.dot' is not supported by distribution yet}}
  %d = tle.dot %z, %z, %z : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tle.return
}

// -----

tle.func @num_programs() {
  // expected-error @+1 {{'tle.get_num_programs' is not supported by distribution yet}}
  %n = tle.get_num_programs 0 : i32
  tle.return
}
