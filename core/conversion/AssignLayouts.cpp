//===- AssignLayouts.cpp - Give every tensor a layout encoding ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle-assign-layouts attaches a distributed layout to every ranked tensor of
// the tile IR:
//
//  1. Anchors. Each load/store/atomic through a pointer tile proposes a
//     #tle.blocked layout for its shape: order by the pointer's contiguity
//     (axis analysis), and sizePerThread along the fastest dimension equal to
//     the vector width the access allows (16-byte aligned contiguous fp32 ->
//     4), capped so that the program's threads still cover the tile. Per
//     shape, the access in the most deeply nested loop picks the fastest
//     dimension (a conversion there would run every iteration), and the
//     widest proposal along it wins; shapes without a memory access get the
//     default blocked layout (one element per thread, Triton's tiling). An
//     access that layout would split into single elements keeps its own
//     proposal (an fp8 matmul's K-major B tile and its C tile are both
//     128x256: C's stores stay 16-byte vectors along N), as Triton's
//     coalescing gives each access its own layout; a pointer tile a loop
//     carries for it is carried in that layout.
//  2. Forward. Results take the layout of their shape; reductions produce
//     #tle.slice of their operand's layout; loop-carried values keep the
//     layout of their initial value. A tl.dot that a matrix instruction of
//     the target tiles produces the instruction's #tle.linear accumulator
//     layout, and its accumulator chain keeps it.
//  3. Backward. A value made by a cheap op (make_range, splat, constant,
//     elementwise) whose users all want one other layout -- typically
//     expand_dims wanting #tle.slice -- is built in that layout directly.
//  4. Conversions. Where an operand's layout differs from what its user needs
//     (elementwise operands, expand_dims operand, yields), a
//     tle.convert_layout is inserted.
//
// Steps 1-3 run once per scope: each tle.gpu.warp_specialize partition is
// laid out for its own warps, the rest of the kernel for all of the block's
// (the partitions' warps together; tle.num_warps becomes that count).
//
//===----------------------------------------------------------------------===//

#include "core/analysis/AxisInfo.h"
#include "core/conversion/MatrixLayouts.h"
#include "core/conversion/Passes.h"
#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLERaw/TLERawDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <list>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tle;
using mlir::tle_struct::WarpSpecializeOp;

unsigned ::tle::conversion::getVectorWidthAlong(const AxisInfoResult &Axis,
                                                Value Ptr, Value Mask,
                                                unsigned Dim,
                                                unsigned MaxBytes) {
  auto tensor = dyn_cast<RankedTensorType>(Ptr.getType());
  if (!tensor)
    return 1;
  int64_t bytes = ::tle::conversion::getElementBytes(
      cast<PointerType>(tensor.getElementType()).getPointeeType());
  AxisInfo info = Axis.lookup(Ptr);
  if (!info.isInitialized() || Dim >= info.getRank())
    return 1;
  int64_t width = std::min<int64_t>(
      {info.getContiguity(Dim),
       std::max<int64_t>(1, info.getDivisibility(Dim) / bytes),
       std::max<int64_t>(1, int64_t(MaxBytes) / bytes)});
  if (Mask) {
    AxisInfo maskInfo = Axis.lookup(Mask);
    if (maskInfo.isInitialized() && Dim < maskInfo.getRank())
      width = std::min(width, maskInfo.getConstancy(Dim));
    else
      width = 1;
  }
  return width <= 1 ? 1 : unsigned(1) << llvm::Log2_64(width);
}

namespace {

/// Triton's default tiling: lanes, then warps, fill the dimensions fastest
/// first, what is left over goes to the slowest dimension.
BlockedLayoutAttr getDefaultBlocked(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                    ArrayRef<unsigned> sizePerThread,
                                    ArrayRef<unsigned> order, unsigned numWarps,
                                    unsigned warpSize) {
  unsigned rank = shape.size();
  SmallVector<unsigned> tpw(rank, 1), wpc(rank, 1);
  unsigned lanesLeft = warpSize, warpsLeft = numWarps;
  for (unsigned dim : order) {
    int64_t room = std::max<int64_t>(1, shape[dim] / sizePerThread[dim]);
    unsigned roomPow2 = unsigned(llvm::PowerOf2Ceil(room));
    tpw[dim] = std::clamp<unsigned>(lanesLeft, 1, roomPow2);
    lanesLeft /= tpw[dim];
    int64_t warpRoom = std::max<int64_t>(
        1, shape[dim] / (int64_t(sizePerThread[dim]) * tpw[dim]));
    wpc[dim] = std::clamp<unsigned>(warpsLeft, 1,
                                    unsigned(llvm::PowerOf2Ceil(warpRoom)));
    warpsLeft /= wpc[dim];
  }
  tpw[order.back()] *= lanesLeft;
  wpc[order.back()] *= warpsLeft;
  return BlockedLayoutAttr::get(ctx, sizePerThread, tpw, wpc, order);
}

SmallVector<unsigned> defaultOrder(unsigned rank) {
  SmallVector<unsigned> order;
  for (unsigned d = rank; d > 0; --d)
    order.push_back(d - 1);
  return order;
}

/// The pointer a memory op accesses, with its mask; null when the op does
/// not access memory through a pointer tile.
std::pair<Value, Value> getPtrAndMask(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return {load.getPtr(), load.getMask()};
  if (auto store = dyn_cast<StoreOp>(op))
    return {store.getPtr(), store.getMask()};
  if (auto rmw = dyn_cast<AtomicRMWOp>(op))
    return {rmw.getPtr(), rmw.getMask()};
  if (auto cas = dyn_cast<AtomicCASOp>(op))
    return {cas.getPtr(), Value()};
  if (auto copy = dyn_cast<tle_struct::CopyOp>(op)) {
    Value ptr = isa<RankedTensorType>(copy.getSrc().getType()) ? copy.getSrc()
                                                               : copy.getDst();
    if (isa<RankedTensorType>(ptr.getType()))
      return {ptr, copy.getMask()};
  }
  return {};
}

/// Ops whose tensor operands and results must all share one layout.
bool isElementwiseLike(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<AddPtrOp, LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp, BitcastOp,
             FpToFpOp, IntToPtrOp, PtrToIntOp, BroadcastOp,
             tle_struct::LocalPtrOp, tle_struct::CopyOp, tle_raw::CallOp>(op);
}

/// Ops that may produce their result in any layout at no cost.
bool isRematerializable(Operation *op) {
  if (isa<MakeRangeOp, SplatOp>(op))
    return true;
  if (auto cst = dyn_cast<arith::ConstantOp>(op))
    return isa<DenseElementsAttr>(cst.getValue());
  return op->getNumResults() == 1 && op->hasTrait<OpTrait::Elementwise>() &&
         !isa<BroadcastOp>(op);
}

/// Ops that produce a tile from scalars alone (constants, splats, ranges):
/// they are built in whatever layout their users want, never converted.
bool isBuiltFromScalars(Operation *op) {
  return op && isRematerializable(op) &&
         llvm::none_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>);
}

