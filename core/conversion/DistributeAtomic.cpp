//===- DistributeAtomic.cpp - tl.atomic_* through the target --------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle.atomic_rmw and tle.atomic_cas become one TargetInfo::emitAtomic per
// element, guarded by the op's mask and by ownership: a layout that
// replicates a tensor over lanes or warps (a 64-element tile on 128 threads)
// must still update each element once, so only the thread holding the
// canonical copy performs the atomic. A scalar atomic is performed by thread
// 0 alone. When the old values are used, the owners publish them through
// block-level scratch so that every copy sees the value its owner got.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::AtomicKind;
using ::tle::backend::BarrierScope;

namespace {

/// How one element is updated: `kind` on the operand's bits; float max/min
/// are two integer atomics chosen by the operand's sign (IEEE floats of one
/// sign order like their bits), as Triton does.
struct AtomicPlan {
  AtomicKind kind;
  /// For float max/min: the kind used when the operand is negative; `kind`
  /// then applies to non-negative operands, both on the integer bits.
  std::optional<AtomicKind> negativeKind;
};

FailureOr<AtomicPlan> planRMW(RMWKind kind, Type elem) {
  bool isFloat = isa<FloatType>(elem);
  switch (kind) {
  case RMWKind::Add:
  case RMWKind::FAdd:
    return AtomicPlan{isFloat ? AtomicKind::FAdd : AtomicKind::Add, {}};
  case RMWKind::Max:
    if (isFloat)
      return AtomicPlan{AtomicKind::Max, AtomicKind::UMin};
    return AtomicPlan{AtomicKind::Max, {}};
  case RMWKind::Min:
    if (isFloat)
      return AtomicPlan{AtomicKind::Min, AtomicKind::UMax};
    return AtomicPlan{AtomicKind::Min, {}};
  case RMWKind::UMax:
    return AtomicPlan{AtomicKind::UMax, {}};
  case RMWKind::UMin:
    return AtomicPlan{AtomicKind::UMin, {}};
  case RMWKind::And:
    return AtomicPlan{AtomicKind::And, {}};
  case RMWKind::Or:
    return AtomicPlan{AtomicKind::Or, {}};
  case RMWKind::Xor:
    return AtomicPlan{AtomicKind::Xor, {}};
  case RMWKind::Xchg:
    return AtomicPlan{AtomicKind::Exchange, {}};
  }
  return failure();
}

/// owners[i] && masks[i], either may be absent.
SmallVector<Value> andMasks(OpBuilder &b, Location loc, ArrayRef<Value> owners,
                            ValueRange masks) {
  SmallVector<Value> preds;
  for (auto [i, owner] : llvm::enumerate(owners)) {
    Value pred = owner;
    if (!masks.empty())
      pred = pred ? arith::AndIOp::create(b, loc, pred, masks[i]).getResult()
                  : masks[i];
    preds.push_back(pred);
  }
  return preds;
}

/// Runs `body` where `pred` holds (always when null) and yields its value,
/// zero elsewhere.
FailureOr<Value> emitGuarded(OpBuilder &b, Location loc, Value pred, Type type,
                             function_ref<FailureOr<Value>(OpBuilder &)> body) {
  if (!pred)
    return body(b);
  bool failedBody = false;
  auto ifOp = scf::IfOp::create(
      b, loc, pred,
      [&](OpBuilder &tb, Location l) {
        FailureOr<Value> v = body(tb);
        if (failed(v)) {
          failedBody = true;
          scf::YieldOp::create(tb, l,
                               LLVM::ZeroOp::create(tb, l, type).getResult());
          return;
        }
        scf::YieldOp::create(tb, l, *v);
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l,
                             LLVM::ZeroOp::create(eb, l, type).getResult());
      });
  if (failedBody)
    return failure();
  return ifOp.getResult(0);
}

/// Makes every copy of a replicated result hold its owner's value: owners
/// write at the element's row-major position, all threads read it back.
FailureOr<SmallVector<Value>> publishFromOwners(OpBuilder &b, Location loc,
                                                DistributeState &st, Type like,
                                                ArrayRef<Value> values,
                                                ArrayRef<Value> owners) {
  if (llvm::all_of(owners, [](Value o) { return !o; }))
    return SmallVector<Value>(values);
  Type elem = values[0].getType();
  auto tensor = dyn_cast<RankedTensorType>(like);
  uint64_t count = tensor ? tensor.getNumElements() : 1;
  FailureOr<Value> base = allocScratch(b, loc, st, scratchType(elem), count);
  if (failed(base))
    return failure();
  SmallVector<Value> slots;
  if (tensor) {
    auto indices =
        emitIndices(b, loc, st.target, tensor.getEncoding(), tensor.getShape());
    if (failed(indices))
      return failure();
    for (auto &index : *indices)
      slots.push_back(linearizeIndex(b, loc, index, tensor.getShape()));
  } else {
    slots.push_back(i32Const(b, loc, 0));
  }
  for (unsigned i = 0; i < values.size(); ++i) {
    if (!owners[i]) {
      storeScratch(b, loc, *base, slots[i], values[i]);
      continue;
    }
    scf::IfOp::create(b, loc, owners[i], [&](OpBuilder &tb, Location l) {
      storeScratch(tb, l, *base, slots[i], values[i]);
      scf::YieldOp::create(tb, l);
    });
  }
  if (failed(st.target.emitBarrier(b, loc, BarrierScope::Block)))
    return failure();
  SmallVector<Value> result;
  for (Value slot : slots)
    result.push_back(loadScratch(b, loc, *base, slot, elem));
  if (failed(emitScratchRelease(b, loc, st)))
    return failure();
  return result;
}

