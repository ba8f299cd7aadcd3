//===- AxisInfo.cpp - Contiguity, divisibility and constancy --------------===//
//
// The transfer functions follow Triton's AxisInfo analysis: run lengths
// combine through gcd, divisibility of a run start multiplies through `*`
// and gcds through `+`.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/AxisInfo.h"

#include "dialects/TLE/TLEDialect.h"
#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tle;

/// Divisibility of zero, and the cap of every divisibility: large enough for
/// any alignment a vector access needs, small enough not to overflow when
/// divisibilities multiply.
static constexpr int64_t kMaxDivisor = int64_t(1) << 30;

static int64_t highestPowerOf2Divisor(int64_t n) {
  if (n == 0)
    return kMaxDivisor;
  int64_t d = n & -n;
  return std::min(d < 0 ? -d : d, kMaxDivisor);
}

static int64_t mulDivisors(int64_t a, int64_t b) {
  return std::min(a * b, kMaxDivisor);
}

static unsigned rankOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return std::max<int64_t>(tensor.getRank(), 1);
  return 1;
}

static SmallVector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getRank() ? SmallVector<int64_t>(tensor.getShape())
                            : SmallVector<int64_t>{1};
  return {1};
}

/// Bytes of one element a pointer (tile) points to; 1 for integers.
static int64_t elementBytes(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (auto ptr = dyn_cast<PointerType>(elem)) {
    Type pointee = ptr.getPointeeType();
    if (isa<PointerType>(pointee))
      return 8;
    return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  }
  return 1;
}

AxisInfo AxisInfo::getPessimistic(unsigned rank) {
  DimVector ones(rank, 1);
  return AxisInfo(ones, ones, ones);
}

AxisInfo AxisInfo::getConstant(ArrayRef<int64_t> shape, int64_t divisibility) {
  return AxisInfo(DimVector(shape.size(), 1),
                  DimVector(shape.size(), divisibility), DimVector(shape));
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized() || lhs == rhs)
    return lhs;
  if (lhs.getRank() != rhs.getRank())
    return getPessimistic(std::max(lhs.getRank(), rhs.getRank()));
  DimVector contiguity, divisibility, constancy;
  for (unsigned d = 0; d < lhs.getRank(); ++d) {
    contiguity.push_back(std::gcd(lhs.contiguity[d], rhs.contiguity[d]));
    divisibility.push_back(std::gcd(lhs.divisibility[d], rhs.divisibility[d]));
    constancy.push_back(std::gcd(lhs.constancy[d], rhs.constancy[d]));
  }
  return AxisInfo(contiguity, divisibility, constancy);
}

