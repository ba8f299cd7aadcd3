//===- DistributeTensorCopy.cpp - Tensor maps and tensor copies -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Tensor copies (TargetInfo::supportsTensorCopies; Hopper's TMA) that
// software pipelining made for descriptor tiles. A kernel with tensor maps
// takes one more argument after its own: global memory of
// `tle.global_scratch` bytes per program, which the launcher provides
// (the manifest's global_scratch_bytes); map i of the kernel lives at byte
// (linear program id * that + i * map bytes). tle_struct.tensor_map has
// the block's first warp write its map there through a staging copy in
// block-level scratch, then synchronizes the block. Where the target's
// launcher builds maps (TargetInfo::supportsLaunchTensorMaps), the map of a
// descriptor argument (base, shape and strides all the kernel's own
// arguments) is not written: the launcher builds it from those arguments
// and passes it by value after them (kLaunchTensorMapsAttr describes it),
// and the copies read it there. tle_struct.async_tensor_copy is issued by
// the block's first thread: one arrival on the slot's barrier expecting
// the tile's bytes, then one copy per swizzle panel of the tile.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/BufferAddressing.h"
#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using mlir::tle_struct::BufferType;
using ::tle::backend::BarrierScope;

namespace {

/// The block's linear program id as an i64.
FailureOr<Value> getLinearProgramId(OpBuilder &b, Location loc,
                                    const ::tle::backend::TargetInfo &target) {
  Value linear;
  for (int axis = 2; axis >= 0; --axis) {
    FailureOr<Value> id = target.getProgramId(b, loc, axis);
    if (failed(id))
      return failure();
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), *id);
    if (!linear) {
      linear = wide;
      continue;
    }
    FailureOr<Value> count = target.getNumPrograms(b, loc, axis);
    if (failed(count))
      return failure();
    linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, linear,
            arith::ExtUIOp::create(b, loc, b.getI64Type(), *count)),
        wide);
  }
  return linear;
}

/// The --signature name of a map's element type, as the launcher reads it
/// (backend::LaunchTensorMap::ElementType); std::nullopt for the others,
/// whose maps the kernel writes.
std::optional<std::string> getElementName(Type type) {
  if (type.isF16())
    return "fp16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "fp32";
  if (type.isF64())
    return "fp64";
  if (isa<Float8E5M2Type>(type))
    return "fp8e5";
  if (isa<Float8E4M3FNType>(type))
    return "fp8e4nv";
  if (auto integer = dyn_cast<IntegerType>(type))
    if (llvm::is_contained({8u, 16u, 32u, 64u}, integer.getWidth()))
      return "i" + std::to_string(integer.getWidth());
  return std::nullopt;
}

/// The description of `map` for its kernel's launcher (see
/// kLaunchTensorMapsAttr) when its base, shape and strides (the last, 1,
/// aside) are the kernel's own arguments (a descriptor argument's map, or
/// one made in the kernel straight from arguments) and only tensor copies
/// read it (they take the launched argument instead).
std::optional<DictionaryAttr> getLaunchTensorMap(tle_struct::TensorMapOp map,
                                                 FunctionOpInterface func) {
  // Copies take the launched argument; any other reader would need the
  // map's value.
  if (!llvm::all_of(map->getUsers(),
                    llvm::IsaPred<tle_struct::AsyncTensorCopyOp>))
    return std::nullopt;
  Builder b(func.getContext());
  Block &entry = func.getFunctionBody().front();
  auto argIndex = [&](Value v) -> std::optional<int64_t> {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &entry)
      return std::nullopt;
    return arg.getArgNumber();
  };
  auto indices = [&](ValueRange values) -> std::optional<ArrayAttr> {
    SmallVector<Attribute> result;
    for (Value v : values) {
      std::optional<int64_t> index = argIndex(v);
      if (!index)
        return std::nullopt;
      result.push_back(b.getI64IntegerAttr(*index));
    }
    return b.getArrayAttr(result);
  };
  std::optional<int64_t> base = argIndex(map.getBase());
  std::optional<ArrayAttr> shape = indices(map.getShape());
  std::optional<ArrayAttr> strides = indices(map.getStrides().drop_back());
  if (!base || !shape || !strides ||
      !matchPattern(map.getStrides().back(), m_One()))
    return std::nullopt;
  std::optional<std::string> element = getElementName(
      cast<PointerType>(map.getBase().getType()).getPointeeType());
  if (!element)
    return std::nullopt;
  return b.getDictionaryAttr(
      {b.getNamedAttr("base", b.getI64IntegerAttr(*base)),
       b.getNamedAttr("shape", *shape), b.getNamedAttr("strides", *strides),
       b.getNamedAttr("box", map.getBoxAttr()),
       b.getNamedAttr("element", b.getStringAttr(*element)),
       b.getNamedAttr("swizzle", map.getSwizzleAttr())});
}

