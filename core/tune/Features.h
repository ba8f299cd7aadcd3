//===- Features.h - What the cost model sees of a candidate -----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The cost model's features for one (shape, config) on one device: the shape
// and the config's parameters (log2), roofline terms (useful FLOPs, the
// compulsory bytes, arithmetic intensity against the device's ridge point,
// the roofline time), the occupancy the description allows with the
// compiled (or estimated) registers and shared memory, and tile efficiency
// (padding waste of the last tiles, wave quantization: tiles over
// processors x resident blocks). The last feature is the analytic estimate
// the tuner ranks with before it has measurements to learn from.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_FEATURES_H
#define TLE_CORE_TUNE_FEATURES_H

#include "core/tune/CandidateBundle.h"

#include <vector>

namespace tle {
namespace tune {

struct ShapeWork {
  double Flops = 0;
  double Bytes = 0;
};

/// Flops and bytes of the launch spec's expressions for S (0 when they do
/// not evaluate).
ShapeWork evalWork(const LaunchSpec &L, const Shape &S);

/// Seconds at the device's peak rate or bandwidth, whichever bounds.
double rooflineSeconds(const ShapeWork &W, const DeviceFacts &D);

/// Names of the features, in order.
const std::vector<std::string> &featureNames();

/// The feature vector; C's compiled resources are used when known, else the
/// estimate of the kernel kind.
std::vector<float> computeFeatures(const Shape &S, const ShapeWork &W,
                                   const Candidate &C,
                                   const KernelModel &Model,
                                   const DeviceFacts &D);

/// The analytic estimate, in seconds (the prior the tuner ranks with before
/// the cost model has data).
double analyticSeconds(const Shape &S, const ShapeWork &W, const Candidate &C,
                       const KernelModel &Model, const DeviceFacts &D);

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_FEATURES_H