void AxisInfo::print(raw_ostream &os) const {
  if (!initialized) {
    os << "<uninitialized>";
    return;
  }
  auto list = [&](ArrayRef<int64_t> v) {
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

namespace {
/// Facts about an operation's first result, from its operands' facts.
class Transfer {
public:
  Transfer(Operation *op, ArrayRef<const AxisInfo *> operands)
      : op(op), operands(operands), rank(rankOf(op->getResult(0).getType())),
        shape(shapeOf(op->getResult(0).getType())) {}

  AxisInfo compute() {
    return llvm::TypeSwitch<Operation *, AxisInfo>(op)
        .Case([&](arith::ConstantOp c) { return constant(c); })
        .Case([&](MakeRangeOp r) {
          int64_t start = static_cast<int32_t>(r.getStart());
          return AxisInfo({shape[0]}, {highestPowerOf2Divisor(start)}, {1});
        })
        .Case([&](SplatOp) {
          return AxisInfo::getConstant(shape, operand(0).getDivisibility(0));
        })
        .Case([&](BroadcastOp b) { return broadcast(b); })
        .Case([&](ExpandDimsOp e) { return expandDims(e); })
        .Case([&](TransOp t) { return trans(t); })
        .Case<AddPtrOp, arith::AddIOp>([&](Operation *) { return add(); })
        .Case([&](arith::SubIOp) { return sub(); })
        .Case([&](arith::MulIOp) { return mul(); })
        .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *) { return rem(); })
        .Case<arith::DivSIOp, arith::DivUIOp>([&](Operation *) { return div(); })
        .Case([&](arith::CmpIOp c) { return cmp(c); })
        .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
            [&](Operation *) { return sameConstancy(); })
        .Case([&](arith::SelectOp) { return select(); })
        .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
              arith::IndexCastOp, BitcastOp, IntToPtrOp, PtrToIntOp,
              ConvertLayoutOp>(
            [&](Operation *) { return operand(0); })
        .Default([&](Operation *) { return AxisInfo::getPessimistic(rank); });
  }

private:
  const AxisInfo &operand(unsigned i) const { return *operands[i]; }

  AxisInfo constant(arith::ConstantOp c) {
    Attribute value = c.getValue();
    if (auto splat = dyn_cast<SplatElementsAttr>(value))
      value = splat.getSplatValue<Attribute>();
    if (auto i = dyn_cast<IntegerAttr>(value)) {
      AxisInfo info = AxisInfo::getConstant(
          shape, highestPowerOf2Divisor(i.getValue().getSExtValue()));
      return info;
    }
    return AxisInfo::getPessimistic(rank);
  }

  AxisInfo broadcast(BroadcastOp b) {
    const AxisInfo &src = operand(0);
    ArrayRef<int64_t> from = b.getSrc().getType().getShape();
    AxisInfo::DimVector contiguity, divisibility, constancy;
    for (unsigned d = 0; d < rank; ++d) {
      bool expanded = from[d] == 1 && shape[d] != 1;
      contiguity.push_back(expanded ? 1 : src.getContiguity(d));
      divisibility.push_back(src.getDivisibility(d));
      constancy.push_back(expanded ? shape[d] : src.getConstancy(d));
    }
    return AxisInfo(contiguity, divisibility, constancy);
  }

  AxisInfo expandDims(ExpandDimsOp e) {
    const AxisInfo &src = operand(0);
    // The new axis starts a run at every element: its divisibility is what
    // every element is known to be divisible by (a contiguous run only
    // guarantees its first element).
    int64_t newDivisibility = kMaxDivisor;
    for (unsigned d = 0; d < src.getRank(); ++d)
      newDivisibility =
          std::gcd(newDivisibility,
                   src.getContiguity(d) > 1 ? 1 : src.getDivisibility(d));
    AxisInfo::DimVector contiguity(src.getContiguity()),
        divisibility(src.getDivisibility()), constancy(src.getConstancy());
    int64_t axis = e.getAxis();
    if (isa<RankedTensorType>(e.getSrc().getType()) &&
        cast<RankedTensorType>(e.getSrc().getType()).getRank() == 0) {
      contiguity.clear();
      divisibility.clear();
      constancy.clear();
    }
    contiguity.insert(contiguity.begin() + axis, 1);
    divisibility.insert(divisibility.begin() + axis, newDivisibility);
    constancy.insert(constancy.begin() + axis, 1);
    return AxisInfo(contiguity, divisibility, constancy);
  }

  AxisInfo trans(TransOp t) {
    const AxisInfo &src = operand(0);
    AxisInfo::DimVector contiguity, divisibility, constancy;
    for (int32_t d : t.getOrder()) {
      contiguity.push_back(src.getContiguity(d));
      divisibility.push_back(src.getDivisibility(d));
      constancy.push_back(src.getConstancy(d));
    }
    return AxisInfo(contiguity, divisibility, constancy);
  }

  /// `lhs + rhs` (addptr scales rhs by the element size).
  AxisInfo add() {
    const AxisInfo &l = operand(0), &r = operand(1);
    int64_t scale = elementBytes(op->getOperand(0).getType());
    AxisInfo::DimVector contiguity, divisibility, constancy;
    for (unsigned d = 0; d < rank; ++d) {
      contiguity.push_back(
          std::max(std::gcd(l.getContiguity(d), r.getConstancy(d)),
                   std::gcd(l.getConstancy(d), r.getContiguity(d))));
      divisibility.push_back(
          std::gcd(l.getDivisibility(d),
                   mulDivisors(r.getDivisibility(d), scale)));
      constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    }
    return AxisInfo(contiguity, divisibility, constancy);
  }

  AxisInfo sub() {
    const AxisInfo &l = operand(0), &r = operand(1);
    AxisInfo::DimVector contiguity, divisibility, constancy;
    for (unsigned d = 0; d < rank; ++d) {
      contiguity.push_back(std::gcd(l.getContiguity(d), r.getConstancy(d)));
      divisibility.push_back(std::gcd(l.getDivisibility(d), r.getDivisibility(d)));
      constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    }
    return AxisInfo(contiguity, divisibility, constancy);
  }

  AxisInfo mul() {
    const AxisInfo &l = operand(0), &r = operand(1);
    std::optional<int64_t> lc = constantValue(op->getOperand(0));
    std::optional<int64_t> rc = constantValue(op->getOperand(1));
    AxisInfo::DimVector contiguity, divisibility, constancy;
    for (unsigned d = 0; d < rank; ++d) {
      // Multiplying by one keeps runs of consecutive values.
      int64_t contig = 1;
      if (rc == 1)
        contig = l.getContiguity(d);
      else if (lc == 1)
        contig = r.getContiguity(d);
      contiguity.push_back(contig);
      // Only a run's first element is known divisible; once a product mixes
      // elements of a run, every element must be.
      int64_t ld = l.getContiguity(d) > 1 && rc != 1 ? 1 : l.getDivisibility(d);
      int64_t rd = r.getContiguity(d) > 1 && lc != 1 ? 1 : r.getDivisibility(d);
      divisibility.push_back(mulDivisors(ld, rd));
      constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    }
    return AxisInfo(contiguity, divisibility, constancy);
  }

  AxisInfo rem() {
    const AxisInfo &l = operand(0), &r = operand(1);
    AxisInfo::DimVector contiguity, divisibility, constancy;
    for (unsigned d = 0; d < rank; ++d) {
      // x % m keeps a run only up to the next multiple of m.
      contiguity.push_back(std::gcd(l.getContiguity(d), r.getDivisibility(d)));
      divisibility.push_back(std::gcd(l.getDivisibility(d), r.getDivisibility(d)));
      constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    }
    return AxisInfo(contiguity, divisibility, constancy);
  }

  AxisInfo div() {
    const AxisInfo &l = operand(0), &r = operand(1);
    AxisInfo::DimVector ones(rank, 1), constancy;
    for (unsigned d = 0; d < rank; ++d)
      constancy.push_back(std::gcd(l.getConstancy(d), r.getConstancy(d)));
    return AxisInfo(ones, ones, constancy);
  }

  AxisInfo cmp(arith::CmpIOp c) {
    const AxisInfo &l = operand(0), &r = operand(1);
    bool ordered = c.getPredicate() != arith::CmpIPredicate::eq &&
                   c.getPredicate() != arith::CmpIPredicate::ne;
    AxisInfo::DimVector ones(rank, 1), constancy;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t runs = std::gcd(l.getConstancy(d), r.getConstancy(d));
      // `offsets < n` over an aligned contiguous run flips only at n: it is
      // constant over chunks that divide the run, its start and n.
      if (ordered && r.getConstancy(d) == shape[d])
        runs = std::max(runs,
                        std::gcd(std::gcd(l.getContiguity(d),
                                          l.getDivisibility(d)),
                                 r.getDivisibility(d)));
      constancy.push_back(runs);
    }
    return AxisInfo(ones, ones, constancy);
  }

  AxisInfo sameConstancy() {
    AxisInfo::DimVector ones(rank, 1), constancy(rank, 0);
    for (const AxisInfo *o : operands)
      for (unsigned d = 0; d < rank; ++d)
        constancy[d] = std::gcd(constancy[d], o->getConstancy(d));
    return AxisInfo(ones, ones, constancy);
  }

  AxisInfo select() {
    const AxisInfo &c = operand(0), &x = operand(1), &y = operand(2);
    AxisInfo::DimVector ones(rank, 1), divisibility, constancy;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t cc = c.getRank() == rank ? c.getConstancy(d) : shape[d];
      divisibility.push_back(std::gcd(x.getDivisibility(d), y.getDivisibility(d)));
      constancy.push_back(
          std::gcd(cc, std::gcd(x.getConstancy(d), y.getConstancy(d))));
    }
    return AxisInfo(ones, divisibility, constancy);
  }

  /// A constant, or a tile splat from one (as descriptor lowering makes
  /// the unit stride it multiplies by).
  static std::optional<int64_t> constantValue(Value v) {
    if (auto splat = v.getDefiningOp<SplatOp>())
      v = splat.getOperand();
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return value.getSExtValue();
    return std::nullopt;
  }

  Operation *op;
  ArrayRef<const AxisInfo *> operands;
  unsigned rank;
  SmallVector<int64_t> shape;
};

/// tl.multiple_of / max_contiguous / max_constancy recorded on the op.
AxisInfo applyHints(Operation *op, AxisInfo info) {
  auto read = [&](StringRef name, AxisInfo::DimVector base) {
    if (auto hint = op->getAttrOfType<DenseI32ArrayAttr>(name))
      if (hint.size() == static_cast<int64_t>(base.size()))
        for (auto [i, v] : llvm::enumerate(hint.asArrayRef()))
          base[i] = v;
    return base;
  };
  return AxisInfo(read("tle.contiguity", info.getContiguity()),
                  read("tle.divisibility", info.getDivisibility()),
                  read("tle.constancy", info.getConstancy()));
}
} // namespace

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const AxisInfoLattice *> operands,
                                 ArrayRef<AxisInfoLattice *> results) {
  if (results.empty())
    return success();
  SmallVector<const AxisInfo *> infos;
  for (const AxisInfoLattice *l : operands) {
    // Wait until every operand is known.
    if (!l->getValue().isInitialized())
      return success();
    infos.push_back(&l->getValue());
  }
  AxisInfo info = applyHints(op, Transfer(op, infos).compute());
  propagateIfChanged(results[0], results[0]->join(info));
  for (AxisInfoLattice *result : results.drop_front())
    setToEntryState(result);
  return success();
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<AxisInfoLattice *> argLattices, unsigned firstIndex) {
  // The induction variable of `for i in range(lb, ub, step)` is divisible by
  // whatever divides both lb and step.
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    auto *ivLattice = llvm::find_if(argLattices, [&](AxisInfoLattice *l) {
      return l->getAnchor() == forOp.getInductionVar();
    });
    if (ivLattice == argLattices.end())
      return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
          op, successor, argLattices, firstIndex);
    auto lb = getLatticeElementFor(getProgramPointAfter(op),
                                   forOp.getLowerBound());
    auto step = getLatticeElementFor(getProgramPointAfter(op),
                                     forOp.getStep());
    // Wait for the bounds: joining a premature pessimistic state could never
    // be undone.
    if (!lb->getValue().isInitialized() || !step->getValue().isInitialized())
      return;
    AxisInfo info({1},
                  {std::gcd(lb->getValue().getDivisibility(0),
                            step->getValue().getDivisibility(0))},
                  {1});
    propagateIfChanged(*ivLattice, (*ivLattice)->join(info));
    return;
  }
  SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
      op, successor, argLattices, firstIndex);
}

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  Value value = lattice->getAnchor();
  AxisInfo info = AxisInfo::getPessimistic(rankOf(value.getType()));
  // Kernel arguments carry the signature's divisibility hints.
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (auto fn =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
        fn && arg.getOwner()->isEntryBlock())
      if (auto div = fn.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                      "tle.divisibility"))
        info = AxisInfo({1}, {div.getInt()}, {1});
  propagateIfChanged(lattice, lattice->join(info));
}

//===----------------------------------------------------------------------===//
// AxisInfoResult
//===----------------------------------------------------------------------===//

AxisInfoResult::AxisInfoResult(Operation *root) {
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<AxisInfoAnalysis>();
  converged = succeeded(solver.initializeAndRun(root));
}

AxisInfo AxisInfoResult::lookup(Value value) const {
  if (converged)
    if (auto *lattice = solver.lookupState<AxisInfoLattice>(value))
      if (lattice->getValue().isInitialized())
        return lattice->getValue();
  return AxisInfo::getPessimistic(rankOf(value.getType()));
}

unsigned AxisInfoResult::getVectorWidth(Value ptr, Value mask,
                                        unsigned maxBytes) const {
  AxisInfo info = lookup(ptr);
  unsigned last = info.getRank() - 1;
  int64_t bytes = elementBytes(ptr.getType());
  int64_t width = std::min<int64_t>(
      {info.getContiguity(last),
       std::max<int64_t>(1, info.getDivisibility(last) / bytes),
       std::max<int64_t>(1, maxBytes / bytes)});
  if (mask)
    width = std::min(width, lookup(mask).getConstancy(last));
  // Vector accesses come in powers of two.
  return width <= 1 ? 1 : unsigned(1) << llvm::Log2_64(width);
}
