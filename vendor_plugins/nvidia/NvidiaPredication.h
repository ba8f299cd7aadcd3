//===- NvidiaPredication.h - Masked stores as predicated PTX ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAPREDICATION_H
#define TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAPREDICATION_H

namespace llvm {
class Module;
} // namespace llvm

namespace tle {
namespace nvidia {

/// Masked global stores become predicated PTX stores (`@p st.global.v4.b32`),
/// as Triton emits them, instead of a branch around each: NVPTX keeps every
/// such store behind its own branch (softmax's row of 8 masked stores: 8
/// branches). A block that only a condition guards, holding global stores
/// of 2, 4, 8 or 16 bytes and otherwise only instructions safe to run
/// anyway, is folded into its predecessor: the stores become inline PTX
/// under the condition, the rest runs unconditionally, and the values it
/// passes on are selected. Masked loads keep their branches: predicated,
/// ptxas hoists them all and the ragged matmul spills more (196 -> 324
/// bytes). Run on optimized IR, before code generation.
void predicateGuardedStores(llvm::Module &M);

} // namespace nvidia
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_NVIDIA_NVIDIAPREDICATION_H
