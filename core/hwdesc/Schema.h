//===- Schema.h - Machine-checkable schema of hardware descriptions -*- C++
//-*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The schema is a table in C++ rather than a separate file so that the
// loader cannot run without it and so that the same table drives validation,
// the Markdown key reference embedded in hwdesc/SCHEMA.md (a test diffs the
// two) and the comments of `tle-hwdesc new`.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_HWDESC_SCHEMA_H
#define TLE_CORE_HWDESC_SCHEMA_H

#include "core/hwdesc/Units.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tle {
namespace hwdesc {

enum class ValueType {
  Map,        // fixed keys, listed in Fields
  List,       // elements described by Element[0]
  DynMap,     // keys from KeyValues (or any identifier), values Element[0]
  String,     // any scalar
  Identifier, // [A-Za-z_][A-Za-z0-9_.-]*
  Enum,       // one of EnumValues
  Int,        // decimal integer in [Min, Max]
  Bool,       // true or false
  Quantity,   // number with a unit of kind Unit
};

struct SchemaField;

struct SchemaNode {
  ValueType Type = ValueType::String;
  std::vector<SchemaField> Fields;
  std::vector<SchemaNode> Element;
  std::vector<std::string> EnumValues;
  /// For DynMap: the allowed keys; empty means any identifier.
  std::vector<std::string> KeyValues;
  /// For Enum: values starting with this prefix are accepted too, so that
  /// vendors can add their own feature flags without a schema change.
  std::string OpenPrefix;
  int64_t Min = INT64_MIN, Max = INT64_MAX;
  bool PowerOfTwo = false;
  /// For List: maximum number of elements (0 = unbounded).
  unsigned MaxItems = 0;
  UnitKind Unit = UnitKind::Size;
  /// For Quantity: reject zero.
  bool NonZero = false;
};

struct SchemaField {
  std::string Key;
  bool Required = false;
  std::string Doc;
  SchemaNode Node;
};

const SchemaNode &getSchema();

/// Short type name for documentation and "expected" phrases.
std::string describeType(const SchemaNode &N);

/// Canonical orders used by the consistency checks and the TLE mapping.
llvm::ArrayRef<std::string> getLevelKindNames();
llvm::ArrayRef<std::string> getMemoryScopeNames();
llvm::ArrayRef<std::string> getMemoryKindNames();
llvm::ArrayRef<std::string> getIssueLevelNames();

} // namespace hwdesc
} // namespace tle

#endif // TLE_CORE_HWDESC_SCHEMA_H
