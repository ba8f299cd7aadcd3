//===- PipelineLoads.cpp - Multi-stage loads through block-level rings ----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Software pipelining of loops with num_stages S (Triton's num_stages): a
// tile load whose value is converted to another layout (which distribution
// does through block-level memory anyway, e.g. for dot operands) becomes an
// asynchronous copy into a slot of a ring, issued S-1 iterations ahead, and
// a read of the slot in the layout the conversion wanted (in a loop that
// asked for num_stages itself, tl.range, any load of pieces of 8 bytes or
// more: read back in its own layout, `other` selected after the read).
// Slots follow an iteration count the loop carries. Reads into registers
// are over at a barrier after them, so the copies refill the slot just
// read: S-1 slots. Per iteration:
//
//   async_wait S-2          group i done
//   local_load ring[i % (S-1)] -> the operands
//   barrier                 every thread's reads of the slot are done
//   async_copy ... -> ring[(i+S-1) % (S-1)], the same slot; async_commit
//   the rest of the body
//
// Loads read back in their own layout have the barrier and the copies at
// the end of the body instead, as Triton orders them: where the body has a
// block barrier of its own (a reduction across warps), distribution drops
// this barrier (kSlotReleaseAttr).
//
// A tl.dot whose matrix unit reads A and B from block-level memory (wgmma;
// tle.matrix_block_operands) takes its loads without a conversion: both
// become rings in the unit's swizzled layout, and the dot a
// tle_struct.local_dot on this iteration's slots right after the wait,
// followed by a local_dot_wait for the previous iteration's group and the
// barrier; the dot runs on into the next iteration, reading its slots
// after the barrier, so its loop's rings have S slots (copies refill the
// previous iteration's), and after the loop everything is waited for. Both
// counts are what Triton's shared memory sizes show (softmax with
// num_stages 4: three rows; the wgmma matmul with 3: three tiles).
//
// On targets with tensor copies (TMA), a descriptor tile that
// tle-lower-tensor-descriptors kept (tle.descriptor_load) and that such a
// dot reads, maybe through tl.trans, is copied by the block's first thread
// through the descriptor's tensor map (tle_struct.tensor_map, made once
// after the descriptor) into a ring in the widest swizzle its rows take
// (tle_struct.async_tensor_copy); each slot has a barrier object the copy
// completes on, and the readers wait for the slot's phase (the number of
// times the slots wrapped, which the loop carries) right before the dot,
// instead of an async_wait. Kept tiles no such dot reads become pointer
// loads first. A loop inside another (a persistent kernel's K loop in its
// tile loop) sets its barriers up before it on every outer iteration, the
// slots' phases starting over, and invalidates them after it.
//
// The copies and the pure ops their addresses and masks come from (pointer
// increments included) form stage 0 of the upstream scf pipeliner, all else
// stage S-1; the loop is not peeled, copies of iterations past the end are
// masked off (they write zeros and read nothing). Loops that write memory
// keep their order, except, as in Triton, loops that asked for num_stages
// and only store; a loop whose staged load's addresses or masks would
// depend on another load (a gather of staged indices) is left alone. The
// rings, the function's other block-level buffers and a bound of the
// scratch its ops take are counted against what a block may use (the
// description's opt-in limit): S shrinks until they fit, and a loop that
// does not fit with two stages is left alone.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/AxisInfo.h"
#include "core/conversion/BufferAddressing.h"
#include "core/conversion/Passes.h"
#include "core/transforms/TensorDescriptors.h"

#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tle;
namespace ts = mlir::tle_struct;
using ::tle::conversion::getElementBytes;
using ::tle::conversion::getTensorBytes;
using ::tle::conversion::kScratchAlternationBytes;
using ::tle::conversion::kSlotReleaseAttr;

namespace tle::conversion {
unsigned getElementBytes(Type t) {
  if (isa<PointerType>(t))
    return 8;
  return std::max(1u, t.getIntOrFloatBitWidth() / 8);
}

uint64_t getTensorBytes(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  Type elem = tensor ? tensor.getElementType() : t;
  if (!elem.isIntOrFloat() && !isa<PointerType>(elem))
    return 0;
  return (tensor ? tensor.getNumElements() : 1) * getElementBytes(elem);
}
} // namespace tle::conversion

namespace {

constexpr StringLiteral kNumStagesAttr = "tle.num_stages";
constexpr unsigned kDefaultNumStages = 3;
/// The most a ring is aligned to in block-level memory (a swizzled layout's
/// pattern repeats every 1024 bytes).
constexpr uint64_t kRingAlignment = 1024;
/// A barrier object (a slot of a ring that tensor copies fill has one).
constexpr uint64_t kBarrierBytes = 8;

/// A load whose only user converts it to another layout, or is a tl.dot
/// reading that operand from block-level memory (`dot` set), or, in a loop
/// whose num_stages the kernel asked for, any other load (neither set: the
/// slot is read back in the load's own layout).
struct Candidate {
  LoadOp load;
  ConvertLayoutOp convert;
  DotOp dot;
  ts::BufferType ringType;
  /// The dot runs where it is and is waited for there (its result is used
  /// in the iteration, or an operand stays in registers).
  bool syncDot = false;
  /// Instead of `load`: a descriptor tile a tensor copy stages for `dot`,
  /// read through `trans` when the dot takes it transposed.
  DescriptorLoadOp tensorLoad;
  TransOp trans;

