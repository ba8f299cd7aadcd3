//===- Validate.h - Internal helpers shared by the checks -------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_HWDESC_VALIDATE_H
#define TLE_CORE_HWDESC_VALIDATE_H

#include "core/hwdesc/Node.h"
#include "core/hwdesc/Schema.h"

namespace tle {
namespace hwdesc {

/// The phrase after "expected" for a value of schema type S.
std::string describeExpected(const SchemaNode &S);
bool isIdentifier(llvm::StringRef S);
SchemaNode ident();

/// Cross-key rules: level order, unique names, alias targets, limits that
/// must agree with each other. Values with type errors are skipped here; the
/// schema check has already reported them.
void checkConsistency(const Node &Root, DiagSink &Diags);

} // namespace hwdesc
} // namespace tle

#endif // TLE_CORE_HWDESC_VALIDATE_H