/// Checks that the target has `kind` on `type` in the address space of `ptr`.
LogicalResult checkSupported(Operation *op, DistributeState &st,
                             AtomicKind kind, StringRef what, Type type,
                             Value ptr) {
  unsigned as = cast<LLVM::LLVMPointerType>(ptr.getType()).getAddressSpace();
  if (st.target.supportsAtomic(kind, type, as))
    return success();
  return op->emitError() << "'" << op->getName() << "' " << what << " on "
                         << type << " in address space " << as
                         << " is not supported by the target";
}

struct AtomicRMWConversion : DistPattern<AtomicRMWOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getResult().getType()));
    FailureOr<AtomicPlan> plan = planRMW(op.getKind(), elem);
    if (failed(plan))
      return op.emitError("unknown atomic kind");
    ValueRange ptrs = adaptor.getPtr();
    ValueRange vals = adaptor.getValue();
    ValueRange masks = op.getMask() ? adaptor.getMask() : ValueRange();
    // Float max/min work on the bits as integers of the same width.
    Type opType = elem;
    if (plan->negativeKind)
      opType = rewriter.getIntegerType(elem.getIntOrFloatBitWidth());
    StringRef what = stringifyRMWKind(op.getKind());
    if (failed(checkSupported(op, st, plan->kind, what, opType, ptrs[0])) ||
        (plan->negativeKind &&
         failed(checkSupported(op, st, *plan->negativeKind, what, opType,
                               ptrs[0]))))
      return failure();

    auto owners =
        emitValueOwners(rewriter, loc, st.target, op.getPtr().getType());
    if (failed(owners))
      return failure();
    SmallVector<Value> preds = andMasks(rewriter, loc, *owners, masks);
    SmallVector<Value> olds;
    for (unsigned i = 0; i < ptrs.size(); ++i) {
      Value ptr = ptrs[i], val = vals[i];
      auto body = [&](OpBuilder &b) -> FailureOr<Value> {
        if (!plan->negativeKind)
          return st.target.emitAtomic(b, loc, plan->kind, ptr, val);
        Value bits = arith::BitcastOp::create(b, loc, opType, val);
        Value negative = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::slt, bits,
            arith::ConstantOp::create(b, loc, b.getIntegerAttr(opType, 0)));
        bool failedAtomic = false;
        auto ifOp = scf::IfOp::create(
            b, loc, negative,
            [&](OpBuilder &tb, Location l) {
              FailureOr<Value> old =
                  st.target.emitAtomic(tb, l, *plan->negativeKind, ptr, bits);
              failedAtomic |= failed(old);
              scf::YieldOp::create(
                  tb, l,
                  succeeded(old)
                      ? *old
                      : LLVM::ZeroOp::create(tb, l, opType).getResult());
            },
            [&](OpBuilder &eb, Location l) {
              FailureOr<Value> old =
                  st.target.emitAtomic(eb, l, plan->kind, ptr, bits);
              failedAtomic |= failed(old);
              scf::YieldOp::create(
                  eb, l,
                  succeeded(old)
                      ? *old
                      : LLVM::ZeroOp::create(eb, l, opType).getResult());
            });
        if (failedAtomic)
          return failure();
        return arith::BitcastOp::create(b, loc, elem, ifOp.getResult(0))
            .getResult();
      };
      FailureOr<Value> old = emitGuarded(rewriter, loc, preds[i], elem, body);
      if (failed(old))
        return failure();
      olds.push_back(*old);
    }
    if (!op.getResult().use_empty()) {
      auto published = publishFromOwners(
          rewriter, loc, st, op.getResult().getType(), olds, *owners);
      if (failed(published))
        return failure();
      olds = std::move(*published);
    }
    rewriter.replaceOpWithMultiple(op, {olds});
    return success();
  }
};

struct AtomicCASConversion : DistPattern<AtomicCASOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(AtomicCASOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getResult().getType()));
    ValueRange ptrs = adaptor.getPtr();
    ValueRange cmps = adaptor.getCmp();
    ValueRange vals = adaptor.getValue();
    if (failed(checkSupported(op, st, AtomicKind::CompareExchange, "cas", elem,
                              ptrs[0])))
      return failure();
    auto owners =
        emitValueOwners(rewriter, loc, st.target, op.getPtr().getType());
    if (failed(owners))
      return failure();
    SmallVector<Value> olds;
    for (unsigned i = 0; i < ptrs.size(); ++i) {
      FailureOr<Value> old =
          emitGuarded(rewriter, loc, (*owners)[i], elem, [&](OpBuilder &b) {
            return st.target.emitAtomic(b, loc, AtomicKind::CompareExchange,
                                        ptrs[i], vals[i], cmps[i]);
          });
      if (failed(old))
        return failure();
      olds.push_back(*old);
    }
    if (!op.getResult().use_empty()) {
      auto published = publishFromOwners(
          rewriter, loc, st, op.getResult().getType(), olds, *owners);
      if (failed(published))
        return failure();
      olds = std::move(*published);
    }
    rewriter.replaceOpWithMultiple(op, {olds});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateAtomicPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<AtomicRMWConversion, AtomicCASConversion>(
      tc, patterns.getContext(), st);
}
