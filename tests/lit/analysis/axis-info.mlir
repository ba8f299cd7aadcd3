// RUN: tle-opt %s -tle-test-axis-info -split-input-file -verify-diagnostics -o /dev/null

// Vector add: pid * 1024 + arange(0, 1024) through a 16-byte-aligned pointer
// is one contiguous run of 1024 elements whose start is 16-byte aligned, and
// `offsets < n` with n divisible by 16 is constant over 16-element chunks.
tle.func @vector_add(%x: !tle.ptr<f32> {tle.divisibility = 16 : i32}, %n: i32 {tle.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tle.get_program_id 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %c1024 = arith.constant 1024 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %start = arith.muli %pid, %c1024 : i32
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %r = tle.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1024]}}
  %s = tle.splat %start : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offs = arith.addi %s, %r : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %ns = tle.splat %n : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %xs = tle.splat %x : !tle.ptr<f32> -> tensor<1024x!tle.ptr<f32>>
  // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %xp = tle.addptr %xs, %offs : tensor<1024x!tle.ptr<f32>>, tensor<1024xi32>
  %v = tle.load %xp, %mask : tensor<1024x!tle.ptr<f32>>
  tle.return
}

// -----

// Without hints nothing is known about the base pointer's alignment.
tle.func @unaligned(%x: !tle.ptr<f16>) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %xs = tle.splat %x : !tle.ptr<f16> -> tensor<128x!tle.ptr<f16>>
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %xp = tle.addptr %xs, %r : tensor<128x!tle.ptr<f16>>, tensor<128xi32>
  tle.return
}

// -----

// A 2-D tile of offsets rows * stride + cols: contiguous along the columns,
// each row starting at a multiple of the 16-divisible stride.
tle.func @tile2d(%a: !tle.ptr<f16> {tle.divisibility = 16 : i32}, %stride: i32 {tle.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %rows = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %cols = tle.expand_dims %rows {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %r2 = tle.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [64, 1]}}
  %st = tle.splat %stride : i32 -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %ro = arith.muli %r2, %st : tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]}}
  %rb = tle.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [64, 1]}}
  %cb = tle.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]}}
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  tle.return
}

// -----

// tl.multiple_of / max_contiguous recorded on an op override the analysis.
tle.func @hints(%x: i32, %p: !tle.ptr<i32>) {
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %h = arith.addi %x, %x {tle.divisibility = array<i32: 8>} : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %l = tle.load %p : !tle.ptr<i32>
  tle.return
}

// -----

// The induction variable of range(0, n, 256) is a multiple of 256, so every
// tile it offsets starts 256-element aligned.
tle.func @loop(%n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1]}}
  %c256 = arith.constant 256 : i32
  scf.for %i = %c0 to %n step %c256 : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [256]}}
    %s = tle.splat %i : i32 -> tensor<256xi32>
    // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
    %r = tle.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
    // expected-remark @below {{contiguity = [256], divisibility = [256], constancy = [1]}}
    %o = arith.addi %s, %r : tensor<256xi32>
  }
  tle.return
}

// -----

// A run times a tile splat from the constant 1 (descriptor lowering's unit
// stride, before canonicalization folds it) stays a run.
tle.func @times_splat_one(%x: !tle.ptr<f16> {tle.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tle.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %w = arith.extsi %r : tensor<64xi32> to tensor<64xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %one = arith.constant 1 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %s = tle.splat %one : i64 -> tensor<64xi64>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %m = arith.muli %w, %s : tensor<64xi64>
  tle.return
}
