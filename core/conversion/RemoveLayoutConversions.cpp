//===- RemoveLayoutConversions.cpp - Rebuild values instead of moving them ===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tle.convert_layout costs a round trip through block-level memory and two
// barriers. Many conversions that layout assignment leaves move values that
// are cheap to compute again: index arithmetic, masks and pointer offsets
// built from tl.arange, splats and constants (in matmul, the K mask that both
// operand loads share). Such a conversion is removed by building its source
// again, directly in the wanted layout (backward rematerialization, as
// Triton's RemoveLayoutConversions does):
//
//   %m = arith.cmpi slt, %offs, %k : tensor<1x32xi1, #A>
//   %c = tle.convert_layout %m : ... #A -> ... #B
// becomes
//   %m2 = arith.cmpi slt, %offs2, %k2 : tensor<1x32xi1, #B>
//
// with %offs2 and %k2 rebuilt the same way. The slice must consist of
// make_range, splat, dense constants, expand_dims, broadcast, reshapes that
// only insert size-1 dimensions, pure elementwise ops (no memory access) and
// other conversions; it is cloned
// next to the original ops, so a conversion inside a loop of loop-invariant
// values is replaced by values built once before the loop. A slice may
// also start from a value that cannot be rebuilt (a load) but is already
// converted to the needed layout in its block: that conversion moves up to
// right after the value and the slice is rebuilt from it (indices loaded
// once, converted once, the masks computed from them rebuilt, not each
// converted). A conversion inside the slice whose source is made by an op
// that cannot be rebuilt (a reduction) converts that source to the needed
// layout instead when the slice it fed then goes: a row statistic converted
// to a 1-D layout, computed on there and converted again to be stored
// (reduction, sqrt, expand_dims, store) takes one conversion instead of
// two. The originals go when nothing else uses them.
//
// Stores to global memory may also move to their value's layout instead,
// the value, pointers and mask rebuilt there: a value converted from a
// blocked layout whose threads hold whole vectors of the store's (the
// result of tl.interleave: 8 contiguous floats per thread where the store
// wanted 4), and a tile with fewer elements than the block has threads (as
// Triton's layout propagation leaves such stores in their value's layout):
// a row statistic stored as a [BLOCK_M, 1] column keeps the reduction's
// blocked layout, one owner thread writing each element.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/Passes.h"

#include "dialects/TLE/TLEDialect.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tle;

