//===- DistributeCommon.cpp - Helpers shared by the patterns --------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"
#include "core/analysis/AxisInfo.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::tle;
using ::tle::backend::ShuffleKind;
using ::tle::backend::TargetInfo;

namespace tle::conversion::distribute {

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

Value packVector(OpBuilder &b, Location loc, ValueRange elems) {
  if (elems.size() == 1)
    return elems[0];
  auto vecType = VectorType::get(elems.size(), elems[0].getType());
  Value v = LLVM::PoisonOp::create(b, loc, vecType);
  for (auto [i, e] : llvm::enumerate(elems))
    v = LLVM::InsertElementOp::create(b, loc, v, e, i32Const(b, loc, i));
  return v;
}

unsigned typeBytes(Type t) {
  if (isa<LLVM::LLVMPointerType>(t))
    return 8;
  return std::max(1u, t.getIntOrFloatBitWidth() / 8);
}

FailureOr<std::pair<Value, Value>> getLaneAndWarp(OpBuilder &b, Location loc,
                                                  const TargetInfo &target,
                                                  unsigned warpSize) {
  FailureOr<Value> tid = target.getThreadId(b, loc, 0);
  if (failed(tid))
    return failure();
  Value ws = i32Const(b, loc, warpSize);
  Value lane = arith::RemUIOp::create(b, loc, *tid, ws);
  Value warp = arith::DivUIOp::create(b, loc, *tid, ws);
  return std::make_pair(lane, warp);
}

/// Per-dimension coordinates of `linear` (an i32 value) in a box of `sizes`,
/// order[0] fastest.
SmallVector<Value> delinearizeValue(OpBuilder &b, Location loc, Value linear,
                                    ArrayRef<unsigned> sizes,
                                    ArrayRef<unsigned> order) {
  SmallVector<Value> coords(sizes.size());
  for (unsigned dim : order) {
    Value size = i32Const(b, loc, sizes[dim]);
    coords[dim] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return coords;
}

/// The tensor index of every register of this thread: result[reg][dim] (i32).
FailureOr<SmallVector<SmallVector<Value>>>
emitIndices(OpBuilder &b, Location loc, const TargetInfo &target,
            Attribute layoutAttr, ArrayRef<int64_t> shape) {
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layoutAttr)) {
    auto ids = getLaneAndWarp(b, loc, target, blocked.getWarpSize());
    if (failed(ids))
      return failure();
    SmallVector<Value> laneC = delinearizeValue(
        b, loc, ids->first, blocked.getThreadsPerWarp(), blocked.getOrder());
    SmallVector<Value> warpC = delinearizeValue(
        b, loc, ids->second, blocked.getWarpsPerCTA(), blocked.getOrder());
    SmallVector<int64_t> tile = blocked.getShapePerTile();
    SmallVector<Value> base;
    for (unsigned d = 0; d < shape.size(); ++d) {
      Value w = arith::MulIOp::create(
          b, loc, warpC[d], i32Const(b, loc, blocked.getThreadsPerWarp()[d]));
      Value t = arith::AddIOp::create(b, loc, w, laneC[d]);
      base.push_back(arith::MulIOp::create(
          b, loc, t, i32Const(b, loc, blocked.getSizePerThread()[d])));
    }
    SmallVector<SmallVector<Value>> result;
    unsigned n = blocked.getTotalElemsPerThread(shape);
    for (unsigned reg = 0; reg < n; ++reg) {
      SmallVector<int64_t> offset = blocked.getTensorIndex(shape, 0, 0, reg);
      SmallVector<Value> index;
      for (unsigned d = 0; d < shape.size(); ++d) {
        Value v =
            arith::AddIOp::create(b, loc, base[d], i32Const(b, loc, offset[d]));
        if (tile[d] > shape[d] || shape[d] % tile[d] != 0)
          v = arith::RemUIOp::create(b, loc, v, i32Const(b, loc, shape[d]));
        index.push_back(v);
      }
      result.push_back(index);
    }
    return result;
  }
  if (auto slice = dyn_cast<SliceLayoutAttr>(layoutAttr)) {
    SmallVector<int64_t> parentShape = slice.getParentShape(shape);
    auto parent = slice.getParent();
    auto parentIndices = emitIndices(b, loc, target, parent, parentShape);
    if (failed(parentIndices))
      return failure();
    SmallVector<unsigned> ept = slice.getElemsPerThread(shape);
    SmallVector<unsigned> order = slice.getRegisterOrder();
    SmallVector<unsigned> parentEpt = parent.getElemsPerThread(parentShape);
    SmallVector<unsigned> parentOrder = parent.getRegisterOrder();
    SmallVector<SmallVector<Value>> result;
    for (unsigned reg = 0, n = slice.getTotalElemsPerThread(shape); reg < n;
         ++reg) {
      SmallVector<unsigned> coords = delinearize(reg, ept, order);
      coords.insert(coords.begin() + slice.getDim(), 0);
      SmallVector<Value> index =
          (*parentIndices)[linearize(coords, parentEpt, parentOrder)];
      index.erase(index.begin() + slice.getDim());
      result.push_back(index);
    }
    return result;
  }
  if (auto full = dyn_cast<LinearLayoutAttr>(layoutAttr)) {
    LinearLayoutAttr linear = full.getForShape(shape);
    auto ids = getLaneAndWarp(b, loc, target, linear.getWarpSize());
    if (failed(ids))
      return failure();
    unsigned rank = shape.size();
    // Each set bit of the lane and warp ids xors its basis into the index.
    SmallVector<Value> base(rank, i32Const(b, loc, 0));
    auto addBases = [&](Value id, ArrayRef<int64_t> bases) {
      for (unsigned bit = 0, e = bases.size() / rank; bit < e; ++bit) {
        Value set = arith::AndIOp::create(b, loc, id,
                                          i32Const(b, loc, int64_t(1) << bit));
        for (auto [d, v] : llvm::enumerate(linear.getBasis(bases, bit))) {
          if (v == 0)
            continue;
          unsigned to = llvm::Log2_64(v);
          Value moved = to >= bit
                            ? Value(arith::ShLIOp::create(
                                  b, loc, set, i32Const(b, loc, to - bit)))
                            : Value(arith::ShRUIOp::create(
                                  b, loc, set, i32Const(b, loc, bit - to)));
          base[d] = arith::XOrIOp::create(b, loc, base[d], moved);
        }
      }
    };
    addBases(ids->first, linear.getLaneBases());
    addBases(ids->second, linear.getWarpBases());
    SmallVector<SmallVector<Value>> result;
    for (const SmallVector<int64_t> &offset : linear.getRegisterOffsets()) {
      SmallVector<Value> index;
      for (unsigned d = 0; d < rank; ++d)
        index.push_back(offset[d]
                            ? Value(arith::XOrIOp::create(
                                  b, loc, base[d], i32Const(b, loc, offset[d])))
                            : base[d]);
      result.push_back(index);
    }
    return result;
  }
  return failure();
}

