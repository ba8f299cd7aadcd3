//===- AxisInfo.h - Contiguity, divisibility and constancy -------*- C++ -*-===//
//
// For every integer or pointer value (scalar or tile) and each dimension:
//  - contiguity: length of the runs of consecutive values (+1 per element),
//  - divisibility: the largest power of two dividing the first value of each
//    run (bytes for pointers),
//  - constancy: length of the runs of identical values.
// Loads and stores use it to pick their vector width: a contiguous run of
// `n` elements starting at an address divisible by `n * size` can move as
// one vector. Facts come from constants, tl.arange, signature divisibility
// hints (`*fp32:16`) and tl.multiple_of / max_contiguous / max_constancy.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_ANALYSIS_AXISINFO_H
#define TLE_CORE_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tle {

class AxisInfo {
public:
  using DimVector = SmallVector<int64_t, 4>;

  /// The uninitialized state (the lattice's bottom).
  AxisInfo() = default;
  AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy)
      : contiguity(std::move(contiguity)),
        divisibility(std::move(divisibility)),
        constancy(std::move(constancy)), initialized(true) {}

  /// What is known of an arbitrary value of `rank` dimensions (rank 0 for
  /// scalars is stored as one dimension).
  static AxisInfo getPessimistic(unsigned rank);
  /// A value that is the same everywhere in `shape`, divisible by
  /// `divisibility`.
  static AxisInfo getConstant(ArrayRef<int64_t> shape, int64_t divisibility);

  bool isInitialized() const { return initialized; }
  unsigned getRank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned dim) const { return contiguity[dim]; }
  int64_t getDivisibility(unsigned dim) const { return divisibility[dim]; }
  int64_t getConstancy(unsigned dim) const { return constancy[dim]; }
  const DimVector &getContiguity() const { return contiguity; }
  const DimVector &getDivisibility() const { return divisibility; }
  const DimVector &getConstancy() const { return constancy; }

  bool operator==(const AxisInfo &other) const {
    return initialized == other.initialized &&
           contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy;
  }

  /// Facts that hold for both (the gcd of each entry).
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);
  void print(raw_ostream &os) const;

private:
  DimVector contiguity, divisibility, constancy;
  bool initialized = false;
};

class AxisInfoLattice : public dataflow::Lattice<AxisInfo> {
public:
  using Lattice::Lattice;
};

/// The sparse forward analysis computing AxisInfo. Load it into a
/// DataFlowSolver together with DeadCodeAnalysis and
/// SparseConstantPropagation (see AxisInfoResult).
class AxisInfoAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override;
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override;

protected:
  void setToEntryState(AxisInfoLattice *lattice) override;
};

/// Runs the analysis over `root` once and answers queries.
class AxisInfoResult {
public:
  explicit AxisInfoResult(Operation *root);
  /// The facts for `value`, or pessimistic ones when nothing is known.
  AxisInfo lookup(Value value) const;
  /// Elements per vector access through `ptr` (a pointer tile), limited to
  /// `maxBytes` per access and to the mask's constancy when `mask` is set.
  unsigned getVectorWidth(Value ptr, Value mask, unsigned maxBytes) const;

private:
  DataFlowSolver solver;
  bool converged;
};

} // namespace mlir::tle

#endif // TLE_CORE_ANALYSIS_AXISINFO_H
