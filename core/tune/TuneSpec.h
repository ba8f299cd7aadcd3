//===- TuneSpec.h - What to tune in a kernel and how to launch it -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tuning spec (JSON, docs/tune.md) names the kernel file and function, the
// fixed -D definitions and signature of the variant to tune, the generator's
// extra axis values, the kernel kind's resource model, and how to launch the
// kernel for a shape: device buffers, arguments and grid as expressions over
// the shape's sizes and the config's parameters (Expr.h). The launch part
// travels in the candidate bundle to the measuring binary.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_TUNESPEC_H
#define TLE_CORE_TUNE_TUNESPEC_H

#include "core/tune/ConfigSpace.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <string>
#include <vector>

namespace tle {
namespace tune {

struct BufferSpec {
  std::string Name;
  /// Size in bytes, an expression over the shape.
  std::string Bytes;
  /// How to fill it before timing: "fp16", "bf16", "fp32" (random values in
  /// [-1, 1]) or "zero".
  std::string Fill = "zero";
};

/// How the measuring binary launches the kernel for one shape and config.
struct LaunchSpec {
  /// The shape's size names in order ("M", "N", "K").
  std::vector<std::string> ShapeNames;
  std::vector<BufferSpec> Buffers;
  /// One per kernel argument: a buffer name, or "i32:EXPR" / "i64:EXPR".
  std::vector<std::string> Args;
  std::array<std::string, 3> Grid = {"1", "1", "1"};
  /// Useful work and compulsory traffic, for the roofline features.
  std::string Flops = "0", Bytes = "0";
  /// A host reference the measuring binary can check a launch against
  /// ("matmul": buffers 0 and 1 are row-major A (MxK) and B (KxN), buffer 2
  /// is C (MxN), all of the element type the model names), or empty.
  std::string Reference;

  llvm::json::Value toJSON() const;
  static llvm::Expected<LaunchSpec> fromJSON(const llvm::json::Value &V);
  /// Checks that every expression evaluates for Shape and Config.
  llvm::Error check(const Shape &S, const Config &C) const;
};

llvm::json::Value modelToJSON(const KernelModel &M);
llvm::Expected<KernelModel> modelFromJSON(const llvm::json::Value &V);

struct TuneSpec {
  /// Kernel file, relative to the spec's directory when not absolute.
  std::string Source;
  std::string Kernel;
  std::vector<std::pair<std::string, std::string>> Defines;
  std::string Signature;
  /// Values the generator adds to the autotune configs' (docs/tune.md).
  std::vector<Axis> Generator;
  /// Whether the kernel's @triton.autotune values join the space ("autotune":
  /// false leaves the generator's alone, e.g. for small test spaces).
  bool UseAutotune = true;
  KernelModel Model;
  /// Dtype of the matrix inputs, to pick the description's peak rate.
  std::string InputType = "fp16";
  LaunchSpec Launch;

  static llvm::Expected<TuneSpec> load(llvm::StringRef Path);
};

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_TUNESPEC_H
