//===- SpirvSubgroupEmulation.h - Subgroups for devices without ---*- C++ -*-//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A description that lists `subgroup_shuffle` (dsa-spirv) gets
// OpGroupNonUniformShuffle* in its kernels, and its warp_size is the
// device's subgroup size. The CPU executor of CI (Debian's PoCL 3.1, fed
// SPIR 1.2 bitcode) has no subgroups at all, so before translating such a
// binary the runtime rewrites the subgroup instructions into what the
// description says they mean, with Workgroup memory standing in for the
// lanes' registers:
//
//   - a subgroup is SubgroupSize consecutive work-items of dimension 0
//     (local id x / SubgroupSize), its lane is local id x % SubgroupSize;
//   - OpGroupNonUniformShuffle, ...Xor, ...Up and ...Down become: a
//     work-group barrier, every work-item stores its value into its own
//     8-byte slot of a Workgroup array (one slot per work-item of the
//     LocalSize), a barrier, and a load of the source lane's slot;
//     ShuffleUp/Down lanes whose source lies outside the subgroup read their
//     own value (the plugin selects the own value for them anyway);
//   - a Subgroup-scope OpControlBarrier becomes a Workgroup-scope one;
//   - loads of the SubgroupLocalInvocationId, SubgroupSize and SubgroupId
//     built-ins become the same arithmetic on the local id.
//
// The work-group barriers make each shuffle a point that the whole
// work-group must reach, which the core's reductions and scans do (the same
// condition as the compiler's own Workgroup-memory shuffles for
// descriptions without subgroups, see SpirvTargetInfo.h). Other
// GroupNonUniform instructions are refused with a message.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVSUBGROUPEMULATION_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVSUBGROUPEMULATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tle {
namespace spirv {

struct EmulatedSubgroups {
  /// The rewritten binary (the input when Rewritten is 0).
  std::string Binary;
  /// Subgroup instructions and built-in loads rewritten.
  unsigned Rewritten = 0;
};

/// Binary with its subgroup instructions emulated through Workgroup memory
/// for subgroups of SubgroupSize work-items (see above).
llvm::Expected<EmulatedSubgroups> emulateSubgroups(llvm::StringRef Binary,
                                                   unsigned SubgroupSize);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVSUBGROUPEMULATION_H
