//===- Consistency.cpp - Cross-key rules for hardware descriptions --------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Rules that no single key can check: the order of levels, unique names,
// alias targets and limits that must agree. Passes downstream rely on these
// (e.g. layout assignment assumes the warp size divides the block size), so a
// description that breaks them is rejected rather than half-used.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/Units.h"
#include "core/hwdesc/Validate.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tle {
namespace hwdesc {

namespace {
/// A well-typed value read back from the tree, with where it was written.
template <typename T> struct Located {
  T Value;
  const Node *N;
};
} // namespace

static std::optional<Located<int64_t>> getInt(const Node *Parent,
                                              StringRef Key) {
  const Node *N = Parent ? Parent->get(Key) : nullptr;
  int64_t V;
  if (!N || N->Kind != Node::Scalar || N->Quoted ||
      StringRef(N->Text).getAsInteger(10, V))
    return std::nullopt;
  return Located<int64_t>{V, N};
}

static std::optional<Located<double>> getQty(const Node *Parent, StringRef Key,
                                             UnitKind Kind) {
  const Node *N = Parent ? Parent->get(Key) : nullptr;
  if (!N || N->Kind != Node::Scalar)
    return std::nullopt;
  UnitError Err;
  std::optional<double> V = parseQuantity(N->Text, Kind, Err);
  if (!V)
    return std::nullopt;
  return Located<double>{*V, N};
}

static std::string getText(const Node *Parent, StringRef Key) {
  const Node *N = Parent ? Parent->get(Key) : nullptr;
  return N && N->Kind == Node::Scalar ? N->Text : std::string();
}

static std::string at(const Loc &L) {
  return (L.File ? *L.File : std::string()) + ":" + std::to_string(L.Line) +
         ":" + std::to_string(L.Col);
}

static int indexOf(ArrayRef<std::string> Names, StringRef Name) {
  auto It = find(Names, Name);
  return It == Names.end() ? -1 : int(It - Names.begin());
}

static void checkParallel(const Node &Root, DiagSink &Diags) {
  const Node *P = Root.get("parallel");
  const Node *Levels = P ? P->get("levels") : nullptr;
  if (!Levels || Levels->Kind != Node::Seq)
    return;
  std::optional<Located<int64_t>> Warp = getInt(P, "warp_size");
  ArrayRef<std::string> Kinds = getLevelKindNames();
  StringMap<const Node *> Seen;
  int PrevKind = -1;
  std::string PrevKindName;
  std::vector<bool> HaveKind(Kinds.size(), false);
  for (size_t I = 0; I < Levels->Items.size(); ++I) {
    const Node &L = Levels->Items[I];
    if (L.Kind != Node::Map)
      continue;
    std::string Path = "parallel.levels[" + std::to_string(I) + "]";
    std::string Name = getText(&L, "name");
    if (!Name.empty()) {
      auto [It, New] = Seen.try_emplace(Name, L.get("name"));
      if (!New)
        Diags.error(L.get("name")->L, Path + ".name",
                    "duplicate level name '" + Name + "'",
                    "a unique name; first defined at " + at(It->second->L));
    }
    std::string KindName = getText(&L, "kind");
    int Kind = indexOf(Kinds, KindName);
    if (Kind >= 0) {
      if (Kind <= PrevKind)
        Diags.error(L.get("kind")->L, Path + ".kind",
                    "level of kind '" + KindName + "' after one of kind '" +
                        PrevKindName + "'",
                    "levels ordered outermost to innermost, each kind once: "
                    "grid, cluster, block, warp, thread");
      else {
        PrevKind = Kind;
        PrevKindName = KindName;
      }
      HaveKind[Kind] = true;
    }
    bool IsCluster = KindName == "cluster";
    for (StringRef Key : {"max_blocks", "max_blocks_nonportable"})
      if (!IsCluster && L.get(Key))
        Diags.error(L.get(Key)->L, Path + "." + Key.str(),
                    "only allowed on a level of kind 'cluster'");
    auto MaxB = getInt(&L, "max_blocks");
    auto MaxBN = getInt(&L, "max_blocks_nonportable");
    if (MaxB && MaxBN && MaxBN->Value < MaxB->Value)
      Diags.error(MaxBN->N->L, Path + ".max_blocks_nonportable",
                  std::to_string(MaxBN->Value) + " is less than max_blocks (" +
                      std::to_string(MaxB->Value) + ")",
                  "a value >= max_blocks");
    auto Size = getInt(&L, "size");
    if (KindName == "warp" && Warp && Size && Size->Value != Warp->Value)
      Diags.error(Size->N->L, Path + ".size",
                  std::to_string(Size->Value) +
                      " differs from parallel.warp_size (" +
                      std::to_string(Warp->Value) + ")",
                  "the warp size");
    auto MaxT = getInt(&L, "max_threads");
    if (KindName == "block" && Warp && Warp->Value > 0 && MaxT &&
        MaxT->Value % Warp->Value != 0)
      Diags.error(MaxT->N->L, Path + ".max_threads",
                  std::to_string(MaxT->Value) +
                      " is not a multiple of parallel.warp_size (" +
                      std::to_string(Warp->Value) + ")",
                  "a multiple of the warp size");
  }
  for (size_t K = 0; K < Kinds.size(); ++K)
    if (!HaveKind[K] && Kinds[K] != "cluster")
      Diags.error(Levels->L, "parallel.levels",
                  "no level of kind '" + Kinds[K] + "'",
                  "levels of kinds grid, block, warp and thread; cluster is "
                  "optional");

  // The default subgroup size must be one the chip can actually run.
  const Node *Sub = P->get("subgroup_sizes");
  if (Warp && Sub && Sub->Kind == Node::Seq) {
    bool Found = any_of(Sub->Items, [&](const Node &N) {
      return N.Kind == Node::Scalar && N.Text == std::to_string(Warp->Value);
    });
    if (!Found)
      Diags.error(Sub->L, "parallel.subgroup_sizes",
                  "does not contain parallel.warp_size (" +
                      std::to_string(Warp->Value) + ")",
                  "a list that includes the warp size");
  }
}

static void checkMemory(const Node &Root, DiagSink &Diags) {
  const Node *M = Root.get("memory");
  const Node *Levels = M ? M->get("levels") : nullptr;
  if (!Levels || Levels->Kind != Node::Seq)
    return;
  ArrayRef<std::string> Scopes = getMemoryScopeNames();
  StringMap<const Node *> Names;
  int PrevScope = -1;
  std::string PrevScopeName;
  bool HaveGlobal = false;
  for (size_t I = 0; I < Levels->Items.size(); ++I) {
    const Node &L = Levels->Items[I];
    if (L.Kind != Node::Map)
      continue;
    std::string Path = "memory.levels[" + std::to_string(I) + "]";
    std::string Name = getText(&L, "name");
    if (!Name.empty()) {
      auto [It, New] = Names.try_emplace(Name, L.get("name"));
      if (!New)
        Diags.error(L.get("name")->L, Path + ".name",
                    "duplicate level name '" + Name + "'",
                    "a unique name; first defined at " + at(It->second->L));
    }
    std::string ScopeName = getText(&L, "scope");
    int Scope = indexOf(Scopes, ScopeName);
    if (Scope >= 0) {
      if (Scope < PrevScope)
        Diags.error(L.get("scope")->L, Path + ".scope",
                    "level of scope '" + ScopeName + "' after one of scope '" +
                        PrevScopeName + "'",
                    "levels ordered outermost to innermost: device, cluster, "
                    "block, thread");
      else {
        PrevScope = Scope;
        PrevScopeName = ScopeName;
      }
    }
    std::string Kind = getText(&L, "kind");
    HaveGlobal |= Kind == "global";
    const Node *SM = L.get("software_managed");
    if (Kind == "cache" && SM && SM->Kind == Node::Scalar && SM->Text == "true")
      Diags.error(SM->L, Path + ".software_managed",
                  "a level of kind 'cache' cannot be software-managed",
                  "false, or kind scratchpad/shared");
  }
  if (!HaveGlobal)
    Diags.error(Levels->L, "memory.levels", "no level of kind 'global'",
                "one level where kernel arguments point");

  const Node *Aliases = M->get("aliases");
  if (!Aliases || Aliases->Kind != Node::Map)
    return;
  std::vector<std::string> LevelNames;
  for (const auto &E : Names)
    LevelNames.push_back(E.getKey().str());
  llvm::sort(LevelNames);
  for (const MapEntry &E : Aliases->Entries) {
    std::string Path = "memory.aliases." + E.Key;
    if (Names.count(E.Key))
      Diags.error(E.KeyLoc, Path,
                  "alias '" + E.Key + "' has the name of a memory level",
                  "a name that is not a level name");
    if (E.Value.Kind != Node::Scalar || Names.count(E.Value.Text))
      continue;
    std::string Close = closestMatch(E.Value.Text, LevelNames);
    Diags.error(E.Value.L, Path,
                "alias target '" + E.Value.Text + "' is not a memory level" +
                    (Close.empty() ? "" : ", did you mean '" + Close + "'?"),
                Close.empty() ? "one of: " + join(LevelNames, ", ") : "");
  }
}

static void checkLimits(const Node &Root, DiagSink &Diags) {
  const Node *L = Root.get("limits");
  if (!L || L->Kind != Node::Map)
    return;
  auto Def = getQty(L, "shared_per_block", UnitKind::Size);
  auto Optin = getQty(L, "shared_per_block_optin", UnitKind::Size);
  auto PerProc = getQty(L, "shared_per_processor", UnitKind::Size);
  auto Fmt = [](double V) { return formatQuantity(V, UnitKind::Size); };
  if (Def && Optin && Optin->Value < Def->Value)
    Diags.error(Optin->N->L, "limits.shared_per_block_optin",
                Fmt(Optin->Value) + " is less than shared_per_block (" +
                    Fmt(Def->Value) + ")",
                "opt-in >= default");
  if (Def && PerProc && Def->Value > PerProc->Value)
    Diags.error(Def->N->L, "limits.shared_per_block",
                Fmt(Def->Value) + " exceeds shared_per_processor (" +
                    Fmt(PerProc->Value) + ")",
                "shared per block <= shared per processor");
  if (Optin && PerProc && Optin->Value > PerProc->Value)
    Diags.error(Optin->N->L, "limits.shared_per_block_optin",
                Fmt(Optin->Value) + " exceeds shared_per_processor (" +
                    Fmt(PerProc->Value) + ")",
                "shared per block <= shared per processor");
  auto RegT = getInt(L, "registers_per_thread");
  auto RegB = getInt(L, "registers_per_block");
  auto RegP = getInt(L, "registers_per_processor");
  if (RegT && RegB && RegT->Value > RegB->Value)
    Diags.error(RegT->N->L, "limits.registers_per_thread",
                std::to_string(RegT->Value) + " exceeds registers_per_block (" +
                    std::to_string(RegB->Value) + ")",
                "per thread <= per block");
  if (RegB && RegP && RegB->Value > RegP->Value)
    Diags.error(RegB->N->L, "limits.registers_per_block",
                std::to_string(RegB->Value) +
                    " exceeds registers_per_processor (" +
                    std::to_string(RegP->Value) + ")",
                "per block <= per processor");
}

void checkConsistency(const Node &Root, DiagSink &Diags) {
  if (Root.Kind != Node::Map)
    return;
  checkParallel(Root, Diags);
  checkMemory(Root, Diags);
  checkLimits(Root, Diags);
}

} // namespace hwdesc
} // namespace tle