/// The number of loops around `op`.
unsigned getLoopDepth(Operation *op) {
  unsigned depth = 0;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    depth += isa<LoopLikeOpInterface>(parent);
  return depth;
}

Type withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

struct AssignLayoutsPass
    : public PassWrapper<AssignLayoutsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AssignLayoutsPass)

  AssignLayoutsPass() = default;
  AssignLayoutsPass(const AssignLayoutsPass &other)
      : PassWrapper(other), conversionCounts(other.conversionCounts) {}
  explicit AssignLayoutsPass(const ::tle::conversion::AssignLayoutsOptions &o)
      : conversionCounts(o.ConversionCounts) {
    numWarps = o.NumWarps;
    warpSize = o.WarpSize;
    vectorBytes = o.VectorBytes;
    matrixUnits = o.MatrixUnits;
  }

  StringRef getArgument() const final { return "tle-assign-layouts"; }
  StringRef getDescription() const final {
    return "Attach a distributed layout encoding to every tensor";
  }

  Option<unsigned> numWarps{
      *this, "num-warps",
      llvm::cl::desc("Warps per program (0: the module's tle.num_warps)"),
      llvm::cl::init(0)};
  Option<unsigned> warpSize{*this, "warp-size",
                            llvm::cl::desc("Lanes per warp"),
                            llvm::cl::init(32)};
  Option<unsigned> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("Widest vector memory access of one thread, in bytes"),
      llvm::cl::init(16)};

  void runOnOperation() override;

private:
  /// Per partition that does not start at warp 0: the matrix units its
  /// warps can issue (a std::list: dot tilings point into these vectors).
  std::list<std::vector<::tle::conversion::MatrixUnit>> alignedUnits;
  /// Warps of the scope being laid out, and the first of them in the block.
  unsigned warps = 4, firstWarp = 0;
  Region *scope = nullptr;
  std::vector<::tle::conversion::MatrixUnit> matrixUnits;
  ::tle::conversion::LayoutConversionCounts *conversionCounts = nullptr;
  /// Dots tiled with a matrix instruction.
  DenseMap<Operation *, ::tle::conversion::MatrixTiling> dotTilings;
  /// The layout each reduction reads its operands in.
  DenseMap<Operation *, Attribute> reduceLayouts;
  /// Loop-carried values that meet a matrix layout (or a row statistic of
  /// one) in elementwise ops: they are carried in that layout. Found by one
  /// run of assignForward, applied in the next.
  llvm::MapVector<Value, Attribute> loopSeeds;
  bool newLoopSeeds = false;
  /// Shape -> the layout of that shape.
  std::map<SmallVector<int64_t>, BlockedLayoutAttr> shapeLayouts;
  /// The shapes of shapeLayouts that memory accesses chose (proposeAnchors).
  std::set<SmallVector<int64_t>> anchoredShapes;
  /// Memory accesses that keep their own layout (see proposeAnchors).
  DenseMap<Operation *, BlockedLayoutAttr> accessLayouts;
  DenseMap<Value, Attribute> layouts;

  BlockedLayoutAttr getShapeLayout(ArrayRef<int64_t> shape) {
    SmallVector<int64_t> key(shape);
    auto it = shapeLayouts.find(key);
    if (it != shapeLayouts.end())
      return it->second;
    // Blocked layouts apply to any shape of their rank: a shape without a
    // memory access of its own (e.g. 32x1 before a broadcast to 32x128) takes
    // the layout of the largest anchored shape of the same rank. The default
    // of a smaller shape without an access is not taken: it would spread
    // this shape's elements over too few lanes (the 2x1x1 indicator of a
    // bitonic sort's 2x2x...x2 hypercube, 32 times over).
    int64_t shapeElems = ShapedType::getNumElements(shape);
    BlockedLayoutAttr layout;
    int64_t bestElems = 0;
    for (auto &[other, otherLayout] : shapeLayouts) {
      if (other.size() != shape.size())
        continue;
      int64_t elems = ShapedType::getNumElements(other);
      if (!anchoredShapes.count(other) && elems < shapeElems)
        continue;
      if (elems > bestElems) {
        bestElems = elems;
        layout = otherLayout;
      }
    }
    if (!layout)
      layout = getDefaultBlocked(&getContext(), shape,
                                 SmallVector<unsigned>(shape.size(), 1),
                                 defaultOrder(shape.size()), warps, warpSize);
    shapeLayouts[key] = layout;
    return layout;
  }

  /// A partition (or, with a null region, the rest of the kernel) and the
  /// block's warps it runs on.
  struct Scope {
    Region *region;
    unsigned warps, firstWarp;
  };
  /// The scopes; sets the kernel's block warps (the partitions' sum).
  FailureOr<SmallVector<Scope>> collectScopes(ModuleOp module,
                                              unsigned kernelWarps,
                                              unsigned &blockWarps);
  void proposeAnchors(ModuleOp module);
  void carryAccessPointers(ModuleOp module);
  void planMatrixDots(ModuleOp module);
  Attribute getKeptMatrixLayout(Operation *op);
  void carryInLayout(scf::ForOp forOp, unsigned index, Attribute layout,
                     bool replace);
  void applyLoopSeeds();
  LogicalResult assignForward(ModuleOp module);
  void refineBackward(ModuleOp module);
  void materialize(ModuleOp module);
};

