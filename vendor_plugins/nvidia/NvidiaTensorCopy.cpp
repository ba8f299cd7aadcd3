//===- NvidiaTensorCopy.cpp - TMA: tensor maps and bulk tensor copies -----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Tensor copies on Hopper (sm_90a, PTX ISA 8.3). A tensor map (CUtensorMap,
// 128 bytes) is written in the kernel as Triton writes the maps of
// tl.make_tensor_descriptor: one warp zeroes 128 bytes of shared memory, its
// first lane sets each field with tensormap.replace, and the warp copies the
// map to global memory with tensormap.cp_fenceproxy, which also releases it
// to the tensor-map proxy; the copy's users acquire it before their first
// copy. A copy is one cp.async.bulk.tensor completing on an mbarrier whose
// phase expects the box's bytes (mbarrier.arrive.expect_tx).
//
//===----------------------------------------------------------------------===//

#include "NvidiaTargetInfo.h"
#include "NvidiaTensorMap.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>

using namespace mlir;
using namespace tle::nvidia;

namespace {

/// tensormap.replace's .elemtype code of an element type (PTX ISA 8.3:
/// .u8 0, .u16 1, .s32 3, .s64 5, .f16 6, .f32 7, .f64 9, .bf16 10);
/// std::nullopt for the types a map cannot describe.
std::optional<unsigned> getTensorMapElementType(Type T) {
  if (T.isF16())
    return 6;
  if (T.isBF16())
    return 10;
  if (T.isF32())
    return 7;
  if (T.isF64())
    return 9;
  if (auto I = dyn_cast<IntegerType>(T)) {
    switch (I.getWidth()) {
    case 8:
      return 0; // UINT8 (also fp8: the copy moves bytes)
    case 16:
      return 1;
    case 32:
      return 3;
    case 64:
      return 5;
    }
  }
  if (T.getIntOrFloatBitWidth() == 8)
    return 0;
  return std::nullopt;
}

Value asPointer(OpBuilder &B, Location Loc, Value V, unsigned AddressSpace) {
  auto Type = LLVM::LLVMPointerType::get(B.getContext(), AddressSpace);
  if (V.getType() == Type)
    return V;
  return LLVM::AddrSpaceCastOp::create(B, Loc, Type, V);
}

} // namespace

LogicalResult NvidiaTargetInfo::emitTensorMapInit(
    OpBuilder &B, Location Loc, Value Map, Value Staging,
    const backend::TensorMapDesc &Desc, Value LaneId) const {
  if (!HasTensorCopies)
    return emitError(Loc) << "nvidia plugin: no tensor copies on this chip "
                             "(sm_90a with the tma feature, PTX ISA 8.3)";
  unsigned Rank = Desc.Box.size();
  std::optional<unsigned> Elem = getTensorMapElementType(Desc.ElementType);
  std::optional<unsigned> Swizzle = getTensorMapSwizzleMode(Desc.SwizzleBytes);
  if (Rank < 1 || Rank > 5 || Desc.Sizes.size() != Rank ||
      Desc.Strides.size() + 1 != Rank || !Elem || !Swizzle)
    return emitError(Loc) << "nvidia plugin: no tensor map of rank " << Rank
                          << " with elements " << Desc.ElementType
                          << " and a swizzle of " << Desc.SwizzleBytes
                          << " bytes";
  for (int64_t Box : Desc.Box)
    if (Box < 1 || Box > 256)
      return emitError(Loc) << "nvidia plugin: a tensor map's box is 1 to 256 "
                               "elements per dimension, not "
                            << Box;
  Staging = asPointer(B, Loc, Staging, SharedAddressSpace);
  Map = asPointer(B, Loc, Map, 1);
  // Operands: $0 staging, $1 lane, $2 global map, $3 base, then the sizes
  // and the strides.
  SmallVector<Value> Operands{Staging, LaneId, Map,
                              asPointer(B, Loc, Desc.Base, 1)};
  std::string Constraints = "r,r,l,l";
  std::string Ptx = "{\n.reg .pred first;\n.reg .b32 lane4;\n"
                    "setp.eq.u32 first, $1, 0;\n"
                    "shl.b32 lane4, $1, 2;\n"
                    "add.u32 lane4, lane4, $0;\n"
                    "st.shared.b32 [lane4], 0;\n"
                    "bar.warp.sync -1;\n";
  auto Replace = [&](StringRef Field, StringRef Type, StringRef Args) {
    Ptx += ("@first tensormap.replace.tile." + Field + ".shared::cta.b1024." +
            Type + " [$0], " + Args + ";\n")
               .str();
  };
  Replace("global_address", "b64", "$3");
  Replace("rank", "b32", std::to_string(Rank - 1));
  unsigned Next = 4;
  for (unsigned D = 0; D < Rank; ++D) {
    Operands.push_back(Desc.Sizes[D]);
    Constraints += ",r";
    Replace("global_dim", "b32",
            std::to_string(D) + ", $" + std::to_string(Next++));
  }
  for (unsigned D = 0; D + 1 < Rank; ++D) {
    Operands.push_back(Desc.Strides[D]);
    Constraints += ",l";
    Replace("global_stride", "b64",
            std::to_string(D) + ", $" + std::to_string(Next++));
  }
  for (unsigned D = 0; D < Rank; ++D) {
    Replace("box_dim", "b32",
            std::to_string(D) + ", " + std::to_string(Desc.Box[D]));
    Replace("element_stride", "b32", std::to_string(D) + ", 1");
  }
  Replace("elemtype", "b32", std::to_string(*Elem));
  Replace("swizzle_mode", "b32", std::to_string(*Swizzle));
  // The whole warp copies the map out (.sync.aligned) and acquires it, so
  // that any of its threads, and after the core's block barrier any other,
  // may copy through it.
  Ptx += "bar.warp.sync -1;\n"
         "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
         "release.gpu.sync.aligned [$2], [$0], 128;\n"
         "fence.proxy.tensormap::generic.acquire.gpu [$2], 128;\n}";
  emitPtxStatement(B, Loc, Ptx, Constraints, Operands);
  return success();
}

