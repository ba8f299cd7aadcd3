// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute -verify-diagnostics

tle.func @dot(%a: !tle.ptr<f32>) {
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tle.dot' is not supported by distribution yet}}
  %d = tle.dot %z, %z, %z : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tle.return
}

// -----

tle.func @histogram(%x: tensor<128xi32>, %out: !tle.ptr<i32>) {
  // expected-error @+1 {{'tle.histogram' is not supported by distribution yet}}
  %h = tle.histogram %x : tensor<128xi32> -> tensor<16xi32>
  tle.return
}
