//===- LayoutConversionCounts.h - Fate of layout conversions -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// How many tle.convert_layout ops the lowering of one kernel created, removed
// and distributed, and how each one left was distributed: what
// `tlec --conversion-stats` prints. The passes count into this struct
// because MLIR's pass statistics compile to nothing in LLVM builds without
// assertions (Debian's libMLIR), where `--mlir-pass-statistics` prints zeros.
// Counts are of ops in the IR, not of executions: a conversion in a loop
// counts once. Kept free of MLIR headers: the driver includes it.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_CONVERSION_LAYOUTCONVERSIONCOUNTS_H
#define TLE_CORE_CONVERSION_LAYOUTCONVERSIONCOUNTS_H

namespace tle::conversion {

struct LayoutConversionCounts {
  /// Inserted by tle-assign-layouts where a value's layout is not the one a
  /// user needs.
  unsigned Assigned = 0;
  /// Removed by tle-remove-layout-conversions: the value rebuilt in the
  /// needed layout (indices, masks, pointer offsets), or a stored value
  /// kept in its own layout with the store's pointers and mask rebuilt in
  /// it. Canonicalization and software pipelining, which run between the
  /// two passes, may fold or add a few more.
  unsigned Removed = 0;
  /// Taken into software pipelining by tle-pipeline-loads: a load's copies
  /// write a ring slot in the load's layout, the slot is read back in the
  /// converted one, so the conversion costs no round trip of its own.
  unsigned ReadFromRings = 0;
  /// Left for tle-distribute, by how each is distributed: the same
  /// registers in both layouts (no code), selects among a thread's
  /// registers (a small tile every thread holds whole), lane shuffles
  /// within warps, or a round trip through block-level memory with a
  /// barrier.
  unsigned Free = 0;
  unsigned RegisterSelects = 0;
  unsigned WarpExchanges = 0;
  unsigned ThroughBlockMemory = 0;

  unsigned distributed() const {
    return Free + RegisterSelects + WarpExchanges + ThroughBlockMemory;
  }
};

} // namespace tle::conversion

#endif // TLE_CORE_CONVERSION_LAYOUTCONVERSIONCOUNTS_H
