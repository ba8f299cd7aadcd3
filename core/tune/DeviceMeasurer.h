//===- DeviceMeasurer.h - Time candidates on a runtime Device ---*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The Measurer that runs candidates on a real device through the runtime API
// (core/runtime). It loads each candidate's binary once; it allocates the
// launch spec's buffers for a shape and keeps them while later shapes fit
// (timing does not depend on the values, which are random; checked shapes
// get fresh values that the host reference also uses). A candidate is timed
// with the device's events: one launch to warm up (and to check the result
// against the host reference where the spec has one and the shape is small
// enough), then two timings of R back-to-back launches, R chosen so that
// each lasts about TargetMs (between MinReps and MaxReps); the faster of the
// two is the measurement. Binaries that fail to load, launches that fail and
// wrong results are failures with the runtime's message, never a crash.
//
// Only LLVM Support and the runtime API are used, so bench/ links it
// statically with the NVIDIA runtime for the device machine.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_DEVICEMEASURER_H
#define TLE_CORE_TUNE_DEVICEMEASURER_H

#include "core/runtime/Runtime.h"
#include "core/tune/Tuner.h"

#include "llvm/ADT/StringMap.h"

#include <optional>

namespace tle {
namespace tune {

struct MeasureOptions {
  double TargetMs = 1.0;
  unsigned MinReps = 1, MaxReps = 50;
  /// Check results against the host reference for shapes of at most this
  /// many multiply-adds (0: never).
  uint64_t CheckLimit = uint64_t(1) << 27;
};

class DeviceMeasurer : public Measurer {
public:
  DeviceMeasurer(runtime::Device &Dev, const CandidateBundle &B,
                 MeasureOptions Opts)
      : Dev(Dev), B(B), Opts(Opts) {}
  std::variant<double, Failure> measure(const Candidate &C,
                                        const Shape &S) override;
  /// Device seconds spent in timed launches so far.
  double deviceSeconds() const { return DeviceMs / 1000; }

private:
  llvm::Error prepareShape(const Shape &S);
  llvm::Expected<runtime::Kernel> kernelFor(const Candidate &C);
  std::optional<std::string> checkResult(const Shape &S);

  runtime::Device &Dev;
  const CandidateBundle &B;
  MeasureOptions Opts;
  std::string CurrentShape;
  std::vector<runtime::Buffer> Buffers;
  /// Bytes allocated for each buffer (reused while a shape fits).
  std::vector<uint64_t> Capacity;
  std::vector<std::vector<uint16_t>> HostInputs;
  /// Host reference of the current shape's output (fp32), when checked.
  std::vector<float> Reference;
  llvm::StringMap<runtime::Kernel> Kernels;
  llvm::StringMap<std::string> LoadErrors;
  double DeviceMs = 0;
};

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_DEVICEMEASURER_H
