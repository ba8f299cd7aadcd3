//===- TLEStructDialect.h - The tle_struct dialect --------------*- C++ -*-===//

#ifndef TLE_DIALECTS_TLESTRUCT_TLESTRUCTDIALECT_H
#define TLE_DIALECTS_TLESTRUCT_TLESTRUCTDIALECT_H

#include "dialects/TLE/TLEDialect.h"

#include "dialects/TLEStruct/TLEStructDialect.h.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/TLEStruct/TLEStructAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/TLEStruct/TLEStructTypes.h.inc"
#define GET_OP_CLASSES
#include "dialects/TLEStruct/TLEStructOps.h.inc"

#endif // TLE_DIALECTS_TLESTRUCT_TLESTRUCTDIALECT_H