std::optional<SmallVector<SmallVector<int64_t>>>
getRegisterIndexDeltas(Attribute layoutAttr, ArrayRef<int64_t> shape) {
  SmallVector<SmallVector<int64_t>> indices;
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layoutAttr)) {
    SmallVector<int64_t> tile = blocked.getShapePerTile();
    for (unsigned d = 0; d < shape.size(); ++d)
      if (tile[d] > shape[d] || shape[d] % tile[d] != 0)
        return std::nullopt;
    for (unsigned reg = 0, n = blocked.getTotalElemsPerThread(shape); reg < n;
         ++reg)
      indices.push_back(blocked.getTensorIndex(shape, 0, 0, reg));
  } else if (auto full = dyn_cast<LinearLayoutAttr>(layoutAttr)) {
    // index = (lane and warp bases) xor (register offset): an addition when
    // no bit is in both.
    LinearLayoutAttr linear = full.getForShape(shape);
    unsigned rank = shape.size();
    SmallVector<int64_t> threadBits(rank, 0);
    for (ArrayRef<int64_t> bases :
         {linear.getLaneBases(), linear.getWarpBases()})
      for (unsigned bit = 0, e = bases.size() / rank; bit < e; ++bit)
        for (auto [d, v] : llvm::enumerate(linear.getBasis(bases, bit)))
          threadBits[d] |= v;
    indices = linear.getRegisterOffsets();
    for (ArrayRef<int64_t> offset : indices)
      for (unsigned d = 0; d < rank; ++d)
        if (offset[d] & threadBits[d])
          return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (indices.empty())
    return std::nullopt;
  SmallVector<int64_t> first = indices.front();
  for (SmallVector<int64_t> &index : indices)
    for (auto [v, f] : llvm::zip(index, first))
      v -= f;
  return indices;
}

