//===- Build.cpp - From a validated tree to the HwDesc model --------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Runs only on trees that passed validation, so every value read here is
// known to be well-typed; absent optional keys keep the model's defaults.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/HwDesc.h"
#include "core/hwdesc/Node.h"
#include "core/hwdesc/Schema.h"
#include "core/hwdesc/Units.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace tle {
namespace hwdesc {

namespace {
/// Typed reads from one mapping of the tree.
struct Reader {
  const Node *N;

  std::string str(StringRef Key) const {
    const Node *V = N ? N->get(Key) : nullptr;
    return V && V->Kind == Node::Scalar ? V->Text : std::string();
  }
  int64_t integer(StringRef Key, int64_t Default = 0) const {
    int64_t V = Default;
    std::string S = str(Key);
    if (!S.empty() && StringRef(S).getAsInteger(10, V))
      V = Default;
    return V;
  }
  double qty(StringRef Key, UnitKind Kind) const {
    UnitError Err;
    return parseQuantity(str(Key), Kind, Err).value_or(0);
  }
  bool boolean(StringRef Key, bool Default) const {
    std::string S = str(Key);
    return S.empty() ? Default : S == "true";
  }
  std::vector<std::string> strings(StringRef Key) const {
    std::vector<std::string> Out;
    if (const Node *V = N ? N->get(Key) : nullptr)
      for (const Node &I : V->Items)
        Out.push_back(I.Text);
    return Out;
  }
  std::vector<int64_t> ints(StringRef Key) const {
    std::vector<int64_t> Out;
    if (const Node *V = N ? N->get(Key) : nullptr)
      for (const Node &I : V->Items) {
        int64_t X = 0;
        (void)StringRef(I.Text).getAsInteger(10, X);
        Out.push_back(X);
      }
    return Out;
  }
  std::vector<Reader> items(StringRef Key) const {
    std::vector<Reader> Out;
    if (const Node *V = N ? N->get(Key) : nullptr)
      for (const Node &I : V->Items)
        Out.push_back(Reader{&I});
    return Out;
  }
  Reader sub(StringRef Key) const { return Reader{N ? N->get(Key) : nullptr}; }
};

template <typename E> E enumFrom(ArrayRef<std::string> Names, StringRef Text) {
  auto It = find(Names, Text);
  return E(It == Names.end() ? 0 : It - Names.begin());
}
} // namespace

struct Builder {
  static std::unique_ptr<HwDesc> build(std::shared_ptr<const Node> Tree,
                                       StringRef SourceFile);
};

std::unique_ptr<HwDesc> Builder::build(std::shared_ptr<const Node> Tree,
                                       StringRef SourceFile) {
  auto D = std::make_unique<HwDesc>();
  Reader R{Tree.get()};
  D->Name = R.str("name");
  D->Vendor = R.str("vendor");
  D->Backend = R.str("backend");
  D->Arch = R.str("arch");
  D->Description = R.str("description");
  D->SourceFile = SourceFile.str();

  Reader P = R.sub("parallel");
  D->ProcessorCount = P.integer("processor_count");
  D->ProcessorName = P.str("processor_name");
  D->WarpSize = P.integer("warp_size");
  D->SubgroupSizes = P.ints("subgroup_sizes");
  if (D->SubgroupSizes.empty())
    D->SubgroupSizes.push_back(D->WarpSize);
  for (const Reader &L : P.items("levels")) {
    ParallelLevel PL;
    PL.Name = L.str("name");
    PL.Kind = enumFrom<LevelKind>(getLevelKindNames(), L.str("kind"));
    PL.Size = L.integer("size");
    PL.MaxThreads = L.integer("max_threads");
    PL.MaxBlocks = L.integer("max_blocks");
    PL.MaxBlocksNonPortable = L.integer("max_blocks_nonportable", PL.MaxBlocks);
    PL.MaxDims = L.ints("max_dims");
    PL.MaxResident = L.integer("max_resident");
    D->ParallelLevels.push_back(std::move(PL));
  }

  Reader M = R.sub("memory");
  for (const Reader &L : M.items("levels")) {
    MemoryLevel ML;
    ML.Name = L.str("name");
    ML.Scope = enumFrom<MemoryScope>(getMemoryScopeNames(), L.str("scope"));
    ML.Kind = enumFrom<MemoryKind>(getMemoryKindNames(), L.str("kind"));
    ML.Size = uint64_t(L.qty("size", UnitKind::Size));
    ML.Bandwidth = L.qty("bandwidth", UnitKind::Bandwidth);
    ML.LatencyCycles = L.integer("latency_cycles");
    ML.Banks = L.integer("banks");
    ML.BankWidth = uint64_t(L.qty("bank_width", UnitKind::Size));
    ML.AddressSpace = L.integer("address_space", -1);
    ML.Alignment = uint64_t(L.qty("alignment", UnitKind::Size));
    // Caches are the only levels a kernel cannot place data in by hand.
    ML.SoftwareManaged =
        L.boolean("software_managed", ML.Kind != MemoryKind::Cache);
    D->MemoryLevels.push_back(std::move(ML));
  }
  if (M.N)
    if (const Node *A = M.N->get("aliases"))
      for (const MapEntry &E : A->Entries)
        D->MemoryAliases[E.Key] = E.Value.Text;

  Reader C = R.sub("compute");
  D->Compute.Clock = C.qty("clock", UnitKind::Frequency);
  D->Compute.BaseClock = C.qty("base_clock", UnitKind::Frequency);
  for (auto [Key, Map] : {std::pair<StringRef, StringMap<double> *>{
                              "matrix_rates", &D->Compute.MatrixRates},
                          {"vector_rates", &D->Compute.VectorRates}})
    if (const Node *Rates = C.N ? C.N->get(Key) : nullptr)
      for (const MapEntry &E : Rates->Entries) {
        UnitError Err;
        (*Map)[E.Key] =
            parseQuantity(E.Value.Text, UnitKind::Rate, Err).value_or(0);
      }
  for (const Reader &I : C.items("matrix_instructions")) {
    MatrixInstruction MI;
    MI.Name = I.str("name");
    MI.M = I.integer("m");
    MI.N = I.integer("n");
    MI.K = I.integer("k");
    MI.AType = I.str("a_type");
    MI.BType = I.str("b_type");
    MI.AccType = I.str("acc_type");
    MI.Level = enumFrom<IssueLevel>(getIssueLevelNames(), I.str("level"));
    D->Compute.MatrixInstructions.push_back(std::move(MI));
  }
  D->Compute.VectorWidth = uint64_t(C.qty("vector_width", UnitKind::Size));
  D->Compute.SfuPerProcessor = C.integer("sfu_per_processor");

  Reader L = R.sub("limits");
  D->Lim.RegistersPerThread = L.integer("registers_per_thread");
  D->Lim.RegistersPerBlock = L.integer("registers_per_block");
  D->Lim.RegistersPerProcessor = L.integer("registers_per_processor");
  D->Lim.SharedPerBlock = uint64_t(L.qty("shared_per_block", UnitKind::Size));
  D->Lim.SharedPerBlockOptin =
      uint64_t(L.qty("shared_per_block_optin", UnitKind::Size));
  if (!D->Lim.SharedPerBlockOptin)
    D->Lim.SharedPerBlockOptin = D->Lim.SharedPerBlock;
  D->Lim.SharedPerProcessor =
      uint64_t(L.qty("shared_per_processor", UnitKind::Size));

  Reader T = R.sub("toolchain");
  D->Tools.IsaVersion = T.str("isa_version");
  D->Tools.Triple = T.str("triple");
  D->Tools.Features = T.strings("features");
  D->RawLanguages = R.sub("raw").strings("languages");

  D->Tree = std::move(Tree);
  return D;
}

std::unique_ptr<HwDesc> buildHwDesc(std::shared_ptr<const Node> Tree,
                                    StringRef SourceFile) {
  return Builder::build(std::move(Tree), SourceFile);
}

} // namespace hwdesc
} // namespace tle
