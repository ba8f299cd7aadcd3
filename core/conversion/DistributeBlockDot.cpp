//===- DistributeBlockDot.cpp - tl.dot on operands in block memory --------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Matrix units that read A and B from block-level memory (Hopper's wgmma,
// MatrixFragments::OperandsInBlockMemory). tle_struct.local_dot reads the
// ring slots software pipelining staged the operands in; a tl.dot tiled for
// such a unit whose operands are in registers first stores them to scratch
// in the same swizzled layout (#tle_struct.layout). Both start the
// instructions asynchronously, one group per dot; local_dot_wait (for the
// tl.dot, the dot itself) waits for the group before the accumulator is
// used.
//
// Layout assignment gave the accumulator the unit's layout: groups of warps
// (fragment warp bases) each own Instr.M x N tiles, so at warp 0 of a group
// the accumulator registers of the instruction at (m, n) sit at the
// fragment's offsets from (m, n), and the group's own origin comes from the
// remaining warp bases.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/BufferAddressing.h"
#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>
#include <set>
#include <variant>

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;
using ::tle::backend::BlockMatrixOperand;
using ::tle::conversion::MatrixUnit;
using mlir::tle_struct::BufferType;

namespace {

/// One operand tile in block-level memory: a slot of a swizzled buffer of
/// shape [slots, rows, columns] (A: M x K, B: K x N).
struct OperandTile {
  BufferAddressing addressing;
  Value base, slot;
  Type elem;
  /// Which of the tile's dimensions (0 or 1) is K.
  unsigned kDim;

  /// The operand of the instruction whose tile starts at (row, col).
  BlockMatrixOperand at(OpBuilder &b, Location loc, Value row,
                        Value col) const {
    BlockMatrixOperand operand;
    Value offset = addressing.unswizzledOffset(b, loc, {slot, row, col});
    operand.Address = scratchPtr(b, loc, base, elem, offset);
    operand.SwizzleBytes = addressing.swizzle;
    operand.MajorMN = addressing.fastest() - 1 != kDim;
    operand.RowGroupStride = 8 * addressing.swizzle;
    operand.PanelStride = addressing.rows * addressing.swizzle;
    return operand;
  }

  /// The operand at (row + dRow, col + dCol): `origin` (at (row, col))
  /// plus a constant offset where the unswizzled layout allows one (col's
  /// contiguous coordinate a multiple of a panel row, as `aligned` says),
  /// else at() of the full position.
  BlockMatrixOperand offsetFrom(OpBuilder &b, Location loc,
                                const BlockMatrixOperand &origin,
                                bool aligned, Value row, Value col,
                                int64_t dRow, int64_t dCol) const {
    std::optional<int64_t> delta;
    if (aligned)
      delta = addressing.unswizzledDelta({dRow, dCol});
    int64_t bytes = delta ? *delta << addressing.logElementBytes : 1;
    if (!delta || bytes % 16 != 0) {
      auto plus = [&](Value v, int64_t c) {
        return arith::AddIOp::create(b, loc, v, i32Const(b, loc, c))
            .getResult();
      };
      return at(b, loc, plus(row, dRow), plus(col, dCol));
    }
    BlockMatrixOperand operand = origin;
    operand.ByteOffset = origin.ByteOffset + bytes;
    return operand;
  }
};

/// Operand A in registers (the unit's A fragment, MatrixFragments::A): the
/// tile's values in its #tle.linear layout.
struct RegisterTile {
  LinearLayoutAttr layout;
  ValueRange values;
};

/// A as one or the other.
using OperandA = std::variant<OperandTile, RegisterTile>;

const MatrixUnit *findUnit(Operation *op, DistributeState &st) {
  auto name =
      op->getAttrOfType<StringAttr>(::tle::conversion::kMatrixInstructionAttr);
  if (!name)
    return nullptr;
  for (const MatrixUnit &unit : st.matrixUnits)
    if (unit.Instr.Name == name.getValue())
      return &unit;
  return nullptr;
}

/// `elements` packed into 32-bit registers in order, 32 / bits of them per
/// register, the first in the lowest bits (what
/// TargetInfo::emitRegisterAMatrixMultiply takes).
FailureOr<SmallVector<Value>> packRegisters(OpBuilder &b, Location loc,
                                            ValueRange elements) {
  if (elements.empty() || !elements.front().getType().isIntOrFloat())
    return failure();
  Type elem = elements.front().getType();
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits == 0 || 32 % bits != 0 || elements.size() % (32 / bits) != 0 ||
      !llvm::all_equal(elements.getTypes()))
    return failure();
  unsigned perRegister = 32 / bits;
  SmallVector<Value> registers;
  for (unsigned first = 0; first < elements.size(); first += perRegister) {
    Value packed = packVector(b, loc, elements.slice(first, perRegister));
    registers.push_back(
        packed.getType().isInteger(32)
            ? packed
            : Value(LLVM::BitcastOp::create(b, loc, b.getI32Type(), packed)));
  }
  return registers;
}