std::optional<SmallVector<unsigned>>
getConstantRunLeaders(const AxisInfoResult &axis, Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return std::nullopt;
  auto layout = getDistributedLayout(type);
  AxisInfo info = axis.lookup(value);
  if (!layout || !info.isInitialized() || info.getRank() != type.getRank() ||
      llvm::all_of(info.getConstancy(), [](int64_t c) { return c <= 1; }))
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  unsigned n = layout.getTotalElemsPerThread(shape);
  // Runs start at multiples of the constancy. Registers whose elements lie
  // in the same run in every thread hold equal values: each takes the
  // first such register's. (A matmul's B mask, constant over 16 rows, is
  // one comparison for rows r and r + 8 of a thread.)
  ArrayRef<int64_t> run = info.getConstancy();
  std::map<SmallVector<int64_t>, unsigned> firstInRuns;
  SmallVector<unsigned> leaders(n);
  bool repeats = false;
  for (unsigned reg = 0; reg < n; ++reg) {
    SmallVector<int64_t> runs;
    for (unsigned warp = 0; warp < layout.getNumWarps(); ++warp)
      for (unsigned lane = 0; lane < layout.getWarpSize(); ++lane)
        for (auto [i, c] :
             llvm::zip(layout.getTensorIndex(shape, lane, warp, reg), run))
          runs.push_back(i / std::max<int64_t>(c, 1));
    leaders[reg] = firstInRuns.try_emplace(std::move(runs), reg).first->second;
    repeats |= leaders[reg] != reg;
  }
  if (!repeats)
    return std::nullopt;
  return leaders;
}

FailureOr<SmallVector<Value>> emitOwnerMasks(OpBuilder &b, Location loc,
                                             const TargetInfo &target,
                                             Attribute layoutAttr,
                                             ArrayRef<int64_t> shape) {
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layoutAttr)) {
    // Register `reg` of a thread is element (base + offset) modulo the
    // shape; the copy whose unwrapped position is inside the shape owns it.
    SmallVector<int64_t> tile = blocked.getShapePerTile();
    SmallVector<unsigned> ept = blocked.getElemsPerThread(shape);
    unsigned n = blocked.getTotalElemsPerThread(shape);
    SmallVector<unsigned> wrapped;
    for (unsigned d = 0; d < shape.size(); ++d)
      if (tile[d] > shape[d])
        wrapped.push_back(d);
    if (wrapped.empty())
      return SmallVector<Value>(n, Value());
    auto ids = getLaneAndWarp(b, loc, target, blocked.getWarpSize());
    if (failed(ids))
      return failure();
    SmallVector<Value> laneC = delinearizeValue(
        b, loc, ids->first, blocked.getThreadsPerWarp(), blocked.getOrder());
    SmallVector<Value> warpC = delinearizeValue(
        b, loc, ids->second, blocked.getWarpsPerCTA(), blocked.getOrder());
    SmallVector<Value> base(shape.size());
    for (unsigned d : wrapped) {
      Value w = arith::MulIOp::create(
          b, loc, warpC[d], i32Const(b, loc, blocked.getThreadsPerWarp()[d]));
      base[d] = arith::MulIOp::create(
          b, loc, arith::AddIOp::create(b, loc, w, laneC[d]),
          i32Const(b, loc, blocked.getSizePerThread()[d]));
    }
    SmallVector<Value> masks;
    for (unsigned reg = 0; reg < n; ++reg) {
      SmallVector<unsigned> coords = delinearize(reg, ept, blocked.getOrder());
      Value all;
      for (unsigned d : wrapped) {
        unsigned spt = blocked.getSizePerThread()[d];
        int64_t offset = int64_t(coords[d] / spt) * tile[d] + coords[d] % spt;
        Value inside = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult,
            arith::AddIOp::create(b, loc, base[d], i32Const(b, loc, offset)),
            i32Const(b, loc, shape[d]));
        all = all ? arith::AndIOp::create(b, loc, all, inside) : inside;
      }
      masks.push_back(all);
    }
    return masks;
  }
  if (auto slice = dyn_cast<SliceLayoutAttr>(layoutAttr)) {
    // The sliced dimension has size 1 in the parent: only its first copy
    // owns.
    SmallVector<int64_t> parentShape = slice.getParentShape(shape);
    auto parent = slice.getParent();
    auto parentMasks = emitOwnerMasks(b, loc, target, parent, parentShape);
    if (failed(parentMasks))
      return failure();
    SmallVector<unsigned> ept = slice.getElemsPerThread(shape);
    SmallVector<unsigned> order = slice.getRegisterOrder();
    SmallVector<unsigned> parentEpt = parent.getElemsPerThread(parentShape);
    SmallVector<unsigned> parentOrder = parent.getRegisterOrder();
    SmallVector<Value> masks;
    for (unsigned reg = 0, n = slice.getTotalElemsPerThread(shape); reg < n;
         ++reg) {
      SmallVector<unsigned> coords = delinearize(reg, ept, order);
      coords.insert(coords.begin() + slice.getDim(), 0);
      masks.push_back(
          (*parentMasks)[linearize(coords, parentEpt, parentOrder)]);
    }
    return masks;
  }
  return emitError(loc) << "cannot tell which thread owns the elements of "
                           "layout "
                        << layoutAttr;
}

