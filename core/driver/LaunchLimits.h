//===- LaunchLimits.h - Does a compiled kernel fit its target? --*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The description checks see what the kernel asks for at its lines; what the
// compiler adds (pipelining rings, reduction scratch) and what the vendor's
// assembler decides (registers, static shared memory) are known only once
// the binary exists. A binary over the target's limits would compile and
// then fail at launch, so tlec refuses it with the numbers.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_LAUNCHLIMITS_H
#define TLE_CORE_DRIVER_LAUNCHLIMITS_H

#include <string>

namespace tle {
namespace backend {
struct CompiledKernel;
} // namespace backend
namespace hwdesc {
class HwDesc;
} // namespace hwdesc

namespace driver {

/// The first launch limit of `Desc` that `Kernel` exceeds (threads per
/// block, registers per thread or per block, block-level memory per block),
/// as one line naming the numbers and the description key; empty when it
/// fits or the description does not give the limit.
std::string getLaunchLimitViolation(const backend::CompiledKernel &Kernel,
                                    const hwdesc::HwDesc &Desc);

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_LAUNCHLIMITS_H
