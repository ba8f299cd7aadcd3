// RUN: tle-opt %s -split-input-file --tle-assign-layouts --tle-distribute -verify-diagnostics

tle.func @histogram(%x: tensor<128xi32>, %out: !tle.ptr<i32>) {
  // expected-error @+1 {{'tle.histogram' is not supported by distribution yet}}
  %h = tle.histogram %x : tensor<128xi32> -> tensor<16xi32>
  tle.return
}