/// Starts the instructions of one dot as one group; returns the
/// accumulator registers (to be waited for).
FailureOr<SmallVector<Value>>
startBlockDot(OpBuilder &b, Location loc, DistributeState &st, Operation *op,
              RankedTensorType dType, const OperandA &aOperand,
              const OperandTile &bTile, ValueRange accValues, int64_t k) {
  const MatrixUnit *unit = findUnit(op, st);
  if (!unit || !unit->Fragments.OperandsInBlockMemory)
    return op->emitError("no matrix unit reading block-level memory is "
                         "named by this dot");
  const ::tle::hwdesc::MatrixInstruction &instr = unit->Instr;
  int64_t instrN = instr.N;
  if (auto n = op->getAttrOfType<IntegerAttr>(::tle::conversion::kMatrixNAttr))
    instrN = n.getInt();
  int64_t granule = unit->Fragments.NGranule ? unit->Fragments.NGranule
                                             : instrN;
  auto d = dyn_cast<LinearLayoutAttr>(dType.getEncoding());
  if (!d)
    return op->emitError("the accumulator needs the matrix unit's layout");

  DenseMap<std::pair<int64_t, int64_t>, unsigned> accRegs;
  std::set<int64_t> originsM, originsN;
  for (auto [reg, offset] : llvm::enumerate(d.getRegisterOffsets())) {
    accRegs.try_emplace({offset[0], offset[1]}, reg);
    if (offset[0] % instr.M == 0)
      originsM.insert(offset[0]);
    if (offset[1] % instrN == 0)
      originsN.insert(offset[1]);
  }
  SmallVector<std::pair<int64_t, int64_t>> fragment =
      getFragmentOffsets(unit->Fragments.C);
  // A in registers: each register's offset at warp 0 of the group, as for
  // the accumulator, and the instruction's A registers in fragment order.
  const RegisterTile *aRegisters = std::get_if<RegisterTile>(&aOperand);
  const OperandTile *a = std::get_if<OperandTile>(&aOperand);
  DenseMap<std::pair<int64_t, int64_t>, unsigned> aRegs;
  SmallVector<std::pair<int64_t, int64_t>> aFragment;
  if (aRegisters) {
    // Registers are found by their offsets at lane 0 of the group's first
    // warp: the other lanes and warps of the group must hold A as the
    // fragment says.
    LinearLayoutAttr aLayout = aRegisters->layout;
    SmallVector<int64_t> fragmentBases;
    for (const auto &basis : llvm::concat<const SmallVector<int64_t, 2>>(
             unit->Fragments.A.Lanes, unit->Fragments.A.Warps))
      llvm::append_range(fragmentBases, basis);
    SmallVector<int64_t> layoutBases(aLayout.getLaneBases());
    llvm::append_range(layoutBases, aLayout.getWarpBases().take_front(
                                        2 * unit->Fragments.A.Warps.size()));
    if (layoutBases != fragmentBases)
      return op->emitError() << "operand A's layout " << aLayout
                             << " is not the lanes and warps of " << instr.Name
                             << "'s A fragment";
    for (auto [reg, offset] : llvm::enumerate(aLayout.getRegisterOffsets()))
      aRegs.try_emplace({offset[0], offset[1]}, reg);
    aFragment = getFragmentOffsets(unit->Fragments.A);
  }

  // This thread's group origin: the warp bases above the group's own.
  Value groupRow = i32Const(b, loc, 0), groupCol = i32Const(b, loc, 0);
  ArrayRef<int64_t> warpBases = d.getWarpBases();
  Value warp;
  {
    // The warp id is the same everywhere in the kernel: computed once at
    // its entry, it stays out of loops (LLVM does not hoist the convergent
    // shuffle below).
    OpBuilder::InsertionGuard guard(b);
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      b.setInsertionPointToStart(&func.getFunctionBody().front());
    auto ids = getLaneAndWarp(b, loc, st.target, d.getWarpSize());
    if (failed(ids))
      return failure();
    warp = ids->second;
    if (warpBases.size() / 2 > unit->Fragments.C.Warps.size()) {
      // The operands' addresses are the same in every lane of a warp; the
      // warp id broadcast from lane 0 lets the vendor's compiler see it
      // (ptxas then keeps wgmma descriptors in uniform registers instead of
      // moving them there before every instruction, as Triton does).
      FailureOr<Value> uniform =
          st.target.shuffle(b, loc, warp, i32Const(b, loc, 0),
                            ::tle::backend::ShuffleKind::Index);
      if (failed(uniform))
        return failure();
      warp = *uniform;
    }
  }
  for (unsigned bit = unit->Fragments.C.Warps.size(), e = warpBases.size() / 2;
       bit < e; ++bit) {
    ArrayRef<int64_t> basis = d.getBasis(warpBases, bit);
    Value set = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, warp, i32Const(b, loc, bit)),
        i32Const(b, loc, 1));
    groupRow = arith::AddIOp::create(
        b, loc, groupRow,
        arith::MulIOp::create(b, loc, set, i32Const(b, loc, basis[0])));
    groupCol = arith::AddIOp::create(
        b, loc, groupCol,
        arith::MulIOp::create(b, loc, set, i32Const(b, loc, basis[1])));
  }
  // Every instruction's operands are the group's origin plus constants
  // (a descriptor plus a constant on NVIDIA, as Triton builds them) when
  // the origin's contiguous coordinate starts a panel row: always for the
  // coordinate that is 0, for the group's row or column when every warp
  // basis moves it by whole panel rows.
  Value zero = i32Const(b, loc, 0);
  auto originAligned = [&](const OperandTile &tile, unsigned groupDim) {
    if (tile.addressing.fastest() - 1 != groupDim)
      return true;
    for (unsigned bit = unit->Fragments.C.Warps.size(),
                  e = warpBases.size() / 2;
         bit < e; ++bit)
      if (d.getBasis(warpBases, bit)[groupDim ? 1 : 0] %
              tile.addressing.panelColumns !=
          0)
        return false;
    return true;
  };
  // A's tile is M x K (the group moves M, dimension 0), B's K x N (N, 1).
  bool aAligned = a && originAligned(*a, 0), bAligned = originAligned(bTile, 1);
  BlockMatrixOperand aOrigin;
  if (a)
    aOrigin = a->at(b, loc, groupRow, zero);
  BlockMatrixOperand bOrigin = bTile.at(b, loc, zero, groupCol);

  // A in registers, packed before the fence: a register written between
  // the fence and the instructions reading it makes the vendor's compiler
  // fence again (ptxas C7519).
  std::map<std::pair<int64_t, int64_t>, SmallVector<Value>> aPacked;
  if (aRegisters) {
    for (int64_t m : originsM)
      for (int64_t kk = 0; kk < k; kk += instr.K) {
        SmallVector<Value> aFrag;
        for (auto [r, c] : aFragment) {
          auto it = aRegs.find({m + r, kk + c});
          if (it == aRegs.end())
            return op->emitError() << "operand A's layout does not hold whole "
                                   << instr.Name << " tiles";
          aFrag.push_back(aRegisters->values[it->second]);
        }
        FailureOr<SmallVector<Value>> packed = packRegisters(b, loc, aFrag);
        if (failed(packed))
          return op->emitError()
                 << "operand A's elements do not pack into 32-bit registers";
        aPacked[{m, kk}] = std::move(*packed);
      }
  }

  if (failed(st.target.emitMatrixFence(b, loc)))
    return failure();
  SmallVector<Value> acc(accValues.begin(), accValues.end());
  SmallVector<Value> cFrag;
  for (int64_t m : originsM)
    for (int64_t n : originsN)
      for (int64_t kk = 0; kk < k; kk += instr.K) {
        cFrag.clear();
        SmallVector<unsigned> cIdx;
        for (int64_t q = 0; q < instrN; q += granule)
          for (auto [r, c] : fragment) {
            auto it = accRegs.find({m + r, n + q + c});
            if (it == accRegs.end())
              return op->emitError()
                     << "the accumulator layout does not hold whole "
                     << instr.Name << " tiles";
            cIdx.push_back(it->second);
            cFrag.push_back(acc[it->second]);
          }
        BlockMatrixOperand bOperand =
            bTile.offsetFrom(b, loc, bOrigin, bAligned, zero, groupCol, kk, n);
        FailureOr<SmallVector<Value>> out;
        if (a) {
          BlockMatrixOperand aTile =
              a->offsetFrom(b, loc, aOrigin, aAligned, groupRow, zero, m, kk);
          out = st.target.emitBlockMatrixMultiply(b, loc, instr, instrN, aTile,
                                                  bOperand, cFrag);
        } else {
          out = st.target.emitRegisterAMatrixMultiply(
              b, loc, instr, instrN, aPacked.at({m, kk}), bOperand, cFrag);
        }
        if (failed(out))
          return failure();
        for (auto [i, v] : llvm::zip(cIdx, *out))
          acc[i] = v;
      }
  if (failed(st.target.emitMatrixCommit(b, loc)))
    return failure();
  return acc;
}

OperandTile getSlotTile(BufferType type, Value base, Value slot, Type elem,
                        unsigned kDim) {
  return OperandTile{BufferAddressing(type), base, slot, elem, kDim};
}

/// Whether the matrix unit reads `buffer` as it was written without a
/// fence of the reading thread: tensor copies write through the unit's own
/// proxy, and local_store fences its writes itself.
bool isWrittenVisibly(Value buffer) {
  return buffer.getDefiningOp<tle_struct::AllocOp>() &&
         llvm::all_of(buffer.getUsers(), [](Operation *user) {
           return isa<tle_struct::AsyncTensorCopyOp, tle_struct::LocalStoreOp,
                      tle_struct::LocalDotOp, tle_struct::LocalLoadOp>(user);
         });
}

/// The local_dots whose operand slots need no fence before the unit reads
/// them: their buffers are written visibly (isWrittenVisibly), or an
/// earlier local_dot of the same block fenced (or was itself covered by a
/// fence) and nothing between the two can have written block-level memory
/// that the unit reads (only pure ops, waits for earlier products, tile
/// loads, barriers and global stores). Attention's P V follows Q K^T with
/// the softmax in between: its V slot landed with the wait that Q K^T's
/// operands did. A dot that skipped the fence because its own buffers need
/// none covers nothing: the walk goes past it.
DenseSet<Operation *> getDotsWithVisibleOperands(ModuleOp module) {
  DenseSet<Operation *> visible, fenced;
  module.walk([&](tle_struct::LocalDotOp dot) {
    if (llvm::all_of(ValueRange{dot.getA(), dot.getB()}, [](Value operand) {
          return !isa<BufferType>(operand.getType()) ||
                 isWrittenVisibly(operand);
        })) {
      visible.insert(dot);
      return;
    }
    // Fenced here, or after an earlier fence (walks visit a block's ops in
    // order, so earlier dots are decided).
    fenced.insert(dot);
    for (Operation *op = dot->getPrevNode(); op; op = op->getPrevNode()) {
      if (isa<tle_struct::LocalDotOp>(op)) {
        if (!fenced.contains(op))
          continue;
        visible.insert(dot);
        return;
      }
      if (!isPure(op) &&
          !isa<tle_struct::LocalDotWaitOp, tle_struct::LocalLoadOp,
               DebugBarrierOp, StoreOp>(op))
        return;
    }
  });
  return visible;
}