LogicalResult
NvidiaTargetInfo::emitTensorCopy(OpBuilder &B, Location Loc, Value Dst,
                                 Value Map, ValueRange Coords, Value Barrier,
                                 bool AfterOrdinaryAccesses) const {
  if (!HasTensorCopies)
    return emitError(Loc) << "nvidia plugin: no tensor copies on this chip "
                             "(sm_90a with the tma feature, PTX ISA 8.3)";
  unsigned Rank = Coords.size();
  if (Rank < 1 || Rank > 5)
    return emitError(Loc) << "nvidia plugin: no tensor copy of rank " << Rank;
  // The map's generic address: in global memory (written in the kernel) or
  // a kernel parameter (built by the launcher).
  SmallVector<Value> Operands{asPointer(B, Loc, Dst, SharedAddressSpace),
                              asPointer(B, Loc, Map, 0),
                              asPointer(B, Loc, Barrier, SharedAddressSpace)};
  std::string Constraints = "r,l,r";
  std::string List;
  for (unsigned D = 0; D < Rank; ++D) {
    Operands.push_back(Coords[D]);
    Constraints += ",r";
    List += (D ? ", $" : "$") + std::to_string(3 + D);
  }
  // The copy writes through the async proxy: earlier generic accesses to
  // its bytes (scratch the ring reuses) and the barrier's initialization
  // are ordered before it.
  if (AfterOrdinaryAccesses)
    emitPtxStatement(B, Loc, "fence.proxy.async.shared::cta;", "", {});
  // A CTA is a cluster of one without a cluster launch: its shared memory
  // is the destination window of .shared::cluster.
  emitPtxStatement(
      B, Loc,
      "cp.async.bulk.tensor." + std::to_string(Rank) +
          "d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], "
          "[$1, {" +
          List + "}], [$2];",
      Constraints, Operands);
  return success();
}

LogicalResult NvidiaTargetInfo::emitBarrierExpectBytes(OpBuilder &B,
                                                       Location Loc,
                                                       Value Barrier,
                                                       unsigned Bytes) const {
  if (!HasTensorCopies)
    return emitError(Loc) << "nvidia plugin: no tensor copies on this chip "
                             "(sm_90a with the tma feature, PTX ISA 8.3)";
  emitPtxStatement(B, Loc,
                   "mbarrier.arrive.expect_tx.shared.b64 _, [$0], " +
                       std::to_string(Bytes) + ";",
                   "r", {asPointer(B, Loc, Barrier, SharedAddressSpace)});
  return success();
}
