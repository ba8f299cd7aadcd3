//===- Distribute.cpp - Tile IR to per-thread LLVM dialect ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle-distribute rewrites tile IR whose tensors carry distributed layouts
// (tle-assign-layouts) into per-thread code in the LLVM dialect.
//
// Design: MLIR's 1:N dialect conversion. The type converter maps a tensor
// `tensor<S x T, #layout>` to the N scalars of T one thread holds (N =
// layout.getTotalElemsPerThread(S), register order of the layout); patterns
// receive them through OneToNOpAdaptor and answer with replaceOpWithMultiple.
// scf.for/if/while carrying tensors are converted by the upstream structural
// patterns (1:N aware), so no LLVM structs are packed or unpacked. Scalar
// arith/math/scf stay as they are; lowerToDistributedIR lowers them with the
// upstream conversions afterwards.
//
// Everything chip specific -- ids, barriers, lane shuffles, atomics, address
// spaces -- goes through backend::TargetInfo; this file never names a vendor
// dialect. Block-level scratch (reductions across warps, layout conversions)
// is an `llvm.mlir.global` in the address space of the "shared" level, one
// per op; the module records the total in `tle.shared_memory`.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/AxisInfo.h"
#include "core/conversion/Passes.h"
#include "dialects/TLE/TLEDialect.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tle;
using ::tle::backend::BarrierScope;
using ::tle::backend::ShuffleKind;
using ::tle::backend::TargetInfo;

namespace {

//===----------------------------------------------------------------------===//
// Shared state and helpers
//===----------------------------------------------------------------------===//

struct DistributeState {
  const TargetInfo &target;
  const AxisInfoResult &axis;
  unsigned vectorBytes;
  ModuleOp module;
  unsigned numScratch = 0;
  uint64_t scratchBytes = 0;
};

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
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
        Value v = arith::AddIOp::create(b, loc, base[d],
                                        i32Const(b, loc, offset[d]));
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
  return failure();
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

/// A block-level scratch buffer of `count` elements of `elemType`.
FailureOr<Value> allocScratch(OpBuilder &b, Location loc, DistributeState &st,
                              Type elemType, uint64_t count) {
  std::optional<unsigned> as = st.target.getAddressSpace("shared");
  if (!as)
    as = st.target.getAddressSpace("block");
  if (!as) {
    emitError(loc) << "the target has no 'shared' memory level for the "
                      "block-level scratch this op needs";
    return failure();
  }
  auto arrayType = LLVM::LLVMArrayType::get(elemType, count);
  std::string name = "__tle_scratch_" + std::to_string(st.numScratch++);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(st.module.getBody());
    auto global = LLVM::GlobalOp::create(
        b, loc, arrayType, /*isConstant=*/false, LLVM::Linkage::Internal, name,
        /*value=*/Attribute(), /*alignment=*/16, *as);
    (void)global;
  }
  st.scratchBytes += llvm::alignTo(count * typeBytes(elemType), 16);
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(
                                               b.getContext(), *as),
                                   name)
      .getResult();
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
  Value v = LLVM::LoadOp::create(b, loc, st, scratchPtr(b, loc, base, st, index));
  if (st != type)
    v = arith::TruncIOp::create(b, loc, type, v);
  return v;
}

/// Xor-shuffles `v` across lanes through the target, as 32-bit pieces.
FailureOr<Value> shuffleXor(OpBuilder &b, Location loc, const TargetInfo &target,
                            Value v, unsigned offset) {
  Type type = v.getType();
  Type i32 = b.getI32Type();
  Value off = i32Const(b, loc, offset);
  unsigned bits = isa<LLVM::LLVMPointerType>(type) ? 64
                                                   : type.getIntOrFloatBitWidth();
  if (type.isF32() || type.isInteger(32))
    return target.shuffle(b, loc, v, off, ShuffleKind::Xor);
  Type intType = b.getIntegerType(bits);
  Value asInt = v;
  if (isa<LLVM::LLVMPointerType>(type))
    asInt = LLVM::PtrToIntOp::create(b, loc, intType, v);
  else if (!isa<IntegerType>(type))
    asInt = arith::BitcastOp::create(b, loc, intType, v);
  Value result;
  if (bits < 32) {
    Value wide = arith::ExtUIOp::create(b, loc, i32, asInt);
    FailureOr<Value> s = target.shuffle(b, loc, wide, off, ShuffleKind::Xor);
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
    FailureOr<Value> slo = target.shuffle(b, loc, lo, off, ShuffleKind::Xor);
    FailureOr<Value> shi = target.shuffle(b, loc, hi, off, ShuffleKind::Xor);
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

//===----------------------------------------------------------------------===//
// Type conversion
//===----------------------------------------------------------------------===//

class DistributeTypeConverter : public TypeConverter {
public:
  DistributeTypeConverter(MLIRContext *ctx, const TargetInfo &target) {
    addConversion([](Type t) { return t; });
    addConversion([ctx, &target](PointerType p) -> std::optional<Type> {
      StringRef level =
          p.getMemoryLevel() ? p.getMemoryLevel().getValue() : "global";
      std::optional<unsigned> as = target.getAddressSpace(level);
      if (!as)
        return std::nullopt;
      return LLVM::LLVMPointerType::get(ctx, *as);
    });
    addConversion([this](RankedTensorType t, SmallVectorImpl<Type> &results)
                      -> std::optional<LogicalResult> {
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
};

template <typename Op>
struct DistPattern : public OpConversionPattern<Op> {
  DistPattern(const TypeConverter &tc, MLIRContext *ctx, DistributeState &st)
      : OpConversionPattern<Op>(tc, ctx), st(st) {}
  DistributeState &st;
};

//===----------------------------------------------------------------------===//
// Functions and ids
//===----------------------------------------------------------------------===//

struct FuncOpConversion : DistPattern<FuncOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(FuncOp func, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (func.getFunctionType().getNumResults() != 0)
      return func.emitError("tle.func returning values is not supported by "
                            "distribution yet (inline device functions first)");
    TypeConverter::SignatureConversion sig(func.getNumArguments());
    SmallVector<Type> inputs;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      Type converted = getTypeConverter()->convertType(type);
      if (!converted || isa<RankedTensorType>(type))
        return func.emitError() << "kernel argument of type " << type
                                << " is not supported by distribution yet";
      sig.addInputs(i, converted);
      inputs.push_back(converted);
    }
    auto fnType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(rewriter.getContext()), inputs);
    auto newFunc =
        LLVM::LLVMFuncOp::create(rewriter, func.getLoc(), func.getName(), fnType);
    if (!func.isPrivate())
      newFunc->setAttr("tle.kernel", rewriter.getUnitAttr());
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto div = func.getArgAttrOfType<IntegerAttr>(i, "tle.divisibility");
      if (div && isa<LLVM::LLVMPointerType>(inputs[i]) &&
          llvm::isPowerOf2_64(div.getInt()))
        newFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                           rewriter.getI64IntegerAttr(div.getInt()));
    }
    rewriter.inlineRegionBefore(func.getBody(), newFunc.getBody(),
                                newFunc.end());
    if (failed(rewriter.convertRegionTypes(&newFunc.getBody(),
                                           *getTypeConverter(), &sig)))
      return failure();
    rewriter.eraseOp(func);
    return success();
  }
};

struct ReturnOpConversion : DistPattern<ReturnOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ReturnOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange());
    return success();
  }
};

/// tl.program_id and tl.num_programs: one TargetInfo query per axis.
template <typename OpT, FailureOr<Value> (::tle::backend::TargetInfo::*Query)(
                            OpBuilder &, Location, unsigned) const>
struct GridQueryConversion : DistPattern<OpT> {
  using DistPattern<OpT>::DistPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename DistPattern<OpT>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> value =
        (this->st.target.*Query)(rewriter, op.getLoc(), op.getAxis());
    if (failed(value))
      return failure();
    rewriter.replaceOp(op, *value);
    return success();
  }
};
using GetProgramIdConversion =
    GridQueryConversion<GetProgramIdOp,
                        &::tle::backend::TargetInfo::getProgramId>;
using GetNumProgramsConversion =
    GridQueryConversion<GetNumProgramsOp,
                        &::tle::backend::TargetInfo::getNumPrograms>;

struct DebugBarrierConversion : DistPattern<DebugBarrierOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(DebugBarrierOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(st.target.emitBarrier(rewriter, op.getLoc(),
                                     BarrierScope::Block)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tensor construction and shape ops
//===----------------------------------------------------------------------===//

struct MakeRangeConversion : DistPattern<MakeRangeOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getResult().getType();
    auto indices = emitIndices(rewriter, op.getLoc(), st.target,
                               type.getEncoding(), type.getShape());
    if (failed(indices))
      return op.emitError("cannot compute the indices of this layout");
    Value start = i32Const(rewriter, op.getLoc(), op.getStart());
    SmallVector<Value> values;
    for (auto &index : *indices)
      values.push_back(arith::AddIOp::create(rewriter, op.getLoc(), start,
                                             index[0]));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct SplatConversion : DistPattern<SplatOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getResult().getType();
    unsigned n = getDistributedLayout(type).getTotalElemsPerThread(
        type.getShape());
    Value src = adaptor.getSrc().front();
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(n, src)});
    return success();
  }
};

