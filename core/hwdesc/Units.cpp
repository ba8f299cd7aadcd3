//===- Units.cpp - Quantities with units in hardware descriptions ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/Units.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;

namespace tle {
namespace hwdesc {

namespace {
struct UnitEntry {
  StringRef Suffix;
  double Scale;
};
} // namespace

// Units accepted per kind. Case matters: "mb" would be ambiguous between
// millibits and megabytes, so only the spellings vendors print are accepted.
static ArrayRef<UnitEntry> getUnits(UnitKind Kind) {
  static const UnitEntry Sizes[] = {{"B", 1},
                                    {"KB", 1e3},
                                    {"KiB", 1024.0},
                                    {"MB", 1e6},
                                    {"MiB", 1048576.0},
                                    {"GB", 1e9},
                                    {"GiB", 1073741824.0},
                                    {"TB", 1e12},
                                    {"TiB", 1099511627776.0}};
  static const UnitEntry Bandwidths[] = {{"B/s", 1},
                                         {"KB/s", 1e3},
                                         {"MB/s", 1e6},
                                         {"GB/s", 1e9},
                                         {"TB/s", 1e12},
                                         {"KiB/s", 1024.0},
                                         {"MiB/s", 1048576.0},
                                         {"GiB/s", 1073741824.0},
                                         {"TiB/s", 1099511627776.0}};
  static const UnitEntry Frequencies[] = {
      {"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  static const UnitEntry Rates[] = {
      {"FLOP/s", 1},     {"KFLOP/s", 1e3},  {"MFLOP/s", 1e6}, {"GFLOP/s", 1e9},
      {"TFLOP/s", 1e12}, {"PFLOP/s", 1e15}, {"OP/s", 1},      {"KOP/s", 1e3},
      {"MOP/s", 1e6},    {"GOP/s", 1e9},    {"TOP/s", 1e12},  {"POP/s", 1e15}};
  switch (Kind) {
  case UnitKind::Size:
    return Sizes;
  case UnitKind::Bandwidth:
    return Bandwidths;
  case UnitKind::Frequency:
    return Frequencies;
  case UnitKind::Rate:
    return Rates;
  }
  return {};
}

StringRef describeUnitKind(UnitKind Kind) {
  switch (Kind) {
  case UnitKind::Size:
    return "a size such as 228KiB (units B, KB, KiB, MB, MiB, GB, GiB, TB, "
           "TiB)";
  case UnitKind::Bandwidth:
    return "a bandwidth such as 4.8TB/s (units B/s, KB/s, MB/s, GB/s, TB/s, "
           "KiB/s, MiB/s, GiB/s, TiB/s)";
  case UnitKind::Frequency:
    return "a frequency such as 1980MHz (units Hz, kHz, MHz, GHz)";
  case UnitKind::Rate:
    return "a rate such as 989TFLOP/s (units FLOP/s or OP/s with prefix K, "
           "M, G, T, P)";
  }
  return "";
}

std::optional<double> parseQuantity(StringRef Text, UnitKind Kind,
                                    UnitError &Err) {
  StringRef S = Text.trim();
  Err.Expected = describeUnitKind(Kind).str();
  if (S.empty()) {
    Err.Message = "empty value";
    return std::nullopt;
  }
  if (S.front() == '-') {
    Err.Message = "'" + Text.str() + "' is negative";
    return std::nullopt;
  }
  // NUMBER := DIGITS [ '.' DIGITS ]. No exponents: data sheets never use them
  // and "1e3" next to unit letters reads ambiguously.
  size_t I = 0;
  while (I < S.size() && isDigit(S[I]))
    ++I;
  size_t IntDigits = I;
  if (I < S.size() && S[I] == '.') {
    ++I;
    size_t FracStart = I;
    while (I < S.size() && isDigit(S[I]))
      ++I;
    if (I == FracStart)
      IntDigits = 0; // "4." is malformed; reported below.
  }
  if (IntDigits == 0) {
    Err.Message = "'" + Text.str() + "' does not start with a number";
    return std::nullopt;
  }
  StringRef Number = S.take_front(I);
  StringRef Unit = S.drop_front(I).ltrim();
  if (Unit.empty()) {
    Err.Message = "'" + Text.str() + "' has no unit";
    return std::nullopt;
  }
  const UnitEntry *Found = nullptr;
  for (const UnitEntry &U : getUnits(Kind))
    if (U.Suffix == Unit)
      Found = &U;
  if (!Found) {
    Err.Message = "unknown unit '" + Unit.str() + "' in '" + Text.str() + "'";
    return std::nullopt;
  }
  double Value = 0;
  if (Number.getAsDouble(Value) || !std::isfinite(Value)) {
    Err.Message = "'" + Text.str() + "' is not a valid number";
    return std::nullopt;
  }
  Value *= Found->Scale;
  // 2^63: beyond this sizes no longer fit the int64-based arithmetic of the
  // passes that consume them, and no real chip comes close.
  if (!std::isfinite(Value) || Value >= 9.2e18) {
    Err.Message = "'" + Text.str() + "' is too large";
    return std::nullopt;
  }
  if (Kind == UnitKind::Size && Value != std::floor(Value)) {
    Err.Message = "'" + Text.str() + "' is not a whole number of bytes";
    return std::nullopt;
  }
  return Value;
}

std::string formatQuantity(double Value, UnitKind Kind) {
  std::string Out;
  raw_string_ostream OS(Out);
  if (Kind == UnitKind::Size) {
    // The exact unit that gives the smallest number reads best: 60MiB,
    // 141GB, 228KiB. Binary units win ties, as memories are sized in them.
    static const UnitEntry Units[] = {{"TiB", 1099511627776.0}, {"TB", 1e12},
                                      {"GiB", 1073741824.0},    {"GB", 1e9},
                                      {"MiB", 1048576.0},       {"MB", 1e6},
                                      {"KiB", 1024.0},          {"KB", 1e3}};
    const UnitEntry *Best = nullptr;
    for (const UnitEntry &U : Units)
      if (Value >= U.Scale && std::fmod(Value, U.Scale) == 0 &&
          (!Best || Value / U.Scale < Value / Best->Scale))
        Best = &U;
    if (Best)
      OS << format("%.0f", Value / Best->Scale) << Best->Suffix;
    else
      OS << format("%.0f", Value) << "B";
    return Out;
  }
  StringRef Base = Kind == UnitKind::Bandwidth   ? "B/s"
                   : Kind == UnitKind::Frequency ? "Hz"
                                                 : "FLOP/s";
  static const std::pair<double, StringRef> Prefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "K"}};
  for (const auto &[Scale, Prefix] : Prefixes) {
    if (Value < Scale)
      continue;
    // Frequencies read best in MHz, as clocks are quoted that way.
    if (Kind == UnitKind::Frequency && Scale > 1e6)
      continue;
    OS << format("%g", Value / Scale)
       << (Kind == UnitKind::Frequency && Prefix == "K" ? "k" : Prefix) << Base;
    return Out;
  }
  OS << format("%g", Value) << Base;
  return Out;
}

} // namespace hwdesc
} // namespace tle