namespace {

/// Slices larger than this are not duplicated: a conversion is one round trip
/// through memory, a long chain of arithmetic per element may cost more.
constexpr unsigned kMaxSliceOps = 32;
/// A tile smaller than the block is stored in another layout only where a
/// thread holds at most this many registers of it (one store each).
constexpr unsigned kMaxSmallStoreRegisters = 16;

Type withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

/// Whether `layout` can be given to a tensor of `shape`: blocked layouts
/// (and their slices) apply to any shape of their rank, a linear layout to
/// its own shape and to that shape with size-1 dimensions (the operands of
/// the expand_dims and broadcast that bring a row statistic back into it).
bool fitsShape(Attribute layout, ArrayRef<int64_t> shape) {
  if (auto linear = dyn_cast<LinearLayoutAttr>(layout))
    return linear.appliesTo(shape);
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    return fitsShape(slice.getParent(), slice.getParentShape(shape));
  return isa<BlockedLayoutAttr>(layout);
}

/// The dimensions of a reshape's result that it inserts, of size 1, when it
/// only inserts such dimensions (tl.reshape(x, [1, N, 1]) of an [N] tile, as
/// the indicator tiles of tl.sort are made): the operand laid out in the
/// result's layout sliced at them keeps every element in its thread.
std::optional<SmallVector<unsigned>> getInsertedUnitDims(ReshapeOp reshape) {
  ArrayRef<int64_t> from = reshape.getSrc().getType().getShape();
  ArrayRef<int64_t> to = reshape.getType().getShape();
  SmallVector<unsigned> inserted;
  size_t next = 0;
  for (auto [dim, size] : llvm::enumerate(to)) {
    if (next < from.size() && from[next] == size)
      ++next;
    else if (size == 1)
      inserted.push_back(dim);
    else
      return std::nullopt;
  }
  if (next != from.size() || inserted.empty())
    return std::nullopt;
  return inserted;
}

/// Ops whose result can be computed in any layout from operands in a layout
/// derived from it, without touching memory.
bool canRebuild(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  if (isa<MakeRangeOp, SplatOp, ExpandDimsOp, BroadcastOp, ConvertLayoutOp>(
          op))
    return true;
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return getInsertedUnitDims(reshape).has_value();
  if (auto cst = dyn_cast<arith::ConstantOp>(op))
    return isa<DenseElementsAttr>(cst.getValue());
  return isPure(op) && (op->hasTrait<OpTrait::Elementwise>() ||
                        isa<AddPtrOp, BitcastOp, IntToPtrOp, PtrToIntOp>(op));
}

/// How to produce a value in another layout without converting it: the
/// values of its backward slice to rebuild and their layouts, the values
/// the slice starts from that another conversion already moves into the
/// layout needed (a loaded tile converted once, masks computed from it
/// rebuilt after that conversion instead of converted each), and the
/// conversions in the slice whose sources are made by ops that cannot be
/// rebuilt, which convert those sources to the layout needed instead.
struct RebuildPlan {
  llvm::MapVector<Value, Attribute> layouts;
  llvm::MapVector<Value, ConvertLayoutOp> reused;
  llvm::MapVector<Value, Attribute> retargeted;
};

/// A conversion of `value` to `layout` in the block that defines it.
ConvertLayoutOp findConversion(Value value, Attribute layout) {
  for (Operation *user : value.getUsers())
    if (auto convert = dyn_cast<ConvertLayoutOp>(user);
        convert && convert.getType().getEncoding() == layout &&
        convert->getBlock() == value.getDefiningOp()->getBlock())
      return convert;
  return {};
}

/// Whether `value` is in `layout` or can be built there: made by an op a
/// slice can rebuild, or converted to it already.
bool reachesLayout(Value value, Attribute layout) {
  if (cast<RankedTensorType>(value.getType()).getEncoding() == layout)
    return true;
  Operation *def = value.getDefiningOp();
  return def && (canRebuild(def) || findConversion(value, layout));
}

/// The plan producing Root in Layout; std::nullopt when some value cannot
/// be rebuilt or would be needed in two layouts. Values already in the
/// needed layout end the walk, as do values (other than Root) that cannot
/// be rebuilt but are already converted to it, and conversions of values
/// made by ops that cannot be rebuilt (retargeted).
std::optional<RebuildPlan> planRebuild(Value root, Attribute layout) {
  RebuildPlan plan;
  llvm::SmallPtrSet<Value, 8> keptAsIs;
  SmallVector<std::pair<Value, Attribute>> worklist{{root, layout}};
  while (!worklist.empty()) {
    auto [value, wanted] = worklist.pop_back_val();
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor)
      continue;
    if (tensor.getEncoding() == wanted) {
      keptAsIs.insert(value);
      continue;
    }
    if (!fitsShape(wanted, tensor.getShape()))
      return std::nullopt;
    Operation *def = value.getDefiningOp();
    if (value != root && def && !canRebuild(def))
      if (ConvertLayoutOp existing = findConversion(value, wanted)) {
        auto [it, inserted] = plan.reused.insert({value, existing});
        if (!inserted && it->second != existing)
          return std::nullopt;
        continue;
      }
    if (auto convert = dyn_cast_or_null<ConvertLayoutOp>(def);
        convert && !reachesLayout(convert.getSrc(), wanted)) {
      auto [it, inserted] = plan.retargeted.insert({value, wanted});
      if (!inserted && it->second != wanted)
        return std::nullopt;
      continue;
    }
    auto [it, inserted] = plan.layouts.insert({value, wanted});
    if (!inserted) {
      if (it->second != wanted)
        return std::nullopt;
      continue;
    }
    if (!def || !canRebuild(def) || plan.layouts.size() > kMaxSliceOps)
      return std::nullopt;
    if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
      auto parent = dyn_cast<DistributedLayoutAttrInterface>(wanted);
      if (!parent)
        return std::nullopt;
      worklist.push_back(
          {expand.getSrc(), SliceLayoutAttr::get(root.getContext(),
                                                 expand.getAxis(), parent)});
      continue;
    }
    if (auto reshape = dyn_cast<ReshapeOp>(def)) {
      auto sliced = dyn_cast<DistributedLayoutAttrInterface>(wanted);
      if (!sliced)
        return std::nullopt;
      // Innermost first, so that each dimension keeps its number.
      for (unsigned dim : llvm::reverse(*getInsertedUnitDims(reshape)))
        sliced = SliceLayoutAttr::get(root.getContext(), dim, sliced);
      worklist.push_back({reshape.getSrc(), sliced});
      continue;
    }
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        worklist.push_back({operand, wanted});
  }
  // One value stands for one layout in the rebuilt slice: a value needed as
  // it is cannot also be replaced (idx[:, None] == idx[None, :]), nor can a
  // retargeted conversion also be rebuilt in another layout (a row
  // statistic's row and column).
  for (Value value : keptAsIs)
    if (plan.layouts.count(value) || plan.reused.count(value) ||
        plan.retargeted.count(value))
      return std::nullopt;
  for (auto &entry : plan.retargeted)
    if (plan.layouts.count(entry.first))
      return std::nullopt;
  return plan;
}

