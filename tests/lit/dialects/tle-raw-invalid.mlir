// RUN: tle-opt %s -split-input-file -verify-diagnostics
// One case per verifier rule of the tle_raw dialect.

tle.func @unknown_language(%a: i32) {
  // expected-error @+1 {{unknown native language 'fortran' (expected one of ptx, cuda, hip, amdgcn, spirv, opencl, llvm, mlir)}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"fortran", "x">] (%a) : (i32) -> i32
  tle.return
}

// -----

tle.func @empty_code(%a: i32) {
  // expected-error @+1 {{native code for 'ptx' is empty}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"ptx", "">] (%a) : (i32) -> i32
  tle.return
}

// -----

tle.func @constraints_not_asm(%a: i32) {
  // expected-error @+1 {{constraints apply to inline assembly (ptx, amdgcn), not to 'cuda'}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"cuda", "int f(int);" constraints "=r,r">] (%a) : (i32) -> i32
  tle.return
}

// -----

tle.func @no_variants(%a: i32) {
  // expected-error @+1 {{needs at least one native variant}}
  %0 = tle_raw.call "f" [] (%a) : (i32) -> i32
  tle.return
}

// -----

tle.func @not_a_variant(%a: i32) {
  // expected-error @+1 {{variants must be #tle_raw.variant attributes, got "ptx"}}
  %0 = tle_raw.call "f" ["ptx"] (%a) : (i32) -> i32
  tle.return
}

// -----

tle.func @duplicate_language(%a: i32) {
  // expected-error @+1 {{has two variants in 'ptx'}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"ptx", "a">, #tle_raw.variant<"ptx", "b">] (%a) : (i32) -> i32
  tle.return
}

// -----

tle.func @packed_function(%a: i32) {
  // expected-error @+1 {{packs 2 elements per call, which only inline assembly (a variant with constraints) can}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"opencl", "int f(int a) { return a; }">] (%a) {pack = 2 : i32} : (i32) -> i32
  tle.return
}

// -----

tle.func @pack_splits_registers(%a: i8) {
  // expected-error @+1 {{packs 6 elements per call, which 32-bit registers of 4 'i8' do not divide}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"ptx", "mov.b32 $0, $1;" constraints "=r,r">] (%a) {pack = 6 : i32} : (i8) -> i32
  tle.return
}

// -----

tle.func @pack_bools(%a: tensor<128xi1>) {
  // expected-error @+1 {{packs 4 elements per call, but 'tensor<128xi1>' holds i1 values, which do not pack into registers; use pack = 1 or i8}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"ptx", "mov.b32 $0, $1;" constraints "=r,r">] (%a) {pack = 4 : i32} : (tensor<128xi1>) -> tensor<128xi32>
  tle.return
}

// -----

tle.func @pack_bool_results(%a: tensor<128xi32>) {
  // expected-error @+1 {{packs 2 elements per call, but 'tensor<128xi1>' holds i1 values}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"ptx", "mov.b32 $0, $1;" constraints "=r,r">] (%a) {pack = 2 : i32} : (tensor<128xi32>) -> tensor<128xi1>
  tle.return
}

// -----

tle.func @pack_bool_scalar(%a: i1) {
  // expected-error @+1 {{packs 4 elements per call, but 'i1' holds i1 values}}
  %0 = tle_raw.call "f" [#tle_raw.variant<"ptx", "mov.b32 $0, $1;" constraints "=r,r">] (%a) {pack = 4 : i32} : (i1) -> i32
  tle.return
}