  Operation *source() const {
    return load ? static_cast<Operation *>(load)
                : static_cast<Operation *>(tensorLoad);
  }
  /// The value the dot (or the conversion) reads.
  Value operand() const {
    return trans ? Value(TransOp(trans).getResult()) : source()->getResult(0);
  }
};

/// Whether each element of a tile of `type` is held by one thread only: a
/// blocked layout whose span fits in the shape (a larger span would hold
/// elements in several threads).
bool isHeldOnce(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto layout =
      tensor ? dyn_cast<BlockedLayoutAttr>(tensor.getEncoding()) : nullptr;
  if (!layout)
    return false;
  for (auto [span, size] :
       llvm::zip(layout.getShapePerTile(), tensor.getShape()))
    if (span > size)
      return false;
  return true;
}

bool readsBlockOperands(DotOp dot) {
  return dot->hasAttr(::tle::conversion::kMatrixBlockOperandsAttr);
}

/// The dimension of operand `i` (0: A, 1: B) of a dot that is K.
unsigned getKDim(unsigned i) { return i == 0 ? 1 : 0; }

/// Whether `dot`'s unit can read `operand` (A or B) from a slot whose
/// contiguous dimension is `fastest`: any where it reads MN-major operands
/// too, else only K.
bool acceptsOperandOrder(DotOp dot, Value operand, unsigned fastest) {
  return !dot->hasAttr(::tle::conversion::kMatrixKMajorAttr) ||
         fastest == getKDim(operand == dot.getA() ? 0 : 1);
}

bool isZero(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isZero() && !f.getValue().isNegative();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  return false;
}

/// An upper bound of the bytes a tile takes in scratch when a conversion
/// places it there: its elements plus 16 bytes of padding per row, rows
/// being at most the elements over the smallest dimension.
uint64_t getPlacedBytes(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor)
    return getTensorBytes(t);
  int64_t smallest = 1;
  if (tensor.getRank() > 0)
    smallest = std::max<int64_t>(1, *llvm::min_element(tensor.getShape()));
  return getTensorBytes(t) + 16 * uint64_t(tensor.getNumElements() / smallest);
}

/// An upper bound of the block-level scratch that distribution takes for
/// the ops of a function (`staged` are the loads and conversions that
/// become ring reads): a reduction across warps exchanges a value per warp
/// and result element; a dot may store its operands that are not staged
/// (an A it takes from registers stays there); a layout conversion or a
/// transpose places its tile once; a shape op whose threads keep their
/// elements (a transpose into the permuted layout), none; an elementwise op, a
/// constant, a memory access, a broadcast or control flow takes none; any other
/// op may place each of its tensors there (the operands of a scan). With
/// scratch alternation an op's slices may start up to
/// kScratchAlternationBytes in.
uint64_t getScratchBound(Operation *function, unsigned numWarps,
                         const llvm::SmallPtrSetImpl<Operation *> &staged,
                         bool scratchAlternation) {
  uint64_t bound = 0;
  function->walk([&](Operation *op) {
    if (staged.contains(op))
      return;
    uint64_t bytes = 0;
    if (isa<ReduceOp>(op)) {
      for (Type t : op->getResultTypes())
        bytes += getTensorBytes(t) * numWarps;
    } else if (auto dot = dyn_cast<DotOp>(op)) {
      bool registerA = dot->hasAttr(::tle::conversion::kMatrixRegisterAAttr);
      for (Value operand : {dot.getA(), dot.getB()})
        if (!staged.contains(operand.getDefiningOp()) &&
            !(registerA && operand == dot.getA()))
          bytes += getPlacedBytes(operand.getType());
    } else if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
      // One placement of the tile, written in one layout, read in the other.
      bytes = getPlacedBytes(convert.getType());
    } else if (isa<TransOp, ReshapeOp, JoinOp, SplitOp>(op) &&
               getShapeOpRegisterSources(op)) {
      // Every thread already holds the elements of its result registers.
    } else if (auto trans = dyn_cast<TransOp>(op)) {
      bytes = getPlacedBytes(trans.getType());
    } else if (op->getNumRegions() == 0 &&
               !op->hasTrait<OpTrait::IsTerminator>() &&
               !op->hasTrait<OpTrait::Elementwise>() &&
               !op->hasTrait<OpTrait::ConstantLike>() &&
               !isa<LoadOp, StoreOp, SplatOp, MakeRangeOp, AddPtrOp,
                    BroadcastOp, ExpandDimsOp>(op)) {
      for (Type t :
           llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
        if (isa<RankedTensorType>(t))
          bytes += getPlacedBytes(t);
    }
    bound = std::max(bound, bytes);
  });
  if (bound && scratchAlternation)
    bound += kScratchAlternationBytes;
  return bound;
}

/// The ring of `slots` slots of `type`'s tile: the load layout's fastest
/// dimension contiguous and each row padded by 16 bytes (bank-conflict-free
/// reads of 16-byte rows, as scratch conversions place tiles).
ts::BufferType getRingType(RankedTensorType type, unsigned slots) {
  auto layout = getDistributedLayout(type);
  Type elem = type.getElementType();
  SmallVector<int64_t> shape{int64_t(slots)};
  shape.append(type.getShape().begin(), type.getShape().end());
  SmallVector<int64_t> order;
  for (unsigned d : layout.getRegisterOrder())
    order.push_back(d + 1);
  order.push_back(0);
  int64_t fastest = order.front() - 1;
  int64_t padInterval = 0, padAmount = 0;
  if (type.getRank() > 1) {
    padInterval = type.getDimSize(fastest);
    padAmount = std::max(1u, 16 / getElementBytes(elem));
  }
  MLIRContext *ctx = type.getContext();
  return ts::BufferType::get(
      ctx, shape, elem, StringAttr::get(ctx, "block"),
      ts::LayoutAttr::get(ctx, order, padInterval, padAmount));
}

/// The ring of a matrix unit's operand: slots in the swizzled layout the
/// unit reads (see #tle_struct.layout).
/// `slots` slots of `type`'s 2-D tile in the swizzled layout a matrix unit
/// reads, dimension `fastest` of the tile contiguous.
ts::BufferType getSwizzledRingType(RankedTensorType type, unsigned slots,
                                   unsigned fastest, int64_t swizzle) {
  SmallVector<int64_t> shape{int64_t(slots)};
  shape.append(type.getShape().begin(), type.getShape().end());
  SmallVector<int64_t> order{int64_t(fastest) + 1, int64_t(1 - fastest) + 1,
                             0};
  MLIRContext *ctx = type.getContext();
  return ts::BufferType::get(ctx, shape, type.getElementType(),
                             StringAttr::get(ctx, "block"),
                             ts::LayoutAttr::get(ctx, order, 0, 0, swizzle));
}

ts::BufferType getOperandRingType(RankedTensorType type, unsigned slots,
                                  unsigned fastest) {
  return getSwizzledRingType(type, slots, fastest,
                             getOperandSwizzle(type, fastest));
}

/// The contiguous dimension of a buffer for operand `i` (0: A, 1: B) of
/// `dot`: K where its unit reads only K-major operands, else that of the
/// operand's registers (the copies' vectors).
unsigned getOperandFastest(DotOp dot, unsigned i) {
  if (dot->hasAttr(::tle::conversion::kMatrixKMajorAttr))
    return getKDim(i);
  auto type = cast<RankedTensorType>(dot->getOperand(i).getType());
  return getDistributedLayout(type).getRegisterOrder()[0];
}

/// The ring a tensor copy fills: slots of the descriptor's tile in swizzled
/// panels along its contiguous last dimension, which is the slot's first
/// dimension when the dot reads the tile transposed.
ts::BufferType getTensorCopyRingType(const Candidate &c, unsigned slots) {
  auto type = cast<RankedTensorType>(c.operand().getType());
  unsigned fastest = c.trans ? 0 : 1;
  return getSwizzledRingType(type, slots, fastest,
                             getOperandSwizzle(type, fastest));
}

ts::BufferType getRingType(Candidate c, unsigned slots) {
  if (c.tensorLoad)
    return getTensorCopyRingType(c, slots);
  auto type = cast<RankedTensorType>(c.load.getType());
  if (!c.dot)
    return getRingType(type, slots);
  return getOperandRingType(type, slots,
                            getDistributedLayout(type).getRegisterOrder()[0]);
}

/// Bytes of a ring, padding included, as distribution will place it.
uint64_t getRingBytes(ts::BufferType type) {
  using ::tle::conversion::distribute::BufferAddressing;
  return uint64_t(BufferAddressing(type).span(type)) *
         getElementBytes(type.getElementType());
}

/// The narrowest per-thread piece of a load worth staging only to be read
/// back in its own layout (getCandidate).
constexpr unsigned kMinOwnLayoutPieceBytes = 8;

/// A load worth staging. Its per-thread pieces must be at least 4 bytes
/// (what asynchronous copies move; with unknown strides a tile comes in
/// element by element, and a copy per element costs more than it hides),
/// and kMinOwnLayoutPieceBytes where the ring is read back in the load's
/// own layout.
std::optional<Candidate> getCandidate(LoadOp load, const AxisInfoResult &axis,
                                      bool anyUser) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || !type.getEncoding() || load.getIsVolatile() ||
      type.getElementType().isInteger(1) || load->use_empty())
    return std::nullopt;
  unsigned dim = getDistributedLayout(type).getRegisterOrder()[0];
  unsigned pieceBytes = ::tle::conversion::getVectorWidthAlong(
                            axis, load.getPtr(), Value(), dim, 16) *
                        getElementBytes(type.getElementType());
  if (pieceBytes < 4)
    return std::nullopt;
  bool zeroOther = !load.getOther() || isZero(load.getOther());
  Operation *user = *load->getUsers().begin();
  if (load->hasOneUse() && zeroOther) {
    if (auto dot = dyn_cast<DotOp>(user);
        dot && readsBlockOperands(dot) && dot->getBlock() == load->getBlock() &&
        dot.getC() != load.getResult() && getOperandSwizzle(type, dim) > 0 &&
        acceptsOperandOrder(dot, load.getResult(), dim))
      return Candidate{load, {}, dot, {}};
    if (auto convert = dyn_cast<ConvertLayoutOp>(user);
        convert && convert->getBlock() == load->getBlock())
      return Candidate{load, convert, {}, {}};
  }
  // Read back in its own layout; masked-off elements, which the copy fills
  // with zeros, take `other` after the read. Here the ring's round trip
  // through block-level memory is all overhead, which copies of single
  // 4-byte elements do not repay: softmax over rows of 1031 fp32 (no
  // divisibility known) ran at 0.96 of Triton's speed staged and 1.23
  // loaded directly on the H200 (bench/RESULTS-h200.md, session 24), rows
  // of 1024 staged in 16-byte copies 1.01 against 0.87 loaded directly.
  if (anyUser && pieceBytes >= kMinOwnLayoutPieceBytes)
    return Candidate{load, {}, {}, {}};
  return std::nullopt;
}

/// A descriptor tile that tle-lower-tensor-descriptors kept for a tensor
/// copy (see isTensorCopyCandidate there), staged when its dot reads
/// block-level operands.
std::optional<Candidate> getTensorCopyCandidate(DescriptorLoadOp load) {
  std::optional<DotOperandUse> use = getDotOperandUse(load);
  if (!use || !readsBlockOperands(use->Dot) ||
      !load.getDesc().getDefiningOp<MakeTensorDescOp>())
    return std::nullopt;
  Candidate c;
  c.tensorLoad = load;
  c.trans = use->Trans;
  c.dot = use->Dot;
  // The tile lands with its last dimension contiguous (the first, read
  // transposed): a unit reading only K-major operands takes the others
  // from registers, stored in its order.
  if (!acceptsOperandOrder(c.dot, c.operand(), c.trans ? 0 : 1))
    return std::nullopt;
  return c;
}

/// A tl.trans of a loaded tile that only matrix units reading block-level
/// memory take as an operand (attention's K^T) becomes a load through the
/// transposed pointers: the tile is copied into its ring already in the
/// operand's orientation. Layout assignment gave the trans the permuted
/// layout of the load's, in which transposing moves no data.
void sinkTransposesIntoLoads(scf::ForOp loop) {
  SmallVector<TransOp> transposes;
  loop.getBody()->walk([&](TransOp trans) { transposes.push_back(trans); });
  for (TransOp trans : transposes) {
    auto load = trans.getSrc().getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse() || load->getBlock() != trans->getBlock() ||
        !trans.getType().getEncoding() ||
        !llvm::all_of(trans->getUses(), [](OpOperand &use) {
          auto dot = dyn_cast<DotOp>(use.getOwner());
          return dot && use.getOperandNumber() < 2 && readsBlockOperands(dot);
        }))
      continue;
    OpBuilder b(load);
    auto transposed = [&](Value v) -> Value {
      if (!v)
        return v;
      auto type = cast<RankedTensorType>(v.getType());
      auto result = RankedTensorType::get(trans.getType().getShape(),
                                          type.getElementType(),
                                          trans.getType().getEncoding());
      // A uniform `other` stays a constant (the zero staging looks for).
      SplatElementsAttr splat;
      if (matchPattern(v, m_Constant(&splat)))
        return arith::ConstantOp::create(
            b, trans.getLoc(), result,
            SplatElementsAttr::get(result, splat.getSplatValue<Attribute>()));
      return TransOp::create(b, trans.getLoc(), result, v, trans.getOrder());
    };
    SmallVector<Value> operands =
        llvm::to_vector(llvm::map_range(load->getOperands(), transposed));
    auto newLoad = cast<LoadOp>(b.clone(*load));
    newLoad->setOperands(operands);
    newLoad.getResult().setType(trans.getType());
    trans.replaceAllUsesWith(newLoad.getResult());
    trans.erase();
    load.erase();
  }
}

/// Whether an op may run in an earlier iteration than its own (in a loop
/// that writes no memory, or only with plain stores the loads may pass).
bool isMovable(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return !load.getIsVolatile();
  return isPure(op) || isa<DescriptorLoadOp, ts::AsyncCopyOp,
                           ts::AsyncTensorCopyOp, ts::AsyncCommitOp>(op);
}

/// Stage 0: `roots` and, transitively, the body ops their operands come
/// from, following loop-carried values to the op that yields them. Fails if
/// that pulls in an op that cannot move to an earlier iteration.
FailureOr<llvm::SetVector<Operation *>>
getStageZero(scf::ForOp loop, ArrayRef<Operation *> roots) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Operation *> worklist(roots.begin(), roots.end());
  llvm::SetVector<Operation *> slice;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!slice.insert(op))
      continue;
    if (!isMovable(op))
      return failure();
    auto visit = [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() != body || arg.getArgNumber() == 0)
          return;
        v = yield.getOperand(arg.getArgNumber() - 1);
      }
      if (Operation *def = v.getDefiningOp(); def && def->getBlock() == body)
        worklist.push_back(def);
    };
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        visit(operand);
    });
  }
  return slice;
}

/// Copies of an iteration that does not exist are masked off.
Operation *predicate(RewriterBase &rewriter, Operation *op, Value pred) {
  if (auto copy = dyn_cast<ts::AsyncTensorCopyOp>(op)) {
    rewriter.setInsertionPoint(copy);
    if (Value old = copy.getPred())
      pred = arith::AndIOp::create(rewriter, copy.getLoc(), old, pred);
    rewriter.modifyOpInPlace(copy, [&] { copy.getPredMutable().assign(pred); });
    return copy;
  }
  auto copy = dyn_cast<ts::AsyncCopyOp>(op);
  if (!copy)
    return isMovable(op) && !isa<LoadOp, DescriptorLoadOp>(op) ? op : nullptr;
  rewriter.setInsertionPoint(copy);
  auto type = cast<RankedTensorType>(copy.getPtr().getType());
  Value mask = SplatOp::create(rewriter, copy.getLoc(),
                               RankedTensorType::get(type.getShape(),
                                                     rewriter.getI1Type(),
                                                     type.getEncoding()),
                               pred);
  if (Value old = copy.getMask())
    mask = arith::AndIOp::create(rewriter, copy.getLoc(), old, mask);
  rewriter.modifyOpInPlace(copy, [&] { copy.getMaskMutable().assign(mask); });
  return copy;
}

/// Adds the slot of each iteration as a new i32 iteration argument (0, 1,
/// ..., slots - 1, 0, ...) and returns the loop that replaced it. Slots
/// follow the iterations, not (iv - lb) / step % slots, a division that is
/// slow and, with a dynamic step (a grid-strided loop), may not run for an
/// iteration ahead; and a wrapping increment, not count % slots, keeps the
/// multiply of a remainder off the path from the wait to the dot.
/// With `rounds`, also the number of times the slots wrapped before this
/// iteration (the phase of the slot's barrier a tensor copy completes on).
scf::ForOp addSlotCount(RewriterBase &rewriter, scf::ForOp loop, unsigned slots,
                        bool rounds) {
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
  SmallVector<Value> inits(rounds ? 2 : 1, zero);
  FailureOr<LoopLikeOpInterface> counted = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> args) {
        Value slot = args.back();
        Value next = arith::AddIOp::create(
            b, l, slot, arith::ConstantIntOp::create(b, l, 1, 32));
        Value wraps = arith::CmpIOp::create(
            b, l, arith::CmpIPredicate::eq, next,
            arith::ConstantIntOp::create(b, l, slots, 32));
        SmallVector<Value> yields;
        if (rounds)
          yields.push_back(arith::AddIOp::create(
              b, l, args.front(),
              arith::ExtUIOp::create(b, l, b.getI32Type(), wraps)));
        yields.push_back(arith::SelectOp::create(
            b, l, wraps, arith::ConstantIntOp::create(b, l, 0, 32), next));
        return yields;
      });
  return cast<scf::ForOp>(counted->getOperation());
}

/// Slot of this iteration: the last iteration argument.
Value getSlot(scf::ForOp loop) { return loop.getRegionIterArgs().back(); }
/// Wraps of the slots before this iteration (addSlotCount with `rounds`).
Value getRound(scf::ForOp loop) {
  return loop.getRegionIterArgs().drop_back().back();
}

/// The operands (A: 0, B: 1) of a synchronous dot that no candidate stages
/// and the unit does not take from registers: they are stored to a one-slot
/// buffer each.
SmallVector<unsigned, 2> getRegisterOperands(DotOp dot,
                                             ArrayRef<Candidate> candidates) {
  SmallVector<unsigned, 2> operands;
  bool registerA = dot->hasAttr(::tle::conversion::kMatrixRegisterAAttr);
  for (unsigned i = registerA ? 1 : 0; i < 2; ++i)
    if (llvm::none_of(candidates, [&](const Candidate &c) {
          return c.dot == dot && c.operand() == dot->getOperand(i);
        }))
      operands.push_back(i);
  return operands;
}

/// Whether the matrix unit can read each register operand of `dot` from a
/// buffer in its swizzled layout.
bool registerOperandsStorable(DotOp dot, ArrayRef<Candidate> candidates) {
  return llvm::all_of(getRegisterOperands(dot, candidates), [&](unsigned i) {
    auto type = cast<RankedTensorType>(dot->getOperand(i).getType());
    return type.getEncoding() &&
           getOperandSwizzle(type, getOperandFastest(dot, i)) > 0;
  });
}

