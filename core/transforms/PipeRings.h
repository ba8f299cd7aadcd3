//===- PipeRings.h - Block-level storage of TLE-Lite pipes ------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tle.pipe of capacity D lives in block-level local memory as one ring per
// field: a buffer of D slots, each of the field's shape. tle-lower-pipes
// allocates these buffers and tle-check-hwdesc counts them against the
// level's capacity before anything is lowered; both take the types from
// here so that they agree.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TRANSFORMS_PIPERINGS_H
#define TLE_CORE_TRANSFORMS_PIPERINGS_H

#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Support/LogicalResult.h"

namespace mlir::tle {

/// The ring buffer of every field of `pipe`, in field order:
/// `!tle_struct.buffer<D x shape x elem, scope>` (a scalar field has shape
/// [D]). Fails with an error at the pipe when a field cannot be stored in
/// local memory (pointers, or a shape that is not static).
FailureOr<SmallVector<tle_struct::BufferType>> getPipeRingTypes(PipeCreateOp pipe);

} // namespace mlir::tle

#endif // TLE_CORE_TRANSFORMS_PIPERINGS_H