struct ConstantConversion : DistPattern<arith::ConstantOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return op.emitError("non-splat tensor constants are not supported by "
                          "distribution yet");
    Type elem = getTypeConverter()->convertType(type.getElementType());
    TypedAttr value = cast<TypedAttr>(dense.getSplatValue<Attribute>());
    Value scalar = arith::ConstantOp::create(rewriter, op.getLoc(), elem, value);
    unsigned n = getDistributedLayout(type).getTotalElemsPerThread(
        type.getShape());
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(n, scalar)});
    return success();
  }
};

/// Register of `srcType` holding what register `reg` of `dstType` needs, when
/// dst differs from src only in size-1 (broadcast) or removed (slice) dims.
struct BroadcastConversion : DistPattern<BroadcastOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto dstType = op.getResult().getType();
    auto layout = getDistributedLayout(dstType);
    if (srcType.getEncoding() != dstType.getEncoding())
      return op.emitError("broadcast between different layouts is not "
                          "supported by distribution");
    SmallVector<unsigned> srcEpt = layout.getElemsPerThread(srcType.getShape());
    SmallVector<unsigned> dstEpt = layout.getElemsPerThread(dstType.getShape());
    SmallVector<unsigned> order = layout.getRegisterOrder();
    ValueRange src = adaptor.getSrc();
    SmallVector<Value> values;
    for (unsigned reg = 0, n = layout.getTotalElemsPerThread(dstType.getShape());
         reg < n; ++reg) {
      SmallVector<unsigned> coords = delinearize(reg, dstEpt, order);
      for (unsigned d = 0; d < coords.size(); ++d)
        if (srcType.getDimSize(d) == 1)
          coords[d] = 0;
        else if (srcEpt[d] != dstEpt[d])
          return op.emitError("unexpected register counts in broadcast");
      values.push_back(src[linearize(coords, srcEpt, order)]);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct ExpandDimsConversion : DistPattern<ExpandDimsOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto dstType = op.getResult().getType();
    auto slice = dyn_cast<SliceLayoutAttr>(srcType.getEncoding());
    if (!slice || slice.getDim() != unsigned(op.getAxis()) ||
        slice.getParent() != dstType.getEncoding())
      return op.emitError("expand_dims operand must be in the slice of the "
                          "result layout along the axis (run "
                          "tle-assign-layouts)");
    auto parent = slice.getParent();
    SmallVector<unsigned> dstEpt = parent.getElemsPerThread(dstType.getShape());
    SmallVector<unsigned> order = parent.getRegisterOrder();
    SmallVector<unsigned> srcEpt = slice.getElemsPerThread(srcType.getShape());
    SmallVector<unsigned> srcOrder = slice.getRegisterOrder();
    ValueRange src = adaptor.getSrc();
    SmallVector<Value> values;
    for (unsigned reg = 0, n = parent.getTotalElemsPerThread(dstType.getShape());
         reg < n; ++reg) {
      SmallVector<unsigned> coords = delinearize(reg, dstEpt, order);
      coords.erase(coords.begin() + op.getAxis());
      values.push_back(src[linearize(coords, srcEpt, srcOrder)]);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// True when every thread holds the same elements in the same registers.
bool sameMapping(DistributedLayoutAttrInterface a,
                 DistributedLayoutAttrInterface b, ArrayRef<int64_t> shape) {
  unsigned n = a.getTotalElemsPerThread(shape);
  if (n != b.getTotalElemsPerThread(shape) ||
      a.getWarpSize() != b.getWarpSize() || a.getNumWarps() != b.getNumWarps())
    return false;
  for (unsigned warp = 0; warp < a.getNumWarps(); ++warp)
    for (unsigned lane = 0; lane < a.getWarpSize(); ++lane)
      for (unsigned reg = 0; reg < n; ++reg)
        if (a.getTensorIndex(shape, lane, warp, reg) !=
            b.getTensorIndex(shape, lane, warp, reg))
          return false;
  return true;
}

struct ConvertLayoutConversion : DistPattern<ConvertLayoutOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getResult().getType());
    auto srcLayout = getDistributedLayout(srcType);
    auto dstLayout = getDistributedLayout(dstType);
    ValueRange src = adaptor.getSrc();
    if (sameMapping(srcLayout, dstLayout, srcType.getShape())) {
      rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(src)});
      return success();
    }
    // Through block-level scratch: every thread writes what it holds at the
    // row-major position, then reads what the new layout gives it.
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    auto base = allocScratch(rewriter, loc, st, scratchType(elem),
                             srcType.getNumElements());
    if (failed(base))
      return failure();
    auto srcIdx = emitIndices(rewriter, loc, st.target, srcLayout,
                              srcType.getShape());
    auto dstIdx = emitIndices(rewriter, loc, st.target, dstLayout,
                              dstType.getShape());
    if (failed(srcIdx) || failed(dstIdx))
      return op.emitError("cannot compute the indices of this layout");
    for (auto [value, index] : llvm::zip(src, *srcIdx))
      storeScratch(rewriter, loc, *base,
                   linearizeIndex(rewriter, loc, index, srcType.getShape()),
                   value);
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    SmallVector<Value> values;
    for (auto &index : *dstIdx)
      values.push_back(loadScratch(
          rewriter, loc, *base,
          linearizeIndex(rewriter, loc, index, dstType.getShape()), elem));
    if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

struct AddPtrConversion : DistPattern<AddPtrOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ptrType = cast<PointerType>(getElementTypeOrSelf(op.getType()));
    Type pointee = getTypeConverter()->convertType(ptrType.getPointeeType());
    Type resultType = getTypeConverter()->convertType(ptrType);
    SmallVector<Value> values;
    for (auto [ptr, offset] : llvm::zip(adaptor.getPtr(), adaptor.getOffset()))
      values.push_back(LLVM::GEPOp::create(rewriter, op.getLoc(), resultType,
                                           pointee, ptr,
                                           ArrayRef<LLVM::GEPArg>{offset}));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// Registers per vector access: the widest power of two that the layout keeps
/// contiguous in every thread (consecutive registers, consecutive indices
/// along the fastest register dimension, aligned) and that the axis analysis
/// allows for the pointer. `maskUniform` tells whether the mask is known to
/// be the same on all lanes of such a vector.
struct VectorPlan {
  unsigned vec = 1;
  bool maskUniform = true;
};

VectorPlan planVectorAccess(DistributeState &st, Value ptr, Value mask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return {};
  auto layout = getDistributedLayout(type);
  unsigned dim = layout.getRegisterOrder()[0];
  unsigned vec = ::tle::conversion::getVectorWidthAlong(st.axis, ptr, Value(),
                                                        dim, st.vectorBytes);
  unsigned n = layout.getTotalElemsPerThread(type.getShape());
  auto fits = [&](unsigned v) {
    if (n % v != 0)
      return false;
    for (unsigned warp = 0; warp < layout.getNumWarps(); ++warp)
      for (unsigned lane = 0; lane < layout.getWarpSize(); ++lane)
        for (unsigned g = 0; g < n; g += v) {
          SmallVector<int64_t> first =
              layout.getTensorIndex(type.getShape(), lane, warp, g);
          if (first[dim] % v != 0)
            return false;
          for (unsigned i = 1; i < v; ++i) {
            SmallVector<int64_t> next =
                layout.getTensorIndex(type.getShape(), lane, warp, g + i);
            SmallVector<int64_t> expect(first);
            expect[dim] += i;
            if (next != expect)
              return false;
          }
        }
    return true;
  };
  while (vec > 1 && !fits(vec))
    vec /= 2;
  VectorPlan plan;
  plan.vec = vec;
  if (mask && vec > 1)
    plan.maskUniform = ::tle::conversion::getVectorWidthAlong(
                           st.axis, ptr, mask, dim, st.vectorBytes) >= vec;
  return plan;
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

Value allTrue(OpBuilder &b, Location loc, ValueRange masks) {
  Value all = masks[0];
  for (Value m : masks.drop_front())
    all = arith::AndIOp::create(b, loc, all, m);
  return all;
}

/// Loads: one access of `vec` registers per group. A mask uniform over the
/// group guards the access (scf.if, i.e. a predicated vector load); a mask
/// that may differ between lanes takes the vector access when all lanes are
/// on and falls back to per-element accesses otherwise, so the common
/// in-bounds case stays one wide load (ld.global.v4 on NVPTX).
struct LoadConversion : DistPattern<LoadOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getResult().getType()));
    VectorPlan plan = planVectorAccess(st, op.getPtr(), op.getMask());
    unsigned vec = plan.vec;
    ValueRange ptrs = adaptor.getPtr();
    ValueRange masks = op.getMask() ? adaptor.getMask() : ValueRange();
    ValueRange others = op.getOther() ? adaptor.getOther() : ValueRange();
    Type accessType = vec == 1 ? elem : Type(VectorType::get(vec, elem));
    unsigned alignment = vec * typeBytes(elem);
    bool isVolatile = op.getIsVolatile();
    auto otherOf = [&](OpBuilder &b, unsigned first, unsigned count,
                       Type type) -> Value {
      if (!others.empty())
        return packVector(b, loc, others.slice(first, count));
      return LLVM::ZeroOp::create(b, loc, type);
    };
    auto guarded = [&](OpBuilder &b, Value cond, Type type,
                       function_ref<Value(OpBuilder &)> then,
                       function_ref<Value(OpBuilder &)> otherwise) -> Value {
      return scf::IfOp::create(
                 b, loc, cond,
                 [&](OpBuilder &tb, Location l) {
                   scf::YieldOp::create(tb, l, then(tb));
                 },
                 [&](OpBuilder &eb, Location l) {
                   scf::YieldOp::create(eb, l, otherwise(eb));
                 })
          .getResult(0);
    };
    SmallVector<Value> values;
    for (unsigned g = 0; g < ptrs.size(); g += vec) {
      auto wide = [&](OpBuilder &b) -> Value {
        return LLVM::LoadOp::create(b, loc, accessType, ptrs[g], alignment,
                                    isVolatile);
      };
      Value loaded;
      if (masks.empty()) {
        loaded = wide(rewriter);
      } else if (plan.maskUniform) {
        loaded = guarded(rewriter, masks[g], accessType, wide,
                         [&](OpBuilder &b) {
                           return otherOf(b, g, vec, accessType);
                         });
      } else {
        Value all = allTrue(rewriter, loc, masks.slice(g, vec));
        loaded = guarded(rewriter, all, accessType, wide, [&](OpBuilder &b) {
          SmallVector<Value> lanes;
          for (unsigned i = 0; i < vec; ++i)
            lanes.push_back(guarded(
                b, masks[g + i], elem,
                [&](OpBuilder &ib) -> Value {
                  return LLVM::LoadOp::create(ib, loc, elem, ptrs[g + i],
                                              typeBytes(elem), isVolatile);
                },
                [&](OpBuilder &ib) { return otherOf(ib, g + i, 1, elem); }));
          return packVector(b, loc, lanes);
        });
      }
      if (vec == 1) {
        values.push_back(loaded);
        continue;
      }
      for (unsigned i = 0; i < vec; ++i)
        values.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, loaded, i32Const(rewriter, loc, i)));
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct StoreConversion : DistPattern<StoreOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorPlan plan = planVectorAccess(st, op.getPtr(), op.getMask());
    unsigned vec = plan.vec;
    ValueRange ptrs = adaptor.getPtr();
    ValueRange vals = adaptor.getValue();
    ValueRange masks = op.getMask() ? adaptor.getMask() : ValueRange();
    unsigned elemBytes = typeBytes(vals[0].getType());
    auto guarded = [&](OpBuilder &b, Value cond,
                       function_ref<void(OpBuilder &)> then,
                       function_ref<void(OpBuilder &)> otherwise) {
      if (!otherwise) {
        scf::IfOp::create(b, loc, cond, [&](OpBuilder &tb, Location l) {
          then(tb);
          scf::YieldOp::create(tb, l);
        });
        return;
      }
      scf::IfOp::create(
          b, loc, cond,
          [&](OpBuilder &tb, Location l) {
            then(tb);
            scf::YieldOp::create(tb, l);
          },
          [&](OpBuilder &eb, Location l) {
            otherwise(eb);
            scf::YieldOp::create(eb, l);
          });
    };
    for (unsigned g = 0; g < ptrs.size(); g += vec) {
      Value value = packVector(rewriter, loc, vals.slice(g, vec));
      auto wide = [&](OpBuilder &b) {
        LLVM::StoreOp::create(b, loc, value, ptrs[g], vec * elemBytes);
      };
      if (masks.empty()) {
        wide(rewriter);
      } else if (plan.maskUniform) {
        guarded(rewriter, masks[g], wide, nullptr);
      } else {
        guarded(rewriter, allTrue(rewriter, loc, masks.slice(g, vec)), wide,
                [&](OpBuilder &b) {
                  for (unsigned i = 0; i < vec; ++i)
                    guarded(
                        b, masks[g + i],
                        [&](OpBuilder &ib) {
                          LLVM::StoreOp::create(ib, loc, vals[g + i],
                                                ptrs[g + i], elemBytes);
                        },
                        nullptr);
                });
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// arith and math ops on tensors: one scalar op per register.
struct ElementwiseConversion : public ConversionPattern {
  ElementwiseConversion(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumRegions() != 0)
      return failure();
    auto hasTensor = [](TypeRange types) {
      return llvm::any_of(types, llvm::IsaPred<RankedTensorType>);
    };
    if (!hasTensor(op->getOperandTypes()) && !hasTensor(op->getResultTypes()))
      return failure();
    unsigned n = 0;
    for (ValueRange range : operands)
      n = std::max<unsigned>(n, range.size());
    SmallVector<Type> resultTypes;
    for (Type t : op->getResultTypes())
      resultTypes.push_back(
          getTypeConverter()->convertType(getElementTypeOrSelf(t)));
    SmallVector<SmallVector<Value>> results(op->getNumResults());
    for (unsigned i = 0; i < n; ++i) {
      SmallVector<Value> scalarOperands;
      for (ValueRange range : operands)
        scalarOperands.push_back(range.size() == 1 ? range[0] : range[i]);
      OperationState state(op->getLoc(), op->getName(), scalarOperands,
                           resultTypes, op->getAttrs());
      Operation *scalar = rewriter.create(state);
      for (unsigned r = 0; r < op->getNumResults(); ++r)
        results[r].push_back(scalar->getResult(r));
    }
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

template <typename Op, typename LLVMOp>
struct CastConversion : DistPattern<Op> {
  using DistPattern<Op>::DistPattern;
  LogicalResult
  matchAndRewrite(Op op, typename DistPattern<Op>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elem = this->getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getResult().getType()));
    SmallVector<Value> values;
    for (Value v : adaptor.getSrc())
      values.push_back(LLVMOp::create(rewriter, op.getLoc(), elem, v));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// tl.dot on the FMA units, correct on every target: layout assignment gives
/// each thread whole rows of A and whole columns of B for the elements of C
/// it owns, so every C register is a chain of K fused multiply-adds over
/// registers the thread already holds. Matrix units replace this per target.
struct DotConversion : DistPattern<DotOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                     dType = op.getD().getType();
    auto a = dyn_cast<BlockedLayoutAttr>(aType.getEncoding());
    auto b = dyn_cast<BlockedLayoutAttr>(bType.getEncoding());
    auto d = dyn_cast<BlockedLayoutAttr>(dType.getEncoding());
    int64_t k = aType.getShape().back();
    if (!a || !b || !d || dType.getRank() != 2)
      return op.emitError() << "tle.dot with operand layouts "
                            << aType.getEncoding() << " and "
                            << bType.getEncoding()
                            << " is not supported by distribution yet";
    SmallVector<unsigned> eptA = a.getElemsPerThread(aType.getShape());
    SmallVector<unsigned> eptB = b.getElemsPerThread(bType.getShape());
    SmallVector<unsigned> eptD = d.getElemsPerThread(dType.getShape());
    if (eptA[0] != eptD[0] || eptB[1] != eptD[1] || eptA[1] != k ||
        eptB[0] != k)
      return op.emitError() << "tle.dot operands must hold whole rows of A "
                               "and whole columns of B per thread for the "
                               "FMA fallback";
    Location loc = op.getLoc();
    Type accType = dType.getElementType();
    bool isFloat = isa<FloatType>(accType);
    // Operands are widened to the accumulator type once per register.
    auto widen = [&](ValueRange regs) {
      SmallVector<Value> out;
      for (Value v : regs) {
        if (v.getType() == accType)
          out.push_back(v);
        else if (isFloat)
          out.push_back(arith::ExtFOp::create(rewriter, loc, accType, v));
        else
          out.push_back(arith::ExtSIOp::create(rewriter, loc, accType, v));
      }
      return out;
    };
    SmallVector<Value> aRegs = widen(adaptor.getA());
    SmallVector<Value> bRegs = widen(adaptor.getB());
    SmallVector<Value> result(adaptor.getC().begin(), adaptor.getC().end());
    for (unsigned reg = 0; reg < result.size(); ++reg) {
      SmallVector<unsigned> ij = delinearize(reg, eptD, d.getOrder());
      Value acc = result[reg];
      for (unsigned kk = 0; kk < k; ++kk) {
        Value x = aRegs[linearize({ij[0], kk}, eptA, a.getOrder())];
        Value y = bRegs[linearize({kk, ij[1]}, eptB, b.getOrder())];
        if (isFloat) {
          acc = math::FmaOp::create(rewriter, loc, x, y, acc);
        } else {
          Value prod = arith::MulIOp::create(rewriter, loc, x, y);
          acc = arith::AddIOp::create(rewriter, loc, acc, prod);
        }
      }
      result[reg] = acc;
    }
    rewriter.replaceOpWithMultiple(op, {result});
    return success();
  }
};

struct ReduceConversion : DistPattern<ReduceOp> {
  using DistPattern::DistPattern;

  /// Applies the combiner region to (acc, cur).
  static SmallVector<Value> combine(OpBuilder &b, ReduceOp op,
                                    ArrayRef<Value> acc, ArrayRef<Value> cur) {
    Block &body = op.getCombineOp().front();
    IRMapping map;
    for (unsigned i = 0; i < acc.size(); ++i) {
      map.map(body.getArgument(i), acc[i]);
      map.map(body.getArgument(acc.size() + i), cur[i]);
    }
    for (Operation &inner : body.without_terminator())
      b.clone(inner, map);
    SmallVector<Value> result;
    for (Value v : body.getTerminator()->getOperands())
      result.push_back(map.lookupOrDefault(v));
    return result;
  }

  LogicalResult
  matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    auto layout = dyn_cast<BlockedLayoutAttr>(srcType.getEncoding());
    if (!layout)
      return op.emitError() << "reduce of an operand in layout "
                            << srcType.getEncoding()
                            << " is not supported by distribution yet";
    unsigned axis = op.getAxis();
    unsigned numOperands = op.getSrcs().size();
    ArrayRef<int64_t> shape = srcType.getShape();
    SmallVector<unsigned> ept = layout.getElemsPerThread(shape);
    ArrayRef<unsigned> order = layout.getOrder();
    unsigned numRegs = layout.getTotalElemsPerThread(shape);

    // Registers of the result: the source's with the axis coordinate 0.
    SmallVector<unsigned> outEpt(ept);
    outEpt.erase(outEpt.begin() + axis);
    SmallVector<unsigned> outOrder;
    for (unsigned d : order)
      if (d != axis)
        outOrder.push_back(d > axis ? d - 1 : d);
    unsigned numOut = 1;
    for (unsigned e : outEpt)
      numOut *= e;

    // 1. Within the thread, over registers holding distinct elements.
    unsigned uniqueRegs = std::min<int64_t>(ept[axis], shape[axis]);
    SmallVector<SmallVector<Value>> acc(numOut);
    for (unsigned reg = 0; reg < numRegs; ++reg) {
      SmallVector<unsigned> coords = delinearize(reg, ept, order);
      if (coords[axis] >= uniqueRegs)
        continue;
      coords.erase(coords.begin() + axis);
      unsigned out = outOrder.empty() ? 0 : linearize(coords, outEpt, outOrder);
      SmallVector<Value> cur;
      for (ValueRange src : adaptor.getSrcs())
        cur.push_back(src[reg]);
      acc[out] = acc[out].empty() ? cur : combine(rewriter, op, acc[out], cur);
    }

    // 2. Across the lanes of a warp, by xor butterflies.
    int64_t perThread = layout.getSizePerThread()[axis];
    unsigned lanes = std::clamp<int64_t>(
        shape[axis] / perThread, 1, layout.getThreadsPerWarp()[axis]);
    unsigned laneStride = 1;
    for (unsigned d : order) {
      if (d == axis)
        break;
      laneStride *= layout.getThreadsPerWarp()[d];
    }
    for (unsigned offset = lanes / 2; offset >= 1; offset /= 2) {
      for (auto &values : acc) {
        SmallVector<Value> other;
        for (Value v : values) {
          FailureOr<Value> s =
              shuffleXor(rewriter, loc, st.target, v, offset * laneStride);
          if (failed(s))
            return failure();
          other.push_back(*s);
        }
        values = combine(rewriter, op, values, other);
      }
    }

    // 3. Across warps, through block-level scratch.
    unsigned warps = std::clamp<int64_t>(
        shape[axis] / (perThread * layout.getThreadsPerWarp()[axis]), 1,
        layout.getWarpsPerCTA()[axis]);
    if (warps > 1) {
      auto ids = getLaneAndWarp(rewriter, loc, st.target, layout.getWarpSize());
      if (failed(ids))
        return failure();
      SmallVector<Value> warpC =
          delinearizeValue(rewriter, loc, ids->second, layout.getWarpsPerCTA(),
                           layout.getOrder());
      Value warpAlong = arith::RemUIOp::create(rewriter, loc, warpC[axis],
                                               i32Const(rewriter, loc, warps));
      SmallVector<int64_t> outShape(shape);
      outShape.erase(outShape.begin() + axis);
      int64_t outElems = 1;
      for (int64_t s : outShape)
        outElems *= s;
      // Row-major position of each result register.
      SmallVector<Value> outLinear;
      if (outShape.empty()) {
        outLinear.push_back(i32Const(rewriter, loc, 0));
      } else {
        auto slice = SliceLayoutAttr::get(rewriter.getContext(), axis, layout);
        auto idx = emitIndices(rewriter, loc, st.target, slice, outShape);
        if (failed(idx))
          return failure();
        for (auto &index : *idx)
          outLinear.push_back(linearizeIndex(rewriter, loc, index, outShape));
      }
      Value cWarps = i32Const(rewriter, loc, warps);
      SmallVector<Value> bases;
      for (unsigned k = 0; k < numOperands; ++k) {
        Type t = acc[0][k].getType();
        auto base = allocScratch(rewriter, loc, st, scratchType(t),
                                 outElems * warps);
        if (failed(base))
          return failure();
        bases.push_back(*base);
      }
      for (unsigned out = 0; out < numOut; ++out) {
        Value slot = arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, outLinear[out], cWarps),
            warpAlong);
        for (unsigned k = 0; k < numOperands; ++k)
          storeScratch(rewriter, loc, bases[k], slot, acc[out][k]);
      }
      if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
        return failure();
      for (unsigned out = 0; out < numOut; ++out) {
        Value first =
            arith::MulIOp::create(rewriter, loc, outLinear[out], cWarps);
        SmallVector<Value> total;
        for (unsigned w = 0; w < warps; ++w) {
          Value slot = arith::AddIOp::create(rewriter, loc, first,
                                             i32Const(rewriter, loc, w));
          SmallVector<Value> cur;
          for (unsigned k = 0; k < numOperands; ++k)
            cur.push_back(loadScratch(rewriter, loc, bases[k], slot,
                                      acc[out][k].getType()));
          total = total.empty() ? cur : combine(rewriter, op, total, cur);
        }
        acc[out] = total;
      }
      if (failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
        return failure();
    }

    SmallVector<SmallVector<Value>> results(numOperands);
    for (unsigned out = 0; out < numOut; ++out)
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(acc[out][k]);
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

bool isSupported(Operation *op) {
  return isa<FuncOp, ReturnOp, GetProgramIdOp, GetNumProgramsOp, MakeRangeOp,
             SplatOp,
             BroadcastOp, ExpandDimsOp, ConvertLayoutOp, AddPtrOp, LoadOp,
             StoreOp, ReduceOp, ReduceReturnOp, DotOp, DebugBarrierOp,
             PtrToIntOp,
             IntToPtrOp, BitcastOp>(op);
}

struct DistributePass
    : public PassWrapper<DistributePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DistributePass)

  DistributePass(const TargetInfo &target,
                 const ::tle::conversion::DistributeOptions &options)
      : target(target), targetDialects(options.TargetDialects) {
    vectorBytes = options.VectorBytes;
  }
  DistributePass(const DistributePass &other)
      : PassWrapper(other), target(other.target),
        targetDialects(other.targetDialects) {}

  StringRef getArgument() const final { return "tle-distribute"; }
  StringRef getDescription() const final {
    return "Distribute tensors with layouts to per-thread code in the LLVM "
           "dialect through the target's hooks";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, arith::ArithDialect, scf::SCFDialect,
                    math::MathDialect>();
    if (targetDialects)
      targetDialects(registry);
  }

  Option<unsigned> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("Widest vector memory access of one thread, in bytes"),
      llvm::cl::init(16)};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    // Refuse what is not implemented yet, naming the op, before rewriting.
    bool unsupported = false;
    module.walk([&](Operation *op) {
      Dialect *dialect = op->getDialect();
      StringRef ns = dialect ? dialect->getNamespace() : "";
      if ((ns == "tle" || ns == "tle_struct" || ns == "tle_raw") &&
          !isSupported(op)) {
        op->emitError() << "'" << op->getName()
                        << "' is not supported by distribution yet";
        unsupported = true;
      }
      for (Type t : op->getResultTypes())
        if (isa<RankedTensorType>(t) && !getDistributedLayout(t)) {
          op->emitError() << "tensor result without a distributed layout "
                             "(run tle-assign-layouts first)";
          unsupported = true;
          break;
        }
    });
    if (unsupported)
      return signalPassFailure();

    AxisInfoResult axis(module);
    DistributeState st{target, axis, vectorBytes, module};
    DistributeTypeConverter typeConverter(ctx, target);

    ConversionTarget conv(*ctx);
    conv.addIllegalDialect<TLEDialect>();
    conv.addLegalDialect<LLVM::LLVMDialect>();
    conv.addLegalOp<ModuleOp>();
    conv.markUnknownOpDynamicallyLegal([&](Operation *op) {
      return typeConverter.isLegal(op->getOperandTypes()) &&
             typeConverter.isLegal(op->getResultTypes());
    });

    RewritePatternSet patterns(ctx);
    patterns.add<FuncOpConversion, ReturnOpConversion, GetProgramIdConversion,
                 GetNumProgramsConversion,
                 DebugBarrierConversion, MakeRangeConversion, SplatConversion,
                 ConstantConversion, BroadcastConversion, ExpandDimsConversion,
                 ConvertLayoutConversion, AddPtrConversion, LoadConversion,
                 StoreConversion, ReduceConversion, DotConversion,
                 CastConversion<PtrToIntOp, LLVM::PtrToIntOp>,
                 CastConversion<IntToPtrOp, LLVM::IntToPtrOp>,
                 CastConversion<BitcastOp, LLVM::BitcastOp>>(typeConverter, ctx,
                                                             st);
    patterns.add<ElementwiseConversion>(typeConverter, ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(typeConverter,
                                                         patterns, conv);
    if (failed(applyPartialConversion(module, conv, std::move(patterns))))
      return signalPassFailure();

    auto i32 = IntegerType::get(ctx, 32);
    if (!module->hasAttr("tle.num_warps"))
      module->setAttr("tle.num_warps", IntegerAttr::get(i32, 4));
    module->setAttr("tle.shared_memory",
                    IntegerAttr::get(i32, int64_t(st.scratchBytes)));
  }

  const TargetInfo &target;
  std::function<void(DialectRegistry &)> targetDialects;
};

} // namespace

namespace tle::conversion {
std::unique_ptr<Pass> createDistributePass(const TargetInfo &Target,
                                           const DistributeOptions &Options) {
  return std::make_unique<DistributePass>(Target, Options);
}
} // namespace tle::conversion
