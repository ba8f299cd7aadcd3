//===- TLERawDialect.h - The tle_raw dialect --------------------*- C++ -*-===//

#ifndef TLE_DIALECTS_TLERAW_TLERAWDIALECT_H
#define TLE_DIALECTS_TLERAW_TLERAWDIALECT_H

#include "dialects/TLE/TLEDialect.h"

#include "dialects/TLERaw/TLERawDialect.h.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/TLERaw/TLERawAttrs.h.inc"
#define GET_OP_CLASSES
#include "dialects/TLERaw/TLERawOps.h.inc"

namespace mlir::tle_raw {
/// The native languages a variant may be written in.
ArrayRef<StringRef> getKnownLanguages();
} // namespace mlir::tle_raw

#endif // TLE_DIALECTS_TLERAW_TLERAWDIALECT_H