void AssignLayoutsPass::proposeAnchors(ModuleOp module) {
  AxisInfoResult axis(module);
  struct Proposal {
    unsigned depth, width;
    BlockedLayoutAttr layout;
  };
  std::map<SmallVector<int64_t>, SmallVector<Proposal>> proposals;
  struct Access {
    Operation *op;
    SmallVector<int64_t> shape;
    BlockedLayoutAttr layout;
    Value ptr;
  };
  SmallVector<Access> pointerAccesses;
  // Global stores of contiguous elements that alignment leaves to single
  // elements (rows of no known divisibility).
  SmallVector<Access> unalignedStores;
  module.walk([&](Operation *op) {
    if (WarpSpecializeOp::getPartitionOf(op) != scope)
      return;
    RankedTensorType tensor;
    SmallVector<unsigned> order;
    unsigned vec = 1;
    if (auto load = dyn_cast<DescriptorLoadOp>(op)) {
      // A descriptor tile kept for a tensor copy: its last dimension is
      // contiguous and its rows 16-byte aligned (what the copy needs), in
      // case it becomes the pointer load it means after all.
      tensor = load.getType();
      order = defaultOrder(tensor.getRank());
      vec = std::max<unsigned>(
          1, vectorBytes / std::max(1u, tensor.getElementTypeBitWidth() / 8));
    } else {
      Value ptr = getPtrAndMask(op).first;
      if (!ptr)
        return;
      tensor = dyn_cast<RankedTensorType>(ptr.getType());
      if (!tensor)
        return;
      // Fastest dimension first: the most contiguous one, the last on ties.
      AxisInfo info = axis.lookup(ptr);
      order = defaultOrder(tensor.getRank());
      if (info.isInitialized() && info.getRank() == tensor.getRank())
        llvm::stable_sort(order, [&](unsigned a, unsigned b) {
          return info.getContiguity(a) > info.getContiguity(b);
        });
      // The mask does not limit the layout: distribution splits a vector
      // access whose lanes may disagree (see Distribute.cpp).
      vec = ::tle::conversion::getVectorWidthAlong(axis, ptr, Value(), order[0],
                                                   vectorBytes);
    }
    unsigned rank = tensor.getRank();
    int64_t numElems = tensor.getNumElements();
    int64_t perThread =
        std::max<int64_t>(1, numElems / (int64_t(warps) * warpSize));
    unsigned fastest = std::min<int64_t>(
        {int64_t(vec), perThread, tensor.getDimSize(order[0])});
    fastest = std::max(1u, unsigned(llvm::bit_floor(fastest)));
    SmallVector<unsigned> spt(rank, 1);
    spt[order[0]] = fastest;
    BlockedLayoutAttr layout = getDefaultBlocked(
        &getContext(), tensor.getShape(), spt, order, warps, warpSize);
    SmallVector<int64_t> key(tensor.getShape());
    proposals[key].push_back({getLoopDepth(op), fastest, layout});
    if (fastest > 1 && !isa<DescriptorLoadOp>(op))
      pointerAccesses.push_back({op, key, layout, getPtrAndMask(op).first});
    if (auto store = dyn_cast<StoreOp>(op);
        store && vec == 1 &&
        cast<PointerType>(tensor.getElementType()).isGlobal()) {
      AxisInfo info = axis.lookup(store.getPtr());
      if (info.isInitialized() && info.getRank() == rank &&
          info.getContiguity(order[0]) > 1)
        unalignedStores.push_back({op, key, layout, store.getPtr()});
    }
  });
  // The access in the most deeply nested loop (the widest there) picks the
  // shape's fastest dimension: a conversion there would run every
  // iteration, one of an access outside runs once. The widest proposal
  // along that dimension, at any depth, gives the vector width (an
  // unaligned row read in a loop leaves the aligned accesses around it
  // their vectors).
  for (auto &[shape, candidates] : proposals) {
    const Proposal *deepest = &candidates.front();
    for (const Proposal &p : candidates)
      if (std::make_pair(p.depth, p.width) >
          std::make_pair(deepest->depth, deepest->width))
        deepest = &p;
    unsigned dim = deepest->layout.getOrder()[0];
    const Proposal *widest = deepest;
    for (const Proposal &p : candidates)
      if (p.layout.getOrder()[0] == dim && p.width > widest->width)
        widest = &p;
    shapeLayouts[shape] = widest->layout;
    anchoredShapes.insert(shape);
  }
  // Accesses that the shape's layout would split into single elements
  // (neither contiguous nor constant along its fastest dimension) keep
  // their own; one constant along it (a broadcast bias) stays: its
  // elements are loaded once per run there, with no conversion.
  for (const Access &access : pointerAccesses) {
    unsigned dim = shapeLayouts[access.shape].getOrder()[0];
    if (dim == access.layout.getOrder()[0])
      continue;
    AxisInfo info = axis.lookup(access.ptr);
    bool constant = info.isInitialized() &&
                    info.getRank() == access.shape.size() &&
                    info.getConstancy(dim) > 1;
    if (!constant && ::tle::conversion::getVectorWidthAlong(
                         axis, access.ptr, Value(), dim, vectorBytes) == 1)
      accessLayouts[access.op] = access.layout;
  }
  // An unaligned store in a layout giving each thread a run of contiguous
  // elements would write them one by one, each instruction's lanes a run
  // apart: every instruction then writes a few bytes of many sectors. It
  // keeps its own layout, consecutive lanes on consecutive elements, at the
  // cost of converting its value, as Triton's coalescing leaves such
  // stores (FlagGems' rms_norm at 4097x1031: 0.72 of Triton's speed
  // before). Loads keep the shape's layout: the L1 serves the rest of a
  // run's sectors. A pointer tile a loop carries that another access also
  // reads through stays as it is: one of the two would convert it every
  // iteration (a tile only this store uses is carried in its layout, see
  // carryAccessPointers).
  for (const Access &access : unalignedStores) {
    if (isa<BlockArgument>(access.ptr) &&
        llvm::any_of(access.ptr.getUsers(), [&](Operation *user) {
          return user != access.op && getPtrAndMask(user).first == access.ptr;
        }))
      continue;
    BlockedLayoutAttr shapeLayout = shapeLayouts[access.shape];
    unsigned dim = access.layout.getOrder()[0];
    if (shapeLayout.getOrder()[0] == dim &&
        shapeLayout.getSizePerThread()[dim] > 1)
      accessLayouts[access.op] = access.layout;
  }
}

/// A pointer tile that a loop carries and advances by a splat step (`p +=
/// BLOCK_K * stride`) for an access keeping its own layout is carried in
/// that layout: a conversion of a loop-carried value is not rebuilt away,
/// it would cross block-level memory every iteration.
void AssignLayoutsPass::carryAccessPointers(ModuleOp module) {
  module.walk([&](Operation *op) {
    BlockedLayoutAttr layout = accessLayouts.lookup(op);
    if (!layout || WarpSpecializeOp::getPartitionOf(op) != scope)
      return;
    auto arg = dyn_cast<BlockArgument>(getPtrAndMask(op).first);
    auto forOp =
        arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : nullptr;
    if (!forOp || arg.getArgNumber() < forOp.getNumInductionVars())
      return;
    unsigned index = arg.getArgNumber() - forOp.getNumInductionVars();
    Value yielded = forOp.getYieldedValues()[index];
    // The step must be free to build in the access's layout (a splat of
    // the scalar stride): a tile step would be converted every iteration.
    auto advance = yielded.getDefiningOp<AddPtrOp>();
    if (!advance || advance.getPtr() != arg ||
        (isa<RankedTensorType>(advance.getOffset().getType()) &&
         !isBuiltFromScalars(advance.getOffset().getDefiningOp())))
      return;
    carryInLayout(forOp, index, layout, /*replace=*/true);
    layouts[yielded] = layout;
  });
}

