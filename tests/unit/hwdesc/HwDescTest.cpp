//===- HwDescTest.cpp - Tests for loading and querying descriptions -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/HwDesc.h"

#include "gtest/gtest.h"

using namespace tle::hwdesc;

namespace {

const char *const HwDescDir = TLE_SOURCE_DIR "/hwdesc";

std::unique_ptr<HwDesc> loadShipped(llvm::StringRef Name) {
  LoadOptions Opts;
  Opts.SearchPath.push_back(HwDescDir);
  std::optional<std::string> File = findTarget(Name, Opts.SearchPath);
  EXPECT_TRUE(File.has_value()) << Name.str();
  if (!File)
    return nullptr;
  std::vector<Diagnostic> Diags;
  std::unique_ptr<HwDesc> D = loadFile(*File, Opts, Diags);
  for (const Diagnostic &Diag : Diags)
    ADD_FAILURE() << Diag.str();
  return D;
}

std::vector<std::string> loadErrors(llvm::StringRef Text) {
  std::vector<Diagnostic> Diags;
  LoadOptions Opts;
  Opts.SearchPath.push_back(HwDescDir);
  std::unique_ptr<HwDesc> D = loadBuffer(Text, "mem.yaml", Opts, Diags);
  EXPECT_EQ(D, nullptr);
  std::vector<std::string> Out;
  for (const Diagnostic &Diag : Diags)
    Out.push_back(Diag.str());
  return Out;
}

TEST(HwDescTest, FindTargetIgnoresCase) {
  std::vector<std::string> Path{HwDescDir};
  for (llvm::StringRef Name :
       {"H200", "h200", "mi300x", "H100 SXM", "h100_sxm"})
    EXPECT_TRUE(findTarget(Name, Path).has_value()) << Name.str();
  EXPECT_FALSE(findTarget("h300", Path).has_value());
  EXPECT_FALSE(findTarget("", Path).has_value());
}

TEST(HwDescTest, H200) {
  std::unique_ptr<HwDesc> D = loadShipped("H200");
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->Backend, "nvidia");
  EXPECT_EQ(D->Arch, "sm_90a");
  EXPECT_EQ(D->ProcessorCount, 132);
  EXPECT_EQ(D->getWarpSize(), 32);
  EXPECT_EQ(D->Compute.Clock, 1.98e9);
  EXPECT_EQ(D->getLimits().SharedPerBlockOptin, 232448u);
  EXPECT_EQ(D->getLimits().SharedPerBlock, 49152u);
  EXPECT_EQ(D->getLimits().RegistersPerThread, 255);

  const MemoryLevel *Block = D->getMemoryLevel("block");
  ASSERT_NE(Block, nullptr);
  EXPECT_EQ(Block->Name, "shared");
  EXPECT_EQ(Block->Kind, MemoryKind::Shared);
  EXPECT_EQ(Block->AddressSpace, 3);
  EXPECT_EQ(Block->Size, 233472u);
  EXPECT_TRUE(Block->SoftwareManaged);
  const MemoryLevel *L2 = D->getMemoryLevel("l2");
  ASSERT_NE(L2, nullptr);
  EXPECT_EQ(L2->Size, 62914560u);
  EXPECT_FALSE(L2->SoftwareManaged);
  ASSERT_NE(D->getMemoryLevel("global"), nullptr);
  EXPECT_EQ(D->getMemoryLevel("global")->Bandwidth, 4.8e12);
  EXPECT_EQ(D->getMemoryLevel("nonexistent"), nullptr);

  EXPECT_TRUE(D->hasFeature("tma"));
  EXPECT_TRUE(D->hasFeature("wgmma"));
  EXPECT_FALSE(D->hasFeature("mfma"));
  EXPECT_TRUE(D->acceptsRawLanguage("ptx"));
  EXPECT_FALSE(D->acceptsRawLanguage("hip"));

  const ParallelLevel *Cluster = D->getParallelLevel(LevelKind::Cluster);
  ASSERT_NE(Cluster, nullptr);
  EXPECT_EQ(Cluster->MaxBlocks, 8);
  EXPECT_EQ(Cluster->MaxBlocksNonPortable, 16);
  EXPECT_EQ(D->getParallelLevel(LevelKind::Block)->MaxThreads, 1024);
}

TEST(HwDescTest, MatrixInstructions) {
  std::unique_ptr<HwDesc> D = loadShipped("h100-sxm");
  ASSERT_NE(D, nullptr);
  auto F16 = D->getMatrixInstructions("fp16");
  ASSERT_FALSE(F16.empty());
  EXPECT_EQ(F16.front()->Level, IssueLevel::Warpgroup);
  EXPECT_EQ(F16.front()->M, 64);
  auto F16Acc16 = D->getMatrixInstructions("fp16", "fp16", "fp16");
  for (const MatrixInstruction *MI : F16Acc16)
    EXPECT_EQ(MI->AccType, "fp16");
  EXPECT_TRUE(D->getMatrixInstructions("fp64", "fp64").size() >= 1);
  EXPECT_TRUE(D->getMatrixInstructions("int4").empty());

  std::unique_ptr<HwDesc> Mi = loadShipped("mi300x");
  ASSERT_NE(Mi, nullptr);
  EXPECT_EQ(Mi->getWarpSize(), 64);
  auto Bf16 = Mi->getMatrixInstructions("bf16");
  ASSERT_FALSE(Bf16.empty());
  EXPECT_EQ(Bf16.front()->Level, IssueLevel::Wavefront);
  EXPECT_TRUE(Mi->hasFeature("mfma"));
}

TEST(HwDescTest, DsaMapsBlockToScratchpad) {
  std::unique_ptr<HwDesc> D = loadShipped("dsa-spirv");
  ASSERT_NE(D, nullptr);
  const MemoryLevel *Block = D->getMemoryLevel("block");
  ASSERT_NE(Block, nullptr);
  EXPECT_EQ(Block->Name, "spm");
  EXPECT_EQ(Block->Kind, MemoryKind::Scratchpad);
  for (const MemoryLevel &L : D->MemoryLevels)
    EXPECT_NE(L.Kind, MemoryKind::Cache) << L.Name;
  EXPECT_EQ(D->Backend, "spirv");

  std::vector<TleMapping> Map = D->getTleMapping();
  ASSERT_EQ(Map.size(), 5u);
  EXPECT_EQ(Map[2].Level, LevelKind::Block);
  ASSERT_NE(Map[2].Memory, nullptr);
  EXPECT_EQ(Map[2].Memory->Name, "spm");
  EXPECT_EQ(Map[2].ViaAlias, "block");
}

TEST(HwDescTest, CpuSpirvUsesWorkgroupStorage) {
  std::unique_ptr<HwDesc> D = loadShipped("cpu-spirv");
  ASSERT_NE(D, nullptr);
  const MemoryLevel *Block = D->getMemoryLevel("block");
  ASSERT_NE(Block, nullptr);
  EXPECT_EQ(Block->Kind, MemoryKind::Shared);
  // SPIR-V's Workgroup storage class.
  EXPECT_EQ(Block->AddressSpace, 3);
  EXPECT_TRUE(D->acceptsRawLanguage("opencl"));
}

TEST(HwDescTest, FlattenKeysListsByName) {
  std::unique_ptr<HwDesc> D = loadShipped("h200");
  ASSERT_NE(D, nullptr);
  bool Found = false;
  for (const auto &[Key, Value] : D->flatten())
    if (Key == "memory.levels[l2].size") {
      Found = true;
      EXPECT_EQ(Value, "60MiB");
    }
  EXPECT_TRUE(Found);
}

TEST(HwDescTest, ReportsEveryProblem) {
  std::vector<std::string> Errs = loadErrors(R"(name: x
vendor: y
backend: nvidia
arch: sm_90
parallel:
  processor_count: -1
  warp_size: 48
  levels: []
memory:
  levels: []
compute:
  clock: 1GHzz
limits:
  registers_per_thread: 255
  shared_per_block: 48KiB
)");
  ASSERT_GE(Errs.size(), 4u);
  EXPECT_EQ(Errs[0], "mem.yaml:6:20: error: parallel.processor_count: -1 is "
                     "out of range (expected an integer in [1, 1048576])");
  EXPECT_EQ(Errs[1], "mem.yaml:7:14: error: parallel.warp_size: 48 is not a "
                     "power of two (expected an integer in [1, 1024] that is "
                     "a power of two)");
}

TEST(HwDescTest, InvalidYamlNeverThrows) {
  for (llvm::StringRef Text :
       {"", "[", "{a: b", "name: [", "- a\n- b", "&a [*a]",
        ": : :", "name: !!binary x", "extends: /dev/zero",
        "extends: h200\nextends: x"}) {
    std::vector<Diagnostic> Diags;
    LoadOptions Opts;
    EXPECT_EQ(loadBuffer(Text, "bad.yaml", Opts, Diags), nullptr);
    EXPECT_FALSE(Diags.empty()) << Text.str();
  }
}

TEST(HwDescTest, AbstractNeedsOptIn) {
  std::vector<Diagnostic> Diags;
  LoadOptions Opts;
  std::string Path = std::string(HwDescDir) + "/nvidia-hopper.yaml";
  EXPECT_EQ(loadFile(Path, Opts, Diags), nullptr);
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_NE(Diags[0].Message.find("family base"), std::string::npos);
  Diags.clear();
  Opts.AllowAbstract = true;
  EXPECT_EQ(loadFile(Path, Opts, Diags), nullptr);
  EXPECT_TRUE(Diags.empty());
}

} // namespace