/// Whether, once `convert` is replaced by the rebuilt slice, no value of
/// the plan is used any more: retargeted conversions then replace their
/// originals instead of adding to them.
bool sliceGoes(const RebuildPlan &plan, ConvertLayoutOp convert) {
  llvm::SmallPtrSet<Operation *, 16> slice{convert};
  for (auto &entry : plan.layouts)
    slice.insert(entry.first.getDefiningOp());
  for (auto &entry : plan.retargeted)
    slice.insert(entry.first.getDefiningOp());
  return llvm::all_of(slice, [&](Operation *op) {
    return op == convert || llvm::all_of(op->getUsers(), [&](Operation *user) {
             return slice.contains(user);
           });
  });
}

/// Clones the planned values in their new layouts, operands first; returns
/// the rebuilt Root. A reused conversion moves up to right after its
/// source, where it dominates every clone of the slice.
Value rebuild(Value root, const RebuildPlan &plan) {
  IRMapping mapping;
  for (auto [value, convert] : plan.reused) {
    convert->moveAfter(value.getDefiningOp());
    mapping.map(value, convert.getResult());
  }
  OpBuilder builder(root.getContext());
  for (auto [value, layout] : plan.retargeted) {
    auto convert = value.getDefiningOp<ConvertLayoutOp>();
    builder.setInsertionPointAfter(convert);
    mapping.map(value,
                ConvertLayoutOp::create(builder, convert.getLoc(),
                                        withLayout(value.getType(), layout),
                                        convert.getSrc()));
  }
  llvm::SetVector<Operation *> defs;
  for (auto &entry : plan.layouts)
    defs.insert(entry.first.getDefiningOp());
  for (Operation *def : topologicalSort(defs)) {
    Value value = def->getResult(0);
    Attribute layout = plan.layouts.lookup(value);
    if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
      // The chain of conversions collapses onto its source, which the plan
      // either rebuilt or found already in the wanted layout.
      mapping.map(value, mapping.lookupOrDefault(convert.getSrc()));
      continue;
    }
    builder.setInsertionPointAfter(def);
    Operation *clone = builder.clone(*def, mapping);
    Value result = clone->getResult(0);
    result.setType(withLayout(result.getType(), layout));
    if (auto cst = dyn_cast<arith::ConstantOp>(clone)) {
      auto dense = cast<DenseElementsAttr>(cst.getValue());
      cst.setValueAttr(dense.reshape(cast<ShapedType>(result.getType())));
    }
    mapping.map(value, result);
  }
  return mapping.lookupOrDefault(root);
}