/// A dot tiled with a matrix instruction produces its result in the
/// instruction's accumulator layout. The accumulator usually lives in a loop
/// from a zero constant: it keeps that layout all the way (the loop-carried
/// value, the loop result, and the constant built in it) instead of being
/// converted twice per iteration.
void AssignLayoutsPass::planMatrixDots(ModuleOp module) {
  using ::tle::conversion::MatrixOperand;
  // Instructions several warps issue together (a warpgroup) need the
  // scope's warps aligned to the group in the block. (Tilings point at
  // their unit, so the filtered list lives as long as the pass run.)
  ArrayRef<::tle::conversion::MatrixUnit> units = matrixUnits;
  if (firstWarp != 0) {
    std::vector<::tle::conversion::MatrixUnit> &aligned =
        alignedUnits.emplace_back();
    for (const auto &unit : matrixUnits)
      if (firstWarp % (1u << unit.Fragments.C.Warps.size()) == 0)
        aligned.push_back(unit);
    units = aligned;
  }
  module.walk([&](DotOp dot) {
    if (WarpSpecializeOp::getPartitionOf(dot) != scope)
      return;
    std::optional<::tle::conversion::MatrixTiling> tiling =
        ::tle::conversion::planMatrixTiling(dot, units, warps, warpSize);
    if (!tiling)
      return;
    dotTilings[dot] = *tiling;
    dot->setAttr(::tle::conversion::kMatrixInstructionAttr,
                 StringAttr::get(&getContext(), tiling->Unit->Instr.Name));
    if (tiling->operandsInBlockMemory()) {
      dot->setAttr(::tle::conversion::kMatrixBlockOperandsAttr,
                   UnitAttr::get(&getContext()));
      if (tiling->Unit->Fragments.KMajorOperandsOnly)
        dot->setAttr(::tle::conversion::kMatrixKMajorAttr,
                     UnitAttr::get(&getContext()));
      // An A the kernel computes (not a tile it loads, maybe transposed,
      // which software pipelining may stage) stays in registers where the
      // unit can read it there: no store, fence and barrier before the dot.
      Value a = dot.getA();
      if (auto trans = a.getDefiningOp<TransOp>())
        a = trans.getSrc();
      if (tiling->acceptsRegisterA() &&
          !isa_and_nonnull<LoadOp, DescriptorLoadOp>(a.getDefiningOp()))
        dot->setAttr(::tle::conversion::kMatrixRegisterAAttr,
                     UnitAttr::get(&getContext()));
    }
    if (tiling->InstrN != tiling->Unit->Instr.N)
      dot->setAttr(::tle::conversion::kMatrixNAttr,
                   IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                    tiling->InstrN));
    Attribute acc = tiling->getLayout(&getContext(), MatrixOperand::C,
                                      dot.getD().getType().getShape());
    layouts[dot.getD()] = acc;
    Value c = dot.getC();
    // The loop carrying the result carries it in that layout, whether the
    // dot adds to the carried value itself or to something made from it
    // (attention's acc * alpha).
    bool carried = false;
    if (auto forOp = dyn_cast<scf::ForOp>(dot->getParentOp()))
      for (auto [index, yielded] : llvm::enumerate(forOp.getYieldedValues()))
        if (yielded == dot.getD()) {
          carryInLayout(forOp, index, acc, /*replace=*/false);
          carried |= forOp.getRegionIterArgs()[index] == c;
        }
    if (!carried && isBuiltFromScalars(c.getDefiningOp()))
      layouts.try_emplace(c, acc);
  });
}

/// A matrix unit's layout, or a slice of one (a row statistic of an
/// accumulator).
static bool isMatrixDerived(Attribute layout) {
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout))
    return isa<LinearLayoutAttr>(slice.getParent());
  return isa_and_nonnull<LinearLayoutAttr>(layout);
}

/// Whether `v` comes from a short chain of ops that can be built in any
/// layout (ranges, splats, constants, index arithmetic, expand_dims,
/// broadcast): a conversion of it is one tle-remove-layout-conversions
/// removes by building it again.
static bool isCheapToRebuild(Value v, unsigned depth = 0) {
  Operation *def = v.getDefiningOp();
  if (!def || depth > 8 || def->getNumResults() != 1)
    return false;
  if (!isRematerializable(def) && !isa<ExpandDimsOp, BroadcastOp>(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return !isa<RankedTensorType>(operand.getType()) ||
           isCheapToRebuild(operand, depth + 1);
  });
}

/// A row statistic of one matrix accumulator broadcast into another of a
/// wider shape (attention's alpha, from the 128x64 scores, scaling the
/// 128x128 output when HEAD_DIM is 128): the layout of that other operand
/// of an elementwise user, when it holds the statistic's rows where
/// `linear` does (the conversion of the 128x1 operand then moves nothing).
static LinearLayoutAttr
getWiderMatrixLayout(BroadcastOp broadcast, LinearLayoutAttr linear,
                     const DenseMap<Value, Attribute> &layouts) {
  ArrayRef<int64_t> shape = broadcast.getType().getShape();
  ArrayRef<int64_t> srcShape = broadcast.getSrc().getType().getShape();
  for (Operation *user : broadcast->getUsers()) {
    if (!user->hasTrait<OpTrait::Elementwise>())
      continue;
    for (Value operand : user->getOperands()) {
      auto other = dyn_cast_or_null<LinearLayoutAttr>(layouts.lookup(operand));
      if (other && other.appliesTo(shape) && other.appliesTo(srcShape) &&
          haveSameMapping(linear, other, srcShape))
        return other;
    }
  }
  return {};
}

/// The layout of the results of a reshape, trans, split or join of a tensor
/// in linear (matrix) layout `linear` that makes the op move no element
/// between threads; null when a lane or warp would have to.
static LinearLayoutAttr getShapeOpLinearLayout(Operation *op,
                                               LinearLayoutAttr linear,
                                               ArrayRef<int64_t> shape) {
  if (linear.getShape() != shape)
    return {};
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return linear.getReshaped(reshape.getType().getShape());
  if (auto trans = dyn_cast<TransOp>(op))
    return linear.getTransposed(trans.getOrder());
  if (isa<SplitOp>(op))
    return linear.getSplit();
  return linear.getJoined();
}

