//===- Units.h - Quantities with units in hardware descriptions -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Descriptions write figures the way vendor data sheets do ("228KiB",
// "4.8TB/s", "1980MHz", "989TFLOP/s"). These helpers turn them into canonical
// numbers (bytes, bytes/s, Hz, operations/s) and back into readable text.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_HWDESC_UNITS_H
#define TLE_CORE_HWDESC_UNITS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tle {
namespace hwdesc {

enum class UnitKind { Size, Bandwidth, Frequency, Rate };

/// Why a quantity did not parse: Message describes the problem and Expected
/// says what would have been accepted.
struct UnitError {
  std::string Message;
  std::string Expected;
};

/// Parses `NUMBER[ ]UNIT`. Sizes must come out as a whole number of bytes.
/// Decimal prefixes (KB, MB, GB, TB) are powers of 1000 and binary ones (KiB,
/// MiB, GiB, TiB) powers of 1024, as vendors use both.
std::optional<double> parseQuantity(llvm::StringRef Text, UnitKind Kind,
                                    UnitError &Err);

/// Formats a canonical value with the largest unit that keeps it readable,
/// e.g. 62914560 bytes -> "60MiB", 4.8e12 bytes/s -> "4.8TB/s".
std::string formatQuantity(double Value, UnitKind Kind);

/// The phrase used after "expected" in messages, e.g. "a size such as 228KiB".
llvm::StringRef describeUnitKind(UnitKind Kind);

} // namespace hwdesc
} // namespace tle

#endif // TLE_CORE_HWDESC_UNITS_H