/// Whether a value in blocked layout `from` can be stored as it is where the
/// store's pointers are in blocked layout `to`: the same fastest dimension,
/// the store vectorized there (a layout of 1 element per thread says the
/// pointers may not be contiguous), and each thread's run along it whole
/// vectors of `to`'s, so that every access stays as wide. Which thread
/// writes an element changes, as in Triton, whose stores take their value's
/// layout: a kernel that loads and stores the same addresses in different
/// layouts is a race in both.
bool storesAsWide(Attribute from, Attribute to) {
  auto src = dyn_cast<BlockedLayoutAttr>(from);
  auto dst = dyn_cast<BlockedLayoutAttr>(to);
  if (!src || !dst || src.getRank() != dst.getRank() ||
      src.getOrder() != dst.getOrder() ||
      src.getThreadsPerWarp() != dst.getThreadsPerWarp() ||
      src.getWarpsPerCTA() != dst.getWarpsPerCTA())
    return false;
  unsigned fastest = src.getOrder().front();
  unsigned run = src.getSizePerThread()[fastest];
  unsigned vector = dst.getSizePerThread()[fastest];
  return vector > 1 && run > vector && run % vector == 0;
}

/// Whether a stored tile is smaller than the block: storing it costs a few
/// scalar accesses in any layout, converting it a round trip through
/// block-level memory.
bool isSmallerThanBlock(RankedTensorType type) {
  auto layout = dyn_cast<DistributedLayoutAttrInterface>(type.getEncoding());
  return layout && type.getNumElements() <
                       int64_t(layout.getWarpSize()) * layout.getNumWarps();
}

/// Layouts a global store's tile could be stored in instead of converted
/// to the store's: the source of a conversion of the value whose threads
/// hold whole vectors of the store's; for a tile smaller than the block,
/// the blocked sources of the conversions its rebuildable slice starts
/// from, a source one rank lower standing for its slice's parent (a row
/// statistic's column). Block-level stores stay: every thread holding an
/// element writes it there, to read it back without a barrier.
SmallVector<Attribute> getStoreSourceLayouts(StoreOp store) {
  Value value = store.getValue();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  auto ptrs = dyn_cast<RankedTensorType>(store.getPtr().getType());
  if (!type || !ptrs || !cast<PointerType>(ptrs.getElementType()).isGlobal())
    return {};
  SmallVector<Attribute> layouts;
  if (auto convert = value.getDefiningOp<ConvertLayoutOp>()) {
    Attribute from = convert.getSrc().getType().getEncoding();
    if (storesAsWide(from, type.getEncoding()))
      layouts.push_back(from);
  }
  if (!isSmallerThanBlock(type))
    return layouts;
  SmallVector<Value> worklist{value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!worklist.empty() && seen.size() <= kMaxSliceOps) {
    Value current = worklist.pop_back_val();
    Operation *def = current.getDefiningOp();
    if (!seen.insert(current).second || !def || !canRebuild(def))
      continue;
    auto convert = dyn_cast<ConvertLayoutOp>(def);
    if (!convert) {
      for (Value operand : def->getOperands())
        if (isa<RankedTensorType>(operand.getType()))
          worklist.push_back(operand);
      continue;
    }
    RankedTensorType source = convert.getSrc().getType();
    Attribute layout = source.getEncoding();
    if (source.getRank() + 1 == type.getRank())
      if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
        layout = slice.getParent();
    // Blocked layouts of the value's rank only (a slice of one would not
    // take the tile's shape), with few registers per thread: each is a
    // store, masked off where the thread does not own its element.
    auto blocked = dyn_cast<BlockedLayoutAttr>(layout);
    if (blocked && blocked.getRank() == type.getRank() &&
        blocked.getTotalElemsPerThread(type.getShape()) <=
            kMaxSmallStoreRegisters &&
        !llvm::is_contained(layouts, layout))
      layouts.push_back(layout);
  }
  return layouts;
}