struct LocalDotConversion : DistPattern<tle_struct::LocalDotOp> {
  LocalDotConversion(const TypeConverter &tc, MLIRContext *ctx,
                     DistributeState &st, DenseSet<Operation *> operandsVisible)
      : DistPattern(tc, ctx, st), operandsVisible(std::move(operandsVisible)) {}
  DenseSet<Operation *> operandsVisible;

  /// A slot of A's buffer, or A's registers.
  FailureOr<OperandA> getOperandA(tle_struct::LocalDotOp op, ValueRange a,
                                  ValueRange slot) const {
    if (auto buffer = dyn_cast<BufferType>(op.getA().getType()))
      return OperandA(getSlotTile(
          buffer, a.front(), slot.front(),
          getTypeConverter()->convertType(buffer.getElementType()), 1));
    auto layout = dyn_cast<LinearLayoutAttr>(
        cast<RankedTensorType>(op.getA().getType()).getEncoding());
    if (!layout)
      return op.emitError("operand A in registers needs the matrix unit's "
                          "A layout");
    return OperandA(RegisterTile{layout, a});
  }

  LogicalResult
  matchAndRewrite(tle_struct::LocalDotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto aBuffer = dyn_cast<BufferType>(op.getA().getType());
    BufferType bType = op.getB().getType();
    auto swizzled = [](BufferType t) {
      return t.getLayout() && t.getLayout().getSwizzle() > 0;
    };
    if ((aBuffer && !swizzled(aBuffer)) || !swizzled(bType))
      return op.emitError("local_dot reads slots of swizzled buffers only");
    FailureOr<OperandA> a = getOperandA(op, adaptor.getA(), adaptor.getASlot());
    if (failed(a))
      return failure();
    Type elemB = getTypeConverter()->convertType(bType.getElementType());
    OperandTile b = getSlotTile(bType, adaptor.getB().front(),
                                adaptor.getBSlot().front(), elemB, 0);
    // The slots were landed by copies and published by the wait's block
    // barrier; each thread now makes them visible to the unit's operand
    // reads (on Hopper: copies write through the generic proxy, wgmma reads
    // through the async proxy). After the barrier, as Triton places it: a
    // fence before the barrier would delay every warp's arrival by its
    // latency (3-4% on the 4-warp matmul at 4096^3 on the H200). Once per
    // wait: on the H200 the fence is a full memory barrier of the thread.
    if (!operandsVisible.contains(op) &&
        failed(st.target.emitMatrixOperandsStored(rewriter, op.getLoc())))
      return failure();
    auto dType = cast<RankedTensorType>(op.getD().getType());
    FailureOr<SmallVector<Value>> acc =
        startBlockDot(rewriter, op.getLoc(), st, op, dType, *a, b,
                      adaptor.getC(), bType.getShape()[1]);
    if (failed(acc))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*acc});
    return success();
  }
};

struct LocalDotWaitConversion : DistPattern<tle_struct::LocalDotWaitOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::LocalDotWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> values = st.target.emitMatrixWait(
        rewriter, op.getLoc(), op.getPending(), adaptor.getInput());
    if (failed(values))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*values});
    return success();
  }
};

/// The swizzled scratch layout of a register operand (Rows x Cols, with
/// `contiguous` the dimension kept contiguous): a one-slot buffer type, or
/// null if no swizzle width fits.
BufferType getScratchTileType(RankedTensorType type, unsigned contiguous) {
  unsigned bytes = std::max(1u, type.getElementTypeBitWidth() / 8);
  int64_t rowBytes = type.getDimSize(contiguous) * bytes;
  if (type.getNumElements() * bytes % 1024 != 0)
    return {};
  for (int64_t swizzle : {128, 64, 32})
    if (rowBytes % swizzle == 0) {
      MLIRContext *ctx = type.getContext();
      SmallVector<int64_t> shape{1, type.getDimSize(0), type.getDimSize(1)};
      SmallVector<int64_t> order{int64_t(contiguous) + 1,
                                 int64_t(1 - contiguous) + 1, 0};
      return BufferType::get(
          ctx, shape, type.getElementType(), StringAttr::get(ctx, "block"),
          tle_struct::LayoutAttr::get(ctx, order, 0, 0, swizzle));
    }
  return {};
}