struct PipelineLoadsPass
    : public PassWrapper<PipelineLoadsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PipelineLoadsPass)

  PipelineLoadsPass() = default;
  PipelineLoadsPass(const PipelineLoadsPass &other)
      : PassWrapper(other), conversionCounts(other.conversionCounts) {}
  explicit PipelineLoadsPass(const ::tle::conversion::PipelineLoadsOptions &o)
      : conversionCounts(o.ConversionCounts) {
    numStages = o.NumStages;
    sharedMemoryLimit = o.SharedMemoryLimit;
    ownSlotWaits = o.OwnSlotWaits;
    scratchAlternation = o.ScratchAlternation;
  }

  StringRef getArgument() const override { return "tle-pipeline-loads"; }
  StringRef getDescription() const override {
    return "Issue the loads of later loop iterations ahead through "
           "asynchronous copies into block-level rings (num_stages)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<ts::TLEStructDialect, arith::ArithDialect>();
  }

  Option<unsigned> numStages{
      *this, "num-stages",
      llvm::cl::desc("Stages of every loop (0: the loop's or module's "
                     "tle.num_stages, else 3)"),
      llvm::cl::init(0)};
  Option<uint64_t> sharedMemoryLimit{
      *this, "shared-memory-limit",
      llvm::cl::desc("Bytes of block-level memory a block may use: the "
                     "rings of a loop, the function's other buffers and its "
                     "scratch together (0: no limit)"),
      llvm::cl::init(0)};
  Option<bool> ownSlotWaits{
      *this, "own-slot-waits",
      llvm::cl::desc("Waits whose threads read back only the elements they "
                     "copied have no block barrier"),
      llvm::cl::init(true)};
  Option<bool> scratchAlternation{
      *this, "scratch-alternation",
      llvm::cl::desc("Bound the scratch as tle-distribute's option of the "
                     "same name places it"),
      llvm::cl::init(false)};

  unsigned getStages(scf::ForOp loop) {
    if (numStages)
      return numStages;
    if (auto attr = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr))
      return attr.getInt();
    if (auto attr = getOperation()->getAttrOfType<IntegerAttr>(kNumStagesAttr))
      return attr.getInt();
    return kDefaultNumStages;
  }

  void runOnOperation() override {
    // Descriptor tiles kept for tensor copies whose dot does not read
    // block-level operands (mma.sync, the FMA fallback) become the pointer
    // loads they mean first, which the rings below may still stage.
    IRRewriter rewriter(&getContext());
    SmallVector<DescriptorLoadOp> notCopied;
    getOperation().walk([&](DescriptorLoadOp load) {
      if (!getTensorCopyCandidate(load))
        notCopied.push_back(load);
    });
    for (DescriptorLoadOp load : notCopied)
      if (failed(lowerDescriptorLoad(rewriter, load)))
        return signalPassFailure();
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (!loop.getBody()
               ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
               .wasInterrupted())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      if (getStages(loop) >= 2)
        sinkTransposesIntoLoads(loop);
    AxisInfoResult axis(getOperation());
    tensorMaps.clear();
    for (scf::ForOp loop : loops)
      if (failed(pipeline(loop, axis)))
        return signalPassFailure();
    // Tensor copy candidates that no ring took (the loop did not fit, or
    // could not be pipelined) become the pointer loads they mean.
    SmallVector<DescriptorLoadOp> unstaged;
    getOperation().walk(
        [&](DescriptorLoadOp load) { unstaged.push_back(load); });
    for (DescriptorLoadOp load : unstaged)
      if (failed(lowerDescriptorLoad(rewriter, load)))
        return signalPassFailure();
    SmallVector<MakeTensorDescOp> makes;
    getOperation().walk([&](MakeTensorDescOp make) { makes.push_back(make); });
    for (MakeTensorDescOp make : makes)
      if (make->use_empty())
        rewriter.eraseOp(make);
  }

  LogicalResult pipeline(scf::ForOp loop, const AxisInfoResult &axis) {
    unsigned stages = getStages(loop);
    if (stages < 2)
      return success();
    // Memory written in the loop could be read by a later iteration's load.
    // A loop whose num_stages the kernel gave (tl.range) is pipelined as
    // Triton does: its loads may run up to num_stages - 1 iterations ahead
    // of its plain stores (a loop that reads what its earlier iterations
    // wrote must not ask for stages), and any load is staged then. Other
    // writes (atomics, barriers) keep the loop as it is.
    bool requested = loop->hasAttr(kNumStagesAttr);
    bool writes = false, onlyStores = true;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<LoadOp, DescriptorLoadOp>(op) || isPure(op) ||
          isa<scf::YieldOp, scf::ForOp, scf::IfOp>(op))
        return;
      writes = true;
      onlyStores &= isa<StoreOp>(op);
    });
    if (writes && !(requested && onlyStores))
      return success();
    SmallVector<Candidate> candidates;
    for (Operation &op : loop.getBody()->without_terminator()) {
      std::optional<Candidate> c;
      if (auto load = dyn_cast<LoadOp>(op))
        c = getCandidate(load, axis, requested);
      else if (auto tensorLoad = dyn_cast<DescriptorLoadOp>(op))
        c = getTensorCopyCandidate(tensorLoad);
      if (c)
        candidates.push_back(*c);
    }
    // A dot reading block-level memory with both operands staged, its
    // accumulator from outside or the previous iteration and its result
    // only for the next iteration runs asynchronously: it moves to the top
    // of the body and is waited for at the end (the matmul loop). Any
    // other such dot with a staged operand runs where it is on its slots
    // and is waited for there, an operand in registers stored to a buffer
    // of its own (attention's two products); loops with both kinds keep
    // only the first.
    llvm::DenseMap<Operation *, unsigned> stagedOperands;
    for (const Candidate &c : candidates)
      if (c.dot)
        ++stagedOperands[c.dot];
    bool anyAsyncDot = false;
    for (Candidate &c : candidates) {
      if (!c.dot)
        continue;
      Value acc = c.dot.getC();
      bool accReady = acc.getParentRegion() != &loop.getRegion() ||
                      isa<BlockArgument>(acc);
      bool onlyYielded = llvm::all_of(c.dot->getUsers(), [](Operation *user) {
        return isa<scf::YieldOp>(user);
      });
      c.syncDot = !accReady || !onlyYielded || stagedOperands[c.dot] != 2;
      anyAsyncDot |= !c.syncDot;
    }
    llvm::SmallPtrSet<Operation *, 4> dropped;
    for (const Candidate &c : candidates)
      if (c.syncDot &&
          (anyAsyncDot || !registerOperandsStorable(c.dot, candidates)))
        dropped.insert(c.dot);
    llvm::erase_if(candidates, [&](const Candidate &c) {
      return c.dot && dropped.contains(c.dot);
    });
    if (candidates.empty())
      return success();
    // The operands must be computable an iteration (or more) ahead.
    SmallVector<Operation *> roots;
    for (Candidate &c : candidates)
      roots.push_back(c.source());
    FailureOr<llvm::SetVector<Operation *>> ahead = getStageZero(loop, roots);
    if (failed(ahead))
      return success();
    // A load the addresses or masks depend on (an index for a gather) is not
    // staged: its copy would wait for the slot it feeds.
    llvm::SmallPtrSet<Operation *, 8> rootSet(roots.begin(), roots.end());
    for (Operation *op : *ahead)
      if (isa<LoadOp, DescriptorLoadOp>(op) &&
          (!rootSet.contains(op) ||
           llvm::any_of(op->getUsers(), [&](Operation *user) {
             return ahead->contains(user);
           })))
        return success();
    bool asyncReads = llvm::any_of(
        candidates, [](const Candidate &c) { return c.dot && !c.syncDot; });
    auto slotsFor = [&](unsigned s) { return asyncReads ? s : s - 1; };
    // The rings share the limit with the function's other block-level
    // buffers (earlier loops' rings included) and a bound of its scratch:
    // the scratch comes first, then the buffers, each aligned.
    uint64_t ringLimit = 0;
    if (sharedMemoryLimit) {
      llvm::SmallPtrSet<Operation *, 8> staged;
      for (const Candidate &c : candidates) {
        staged.insert(c.source());
        if (c.convert)
          staged.insert(c.convert);
        if (c.trans)
          staged.insert(c.trans);
        // Its register operands get buffers of their own (operandBytes).
        if (c.syncDot)
          staged.insert(c.dot);
      }
      Operation *function = loop->getParentOfType<FunctionOpInterface>();
      if (!function)
        function = getOperation();
      uint64_t taken = llvm::alignTo(
          getScratchBound(function,
                          ::tle::conversion::getNumWarps(getOperation()),
                          staged, scratchAlternation),
          kRingAlignment);
      function->walk([&](ts::AllocOp alloc) {
        taken += llvm::alignTo(getRingBytes(alloc.getType()), kRingAlignment);
      });
      function->walk([&](ts::BarrierAllocOp barriers) {
        taken += kBarrierBytes * barriers.getNum();
      });
      if (taken >= sharedMemoryLimit)
        return success();
      ringLimit = sharedMemoryLimit - taken;
    }
    // Register operands of synchronous dots, one buffer each.
    llvm::MapVector<Operation *, SmallVector<unsigned, 2>> syncDots;
    for (const Candidate &c : candidates)
      if (c.syncDot && !syncDots.count(c.dot))
        syncDots[c.dot] = getRegisterOperands(c.dot, candidates);
    // A synchronous dot whose result only the next iteration uses, with no
    // operand stored in the loop, is not waited for in place: the carried
    // value is waited for where the next iteration first uses it (attention's
    // P V runs on while the next Q K^T starts), and its slot is refilled an
    // iteration later (S slots, as for asynchronous dots).
    llvm::SmallPtrSet<Operation *, 4> deferredDots;
    for (auto &[op, operands] : syncDots)
      if (llvm::all_of(op->getUsers(), llvm::IsaPred<scf::YieldOp>) &&
          llvm::all_of(operands, [&, op = op](unsigned i) {
            return loop.isDefinedOutsideOfLoop(op->getOperand(i));
          }))
        deferredDots.insert(op);
    asyncReads |= !deferredDots.empty();
    uint64_t operandBytes = 0;
    for (auto &[dot, operands] : syncDots)
      for (unsigned i : operands)
        operandBytes += llvm::alignTo(
            getRingBytes(getOperandRingType(
                cast<RankedTensorType>(dot->getOperand(i).getType()), 1,
                getOperandFastest(cast<DotOp>(dot), i))),
            kRingAlignment);
    for (; stages >= 2; --stages) {
      uint64_t bytes = operandBytes;
      for (Candidate &c : candidates) {
        bytes += llvm::alignTo(getRingBytes(getRingType(c, slotsFor(stages))),
                               kRingAlignment);
        if (c.tensorLoad)
          bytes += kBarrierBytes * slotsFor(stages);
      }
      if (!ringLimit || bytes <= ringLimit)
        break;
    }
    if (stages < 2)
      return success();

    IRRewriter rewriter(loop.getContext());
    Location loc = loop.getLoc();
    unsigned slots = slotsFor(stages);
    bool anyCopies =
        llvm::any_of(candidates, [](const Candidate &c) { return c.load; });
    bool anyTensorCopies = llvm::any_of(
        candidates, [](const Candidate &c) { return c.tensorLoad; });
    loop = addSlotCount(rewriter, loop, slots, anyTensorCopies);
    rewriter.setInsertionPoint(loop);
    // A ring that tensor copies fill has a barrier per slot: its copy
    // arrives on it, expecting the tile's bytes, and the readers wait for
    // the phase of the slot's round.
    SmallVector<Value> rings, barriers;
    for (Candidate &c : candidates) {
      c.ringType = getRingType(c, slots);
      Location ringLoc = c.source()->getLoc();
      rings.push_back(ts::AllocOp::create(rewriter, ringLoc, c.ringType,
                                          /*init=*/TypedAttr()));
      barriers.push_back(
          c.tensorLoad
              ? ts::BarrierAllocOp::create(
                    rewriter, ringLoc,
                    ts::BarrierType::get(rewriter.getContext(),
                                         rewriter.getStringAttr("block")),
                    1, slots)
                    .getResult()
              : Value());
    }

    // Consumer side first in the body: wait, then read this iteration's slot.
    Block *body = loop.getBody();
    rewriter.setInsertionPointToStart(body);
    llvm::SetVector<Operation *> consumerHead;
    ts::AsyncWaitOp wait;
    if (anyCopies) {
      wait = ts::AsyncWaitOp::create(rewriter, loc, stages - 2);
      consumerHead.insert(wait);
    }
    Value readSlot = getSlot(loop);
    // Per staged dot: the rings of A and B, and the barriers of those that
    // tensor copies fill.
    llvm::MapVector<Operation *, std::array<Value, 2>> dotRings;
    llvm::DenseMap<Operation *, SmallVector<Value, 2>> dotBarriers;
    // Before a dot reads slots that tensor copies fill, every thread waits
    // for the slots' phase (at the head of the body for a dot that moves
    // there, else right before the dot).
    auto waitForTensorCopies = [&](Operation *dot, bool inHead) {
      for (Value barrier : dotBarriers.lookup(dot)) {
        auto wait = ts::BarrierWaitOp::create(rewriter, dot->getLoc(), barrier,
                                              readSlot, getRound(loop));
        if (inHead)
          consumerHead.insert(wait);
      }
    };
    // Per load read back in its own layout, in candidate order.
    SmallVector<Value> ownLayoutReads;
    for (auto [c, ring, barrier] : llvm::zip(candidates, rings, barriers)) {
      if (c.dot) {
        dotRings[c.dot][c.dot.getA() == c.operand() ? 0 : 1] = ring;
        if (barrier)
          dotBarriers[c.dot].push_back(barrier);
        continue;
      }
      Operation *user = c.convert ? c.convert.getOperation() : c.load;
      auto read = ts::LocalLoadOp::create(rewriter, user->getLoc(),
                                          user->getResult(0).getType(), ring,
                                          readSlot);
      consumerHead.insert(read);
      if (c.convert) {
        rewriter.replaceOp(c.convert, read.getResult());
        if (conversionCounts)
          ++conversionCounts->ReadFromRings;
      } else
        ownLayoutReads.push_back(read);
    }
    if (wait && ownSlotWaits &&
        llvm::all_of(candidates, [](const Candidate &c) {
          return c.load && !c.convert && !c.dot &&
                 isHeldOnce(c.source()->getResult(0).getType());
        }))
      wait.setOwnSlots(true);
    // Dots on the matrix unit start right after the wait, reading the slots
    // in place, and run on while the copies below are issued and the next
    // iteration waits for its slots: only the previous iteration's group is
    // waited for (after the loop, all). Its slot is the one the copies
    // refill. Each warp's wait covers only its own share of the instruction
    // (the warps of a warpgroup run on separate tensor cores), so the
    // barrier below lets every warp's wait pass before any thread refills
    // the slot.
    SmallVector<unsigned> waitedResults;
    // Results of deferred dots that the next iteration does not read.
    SmallVector<BlockArgument> unreadCarried;
    for (auto &[op, dotOperands] : dotRings) {
      if (syncDots.count(op))
        continue;
      auto dot = cast<DotOp>(op);
      waitForTensorCopies(dot, /*inHead=*/true);
      auto local = ts::LocalDotOp::create(
          rewriter, dot.getLoc(), dot.getD().getType(), dotOperands[0],
          readSlot, dotOperands[1], readSlot, dot.getC());
      local->setDiscardableAttrs(dot->getDiscardableAttrDictionary());
      auto wait =
          ts::LocalDotWaitOp::create(rewriter, dot.getLoc(), local.getType(),
                                     local.getD(), 1);
      consumerHead.insert(local);
      consumerHead.insert(wait);
      for (OpOperand &use : dot->getUses())
        waitedResults.push_back(use.getOperandNumber());
      rewriter.replaceOp(dot, wait.getResult());
    }
    // Synchronous dots run where they were, on this iteration's slots; an
    // operand in registers is stored to a buffer of its own first, before
    // the loop when it is made outside (attention's Q: once, not every
    // iteration), else in place and published by a barrier (P).
    for (auto &[op, registerOperands] : syncDots) {
      auto dot = cast<DotOp>(op);
      std::array<Value, 2> buffers = dotRings.lookup(op);
      std::array<Value, 2> slotsOf = {readSlot, readSlot};
      if (dot->hasAttr(::tle::conversion::kMatrixRegisterAAttr)) {
        buffers[0] = dot.getA();
        slotsOf[0] = Value();
      }
      bool storedInLoop = false;
      for (unsigned i : registerOperands) {
        Value operand = dot->getOperand(i);
        rewriter.setInsertionPoint(loop);
        buffers[i] = ts::AllocOp::create(
            rewriter, dot.getLoc(),
            getOperandRingType(cast<RankedTensorType>(operand.getType()), 1,
                               getOperandFastest(dot, i)),
            /*init=*/TypedAttr());
        slotsOf[i] = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
        bool inLoop = !loop.isDefinedOutsideOfLoop(operand);
        if (inLoop) {
          rewriter.setInsertionPoint(dot);
          storedInLoop = true;
        }
        ts::LocalStoreOp::create(rewriter, dot.getLoc(), operand, buffers[i],
                                 slotsOf[i]);
        // Before the loop, the wait for the copies at the top of the body
        // publishes the store; without copies, a barrier does.
        if (!inLoop && !anyCopies)
          DebugBarrierOp::create(rewriter, dot.getLoc());
      }
      rewriter.setInsertionPoint(dot);
      if (storedInLoop)
        DebugBarrierOp::create(rewriter, dot.getLoc());
      waitForTensorCopies(dot, /*inHead=*/false);
      auto local = ts::LocalDotOp::create(
          rewriter, dot.getLoc(), dot.getD().getType(), buffers[0], slotsOf[0],
          buffers[1], slotsOf[1], dot.getC());
      local->setDiscardableAttrs(dot->getDiscardableAttrDictionary());
      if (!deferredDots.contains(op)) {
        auto wait = ts::LocalDotWaitOp::create(
            rewriter, dot.getLoc(), local.getType(), local.getD(), 0);
        rewriter.replaceOp(dot, wait.getResult());
        continue;
      }
      for (OpOperand &use : dot->getUses()) {
        unsigned index = use.getOperandNumber();
        waitedResults.push_back(index);
        BlockArgument carried = loop.getRegionIterArgs()[index];
        Operation *first = nullptr;
        for (Operation *user : carried.getUsers()) {
          Operation *inBody = body->findAncestorOpInBlock(*user);
          if (inBody && (!first || inBody->isBeforeInBlock(first)))
            first = inBody;
        }
        // Nothing in the body reads it: wait before the slot release, so
        // that its slots are not refilled while it reads them.
        if (!first) {
          unreadCarried.push_back(carried);
          continue;
        }
        rewriter.setInsertionPoint(first);
        auto wait = ts::LocalDotWaitOp::create(rewriter, dot.getLoc(),
                                               carried.getType(), carried, 0);
        rewriter.replaceAllUsesExcept(carried, wait.getResult(), wait);
      }
      rewriter.replaceOp(dot, local.getD());
    }
    // The slot the copies refill is read by no thread any more. Where the
    // reads are in their own layout (a tl.range loop, no matrix unit), the
    // copies go after the rest of the body, as Triton issues them: a block
    // barrier in the body (a reduction across warps) then already
    // separates the reads from the refill, and distribution drops this one
    // (kSlotReleaseAttr).
    // Synchronous dots read their slots in the body, so their copies come
    // last too.
    bool copiesLast =
        !syncDots.empty() || llvm::all_of(candidates, [](const Candidate &c) {
          return !c.convert && !c.dot;
        });
    auto slotRelease = DebugBarrierOp::create(rewriter, loc);
    slotRelease->setAttr(kSlotReleaseAttr, rewriter.getUnitAttr());
    rewriter.setInsertionPoint(slotRelease);
    for (BlockArgument carried : unreadCarried)
      ts::LocalDotWaitOp::create(rewriter, loc, carried.getType(), carried, 0);
    if (!copiesLast)
      consumerHead.insert(slotRelease);
    // Producer side where the loads were (the loads read back in their own
    // layout take `other` there, after their mask is defined).
    SmallVector<Operation *> copies;
    auto nextRead = ownLayoutReads.begin();
    for (auto [c, ring, barrier] : llvm::zip(candidates, rings, barriers)) {
      rewriter.setInsertionPoint(c.source());
      if (c.tensorLoad) {
        copies.push_back(ts::AsyncTensorCopyOp::create(
            rewriter, c.tensorLoad.getLoc(), getTensorMap(rewriter, c),
            c.tensorLoad.getIndices(), ring, getSlot(loop), barrier,
            /*pred=*/Value(), /*transposed=*/bool(c.trans)));
        continue;
      }
      if (!c.convert && !c.dot) {
        Value value = *nextRead++;
        if (c.load.getMask() && c.load.getOther() &&
            !isZero(c.load.getOther()))
          value = arith::SelectOp::create(rewriter, c.load.getLoc(),
                                          c.load.getMask(), value,
                                          c.load.getOther());
        rewriter.replaceAllUsesWith(c.load.getResult(), value);
      }
      Value writeSlot = getSlot(loop);
      copies.push_back(ts::AsyncCopyOp::create(rewriter, c.load.getLoc(),
                                               c.load.getPtr(), ring, writeSlot,
                                               c.load.getMask()));
    }
    if (anyCopies)
      copies.push_back(ts::AsyncCommitOp::create(rewriter, loc));
    for (Candidate &c : candidates) {
      if (c.trans)
        rewriter.eraseOp(c.trans);
      rewriter.eraseOp(c.source());
    }

    FailureOr<llvm::SetVector<Operation *>> stageZero =
        getStageZero(loop, copies);
    if (failed(stageZero))
      return loop.emitError("software pipelining: the copies depend on "
                            "values of their own iteration");
    scf::PipeliningOption options;
    options.getScheduleFn =
        [&](scf::ForOp forOp,
            std::vector<std::pair<Operation *, unsigned>> &schedule) {
          for (Operation *op : consumerHead)
            schedule.emplace_back(op, stages - 1);
          auto scheduleStageZero = [&] {
            for (Operation &op : forOp.getBody()->without_terminator())
              if (stageZero->contains(&op))
                schedule.emplace_back(&op, 0);
          };
          if (!copiesLast)
            scheduleStageZero();
          for (Operation &op : forOp.getBody()->without_terminator())
            if (!stageZero->contains(&op) && !consumerHead.contains(&op) &&
                &op != slotRelease)
              schedule.emplace_back(&op, stages - 1);
          if (copiesLast) {
            schedule.emplace_back(slotRelease, stages - 1);
            scheduleStageZero();
          }
        };
    options.peelEpilogue = false;
    options.supportDynamicLoops = true;
    options.predicateFn = predicate;
    bool modified = false;
    rewriter.setInsertionPoint(loop);
    FailureOr<scf::ForOp> pipelined =
        scf::pipelineForLoop(rewriter, loop, options, &modified);
    if (failed(pipelined))
      return loop.emitError("software pipelining failed");
    // The products still running read the rings: wait for them.
    rewriter.setInsertionPointAfter(*pipelined);
    for (unsigned index : waitedResults) {
      Value result = pipelined->getResult(index);
      auto wait = ts::LocalDotWaitOp::create(rewriter, loc, result.getType(),
                                             result, 0);
      result.replaceAllUsesExcept(wait.getResult(), wait);
    }
    // Copies past the end still write zeros: let them land before the
    // rings' memory is anything else. (Tensor copies past the end were not
    // issued, and every issued one was waited for by the iteration that read
    // its slot; the wait's block barrier still ends the rings' lifetime:
    // their bytes may be scratch after it.)
    ts::AsyncWaitOp::create(rewriter, loc, 0);
    // In a loop body (a persistent kernel's tile loop) the barriers are set
    // up again on the next iteration: end their lifetime first.
    SmallVector<Value> copyBarriers(llvm::make_filter_range(
        barriers, [](Value barrier) { return bool(barrier); }));
    if (!copyBarriers.empty() &&
        pipelined->getOperation()->getParentOfType<LoopLikeOpInterface>())
      ts::BarrierInvalOp::create(rewriter, loc, copyBarriers);
    return success();
  }

  /// The tensor map of a tensor copy candidate's descriptor, written once,
  /// right after the descriptor is made: boxes of the tile's rows and one
  /// swizzle panel of its last dimension.
  Value getTensorMap(RewriterBase &rewriter, const Candidate &c) {
    auto make = c.source()->getOperand(0).getDefiningOp<MakeTensorDescOp>();
    Value &map = tensorMaps[make];
    if (map)
      return map;
    RankedTensorType block = make.getResult().getType().getBlockType();
    int64_t swizzle = getOperandSwizzle(block, 1);
    int64_t panel = swizzle / getElementBytes(block.getElementType());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(make);
    map = ts::TensorMapOp::create(
        rewriter, make.getLoc(), PointerType::get(rewriter.getIntegerType(8)),
        make.getBase(), make.getShape(), make.getStrides(),
        rewriter.getDenseI64ArrayAttr({block.getDimSize(0), panel}),
        rewriter.getI32IntegerAttr(swizzle));
    return map;
  }

  /// Per descriptor, its tensor map (getTensorMap).
  llvm::DenseMap<Operation *, Value> tensorMaps;
  ::tle::conversion::LayoutConversionCounts *conversionCounts = nullptr;
};

} // namespace

namespace tle::conversion {
std::unique_ptr<Pass>
createPipelineLoadsPass(const PipelineLoadsOptions &Options) {
  return std::make_unique<PipelineLoadsPass>(Options);
}

void registerPipelineLoadsPass() { PassRegistration<PipelineLoadsPass>(); }
} // namespace tle::conversion