/// The blocked layout of the results of a join, a split or a reshape that
/// splits or merges the last dimension, for an operand in blocked layout
/// `src` of `shape`, in which each thread keeps its elements (tl.interleave,
/// de-interleaving with reshape and split); null where the last dimension
/// is not the fastest or the pair it splits or joins is not in one
/// thread's registers. Distribution checks the result again
/// (getShapeOpRegisterSources) and exchanges if it does not hold.
static BlockedLayoutAttr getShapeOpBlockedLayout(Operation *op,
                                                 BlockedLayoutAttr src,
                                                 ArrayRef<int64_t> shape) {
  unsigned rank = src.getRank();
  ArrayRef<unsigned> order = src.getOrder();
  if (rank == 0 || order.front() != rank - 1)
    return {};
  SmallVector<unsigned> spt(src.getSizePerThread()),
      tpw(src.getThreadsPerWarp()), wpc(src.getWarpsPerCTA());
  MLIRContext *ctx = src.getContext();
  // A new fastest dimension of `pair` elements of one thread after the last.
  auto appendPair = [&](unsigned pair) {
    SmallVector<unsigned> newOrder{rank};
    newOrder.append(order.begin(), order.end());
    spt.push_back(pair);
    tpw.push_back(1);
    wpc.push_back(1);
    return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, newOrder);
  };
  // The last dimension (`pair` elements of one thread) merged into the one
  // before it, which must come next in the order.
  auto dropPair = [&](unsigned pair, bool merge) -> BlockedLayoutAttr {
    if (rank < 2 || spt.back() != pair || tpw.back() != 1 || wpc.back() != 1 ||
        shape.back() != pair || (merge && order[1] != rank - 2))
      return {};
    spt.pop_back();
    tpw.pop_back();
    wpc.pop_back();
    if (merge)
      spt.back() *= pair;
    SmallVector<unsigned> newOrder(order.drop_front());
    return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, newOrder);
  };
  if (isa<JoinOp>(op))
    return appendPair(2);
  if (isa<SplitOp>(op))
    return dropPair(2, /*merge=*/false);
  auto reshape = dyn_cast<ReshapeOp>(op);
  if (!reshape)
    return {};
  ArrayRef<int64_t> to = reshape.getType().getShape();
  // [..., M] -> [..., M / k, k] with k of each thread's contiguous elements.
  if (to.size() == rank + 1 && to.drop_back(2) == shape.drop_back() &&
      to[rank - 1] * to[rank] == shape.back() && spt.back() % to[rank] == 0) {
    unsigned pair = to[rank];
    spt.back() /= pair;
    return appendPair(pair);
  }
  // [..., M, k] -> [..., M * k].
  if (to.size() + 1 == rank && to.drop_back() == shape.drop_back(2) &&
      to.back() == shape[rank - 2] * shape.back())
    return dropPair(shape.back(), /*merge=*/true);
  return {};
}

/// The layout of a shape op's results that keeps every element in the
/// thread holding it (the linear or blocked rules above), for operands in
/// one layout; null for other ops and layouts.
static Attribute getShapeOpLayout(Operation *op,
                                  const DenseMap<Value, Attribute> &layouts) {
  if (!isa<ReshapeOp, TransOp, SplitOp, JoinOp>(op))
    return {};
  Value src = op->getOperand(0);
  Attribute layout = layouts.lookup(src);
  if (!layout ||
      (isa<JoinOp>(op) && layouts.lookup(op->getOperand(1)) != layout))
    return {};
  ArrayRef<int64_t> shape = cast<RankedTensorType>(src.getType()).getShape();
  if (auto linear = dyn_cast<LinearLayoutAttr>(layout))
    return getShapeOpLinearLayout(op, linear, shape);
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
    return getShapeOpBlockedLayout(op, blocked, shape);
  return {};
}

/// The value carried by an scf.for iteration argument, or null.
static BlockArgument getLoopCarried(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return {};
  auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!forOp || arg.getArgNumber() < forOp.getNumInductionVars())
    return {};
  return arg;
}

/// The matrix layout an elementwise op keeps for its result: an epilogue
/// (activation, conversion to the output type) on the result of a tl.dot
/// stays in the accumulator's layout, so the one conversion before the store
/// moves the narrowest type; so does the softmax of attention on a score
/// tile and its row statistics. Other operands must be cheap to build in
/// that layout, or be loop-carried: those are recorded in loopSeeds, to be
/// carried in it by the next run of assignForward.
Attribute AssignLayoutsPass::getKeptMatrixLayout(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return {};
  Attribute kept;
  SmallVector<BlockArgument> carried;
  for (Value operand : op->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()))
      continue;
    Attribute layout = layouts.lookup(operand);
    if (isMatrixDerived(layout)) {
      if (kept && kept != layout)
        return {};
      kept = layout;
      continue;
    }
    if (BlockArgument arg = getLoopCarried(operand)) {
      carried.push_back(arg);
      continue;
    }
    if (!isCheapToRebuild(operand))
      return {};
  }
  if (!kept)
    return {};
  for (BlockArgument arg : carried)
    if (layouts.lookup(arg) != kept && loopSeeds.insert({arg, kept}).second)
      newLoopSeeds = true;
  return kept;
}

/// Carries value `index` of `forOp` in `layout`: its iteration argument and
/// result (replacing the layouts they have when `replace`) and, when it is
/// built from scalars, its initial value.
void AssignLayoutsPass::carryInLayout(scf::ForOp forOp, unsigned index,
                                      Attribute layout, bool replace) {
  for (Value v :
       {Value(forOp.getRegionIterArgs()[index]), Value(forOp.getResult(index))})
    if (replace)
      layouts[v] = layout;
    else
      layouts.try_emplace(v, layout);
  Value init = forOp.getInitArgs()[index];
  if (isBuiltFromScalars(init.getDefiningOp()))
    layouts.try_emplace(init, layout);
}

/// Carries each seeded loop value in its layout.
void AssignLayoutsPass::applyLoopSeeds() {
  for (auto &[value, layout] : loopSeeds) {
    auto arg = cast<BlockArgument>(value);
    auto forOp = cast<scf::ForOp>(arg.getOwner()->getParentOp());
    carryInLayout(forOp, arg.getArgNumber() - forOp.getNumInductionVars(),
                  layout, /*replace=*/true);
  }
}