/// Stores `store`'s tile in a layout getStoreSourceLayouts offers, the
/// value, the pointers and the mask rebuilt there; false if they cannot be.
bool storeInSourceLayout(StoreOp store) {
  // Everything is rebuilt, nothing converted: a conversion retargeted for
  // the store would be one more where the original stays.
  auto plan = [](Value value, Attribute layout) -> std::optional<RebuildPlan> {
    std::optional<RebuildPlan> plan = planRebuild(value, layout);
    if (plan && !plan->retargeted.empty())
      return std::nullopt;
    return plan;
  };
  for (Attribute layout : getStoreSourceLayouts(store)) {
    std::optional<RebuildPlan> valuePlan = plan(store.getValue(), layout);
    std::optional<RebuildPlan> ptrPlan = plan(store.getPtr(), layout);
    std::optional<RebuildPlan> maskPlan;
    if (Value mask = store.getMask())
      maskPlan = plan(mask, layout);
    if (!valuePlan || !ptrPlan || (store.getMask() && !maskPlan))
      continue;
    store.getPtrMutable().assign(rebuild(store.getPtr(), *ptrPlan));
    if (Value mask = store.getMask())
      store.getMaskMutable().assign(rebuild(mask, *maskPlan));
    store.getValueMutable().assign(rebuild(store.getValue(), *valuePlan));
    return true;
  }
  return false;
}

struct RemoveLayoutConversionsPass
    : public PassWrapper<RemoveLayoutConversionsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RemoveLayoutConversionsPass)

  explicit RemoveLayoutConversionsPass(
      ::tle::conversion::LayoutConversionCounts *counts = nullptr)
      : counts(counts) {}

  StringRef getArgument() const override {
    return "tle-remove-layout-conversions";
  }
  StringRef getDescription() const override {
    return "Rebuild cheap values in the layout their users need instead of "
           "converting them through block-level memory";
  }

  void runOnOperation() override {
    splitSharedRanges();
    SmallVector<ConvertLayoutOp> converts;
    getOperation().walk([&](ConvertLayoutOp op) { converts.push_back(op); });
    size_t before = converts.size();
    for (ConvertLayoutOp convert : converts) {
      Attribute layout = convert.getType().getEncoding();
      std::optional<RebuildPlan> plan = planRebuild(convert.getSrc(), layout);
      if (!plan || (!plan->retargeted.empty() && !sliceGoes(*plan, convert)))
        continue;
      Value rebuilt = rebuild(convert.getSrc(), *plan);
      convert.getResult().replaceAllUsesWith(rebuilt);
      convert.erase();
    }
    SmallVector<StoreOp> stores;
    getOperation().walk([&](StoreOp op) { stores.push_back(op); });
    for (StoreOp store : stores)
      storeInSourceLayout(store);
    // The originals and conversions feeding only rebuilt slices are dead now.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : llvm::reverse(ops))
      if (op->use_empty() && op->getNumResults() > 0 && isPure(op) &&
          op->getNumRegions() == 0)
        op->erase();
    if (counts) {
      size_t after = 0;
      getOperation().walk([&](ConvertLayoutOp) { ++after; });
      counts->Removed += before - after;
    }
  }

private:
  /// A range reshaped into several unit-dimension shapes (the indicators of
  /// tl.sort all reshape one tl.arange(0, 2)) is needed in a different
  /// slice layout by each: every such reshape gets its own copy, which its
  /// slice can rebuild; CSE merges the copies that stay in one layout.
  void splitSharedRanges() {
    getOperation().walk([](MakeRangeOp range) {
      for (OpOperand &use : llvm::make_early_inc_range(range->getUses())) {
        auto reshape = dyn_cast<ReshapeOp>(use.getOwner());
        if (range->hasOneUse() || !reshape || !getInsertedUnitDims(reshape))
          continue;
        OpBuilder builder(reshape);
        use.set(builder.clone(*range)->getResult(0));
      }
    });
  }

  ::tle::conversion::LayoutConversionCounts *counts;
};

} // namespace

namespace tle::conversion {
std::unique_ptr<Pass>
createRemoveLayoutConversionsPass(LayoutConversionCounts *Counts) {
  return std::make_unique<RemoveLayoutConversionsPass>(Counts);
}

void registerRemoveLayoutConversionsPass() {
  PassRegistration<RemoveLayoutConversionsPass>();
}
} // namespace tle::conversion
