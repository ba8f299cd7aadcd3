//===- WarpExchangeTest.cpp - Layout conversions by lane shuffles ---------===//
//
// Runs the plans of planWarpExchange on a model of a warp (each lane's
// registers holding their tensor indices, a shuffle reading another lane's
// published word) and checks that every destination register ends up with
// the element its layout names: for the layouts of Hopper's wgmma (the
// accumulator and the 8-bit A fragment, 32 lanes), which the CPU tests
// cannot run, and for blocked layouts.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"
#include "dialects/Registration.h"
#include "dialects/TLE/TLEDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <map>

using namespace mlir;
using namespace mlir::tle;
using ::tle::conversion::distribute::planWarpExchange;
using ::tle::conversion::distribute::WarpExchangePlan;

namespace {

class WarpExchangeTest : public ::testing::Test {
protected:
  WarpExchangeTest() {
    DialectRegistry registry;
    mlir::tle::registerTLEDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  DistributedLayoutAttrInterface layout(StringRef text) {
    return cast<DistributedLayoutAttrInterface>(parseAttribute(text, &context));
  }

  /// Runs `plan` on every warp; fails the test where a destination register
  /// of some lane does not get the element `dst` places there.
  void simulate(const WarpExchangePlan &plan,
                DistributedLayoutAttrInterface src,
                DistributedLayoutAttrInterface dst, ArrayRef<int64_t> shape) {
    unsigned lanes = src.getWarpSize(), perWord = plan.elemsPerWord;
    using Index = SmallVector<int64_t>;
    for (unsigned warp = 0; warp < src.getNumWarps(); ++warp) {
      // words[lane][word][position]: the indices a lane's registers hold.
      std::vector<std::vector<std::vector<Index>>> words(lanes);
      for (unsigned lane = 0; lane < lanes; ++lane)
        for (unsigned w = 0; w < plan.srcRegs / perWord; ++w) {
          words[lane].emplace_back();
          for (unsigned p = 0; p < perWord; ++p)
            words[lane][w].push_back(src.getTensorIndex(
                shape, lane, warp, plan.getSourceRegister(w, p)));
        }
      std::vector<std::vector<std::optional<Index>>> out(
          lanes, std::vector<std::optional<Index>>(plan.dstRegs));
      for (const WarpExchangePlan::Round &round : plan.rounds) {
        for (unsigned lane = 0; lane < lanes; ++lane) {
          int32_t from = round.srcLane[lane];
          for (const WarpExchangePlan::Fill &fill : round.fills) {
            int32_t position = fill.positions[lane];
            if (position < 0)
              continue;
            ASSERT_GE(from, 0);
            int32_t word = round.word[from];
            ASSERT_GE(word, 0) << "lane " << from << " publishes nothing";
            ASSERT_FALSE(out[lane][fill.reg]) << "filled twice";
            out[lane][fill.reg] = words[from][word][position];
          }
        }
      }
      for (unsigned lane = 0; lane < lanes; ++lane)
        for (unsigned reg = 0; reg < plan.dstRegs; ++reg) {
          ASSERT_TRUE(out[lane][reg].has_value())
              << "warp " << warp << " lane " << lane << " reg " << reg;
          EXPECT_EQ(*out[lane][reg], dst.getTensorIndex(shape, lane, warp, reg))
              << "warp " << warp << " lane " << lane << " reg " << reg;
        }
    }
  }

  MLIRContext context;
};

// The first product's accumulator (16 rows per warp, column pairs) to the
// second product's 8-bit A (runs of 4 columns): an exchange inside each
// quad of lanes, one word of 4 bytes per round, 8 rounds for the 32 bytes a
// thread holds (Triton's 8 shuffles).
TEST_F(WarpExchangeTest, WgmmaAccumulatorToEightBitA) {
  auto acc = layout(
      "#tle.linear<shape = [128, 64], regs = [[0, 1], [0, 8], [0, 16], "
      "[0, 32], [8, 0]], lanes = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "
      "warps = [[16, 0], [32, 0], [64, 0]]>");
  auto a = layout(
      "#tle.linear<shape = [128, 64], regs = [[0, 1], [0, 2], [0, 16], "
      "[0, 32], [8, 0]], lanes = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "
      "warps = [[16, 0], [32, 0], [64, 0]]>");
  std::optional<WarpExchangePlan> plan =
      planWarpExchange(acc, a, {128, 64}, 8, /*maxRounds=*/100);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->rounds.size(), 8u);
  simulate(*plan, acc, a, {128, 64});
  // The same registers as 16- and 32-bit values.
  for (unsigned bits : {16u, 32u}) {
    plan = planWarpExchange(acc, a, {128, 64}, bits, 100);
    ASSERT_TRUE(plan);
    simulate(*plan, acc, a, {128, 64});
  }
  // Back again.
  plan = planWarpExchange(a, acc, {128, 64}, 8, 100);
  ASSERT_TRUE(plan);
  simulate(*plan, a, acc, {128, 64});
}

// A transposition of each warp's 8 x 8 block between two blocked layouts.
TEST_F(WarpExchangeTest, BlockedTransposeInWarp) {
  auto rows = layout("#tle.blocked<sizePerThread = [1, 2], threadsPerWarp = "
                     "[8, 4], warpsPerCTA = [4, 1], order = [1, 0]>");
  auto cols = layout("#tle.blocked<sizePerThread = [2, 1], threadsPerWarp = "
                     "[4, 8], warpsPerCTA = [4, 1], order = [0, 1]>");
  for (unsigned bits : {8u, 16u, 32u}) {
    std::optional<WarpExchangePlan> plan =
        planWarpExchange(rows, cols, {32, 8}, bits, 100);
    ASSERT_TRUE(plan) << bits;
    simulate(*plan, rows, cols, {32, 8});
  }
}

// Elements that change warps, and more rounds than allowed, are refused.
TEST_F(WarpExchangeTest, Refusals) {
  auto byRows = layout("#tle.blocked<sizePerThread = [1, 1], threadsPerWarp "
                       "= [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>");
  auto byCols = layout("#tle.blocked<sizePerThread = [1, 1], threadsPerWarp "
                       "= [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>");
  EXPECT_FALSE(planWarpExchange(byRows, byCols, {32, 128}, 32, 100));
  auto acc = layout(
      "#tle.linear<shape = [64, 64], regs = [[0, 1], [0, 8], [0, 16], "
      "[0, 32], [8, 0]], lanes = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "
      "warps = [[16, 0], [32, 0]]>");
  auto a = layout(
      "#tle.linear<shape = [64, 64], regs = [[0, 1], [0, 2], [0, 16], "
      "[0, 32], [8, 0]], lanes = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "
      "warps = [[16, 0], [32, 0]]>");
  EXPECT_FALSE(planWarpExchange(acc, a, {64, 64}, 8, /*maxRounds=*/7));
  // A source whose lanes hold copies (rows of 4 lanes replicated 8 times).
  auto copies = layout("#tle.blocked<sizePerThread = [1], threadsPerWarp = "
                       "[32], warpsPerCTA = [1], order = [0]>");
  auto once = layout("#tle.blocked<sizePerThread = [4], threadsPerWarp = "
                     "[32], warpsPerCTA = [1], order = [0]>");
  EXPECT_FALSE(planWarpExchange(copies, once, {4}, 32, 100));
}

} // namespace