LogicalResult AssignLayoutsPass::assignForward(ModuleOp module) {
  auto assignDefault = [&](Value v) {
    if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
      if (!layouts.count(v))
        layouts[v] = getShapeLayout(tensor.getShape());
  };
  WalkResult result = module.walk<WalkOrder::PreOrder>([&](Operation *op)
                                                           -> WalkResult {
    if (WarpSpecializeOp::getPartitionOf(op) != scope)
      return WalkResult::advance();
    if (auto func = dyn_cast<FuncOp>(op)) {
      for (BlockArgument arg : func.getArguments())
        assignDefault(arg);
      return WalkResult::advance();
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      // Distribution reduces blocked operands, and matrix accumulators
      // whose lanes and warps each move along the axis or across it. Other
      // operands (the slice an earlier reduction left), or operands in
      // different layouts, are converted to the shape's blocked layout
      // first.
      Value first = reduce.getSrcs()[0];
      if (!layouts.lookup(first))
        return op->emitError("reduce operand has no layout");
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(first.getType()).getShape();
      Attribute layout = layouts.lookup(first);
      // A matrix accumulator is reduced where it is when no lane or warp
      // holds elements along the axis and across it at once (attention's
      // row max of the scores: registers and lane shuffles only).
      auto linear = dyn_cast<LinearLayoutAttr>(layout);
      bool reducible =
          isa<BlockedLayoutAttr>(layout) ||
          (linear && succeeded(getAxisBits(linear, shape, reduce.getAxis())));
      if (!reducible || llvm::any_of(reduce.getSrcs(), [&](Value src) {
            return layouts.lookup(src) != layout;
          }))
        layout = getShapeLayout(shape);
      reduceLayouts[reduce] = layout;
      for (Value res : reduce.getResults())
        if (isa<RankedTensorType>(res.getType()))
          layouts[res] = SliceLayoutAttr::get(
              &getContext(), reduce.getAxis(),
              cast<DistributedLayoutAttrInterface>(layout));
      return WalkResult::advance();
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg, res] :
           llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs(),
                     forOp.getResults())) {
        if (!isa<RankedTensorType>(init.getType()))
          continue;
        // A matrix accumulator was placed already (planMatrixDots).
        layouts.try_emplace(arg, layouts.lookup(init));
        layouts.try_emplace(res, layouts.lookup(arg));
      }
      return WalkResult::advance();
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      for (auto [init, arg] :
           llvm::zip(whileOp.getInits(), whileOp.getBeforeArguments()))
        if (isa<RankedTensorType>(init.getType()))
          layouts[arg] = layouts.lookup(init);
      for (BlockArgument arg : whileOp.getAfterArguments())
        assignDefault(arg);
      for (Value res : whileOp.getResults())
        assignDefault(res);
      return WalkResult::advance();
    }
    // A row statistic of a matrix accumulator goes back into the
    // accumulator's layout (expand_dims, then broadcast).
    if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
      auto slice =
          dyn_cast_or_null<SliceLayoutAttr>(layouts.lookup(expand.getSrc()));
      if (slice && slice.getDim() == unsigned(expand.getAxis()) &&
          isa<LinearLayoutAttr>(slice.getParent()))
        layouts.try_emplace(expand.getResult(), slice.getParent());
    }
    if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
      auto linear = dyn_cast_or_null<LinearLayoutAttr>(
          layouts.lookup(broadcast.getSrc()));
      if (linear && linear.appliesTo(broadcast.getType().getShape()))
        layouts.try_emplace(broadcast.getResult(), linear);
      else if (linear)
        if (LinearLayoutAttr wider =
                getWiderMatrixLayout(broadcast, linear, layouts))
          layouts.try_emplace(broadcast.getResult(), wider);
    }
    // Reshapes, transposes, splits and joins of a matrix accumulator (an
    // epilogue cut into sub-tiles), and joins and splits of blocked tiles
    // (tl.interleave), keep each element in its thread.
    if (Attribute kept = getShapeOpLayout(op, layouts))
      for (Value res : op->getResults())
        layouts.try_emplace(res, kept);
    if (auto trans = dyn_cast<TransOp>(op)) {
      // A transposed tile that only matrix units reading block-level memory
      // take as A or B (K^T in attention, b.T on wgmma) stays in the
      // threads that hold it: in the permuted layout the transpose moves no
      // data, and such a dot stores its operands from any layout.
      auto src =
          dyn_cast_or_null<BlockedLayoutAttr>(layouts.lookup(trans.getSrc()));
      auto readsAsOperand = [&](OpOperand &use) {
        auto dot = dyn_cast<DotOp>(use.getOwner());
        return dot && use.getOperandNumber() < 2 &&
               dot->hasAttr(::tle::conversion::kMatrixBlockOperandsAttr);
      };
      if (src && !trans->use_empty() &&
          llvm::all_of(trans->getUses(), readsAsOperand))
        layouts.try_emplace(trans.getResult(),
                            src.getTransposed(trans.getOrder()));
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          assignDefault(arg);
    if (Attribute kept = getKeptMatrixLayout(op))
      layouts.try_emplace(op->getResult(0), kept);
    if (BlockedLayoutAttr own = accessLayouts.lookup(op))
      for (Value res : op->getResults())
        if (isa<RankedTensorType>(res.getType()))
          layouts.try_emplace(res, own);
    for (Value res : op->getResults())
      assignDefault(res);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void AssignLayoutsPass::refineBackward(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (WarpSpecializeOp::getPartitionOf(op) == scope)
      ops.push_back(op);
  });
  for (Operation *op : llvm::reverse(ops)) {
    if (!isRematerializable(op) || op->getNumResults() != 1)
      continue;
    Value v = op->getResult(0);
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor || v.use_empty())
      continue;
    Attribute wanted;
    bool agree = true;
    // In the order of the uses: the clones below are created in this
    // order, and a map keyed by attribute pointers would make the output
    // differ between runs.
    llvm::MapVector<Attribute, SmallVector<OpOperand *>> usesByLayout;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      Attribute need;
      if (BlockedLayoutAttr own = accessLayouts.lookup(user)) {
        need = own;
      } else if (auto expand = dyn_cast<ExpandDimsOp>(user)) {
        auto parent = dyn_cast_or_null<DistributedLayoutAttrInterface>(
            layouts.lookup(expand.getResult()));
        if (parent)
          need = SliceLayoutAttr::get(&getContext(), expand.getAxis(), parent);
      } else if (isElementwiseLike(user) && !isa<BroadcastOp>(user) &&
                 user->getNumResults() == 1 &&
                 isa<RankedTensorType>(user->getResult(0).getType())) {
        need = layouts.lookup(user->getResult(0));
      }
      if (!need)
        need = layouts.lookup(v);
      if (wanted && wanted != need)
        agree = false;
      wanted = need;
      usesByLayout[need].push_back(&use);
    }
    // Users disagree: an op without tensor operands (make_range, splat,
    // constant) is cheaper to duplicate, once per wanted layout, than to
    // convert.
    if (!agree && isBuiltFromScalars(op)) {
      Attribute current = layouts.lookup(v);
      OpBuilder builder(op);
      for (auto &[layout, uses] : usesByLayout) {
        if (layout == current)
          continue;
        Operation *clone = builder.clone(*op);
        layouts[clone->getResult(0)] = layout;
        for (OpOperand *use : uses)
          use->set(clone->getResult(0));
      }
      if (!usesByLayout.count(current) && v.use_empty())
        continue;
      continue;
    }
    // Operands of the op must be rematerializable too unless they are scalars,
    // and those that would be converted (not cheap to build again, unless
    // their own producers follow) must not hold more bytes than the result:
    // a conversion moves down to the narrower side of a truncation, not up
    // to the wider.
    if (agree && wanted && wanted != layouts.lookup(v)) {
      uint64_t convertedBytes = 0;
      bool operandsOk = llvm::all_of(op->getOperands(), [&](Value operand) {
        auto operandTensor = dyn_cast<RankedTensorType>(operand.getType());
        if (!operandTensor)
          return true;
        Operation *def = operand.getDefiningOp();
        if (!def || !isRematerializable(def))
          return false;
        if (!isCheapToRebuild(operand))
          convertedBytes += ::tle::conversion::getTensorBytes(operandTensor);
        return true;
      });
      if (operandsOk &&
          convertedBytes <= ::tle::conversion::getTensorBytes(tensor))
        layouts[v] = wanted;
    }
  }
}

