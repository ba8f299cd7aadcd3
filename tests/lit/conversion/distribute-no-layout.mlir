// RUN: tle-opt %s --tle-distribute -verify-diagnostics

tle.func @no_layout() {
  // expected-error @+1 {{tensor result without a distributed layout (run tle-assign-layouts first)}}
  %r = tle.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  tle.return
}