bool knowsOwners(Attribute layoutAttr) {
  if (auto slice = dyn_cast<SliceLayoutAttr>(layoutAttr))
    return knowsOwners(slice.getParent());
  return isa<BlockedLayoutAttr>(layoutAttr);
}

FailureOr<SmallVector<Value>> emitValueOwners(OpBuilder &b, Location loc,
                                              const TargetInfo &target,
                                              Type like) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return emitOwnerMasks(b, loc, target, tensor.getEncoding(),
                          tensor.getShape());
  FailureOr<Value> tid = target.getThreadId(b, loc, 0);
  if (failed(tid))
    return failure();
  return SmallVector<Value>{arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, *tid, i32Const(b, loc, 0))};
}

Value intToI32(OpBuilder &b, Location loc, Value v, bool isSigned) {
  Type i32 = b.getI32Type();
  unsigned width = v.getType().getIntOrFloatBitWidth();
  if (width > 32)
    return arith::TruncIOp::create(b, loc, i32, v);
  if (width < 32)
    return isSigned ? arith::ExtSIOp::create(b, loc, i32, v).getResult()
                    : arith::ExtUIOp::create(b, loc, i32, v).getResult();
  return v;
}

/// Row-major linear index of `index` in `shape` (i32).
Value linearizeIndex(OpBuilder &b, Location loc, ArrayRef<Value> index,
                     ArrayRef<int64_t> shape) {
  Value linear = i32Const(b, loc, 0);
  for (unsigned d = 0; d < shape.size(); ++d) {
    linear = arith::MulIOp::create(b, loc, linear, i32Const(b, loc, shape[d]));
    linear = arith::AddIOp::create(b, loc, linear, index[d]);
  }
  return linear;
}

/// Storage type of an element in scratch memory (i1 is kept as i8).
Type scratchType(Type t) {
  if (t.isInteger(1))
    return IntegerType::get(t.getContext(), 8);
  return t;
}

FailureOr<unsigned> getBlockAddressSpace(Location loc, DistributeState &st) {
  std::optional<unsigned> as = st.target.getAddressSpace("shared");
  if (!as)
    as = st.target.getAddressSpace("block");
  if (!as)
    return emitError(loc) << "the target has no 'shared' memory level for the "
                             "block-level memory this op needs";
  return *as;
}

