//===- OccupancyTest.cpp - Resident blocks and register budgets -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaOccupancy.h"

#include "core/hwdesc/HwDesc.h"

#include "gtest/gtest.h"

using namespace tle;
using namespace tle::nvidia;

namespace {

const char *const HwDescDir = TLE_SOURCE_DIR "/hwdesc";

std::unique_ptr<hwdesc::HwDesc> load(llvm::StringRef Text) {
  hwdesc::LoadOptions Opts;
  Opts.SearchPath.push_back(HwDescDir);
  std::vector<hwdesc::Diagnostic> Diags;
  std::unique_ptr<hwdesc::HwDesc> D = hwdesc::loadBuffer(
      Text, std::string(HwDescDir) + "/test.yaml", Opts, Diags);
  for (const hwdesc::Diagnostic &Diag : Diags)
    ADD_FAILURE() << Diag.str();
  return D;
}

std::unique_ptr<hwdesc::HwDesc> loadH200() {
  return load("name: H200 test\nextends: h200\n");
}

// Numbers checked against ptxas 13.0 under .reqntid/.minnctapersm and CUDA's
// occupancy calculator.
TEST(OccupancyTest, ResidentBlocksOnH200) {
  std::unique_ptr<hwdesc::HwDesc> D = loadH200();
  ASSERT_TRUE(D);
  // The 128x128x32 matmul at 4 warps: 48 KiB of shared memory.
  EXPECT_EQ(getResidentBlocks(*D, 128, 178, 49152), 2u);
  EXPECT_EQ(getResidentBlocks(*D, 128, 168, 49152), 3u);
  EXPECT_EQ(getResidentBlocks(*D, 128, 0, 49152), 4u);
  // 2048 threads per SM; 32 blocks.
  EXPECT_EQ(getResidentBlocks(*D, 1024, 16, 0), 2u);
  EXPECT_EQ(getResidentBlocks(*D, 32, 16, 0), 32u);
  // No shared memory still costs the 1 KiB the driver reserves per block.
  EXPECT_EQ(getResidentBlocks(*D, 32, 0, 227 * 1024), 1u);
  EXPECT_EQ(getResidentBlocks(*D, 32, 0, 113 * 1024), 2u);
  // Registers go by sub-partition: 2 warps of 104 registers fit 4 warps in
  // each of the four (16 in all: 8 blocks), not 19 warps of the SM's 65536.
  EXPECT_EQ(getResidentBlocks(*D, 64, 104, 0), 8u);
}

TEST(OccupancyTest, RegisterBudgets) {
  std::unique_ptr<hwdesc::HwDesc> D = loadH200();
  ASSERT_TRUE(D);
  EXPECT_EQ(getRegisterBudget(*D, 128, 3), 168u);
  EXPECT_EQ(getRegisterBudget(*D, 256, 2), 128u);
  EXPECT_EQ(getRegisterBudget(*D, 64, 9), 96u);
  EXPECT_EQ(getRegisterBudget(*D, 160, 5), 72u);
  // Never above the per-thread limit.
  EXPECT_EQ(getRegisterBudget(*D, 32, 1), 255u);
}

TEST(OccupancyTest, BlocksToRequest) {
  std::unique_ptr<hwdesc::HwDesc> D = loadH200();
  ASSERT_TRUE(D);
  EXPECT_EQ(getBlocksToRequest(*D, 128, 178, 49152), 3u);
  // Shared memory limits as much as registers: 96 KiB at 8 warps.
  EXPECT_EQ(getBlocksToRequest(*D, 256, 108, 98304), std::nullopt);
  // One more block would take 111 -> 96 registers, more than an eighth.
  EXPECT_EQ(getBlocksToRequest(*D, 128, 111, 36864), std::nullopt);
  // Registers do not limit.
  EXPECT_EQ(getBlocksToRequest(*D, 256, 32, 16384), std::nullopt);
  EXPECT_EQ(getBlocksToRequest(*D, 128, 0, 49152), std::nullopt);
  // Never beyond what the kernel is held to.
  EXPECT_EQ(getBlocksToRequest(*D, 128, 178, 49152, 3), 3u);
  EXPECT_EQ(getBlocksToRequest(*D, 128, 178, 49152, 2), std::nullopt);
}

TEST(OccupancyTest, SharedBytesHoldingBlocks) {
  std::unique_ptr<hwdesc::HwDesc> D = loadH200();
  ASSERT_TRUE(D);
  // 168 registers and 48 KiB admit 3 blocks of 4 warps. 77952 bytes admit 2:
  // three of them exceed the SM's 228 KiB (233472 bytes) even without the
  // 1 KiB reserved per block, and it is the least multiple of 128 that does.
  EXPECT_EQ(getSharedBytesHoldingBlocks(*D, 128, 168, 49152, 0, 2), 77952u);
  EXPECT_EQ(getResidentBlocks(*D, 128, 168, 77952), 2u);
  EXPECT_GT(3u * 77952u, 233472u);
  EXPECT_LE(3u * (77952u - 128u), 233472u);
  // What the binary declares itself counts against the same block.
  EXPECT_EQ(getSharedBytesHoldingBlocks(*D, 128, 168, 49152, 1024, 2), 76928u);
  EXPECT_EQ(getSharedBytesHoldingBlocks(*D, 128, 168, 49152, 100, 2), 77852u);
  // Held to one: more than half of the SM.
  EXPECT_EQ(getSharedBytesHoldingBlocks(*D, 128, 32, 1024, 0, 1), 116864u);
  EXPECT_EQ(getResidentBlocks(*D, 128, 32, 116864), 1u);
  // Already held by registers (178: 2 blocks) or by shared memory alone.
  EXPECT_EQ(getSharedBytesHoldingBlocks(*D, 128, 178, 49152, 0, 2),
            std::nullopt);
  EXPECT_EQ(getSharedBytesHoldingBlocks(*D, 128, 32, 98304, 0, 2),
            std::nullopt);
  // Nothing holds a kernel to no block at all.
  EXPECT_EQ(getSharedBytesHoldingBlocks(*D, 128, 168, 49152, 0, 0),
            std::nullopt);
  // Nor beyond what one block may opt in to.
  std::unique_ptr<hwdesc::HwDesc> Small =
      load("name: small opt-in\nextends: h200\n"
           "limits: {shared_per_block_optin: 64KiB}\n");
  ASSERT_TRUE(Small);
  EXPECT_EQ(getSharedBytesHoldingBlocks(*Small, 128, 168, 49152, 0, 2),
            std::nullopt);
}

TEST(OccupancyTest, MatrixKernelBlockHold) {
  // Global memory bytes per thousand fp16 matrix FLOPs: H100 SXM 3.4 (held
  // to 2), H200 4.9, H20 27, A100 6.5 (not held).
  for (const char *Chip : {"h100-sxm", "h200", "h20", "a100"}) {
    std::unique_ptr<hwdesc::HwDesc> D =
        load(std::string("name: test\nextends: ") + Chip + "\n");
    ASSERT_TRUE(D);
    EXPECT_EQ(getMatrixKernelBlockHold(*D), llvm::StringRef(Chip) == "h100-sxm"
                                                ? std::optional<unsigned>(2)
                                                : std::nullopt)
        << Chip;
  }
  // Either figure missing: not held.
  std::unique_ptr<hwdesc::HwDesc> NoRate =
      load("name: test\nextends: h100-sxm\n");
  ASSERT_TRUE(NoRate);
  NoRate->Compute.MatrixRates.erase("fp16");
  EXPECT_EQ(getMatrixKernelBlockHold(*NoRate), std::nullopt);
  std::unique_ptr<hwdesc::HwDesc> NoBandwidth =
      load("name: test\nextends: h100-sxm\n");
  ASSERT_TRUE(NoBandwidth);
  for (hwdesc::MemoryLevel &Level : NoBandwidth->MemoryLevels)
    Level.Bandwidth = 0;
  EXPECT_EQ(getMatrixKernelBlockHold(*NoBandwidth), std::nullopt);
}

TEST(OccupancyTest, WarpgroupMma) {
  EXPECT_TRUE(issuesWarpgroupMma(
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {...}"));
  EXPECT_FALSE(issuesWarpgroupMma("wgmma.fence.sync.aligned;\n"
                                  "mma.sync.aligned.m16n8k16"));
}

TEST(OccupancyTest, DescriptionsWithoutReservationOrLimits) {
  // Before sm_80 nothing is reserved per block; a kernel without shared
  // memory must not divide by zero.
  std::unique_ptr<hwdesc::HwDesc> Volta =
      load("name: Volta-like\nextends: h200\narch: sm_70\n"
           "limits: {shared_per_block_optin: 228KiB}\n");
  ASSERT_TRUE(Volta);
  EXPECT_EQ(getResidentBlocks(*Volta, 128, 0, 0), 16u);
  EXPECT_EQ(getResidentBlocks(*Volta, 128, 0, 114 * 1024), 2u);
  // Without the reservation 3 blocks of 76 KiB fit; held to 2 by 77952.
  EXPECT_EQ(getResidentBlocks(*Volta, 128, 0, 76 * 1024), 3u);
  EXPECT_EQ(getSharedBytesHoldingBlocks(*Volta, 128, 0, 76 * 1024, 0, 2),
            77952u);
  EXPECT_EQ(getResidentBlocks(*Volta, 128, 0, 77952), 2u);
}

TEST(OccupancyTest, RequestResidentBlocks) {
  std::optional<std::string> Ptx = requestResidentBlocks(
      ".visible .entry k(\n\t.param .u32 k_param_0\n)\n.reqntid 128, 1, 1\n{\n"
      "\tret;\n}\n",
      3);
  ASSERT_TRUE(Ptx);
  EXPECT_NE(Ptx->find(")\n.reqntid 128, 1, 1\n.minnctapersm 3\n{\n"),
            std::string::npos);
  EXPECT_EQ(requestResidentBlocks(".visible .entry k()\n{\n}\n", 3),
            std::nullopt);
}

TEST(OccupancyTest, SerializedWarpgroupMma) {
  EXPECT_TRUE(reportsSerializedWarpgroupMma(
      "ptxas info    : (C7512) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to insufficient register resources "
      "for the function 'k'"));
  EXPECT_FALSE(reportsSerializedWarpgroupMma(
      "ptxas info    : Used 168 registers, used 1 barriers"));
}

} // namespace