void AssignLayoutsPass::materialize(ModuleOp module) {
  // Types first.
  for (auto &[value, layout] : layouts) {
    value.setType(withLayout(value.getType(), layout));
    if (auto cst = value.getDefiningOp<arith::ConstantOp>()) {
      auto dense = cast<DenseElementsAttr>(cst.getValue());
      cst.setValueAttr(dense.reshape(cast<ShapedType>(value.getType())));
    }
  }
  module.walk([&](FuncOp func) {
    SmallVector<Type> inputs(func.getArgumentTypes());
    for (auto [i, arg] : llvm::enumerate(func.getArguments()))
      inputs[i] = arg.getType();
    func.setFunctionType(FunctionType::get(
        &getContext(), inputs, func.getFunctionType().getResults()));
  });

  // Then conversions where an operand's layout is not the one its user needs.
  OpBuilder builder(&getContext());
  auto require = [&](OpOperand &operand, Type needed) {
    Value v = operand.get();
    if (v.getType() == needed || !isa<RankedTensorType>(needed))
      return;
    builder.setInsertionPoint(operand.getOwner());
    auto convert =
        ConvertLayoutOp::create(builder, operand.getOwner()->getLoc(), needed, v);
    operand.set(convert.getResult());
    if (conversionCounts)
      ++conversionCounts->Assigned;
  };
  module.walk([&](Operation *op) {
    if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
      auto parent = cast<DistributedLayoutAttrInterface>(
          expand.getResult().getType().getEncoding());
      require(expand.getSrcMutable(),
              withLayout(expand.getSrc().getType(),
                         SliceLayoutAttr::get(&getContext(), expand.getAxis(),
                                              parent)));
      return;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = op->getParentOp();
      if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
        for (auto [operand, arg] :
             llvm::zip(yield->getOpOperands(), whileOp.getBeforeArguments()))
          require(operand, arg.getType());
        return;
      }
      if (isa<scf::ForOp, scf::IfOp>(parent))
        for (auto [operand, res] :
             llvm::zip(yield->getOpOperands(), parent->getResults()))
          require(operand, res.getType());
      return;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      for (auto [operand, arg] : llvm::zip(forOp.getInitArgsMutable(),
                                           forOp.getRegionIterArgs()))
        require(operand, arg.getType());
      return;
    }
    if (auto cond = dyn_cast<scf::ConditionOp>(op)) {
      auto whileOp = cast<scf::WhileOp>(op->getParentOp());
      for (auto [operand, res] :
           llvm::zip(cond.getArgsMutable(), whileOp.getResults()))
        require(operand, res.getType());
      return;
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      Attribute layout = reduceLayouts.lookup(reduce);
      for (OpOperand &src : reduce.getSrcsMutable())
        require(src, withLayout(src.get().getType(), layout));
      return;
    }
    // Scans keep each operand's layout in the matching result.
    if (auto scan = dyn_cast<ScanOp>(op)) {
      for (auto [operand, res] :
           llvm::zip(scan->getOpOperands(), scan.getResults()))
        require(operand, res.getType());
      return;
    }
    // A gather reads its result's indices in the result's layout.
    if (auto gather = dyn_cast<GatherOp>(op)) {
      require(gather.getIndicesMutable(),
              withLayout(gather.getIndices().getType(),
                         gather.getType().getEncoding()));
      return;
    }
    if (auto cumsum = dyn_cast<ExclusiveCumsumOp>(op)) {
      require(cumsum.getSrcMutable(), cumsum.getExclusive().getType());
      return;
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      auto tiling = dotTilings.find(dot);
      if (tiling != dotTilings.end()) {
        using ::tle::conversion::MatrixOperand;
        auto operandType = [&](Value v, MatrixOperand role) {
          auto tensor = cast<RankedTensorType>(v.getType());
          return withLayout(tensor, tiling->second.getLayout(
                                        &getContext(), role,
                                        tensor.getShape()));
        };
        // Operands read from block-level memory keep the layouts they come
        // in: distribution (or software pipelining) stores them there.
        if (!tiling->second.operandsInBlockMemory()) {
          require(dot.getAMutable(),
                  operandType(dot.getA(), MatrixOperand::A));
          require(dot.getBMutable(),
                  operandType(dot.getB(), MatrixOperand::B));
        } else if (dot->hasAttr(::tle::conversion::kMatrixRegisterAAttr)) {
          require(dot.getAMutable(), operandType(dot.getA(), MatrixOperand::A));
        }
        require(dot.getCMutable(), dot.getD().getType());
        return;
      }
      // The FMA fallback of distribution: each thread holds whole rows of A
      // and whole columns of B for the elements of C it owns; lanes sharing
      // rows (columns) hold replicated copies.
      auto d = dyn_cast<BlockedLayoutAttr>(dot.getD().getType().getEncoding());
      if (!d || d.getSizePerThread().size() != 2)
        return;
      int64_t k = dot.getA().getType().getShape().back();
      auto operandLayout = [&](unsigned kDim) {
        SmallVector<unsigned> spt(d.getSizePerThread());
        spt[kDim] = k;
        return BlockedLayoutAttr::get(&getContext(), spt,
                                      d.getThreadsPerWarp(),
                                      d.getWarpsPerCTA(), d.getOrder());
      };
      require(dot.getAMutable(),
              withLayout(dot.getA().getType(), operandLayout(1)));
      require(dot.getBMutable(),
              withLayout(dot.getB().getType(), operandLayout(0)));
      require(dot.getCMutable(), dot.getD().getType());
      return;
    }
    if (!isElementwiseLike(op))
      return;
    Type anchor;
    if (op->getNumResults() == 1 &&
        isa<RankedTensorType>(op->getResult(0).getType()))
      anchor = op->getResult(0).getType();
    else
      for (Value operand : op->getOperands())
        if (isa<RankedTensorType>(operand.getType())) {
          anchor = operand.getType();
          break;
        }
    if (!anchor)
      return;
    Attribute layout = cast<RankedTensorType>(anchor).getEncoding();
    if (BlockedLayoutAttr own = accessLayouts.lookup(op))
      layout = own;
    for (OpOperand &operand : op->getOpOperands())
      if (isa<RankedTensorType>(operand.get().getType()))
        require(operand, withLayout(operand.get().getType(), layout));
  });
}