/// A tl.dot for a unit reading block-level memory, with operands in
/// registers (not staged by software pipelining): both go to scratch in
/// the unit's layout, then the instructions run and are waited for.
struct BlockDotConversion : DistPattern<DotOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasAttr(::tle::conversion::kMatrixBlockOperandsAttr))
      return failure();
    Location loc = op.getLoc();
    // An A in registers (tle.matrix_register_a) goes to the unit as it is.
    std::optional<RegisterTile> aRegisters;
    if (op->hasAttr(::tle::conversion::kMatrixRegisterAAttr)) {
      auto layout =
          dyn_cast<LinearLayoutAttr>(op.getA().getType().getEncoding());
      if (!layout)
        return op.emitError("operand A in registers needs the matrix unit's "
                            "A layout");
      aRegisters = RegisterTile{layout, adaptor.getA()};
    }
    SmallVector<OperandTile, 2> tiles;
    for (auto [operand, values, kDim] :
         {std::make_tuple(op.getA(), adaptor.getA(), 1u),
          std::make_tuple(op.getB(), adaptor.getB(), 0u)}) {
      if (kDim == 1 && aRegisters)
        continue;
      auto type = cast<RankedTensorType>(operand.getType());
      auto layout = getDistributedLayout(type);
      unsigned contiguous = layout.getRegisterOrder()[0];
      // A unit reading only K-major operands gets them stored that way.
      const MatrixUnit *unit = findUnit(op, st);
      bool kMajorOnly = unit && unit->Fragments.KMajorOperandsOnly;
      if (kMajorOnly)
        contiguous = kDim;
      BufferType tileType = getScratchTileType(type, contiguous);
      if (!tileType && !kMajorOnly)
        tileType = getScratchTileType(type, 1 - contiguous);
      if (!tileType)
        return op.emitError()
               << "operand " << type
               << " has no block-level layout the matrix unit reads";
      Type elem = getTypeConverter()->convertType(type.getElementType());
      if (scratchType(elem) != elem)
        return op.emitError() << "matrix operands of " << elem
                              << " are not supported";
      FailureOr<Value> base =
          allocScratch(rewriter, loc, st, elem, type.getNumElements(),
                       kBlockMemoryAlignment);
      if (failed(base))
        return failure();
      OperandTile tile =
          getSlotTile(tileType, *base, i32Const(rewriter, loc, 0), elem, kDim);
      // Vectors of up to 16 bytes along the contiguous dimension stay inside
      // one swizzled chunk.
      auto ptrAt = [&](ArrayRef<Value> index, Type type) {
        return scratchPtr(rewriter, loc, *base, type,
                          tile.addressing.offset(
                              rewriter, loc, {tile.slot, index[0], index[1]}));
      };
      if (failed(writeBlockTile(rewriter, loc, st, layout, type.getShape(),
                                values, tile.addressing.fastest() - 1,
                                std::max(1u, 16 / typeBytes(elem)), ptrAt)))
        return failure();
      tiles.push_back(tile);
    }
    if (failed(st.target.emitMatrixOperandsStored(rewriter, loc)) ||
        failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    auto dType = cast<RankedTensorType>(op.getD().getType());
    OperandA a = aRegisters ? OperandA(*aRegisters) : OperandA(tiles.front());
    FailureOr<SmallVector<Value>> acc =
        startBlockDot(rewriter, loc, st, op, dType, a, tiles.back(),
                      adaptor.getC(), op.getA().getType().getDimSize(1));
    if (failed(acc))
      return failure();
    FailureOr<SmallVector<Value>> done =
        st.target.emitMatrixWait(rewriter, loc, 0, *acc);
    if (failed(done))
      return failure();
    // Every group has read the scratch before anyone reuses it.
    if (failed(emitScratchRelease(rewriter, loc, st)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*done});
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateBlockDotPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<LocalDotWaitConversion, BlockDotConversion>(
      tc, patterns.getContext(), st);
  // Before any op is rewritten: the analysis reads the tile-level ops.
  patterns.add<LocalDotConversion>(tc, patterns.getContext(), st,
                                   getDotsWithVisibleOperands(st.module));
}