FailureOr<Value> allocScratch(OpBuilder &b, Location loc, DistributeState &st,
                              Type elemType, uint64_t count,
                              uint64_t alignment) {
  FailureOr<unsigned> as = getBlockAddressSpace(loc, st);
  if (failed(as))
    return failure();
  if (st.currentOp)
    st.scratchUsers.insert(st.currentOp);
  else
    st.scratchUserUnknown = true;
  st.scratchAddressSpace = *as;
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), *as);
  std::optional<WarpPartition> partition = getEnclosingPartition(st, b);
  if (partition && partition->index > 0) {
    DistributeState::PartitionScratch &own =
        st.partitionScratch[partition->index];
    uint64_t offset = llvm::alignTo(own.inUse, alignment);
    own.inUse = offset + count * typeBytes(elemType);
    own.bytes = std::max(own.bytes, own.inUse);
    own.alignment = std::max(own.alignment, alignment);
    Value base = LLVM::AddressOfOp::create(
        b, loc, ptrType, getPartitionScratchSymbol(partition->index));
    return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{int32_t(offset)})
        .getResult();
  }
  uint64_t bytes = count * typeBytes(elemType);
  // An op's first slice goes back to the start where it would not fit
  // after the previous op's slices (emitScratchRelease).
  if (st.scratchOpBegin > 0 && st.scratchInUse == st.scratchOpBegin &&
      llvm::alignTo(st.scratchInUse, alignment) + bytes >
          kScratchAlternationBytes)
    st.scratchOpBegin = st.scratchInUse = 0;
  uint64_t offset = llvm::alignTo(st.scratchInUse, alignment);
  st.scratchInUse = offset + bytes;
  st.scratchBytes = std::max(st.scratchBytes, st.scratchInUse);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, kScratchSymbol);
  auto slice = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                                   ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  slice->setAttr(
      kScratchSliceAttr,
      b.getDenseI64ArrayAttr({int64_t(offset), int64_t(st.scratchInUse)}));
  return slice.getResult();
}

FailureOr<Value> allocBlockGlobal(OpBuilder &b, Location loc,
                                  DistributeState &st, StringRef prefix,
                                  Type elemType, uint64_t count, unsigned as,
                                  uint64_t alignment) {
  auto arrayType = LLVM::LLVMArrayType::get(elemType, count);
  std::string name = (prefix + Twine(st.blockGlobals.size())).str();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(st.module.getBody());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/false,
                           LLVM::Linkage::Internal, name,
                           /*value=*/Attribute(), /*alignment=*/16, as);
  }
  st.blockGlobals.push_back({name, count * typeBytes(elemType), alignment});
  st.scratchAddressSpace = as;
  return LLVM::AddressOfOp::create(
             b, loc, LLVM::LLVMPointerType::get(b.getContext(), as), name)
      .getResult();
}

LogicalResult inFirstThread(OpBuilder &b, Location loc, DistributeState &st,
                            function_ref<LogicalResult(OpBuilder &)> body,
                            Value alsoIf) {
  FailureOr<Value> tid = st.target.getThreadId(b, loc, 0);
  if (failed(tid))
    return failure();
  Value run = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, *tid,
                                    i32Const(b, loc, 0));
  if (alsoIf)
    run = arith::AndIOp::create(b, loc, run, alsoIf);
  LogicalResult result = success();
  scf::IfOp::create(b, loc, run, [&](OpBuilder &then, Location l) {
    result = body(then);
    scf::YieldOp::create(then, l);
  });
  return result;
}

void releaseScratch(DistributeState &st) {
  st.scratchOpBegin = st.scratchInUse = 0;
  for (auto &entry : st.partitionScratch)
    entry.second.inUse = 0;
}

LogicalResult collectEmitted(OpBuilder &b, function_ref<LogicalResult()> emit,
                             SmallVectorImpl<Operation *> &emitted) {
  Block *block = b.getInsertionBlock();
  Block::iterator end = b.getInsertionPoint();
  Operation *before = end == block->begin() ? nullptr : &*std::prev(end);
  if (failed(emit()))
    return failure();
  for (Block::iterator it = before ? std::next(before->getIterator())
                                   : block->begin();
       it != end; ++it)
    emitted.push_back(&*it);
  return success();
}

LogicalResult markEmitted(OpBuilder &b, StringRef attr,
                          function_ref<LogicalResult()> emit, Attribute value) {
  SmallVector<Operation *> emitted;
  if (failed(collectEmitted(b, emit, emitted)))
    return failure();
  for (Operation *op : emitted)
    op->setAttr(attr, value ? value : b.getUnitAttr());
  return success();
}

std::optional<StringRef> getBlockGlobal(Value ptr) {
  std::optional<BlockRegion> region = getBlockRegion(ptr);
  if (!region)
    return std::nullopt;
  return region->global;
}

std::optional<BlockRegion> getBlockRegion(Value ptr) {
  BlockRegion region;
  while (auto gep = ptr.getDefiningOp<LLVM::GEPOp>()) {
    if (auto slice = gep->getAttrOfType<DenseI64ArrayAttr>(kScratchSliceAttr)) {
      region.begin = slice[0];
      region.end = slice[1];
    }
    ptr = gep.getBase();
  }
  auto address = ptr.getDefiningOp<LLVM::AddressOfOp>();
  if (!address)
    return std::nullopt;
  region.global = address.getGlobalName();
  return region;
}