struct TensorMapConversion : DistPattern<tle_struct::TensorMapOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::TensorMapOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The launcher passes this map: its copies read the argument
    // (AsyncTensorCopyConversion), and nothing reads this value.
    if (st.launchTensorMapIndex.count(op)) {
      rewriter.replaceOpWithNewOp<LLVM::ZeroOp>(
          op, getTypeConverter()->convertType(op.getType()));
      return success();
    }
    unsigned mapBytes = st.target.getTensorMapBytes();
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    auto scratchIt = st.globalScratch.find(func);
    Value scratch =
        scratchIt == st.globalScratch.end() ? Value() : scratchIt->second;
    auto index = st.tensorMapIndex.find(op);
    if (!st.target.supportsTensorCopies() || !mapBytes || !scratch ||
        index == st.tensorMapIndex.end())
      return op.emitError("tensor maps need a target with tensor copies, in "
                          "a kernel");
    auto perProgram = func->getAttrOfType<IntegerAttr>(kGlobalScratchAttr);
    FailureOr<Value> program = getLinearProgramId(rewriter, loc, st.target);
    if (failed(program))
      return failure();
    Value offset = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, *program,
                              arith::ConstantIntOp::create(
                                  rewriter, loc, perProgram.getInt(), 64)),
        arith::ConstantIntOp::create(rewriter, loc,
                                     int64_t(index->second) * mapBytes, 64));
    Value map = LLVM::GEPOp::create(rewriter, loc, scratch.getType(),
                                    rewriter.getI8Type(), scratch,
                                    ArrayRef<LLVM::GEPArg>{offset});
    FailureOr<Value> staging =
        allocScratch(rewriter, loc, st, rewriter.getI8Type(), mapBytes,
                     /*alignment=*/mapBytes);
    if (failed(staging))
      return failure();

    ::tle::backend::TensorMapDesc desc;
    desc.Base = adaptor.getBase().front();
    auto pointee = cast<PointerType>(op.getBase().getType()).getPointeeType();
    desc.ElementType = getTypeConverter()->convertType(pointee);
    unsigned rank = op.getShape().size();
    for (unsigned d = rank; d-- > 0;) {
      desc.Sizes.push_back(adaptor.getShape()[d].front());
      desc.Box.push_back(op.getBox()[d]);
      if (d + 1 < rank)
        desc.Strides.push_back(arith::MulIOp::create(
            rewriter, loc, adaptor.getStrides()[d].front(),
            arith::ConstantIntOp::create(rewriter, loc, typeBytes(pointee),
                                         64)));
    }
    desc.SwizzleBytes = op.getSwizzle();

    FailureOr<Value> tid = st.target.getThreadId(rewriter, loc, 0);
    if (failed(tid))
      return failure();
    Value firstWarp =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, *tid,
                              i32Const(rewriter, loc, st.target.getWarpSize()));
    LogicalResult written = success();
    scf::IfOp::create(rewriter, loc, firstWarp, [&](OpBuilder &b, Location l) {
      written = st.target.emitTensorMapInit(b, l, map, *staging, desc, *tid);
      scf::YieldOp::create(b, l);
    });
    if (failed(written) ||
        failed(st.target.emitBarrier(rewriter, loc, BarrierScope::Block)))
      return failure();
    releaseScratch(st);
    rewriter.replaceOp(op, map);
    return success();
  }
};

