//===- UnitsTest.cpp - Tests for quantities with units --------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/Units.h"

#include "gtest/gtest.h"

using namespace tle::hwdesc;

namespace {

double parse(llvm::StringRef Text, UnitKind Kind) {
  UnitError Err;
  std::optional<double> V = parseQuantity(Text, Kind, Err);
  EXPECT_TRUE(V.has_value()) << Text.str() << ": " << Err.Message;
  return V.value_or(-1);
}

std::string parseError(llvm::StringRef Text, UnitKind Kind) {
  UnitError Err;
  std::optional<double> V = parseQuantity(Text, Kind, Err);
  EXPECT_FALSE(V.has_value()) << Text.str();
  EXPECT_FALSE(Err.Expected.empty());
  return Err.Message;
}

TEST(UnitsTest, Sizes) {
  EXPECT_EQ(parse("228KiB", UnitKind::Size), 233472);
  EXPECT_EQ(parse("60MiB", UnitKind::Size), 62914560);
  EXPECT_EQ(parse("141GB", UnitKind::Size), 141e9);
  EXPECT_EQ(parse("232448B", UnitKind::Size), 232448);
  EXPECT_EQ(parse("1.5KiB", UnitKind::Size), 1536);
  EXPECT_EQ(parse("64 KiB", UnitKind::Size), 65536);
  EXPECT_EQ(parse("2TiB", UnitKind::Size), 2199023255552.0);
}

TEST(UnitsTest, OtherKinds) {
  EXPECT_EQ(parse("4.8TB/s", UnitKind::Bandwidth), 4.8e12);
  EXPECT_EQ(parse("3.35TB/s", UnitKind::Bandwidth), 3.35e12);
  EXPECT_EQ(parse("1980MHz", UnitKind::Frequency), 1.98e9);
  EXPECT_EQ(parse("2.1GHz", UnitKind::Frequency), 2.1e9);
  EXPECT_EQ(parse("989TFLOP/s", UnitKind::Rate), 989e12);
  EXPECT_EQ(parse("1979TOP/s", UnitKind::Rate), 1979e12);
}

TEST(UnitsTest, Errors) {
  EXPECT_EQ(parseError("228KiBB", UnitKind::Size),
            "unknown unit 'KiBB' in '228KiBB'");
  EXPECT_EQ(parseError("228", UnitKind::Size), "'228' has no unit");
  EXPECT_EQ(parseError("-4KiB", UnitKind::Size), "'-4KiB' is negative");
  EXPECT_EQ(parseError("KiB", UnitKind::Size),
            "'KiB' does not start with a number");
  EXPECT_EQ(parseError("0.3B", UnitKind::Size),
            "'0.3B' is not a whole number of bytes");
  EXPECT_EQ(parseError("4.8TB", UnitKind::Bandwidth),
            "unknown unit 'TB' in '4.8TB'");
  EXPECT_EQ(parseError("1980mhz", UnitKind::Frequency),
            "unknown unit 'mhz' in '1980mhz'");
  EXPECT_EQ(parseError("", UnitKind::Rate), "empty value");
  EXPECT_EQ(parseError("99999999999TiB", UnitKind::Size),
            "'99999999999TiB' is too large");
  EXPECT_EQ(parseError("4.KiB", UnitKind::Size),
            "'4.KiB' does not start with a number");
}

TEST(UnitsTest, Format) {
  EXPECT_EQ(formatQuantity(233472, UnitKind::Size), "228KiB");
  EXPECT_EQ(formatQuantity(62914560, UnitKind::Size), "60MiB");
  EXPECT_EQ(formatQuantity(141e9, UnitKind::Size), "141GB");
  EXPECT_EQ(formatQuantity(1000, UnitKind::Size), "1KB");
  EXPECT_EQ(formatQuantity(232448, UnitKind::Size), "227KiB");
  EXPECT_EQ(formatQuantity(7, UnitKind::Size), "7B");
  EXPECT_EQ(formatQuantity(4.8e12, UnitKind::Bandwidth), "4.8TB/s");
  EXPECT_EQ(formatQuantity(1.98e9, UnitKind::Frequency), "1980MHz");
  EXPECT_EQ(formatQuantity(989e12, UnitKind::Rate), "989TFLOP/s");
}

TEST(UnitsTest, RoundTrip) {
  for (double V : {233472.0, 62914560.0, 141e9, 65536.0, 4096.0})
    EXPECT_EQ(parse(formatQuantity(V, UnitKind::Size), UnitKind::Size), V);
}

} // namespace