FailureOr<SmallVector<AssignLayoutsPass::Scope>>
AssignLayoutsPass::collectScopes(ModuleOp module, unsigned kernelWarps,
                                 unsigned &blockWarps) {
  SmallVector<Scope> partitions;
  blockWarps = 0;
  WalkResult walk = module.walk([&](tle_struct::WarpSpecializeOp op) {
    if (op->getParentOfType<tle_struct::WarpSpecializeOp>()) {
      op.emitError("warp_specialize inside a warp_specialize partition is "
                   "not supported");
      return WalkResult::interrupt();
    }
    unsigned total = 0;
    for (auto [region, n] :
         llvm::zip(op.getPartitions(), op.getPartitionNumWarps())) {
      if (!llvm::isPowerOf2_32(n)) {
        op.emitError() << "a warp_specialize partition runs on " << n
                       << " warps; layouts need a power of two";
        return WalkResult::interrupt();
      }
      partitions.push_back({&region, unsigned(n), total});
      total += n;
    }
    if (blockWarps && blockWarps != total) {
      op.emitError() << "every warp_specialize of a kernel must use the same "
                        "warps in all ("
                     << blockWarps << " before, " << total << " here)";
      return WalkResult::interrupt();
    }
    blockWarps = total;
    // A partition's tiles are laid out for its warps only. Tiles built from
    // scalars alone (constants the canonicalizer hoisted, splats) are
    // rebuilt inside; any other tile from outside is an error.
    for (Region &region : op.getPartitions()) {
      bool crossing = false;
      DenseMap<Value, Value> rebuilt;
      visitUsedValuesDefinedAbove(region, [&](OpOperand *use) {
        Value v = use->get();
        if (crossing || !isa<RankedTensorType>(v.getType()))
          return;
        Operation *def = v.getDefiningOp();
        if (!isBuiltFromScalars(def)) {
          use->getOwner()->emitError()
              << "a warp_specialize partition cannot use a tile made outside "
                 "it; pass pointers or scalars and build the tile inside";
          crossing = true;
          return;
        }
        Value &copy = rebuilt[v];
        if (!copy) {
          OpBuilder builder = OpBuilder::atBlockBegin(&region.front());
          copy = builder.clone(*def)->getResult(0);
        }
        use->set(copy);
      });
      if (crossing)
        return WalkResult::interrupt();
      for (auto &entry : rebuilt)
        if (entry.first.use_empty())
          entry.first.getDefiningOp()->erase();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!blockWarps) {
    blockWarps = kernelWarps;
    return SmallVector<Scope>{{nullptr, kernelWarps, 0}};
  }
  // Outside the partitions all of the block's warps run the kernel.
  bool outsideTiles = false;
  module.walk([&](Operation *op) {
    if (outsideTiles || WarpSpecializeOp::getPartitionOf(op) ||
        isa<FuncOp>(op) ||
        !llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      return;
    if (!llvm::isPowerOf2_32(blockWarps)) {
      op->emitError() << "the warp_specialize partitions take " << blockWarps
                      << " warps in all, not a power of two: tiles outside "
                         "the partitions cannot be laid out; build them "
                         "inside a partition";
      outsideTiles = true;
    }
  });
  if (outsideTiles)
    return failure();
  partitions.insert(partitions.begin(), {nullptr, blockWarps, 0});
  return partitions;
}

void AssignLayoutsPass::runOnOperation() {
  ModuleOp module = getOperation();
  unsigned kernelWarps =
      numWarps ? unsigned(numWarps) : ::tle::conversion::getNumWarps(module);
  if (!llvm::isPowerOf2_32(kernelWarps) || !llvm::isPowerOf2_32(warpSize)) {
    module.emitError() << "num-warps (" << kernelWarps << ") and warp-size ("
                       << warpSize << ") must be powers of two";
    return signalPassFailure();
  }
  unsigned blockWarps = 0;
  auto scopes = collectScopes(module, kernelWarps, blockWarps);
  if (failed(scopes))
    return signalPassFailure();
  module->setAttr(
      ::tle::conversion::kNumWarpsAttr,
      IntegerAttr::get(IntegerType::get(&getContext(), 32), blockWarps));
  module->setAttr("tle.warp_size", IntegerAttr::get(
                                       IntegerType::get(&getContext(), 32),
                                       unsigned(warpSize)));
  layouts.clear();
  accessLayouts.clear();
  dotTilings.clear();
  alignedUnits.clear();
  for (const Scope &s : *scopes) {
    scope = s.region;
    warps = s.warps;
    firstWarp = s.firstWarp;
    shapeLayouts.clear();
    anchoredShapes.clear();
    proposeAnchors(module);
    // Loop-carried values found to meet a matrix layout are carried in it:
    // assign again with them seeded until no new one turns up (each run
    // adds one at least, so this ends).
    DenseMap<Value, Attribute> before = layouts;
    loopSeeds.clear();
    do {
      layouts = before;
      newLoopSeeds = false;
      planMatrixDots(module);
      carryAccessPointers(module);
      applyLoopSeeds();
      if (failed(assignForward(module)))
        return signalPassFailure();
    } while (newLoopSeeds);
    refineBackward(module);
  }
  materialize(module);
}

} // namespace

namespace tle::conversion {
std::unique_ptr<Pass>
createAssignLayoutsPass(const AssignLayoutsOptions &Options) {
  return std::make_unique<AssignLayoutsPass>(Options);
}

void registerAssignLayoutsPass() { PassRegistration<AssignLayoutsPass>(); }
} // namespace tle::conversion