struct AsyncTensorCopyConversion : DistPattern<tle_struct::AsyncTensorCopyOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_struct::AsyncTensorCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BufferType type = op.getBuffer().getType();
    BufferAddressing addressing(type);
    ArrayRef<int64_t> slotShape = type.getShape().drop_front();
    // The tile's contiguous dimension is the slot's fastest one.
    unsigned inner = addressing.fastest() - 1;
    if (slotShape.size() != 2 || inner != (op.getTransposed() ? 0u : 1u))
      return op.emitError("a tensor copy lands its tile's contiguous "
                          "dimension along the slot's fastest one");
    Type elem = getTypeConverter()->convertType(type.getElementType());
    unsigned elemBytes = typeBytes(elem);
    int64_t panels = slotShape[inner] / addressing.panelColumns;
    int64_t bytes = slotShape[0] * slotShape[1] * elemBytes;

    Value base = adaptor.getBuffer().front();
    Value slot = adaptor.getSlot().front();
    Value barrier = LLVM::GEPOp::create(
        rewriter, loc, adaptor.getBarrier().front().getType(),
        rewriter.getI64Type(), adaptor.getBarrier().front(),
        ArrayRef<LLVM::GEPArg>{slot});
    Value map = adaptor.getMap().front();
    if (auto launched =
            st.launchTensorMapIndex.find(op.getMap().getDefiningOp());
        launched != st.launchTensorMapIndex.end()) {
      auto args =
          st.launchTensorMapArgs.find(op->getParentOfType<LLVM::LLVMFuncOp>());
      if (args == st.launchTensorMapArgs.end() ||
          launched->second >= args->second.size())
        return op.emitError("a launched tensor map outside the kernel that "
                            "takes it");
      map = args->second[launched->second];
    }
    Value row = adaptor.getIndices()[0].front();
    Value col = adaptor.getIndices()[1].front();

    // The first copies into a ring (before its loop, where the pipeliner
    // put them next to the ring's allocation) may follow ordinary accesses
    // to the same bytes: in a persistent kernel's tile loop, the previous
    // tile's scratch.
    Operation *ring = op.getBuffer().getDefiningOp();
    bool ordered = !ring || ring->getBlock() == op->getBlock();
    auto issue = [&](OpBuilder &b) {
      LogicalResult issued =
          st.target.emitBarrierExpectBytes(b, loc, barrier, bytes);
      for (int64_t p = 0; p < panels && succeeded(issued); ++p) {
        SmallVector<Value> start{slot, i32Const(b, loc, 0),
                                 i32Const(b, loc, 0)};
        start[inner + 1] = i32Const(b, loc, p * addressing.panelColumns);
        Value dst = scratchPtr(b, loc, base, elem,
                               addressing.unswizzledOffset(b, loc, start));
        Value panelCol = arith::AddIOp::create(
            b, loc, col, i32Const(b, loc, p * addressing.panelColumns));
        issued = st.target.emitTensorCopy(b, loc, dst, map, {panelCol, row},
                                          barrier, ordered && p == 0);
      }
      return issued;
    };
    if (failed(
            inFirstThread(rewriter, loc, st, issue,
                          op.getPred() ? adaptor.getPred().front() : Value())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateTensorCopyPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  // Each kernel's maps in order: their places in its global scratch, whose
  // size the function's conversion takes from the count.
  // Maps of descriptor arguments, where the launcher builds them, come
  // after the kernel's own arguments instead.
  st.module.walk([&](FunctionOpInterface func) {
    unsigned next = 0;
    SmallVector<Attribute> launched;
    func.walk([&](tle_struct::TensorMapOp map) {
      if (map->getParentOfType<FunctionOpInterface>() != func)
        return;
      if (st.launchTensorMaps && !func.isPrivate())
        if (std::optional<DictionaryAttr> spec =
                getLaunchTensorMap(map, func)) {
          st.launchTensorMapIndex[map] = launched.size();
          launched.push_back(*spec);
          return;
        }
      st.tensorMapIndex[map] = next++;
    });
    if (next)
      st.tensorMapCount[func] = next;
    if (!launched.empty())
      st.launchTensorMapSpecs[func] =
          ArrayAttr::get(func.getContext(), launched);
  });
  patterns.add<TensorMapConversion, AsyncTensorCopyConversion>(
      tc, patterns.getContext(), st);
}