LogicalResult emitScratchRelease(OpBuilder &b, Location loc,
                                 DistributeState &st) {
  if (failed(markEmitted(b, kScratchReleaseAttr, [&] {
        return st.target.emitBarrier(b, loc,
                                     ::tle::backend::BarrierScope::Block);
      })))
    return failure();
  // Consecutive small ops alternate between two places, so that this
  // barrier need not come before the next op's writes (sinkScratchBarriers
  // moves it down and merges it into a later one).
  uint64_t begin = st.scratchOpBegin, end = st.scratchInUse;
  releaseScratch(st);
  if (st.scratchAlternation && begin == 0 && end <= kScratchAlternationBytes)
    st.scratchOpBegin = st.scratchInUse = end;
  return success();
}

std::string getPartitionScratchSymbol(unsigned index) {
  return (kScratchSymbol + "_p" + Twine(index)).str();
}

Value scratchPtr(OpBuilder &b, Location loc, Value base, Type elemType,
                 Value index) {
  return LLVM::GEPOp::create(b, loc, base.getType(), elemType, base,
                             ArrayRef<LLVM::GEPArg>{index});
}

void storeScratch(OpBuilder &b, Location loc, Value base, Value index,
                  Value value) {
  Type st = scratchType(value.getType());
  if (st != value.getType())
    value = arith::ExtUIOp::create(b, loc, st, value);
  LLVM::StoreOp::create(b, loc, value, scratchPtr(b, loc, base, st, index));
}

Value loadScratch(OpBuilder &b, Location loc, Value base, Value index,
                  Type type) {
  Type st = scratchType(type);
  Value v =
      LLVM::LoadOp::create(b, loc, st, scratchPtr(b, loc, base, st, index));
  if (st != type)
    v = arith::TruncIOp::create(b, loc, type, v);
  return v;
}

FailureOr<Value> shuffleXor(OpBuilder &b, Location loc,
                            const TargetInfo &target, Value v,
                            unsigned offset) {
  return shuffleValue(b, loc, target, v, i32Const(b, loc, offset),
                      ShuffleKind::Xor);
}

FailureOr<Value> shuffleValue(OpBuilder &b, Location loc,
                              const TargetInfo &target, Value v, Value off,
                              ShuffleKind kind) {
  Type type = v.getType();
  Type i32 = b.getI32Type();
  unsigned bits =
      isa<LLVM::LLVMPointerType>(type) ? 64 : type.getIntOrFloatBitWidth();
  if (type.isF32() || type.isInteger(32))
    return target.shuffle(b, loc, v, off, kind);
  Type intType = b.getIntegerType(bits);
  Value asInt = v;
  if (isa<LLVM::LLVMPointerType>(type))
    asInt = LLVM::PtrToIntOp::create(b, loc, intType, v);
  else if (!isa<IntegerType>(type))
    asInt = arith::BitcastOp::create(b, loc, intType, v);
  Value result;
  if (bits < 32) {
    Value wide = arith::ExtUIOp::create(b, loc, i32, asInt);
    FailureOr<Value> s = target.shuffle(b, loc, wide, off, kind);
    if (failed(s))
      return failure();
    result = arith::TruncIOp::create(b, loc, intType, *s);
  } else if (bits == 64) {
    Value lo = arith::TruncIOp::create(b, loc, i32, asInt);
    Value hi = arith::TruncIOp::create(
        b, loc, i32,
        arith::ShRUIOp::create(
            b, loc, asInt,
            arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32))));
    FailureOr<Value> slo = target.shuffle(b, loc, lo, off, kind);
    FailureOr<Value> shi = target.shuffle(b, loc, hi, off, kind);
    if (failed(slo) || failed(shi))
      return failure();
    Value wlo = arith::ExtUIOp::create(b, loc, intType, *slo);
    Value whi = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, intType, *shi),
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
    result = arith::OrIOp::create(b, loc, wlo, whi);
  } else {
    emitError(loc) << "shuffling " << type
                   << " is not supported by distribution yet";
    return failure();
  }
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, result).getResult();
  if (!isa<IntegerType>(type))
    return arith::BitcastOp::create(b, loc, type, result).getResult();
  return result;
}

