//===- Query.cpp - Queries later passes ask of a hardware description -----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/HwDesc.h"
#include "core/hwdesc/Node.h"
#include "core/hwdesc/Schema.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace tle {
namespace hwdesc {

HwDesc::HwDesc() = default;
HwDesc::~HwDesc() = default;
HwDesc::HwDesc(HwDesc &&) = default;
HwDesc &HwDesc::operator=(HwDesc &&) = default;

StringRef toString(LevelKind K) { return getLevelKindNames()[unsigned(K)]; }
StringRef toString(MemoryScope S) { return getMemoryScopeNames()[unsigned(S)]; }
StringRef toString(MemoryKind K) { return getMemoryKindNames()[unsigned(K)]; }
StringRef toString(IssueLevel L) { return getIssueLevelNames()[unsigned(L)]; }

const MemoryLevel *HwDesc::getMemoryLevel(StringRef Name) const {
  // A level's own name wins; the validator rejects aliases that shadow one.
  for (const MemoryLevel &L : MemoryLevels)
    if (L.Name == Name)
      return &L;
  auto It = MemoryAliases.find(Name);
  if (It == MemoryAliases.end())
    return nullptr;
  for (const MemoryLevel &L : MemoryLevels)
    if (L.Name == It->second)
      return &L;
  return nullptr;
}

const ParallelLevel *HwDesc::getParallelLevel(LevelKind Kind) const {
  for (const ParallelLevel &L : ParallelLevels)
    if (L.Kind == Kind)
      return &L;
  return nullptr;
}

const ParallelLevel *HwDesc::getParallelLevel(StringRef Name) const {
  for (const ParallelLevel &L : ParallelLevels)
    if (L.Name == Name)
      return &L;
  return nullptr;
}

std::vector<const MatrixInstruction *>
HwDesc::getMatrixInstructions(StringRef AType, StringRef BType,
                              StringRef AccType) const {
  if (BType.empty())
    BType = AType;
  std::vector<const MatrixInstruction *> Out;
  for (const MatrixInstruction &MI : Compute.MatrixInstructions)
    if (MI.AType == AType && MI.BType == BType &&
        (AccType.empty() || MI.AccType == AccType))
      Out.push_back(&MI);
  return Out;
}

bool HwDesc::hasFeature(StringRef Feature) const {
  return is_contained(Tools.Features, Feature);
}

bool HwDesc::acceptsRawLanguage(StringRef Language) const {
  return is_contained(RawLanguages, Language);
}

std::vector<TleMapping> HwDesc::getTleMapping() const {
  std::vector<TleMapping> Out;
  for (LevelKind K : {LevelKind::Grid, LevelKind::Cluster, LevelKind::Block,
                      LevelKind::Warp, LevelKind::Thread}) {
    TleMapping M;
    M.Level = K;
    M.Parallel = getParallelLevel(K);
    // Kernels say `device` for the grid's memory; the other levels use
    // their own names.
    StringRef Name = K == LevelKind::Grid ? "device" : toString(K);
    auto Alias = MemoryAliases.find(Name);
    if (Alias != MemoryAliases.end()) {
      M.ViaAlias = Name.str();
      M.Memory = getMemoryLevel(Name);
    } else if (const MemoryLevel *L = getMemoryLevel(Name)) {
      M.Memory = L;
    } else if (K != LevelKind::Warp) {
      // Otherwise the outermost level a kernel can place data in at that
      // scope: caches are never a home for a buffer.
      MemoryScope S = K == LevelKind::Grid      ? MemoryScope::Device
                      : K == LevelKind::Cluster ? MemoryScope::Cluster
                      : K == LevelKind::Block   ? MemoryScope::Block
                                                : MemoryScope::Thread;
      for (const MemoryLevel &L : MemoryLevels)
        if (L.Scope == S && L.Kind != MemoryKind::Cache) {
          M.Memory = &L;
          break;
        }
    }
    Out.push_back(M);
  }
  return Out;
}

} // namespace hwdesc
} // namespace tle