DistributeTypeConverter::DistributeTypeConverter(MLIRContext *ctx,
                                                 const TargetInfo &target) {
  addConversion([](Type t) { return t; });
  // LLVM has no 8-bit floats: fp8 values are their bytes.
  addConversion([ctx](FloatType t) -> std::optional<Type> {
    if (t.getWidth() != 8)
      return std::nullopt;
    return IntegerType::get(ctx, 8);
  });
  addConversion([ctx, &target](PointerType p) -> std::optional<Type> {
    StringRef level =
        p.getMemoryLevel() ? p.getMemoryLevel().getValue() : "global";
    std::optional<unsigned> as = target.getAddressSpace(level);
    if (!as)
      return std::nullopt;
    return LLVM::LLVMPointerType::get(ctx, *as);
  });
  // A local buffer is its address in its memory level.
  addConversion(
      [ctx, &target](tle_struct::BufferType t) -> std::optional<Type> {
        std::optional<unsigned> as =
            target.getAddressSpace(t.getMemoryLevel().getValue());
        if (!as)
          return std::nullopt;
        return LLVM::LLVMPointerType::get(ctx, *as);
      });
  // A barrier object is its address in block-level memory.
  addConversion(
      [ctx, &target](tle_struct::BarrierType t) -> std::optional<Type> {
        if (t.getScope().getValue() != "block")
          return std::nullopt;
        std::optional<unsigned> as = target.getAddressSpace("shared");
        if (!as)
          as = target.getAddressSpace("block");
        if (!as)
          return std::nullopt;
        return LLVM::LLVMPointerType::get(ctx, *as);
      });
  addConversion(
      [this](RankedTensorType t,
             SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        auto layout = getDistributedLayout(t);
        if (!layout)
          return failure();
        Type elem = convertType(t.getElementType());
        if (!elem)
          return failure();
        results.append(layout.getTotalElemsPerThread(t.getShape()), elem);
        return success();
      });
}

SmallVector<std::pair<int64_t, int64_t>>
getFragmentOffsets(const ::tle::backend::MatrixFragmentLayout &fragment) {
  SmallVector<std::pair<int64_t, int64_t>> offsets;
  for (unsigned reg = 0, e = 1u << fragment.Registers.size(); reg < e; ++reg) {
    std::pair<int64_t, int64_t> offset{0, 0};
    for (auto [bit, basis] : llvm::enumerate(fragment.Registers))
      if (reg & (1u << bit)) {
        offset.first ^= basis[0];
        offset.second ^= basis[1];
      }
    offsets.push_back(offset);
  }
  return offsets;
}

/// The number of consecutive registers of `layout` that every thread can
/// move as one vector of at most `maxElems` elements to or from scratch
/// contiguous along `dim`: registers r .. r+vec-1 (r a multiple of vec) hold
/// consecutive elements along `dim` starting at a multiple of vec, and every
/// lane and warp moves the index along `dim` by multiples of vec.
unsigned getScratchVectorWidth(DistributedLayoutAttrInterface layout,
                               ArrayRef<int64_t> shape, unsigned dim,
                               unsigned maxElems) {
  unsigned n = layout.getTotalElemsPerThread(shape);
  for (unsigned vec = maxElems; vec > 1; vec /= 2) {
    if (n % vec)
      continue;
    auto aligned = [&](SmallVector<int64_t> index) {
      return index[dim] % vec == 0;
    };
    bool ok = true;
    for (unsigned bit = 1; ok && bit < layout.getWarpSize(); bit *= 2)
      ok = aligned(layout.getTensorIndex(shape, bit, 0, 0));
    for (unsigned bit = 1; ok && bit < layout.getNumWarps(); bit *= 2)
      ok = aligned(layout.getTensorIndex(shape, 0, bit, 0));
    for (unsigned r = 0; ok && r < n; r += vec) {
      SmallVector<int64_t> first = layout.getTensorIndex(shape, 0, 0, r);
      ok = aligned(first);
      for (unsigned j = 1; ok && j < vec; ++j) {
        SmallVector<int64_t> next = first;
        next[dim] += j;
        ok = layout.getTensorIndex(shape, 0, 0, r + j) == next;
      }
    }
    if (ok)
      return vec;
  }
  return 1;
}

} // namespace tle::conversion::distribute
