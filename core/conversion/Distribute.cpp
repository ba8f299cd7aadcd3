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
//
// Everything chip specific -- ids, barriers, lane shuffles, atomics, address
// spaces -- goes through backend::TargetInfo; no pattern names a vendor
// dialect. Block-level memory -- scratch for reductions across warps and
// layout conversions, local buffers -- is one external array in the address
// space of the "shared" level, sized at launch; the kernel (and the module)
// record its bytes in `tle.shared_memory`.
//
// This file holds the pass; the patterns live in the Distribute*.cpp files
// listed in DistributeCommon.h.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/AxisInfo.h"
#include "core/conversion/DistributeCommon.h"
#include "core/conversion/Passes.h"
#include "dialects/TLERaw/TLERawDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::TargetInfo;

namespace {

/// Whether distribution rewrites `op`: a pattern's root, or a region
/// terminator (reduce_return, yield, ...) that its parent's pattern consumes.
bool isRewritten(Operation *op, const DenseSet<OperationName> &roots) {
  if (roots.contains(op->getName()))
    return true;
  Operation *parent = op->getParentOp();
  return op->hasTrait<OpTrait::IsTerminator>() && parent &&
         roots.contains(parent->getName());
}

struct DistributePass
    : public PassWrapper<DistributePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DistributePass)

  DistributePass(const TargetInfo &target,
                 const ::tle::conversion::DistributeOptions &options)
      : target(target), targetDialects(options.TargetDialects),
        matrixUnits(options.MatrixUnits),
        conversionCounts(options.ConversionCounts) {
    vectorBytes = options.VectorBytes;
    blockMemoryRowBytes = options.BlockMemoryRowBytes;
    rawLanguages = options.RawLanguages;
    warpExchanges = options.WarpExchanges;
    scratchAlternation = options.ScratchAlternation;
    shuffledPartials = options.ShuffledPartials;
    earlyRefill = options.EarlyRefill;
    launchTensorMaps = options.LaunchTensorMaps;
  }
  DistributePass(const DistributePass &other)
      : PassWrapper(other), target(other.target),
        targetDialects(other.targetDialects), matrixUnits(other.matrixUnits),
        conversionCounts(other.conversionCounts) {}

  StringRef getArgument() const final { return "tle-distribute"; }
  StringRef getDescription() const final {
    return "Distribute tensors with layouts to per-thread code in the LLVM "
           "dialect through the target's hooks";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    // tle_struct: a dot's register operands get the buffer layout of the
    // matrix unit's operands (#tle_struct.layout) when stored to scratch.
    registry.insert<LLVM::LLVMDialect, arith::ArithDialect, scf::SCFDialect,
                    math::MathDialect, tle_struct::TLEStructDialect>();
    if (targetDialects)
      targetDialects(registry);
  }

  Option<unsigned> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("Widest vector memory access of one thread, in bytes"),
      llvm::cl::init(16)};
  Option<unsigned> blockMemoryRowBytes{
      *this, "block-memory-row-bytes",
      llvm::cl::desc(
          "Bytes of one row of the block-level memory's banks; "
          "each local buffer of a row or more starts on one (0: unknown)"),
      llvm::cl::init(0)};
  ListOption<std::string> rawLanguages{
      *this, "raw-languages",
      llvm::cl::desc("Native languages of tle_raw variants the chip accepts")};
  Option<bool> warpExchanges{
      *this, "warp-exchanges",
      llvm::cl::desc("Convert layouts inside warps by lane shuffles"),
      llvm::cl::init(true)};
  Option<bool> scratchAlternation{
      *this, "scratch-alternation",
      llvm::cl::desc("Give consecutive small scratch users apart bytes"),
      llvm::cl::init(false)};
  Option<bool> shuffledPartials{
      *this, "shuffled-partials",
      llvm::cl::desc("Combine a reduction's warp partials by lane shuffles, "
                     "one read per lane"),
      llvm::cl::init(false)};
  Option<bool> launchTensorMaps{
      *this, "launch-tensor-maps",
      llvm::cl::desc("Take the tensor maps of descriptor arguments from the "
                     "launcher, by value, where the target supports it"),
      llvm::cl::init(true)};
  Option<bool> earlyRefill{
      *this, "early-refill",
      llvm::cl::desc("Issue a pipelined loop's refill right after a "
                     "barrier that stays and already releases its slot"),
      llvm::cl::init(true)};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    bool unsupported = false;
    module.walk([&](Operation *op) {
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

    widenFloat8Arithmetic(module);
    AxisInfoResult axis(module);
    auto i32 = IntegerType::get(ctx, 32);
    PartitionAwareTarget partitioned(target);
    DistributeState st{partitioned, axis, vectorBytes, module, matrixUnits};
    partitioned.setState(&st);
    auto warpSize = module->getAttrOfType<IntegerAttr>("tle.warp_size");
    st.threadsPerBlock = ::tle::conversion::getNumWarps(module) *
                         (warpSize ? warpSize.getInt() : target.getWarpSize());
    st.rawLanguages.assign(rawLanguages.begin(), rawLanguages.end());
    st.warpExchanges = warpExchanges;
    st.launchTensorMaps = launchTensorMaps && target.supportsLaunchTensorMaps();
    st.scratchAlternation = scratchAlternation;
    st.shuffledPartials = shuffledPartials;
    st.conversionCounts = conversionCounts;
    DistributeTypeConverter typeConverter(ctx, target);

    ConversionTarget conv(*ctx);
    conv.addIllegalDialect<TLEDialect, tle_struct::TLEStructDialect,
                           tle_raw::TLERawDialect>();
    conv.addLegalDialect<LLVM::LLVMDialect>();
    conv.addLegalOp<ModuleOp>();
    conv.markUnknownOpDynamicallyLegal([&](Operation *op) {
      return typeConverter.isLegal(op->getOperandTypes()) &&
             typeConverter.isLegal(op->getResultTypes());
    });

    RewritePatternSet patterns(ctx);
    populateFunctionPatterns(typeConverter, patterns, st);
    populateElementwisePatterns(typeConverter, patterns, st);
    populateFloat8Patterns(typeConverter, patterns, st);
    populateLayoutPatterns(typeConverter, patterns, st);
    populateMemoryPatterns(typeConverter, patterns, st);
    populateReducePatterns(typeConverter, patterns, st);
    populateDotPatterns(typeConverter, patterns, st);
    populateScanPatterns(typeConverter, patterns, st);
    populateAtomicPatterns(typeConverter, patterns, st);
    populateHistogramPatterns(typeConverter, patterns, st);
    populateGatherPatterns(typeConverter, patterns, st);
    populateShapePatterns(typeConverter, patterns, st);
    populateLocalBufferPatterns(typeConverter, patterns, st);
    populateAsyncCopyPatterns(typeConverter, patterns, st);
    populateTensorCopyPatterns(typeConverter, patterns, st);
    populateBlockDotPatterns(typeConverter, patterns, st);
    populateRawPatterns(typeConverter, patterns, st);
    populateBarrierPatterns(typeConverter, patterns, st);
    populateWarpSpecializePatterns(typeConverter, patterns, st);
    scf::populateSCFStructuralTypeConversionsAndLegality(typeConverter,
                                                         patterns, conv);
    // Refuse what no pattern rewrites, naming the op, before rewriting.
    DenseSet<OperationName> roots;
    for (const std::unique_ptr<RewritePattern> &pattern :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        roots.insert(*root);
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<TLEDialect, tle_struct::TLEStructDialect,
                          tle_raw::TLERawDialect>(op->getDialect()) &&
          !isRewritten(op, roots)) {
        op->emitError() << "'" << op->getName()
                        << "' is not supported by distribution yet";
        unsupported = true;
      }
    });
    if (unsupported)
      return signalPassFailure();
    // Which ops each local buffer is live across, before they are rewritten.
    DenseMap<Operation *, DenseSet<Operation *>> bufferLifetimes =
        getBufferLifetimes(module);
    CurrentOpListener listener(st);
    ConversionConfig config;
    config.listener = &listener;
    if (failed(applyPartialConversion(module, conv, std::move(patterns),
                                      config)))
      return signalPassFailure();

    llvm::StringSet<> scratchSharers = getScratchSharers(st, bufferLifetimes);
    sinkScratchBarriers(module, target.getAddressSpace("global"),
                        scratchSharers, earlyRefill);
    if (failed(placeBlockMemory(module, st, scratchSharers, bufferLifetimes)))
      return signalPassFailure();
    if (!module->hasAttr(::tle::conversion::kNumWarpsAttr))
      module->setAttr(
          ::tle::conversion::kNumWarpsAttr,
          IntegerAttr::get(i32, ::tle::conversion::kDefaultNumWarps));
  }

  /// Sets the state's current op while a pattern rewrites it, so that
  /// scratch allocations know their op.
  struct CurrentOpListener : public RewriterBase::Listener {
    explicit CurrentOpListener(DistributeState &st) : st(st) {}
    void notifyPatternBegin(const Pattern &, Operation *op) override {
      st.currentOp = op;
    }
    void notifyPatternEnd(const Pattern &, LogicalResult) override {
      st.currentOp = nullptr;
    }
    DistributeState &st;
  };

  /// For each tle_struct.alloc whose last use in the alloc's block is
  /// followed by an `async_wait 0` (the rings of a pipelined loop): the ops
  /// (nested ones included) from the alloc to that wait. The wait lands the
  /// copies still in flight and ends with a block barrier, so no thread
  /// still reads the buffer when the next op writes scratch; other buffers
  /// have no such barrier after their last use and keep their own bytes.
  static DenseMap<Operation *, DenseSet<Operation *>>
  getBufferLifetimes(ModuleOp module) {
    DenseMap<Operation *, DenseSet<Operation *>> lifetimes;
    module.walk([&](tle_struct::AllocOp alloc) {
      // In a warp_specialize partition, other partitions use the scratch
      // at the same time.
      if (alloc->getParentOfType<tle_struct::WarpSpecializeOp>())
        return;
      Block *block = alloc->getBlock();
      Operation *last = alloc;
      for (Operation *user : alloc->getUsers()) {
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        if (!ancestor)
          return; // used elsewhere: never shares memory
        if (last->isBeforeInBlock(ancestor))
          last = ancestor;
      }
      Operation *end = nullptr;
      for (Operation *op = last->getNextNode(); op && !end;
           op = op->getNextNode())
        if (auto wait = dyn_cast<tle_struct::AsyncWaitOp>(op);
            wait && wait.getPending() == 0)
          end = op;
      if (!end)
        return;
      last = end;
      DenseSet<Operation *> &ops = lifetimes[alloc];
      for (Operation *op = alloc; op; op = op->getNextNode()) {
        op->walk([&](Operation *nested) { ops.insert(nested); });
        if (op == last)
          break;
      }
    });
    return lifetimes;
  }

  /// The local buffers that share the scratch's bytes: the rings whose
  /// lifetime (see getBufferLifetimes) no scratch user falls in -- the
  /// epilogue's conversions come after the loop.
  static llvm::StringSet<> getScratchSharers(
      const DistributeState &st,
      const DenseMap<Operation *, DenseSet<Operation *>> &lifetimes) {
    llvm::StringSet<> sharers;
    if (st.scratchUserUnknown)
      return sharers;
    for (const DistributeState::BlockGlobal &global : st.blockGlobals) {
      auto it = lifetimes.find(global.origin);
      if (it != lifetimes.end() &&
          llvm::none_of(st.scratchUsers, [&](Operation *user) {
            return it->second.contains(user);
          }))
        sharers.insert(global.name);
    }
    return sharers;
  }

  /// All block-level memory becomes one external `[0 x i8]` array, sized at
  /// launch (the SDK's contract for `tle.shared_memory`): the scratch at its
  /// start, then each local buffer, whose global is replaced by an offset
  /// into the array. Each buffer of a row or more starts on a row of the
  /// memory's banks: a softmax ring 32 bytes past one (behind the scratch)
  /// split every 128-byte line its row copies write, and the 4096x1024
  /// softmax ran 4% slower on an H100 (bench/RESULTS-h200.md, session 30).
  /// `scratchSharers` share the scratch's bytes instead,
  /// and each other's where their lifetimes do not meet (the rings of two
  /// pipelined loops one after the other, as in causal attention). One
  /// array lets a backend give a kernel more than its static limit (48 KiB
  /// on NVIDIA).
  LogicalResult placeBlockMemory(
      ModuleOp module, DistributeState &st,
      const llvm::StringSet<> &scratchSharers,
      const DenseMap<Operation *, DenseSet<Operation *>> &lifetimes) {
    for (auto &[index, scratch] : st.partitionScratch)
      if (scratch.bytes > 0)
        st.blockGlobals.push_back({getPartitionScratchSymbol(index),
                                   scratch.bytes, scratch.alignment});
    llvm::StringMap<uint64_t> offsets;
    uint64_t shared = 0;
    // First fit among the sharers already placed whose lifetimes meet this
    // one's.
    struct Placed {
      uint64_t begin, end;
      const DenseSet<Operation *> *lifetime;
    };
    SmallVector<Placed> placed;
    for (auto &global : st.blockGlobals) {
      if (!scratchSharers.contains(global.name))
        continue;
      const DenseSet<Operation *> &lifetime =
          lifetimes.find(global.origin)->second;
      SmallVector<std::pair<uint64_t, uint64_t>> busy;
      for (const Placed &other : placed)
        if (llvm::any_of(lifetime, [&](Operation *op) {
              return other.lifetime->contains(op);
            }))
          busy.push_back({other.begin, other.end});
      llvm::sort(busy);
      uint64_t size = llvm::alignTo(global.bytes, 16);
      uint64_t alignment = bufferAlignment(global);
      uint64_t offset = 0;
      for (auto [begin, end] : busy) {
        offset = llvm::alignTo(offset, alignment);
        if (offset + size <= begin)
          break;
        offset = std::max(offset, end);
      }
      offset = llvm::alignTo(offset, alignment);
      offsets[global.name] = offset;
      placed.push_back({offset, offset + size, &lifetime});
      shared = std::max(shared, offset + size);
    }
    uint64_t total = llvm::alignTo(std::max(st.scratchBytes, shared), 16);
    for (auto &global : st.blockGlobals) {
      if (offsets.count(global.name))
        continue;
      total = llvm::alignTo(total, bufferAlignment(global));
      offsets[global.name] = total;
      total += llvm::alignTo(global.bytes, 16);
    }
    auto bytes = IntegerAttr::get(IntegerType::get(module.getContext(), 64),
                                  int64_t(total));
    module->setAttr("tle.shared_memory", bytes);
    module.walk([&](LLVM::LLVMFuncOp func) {
      if (func->hasAttr("tle.kernel"))
        func->setAttr("tle.shared_memory", bytes);
    });
    if (total == 0)
      return success();
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    LLVM::GlobalOp::create(
        builder, module.getLoc(),
        LLVM::LLVMArrayType::get(builder.getI8Type(), 0),
        /*isConstant=*/false, LLVM::Linkage::External, kScratchSymbol,
        /*value=*/Attribute(), /*alignment=*/kBlockMemoryAlignment,
        st.scratchAddressSpace);
    SmallVector<LLVM::AddressOfOp> uses;
    module.walk([&](LLVM::AddressOfOp op) {
      if (offsets.count(op.getGlobalName()))
        uses.push_back(op);
    });
    for (LLVM::AddressOfOp op : uses) {
      builder.setInsertionPoint(op);
      Value base = LLVM::AddressOfOp::create(builder, op.getLoc(), op.getType(),
                                             kScratchSymbol);
      Value at = LLVM::GEPOp::create(
          builder, op.getLoc(), op.getType(), builder.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{int32_t(offsets[op.getGlobalName()])});
      op.replaceAllUsesWith(at);
      op.erase();
    }
    for (auto &blockGlobal : st.blockGlobals)
      if (auto global = module.lookupSymbol<LLVM::GlobalOp>(blockGlobal.name))
        global.erase();
    return success();
  }

  /// A buffer of a row or more starts on a row (the next power of two, at
  /// most the array's own alignment); smaller ones (mbarriers) keep theirs.
  uint64_t bufferAlignment(const DistributeState::BlockGlobal &global) const {
    if (!blockMemoryRowBytes || global.bytes < blockMemoryRowBytes)
      return global.alignment;
    uint64_t row = std::min<uint64_t>(llvm::PowerOf2Ceil(blockMemoryRowBytes),
                                      kBlockMemoryAlignment);
    return std::max<uint64_t>(global.alignment, row);
  }

  const TargetInfo &target;
  std::function<void(DialectRegistry &)> targetDialects;
  std::vector<::tle::conversion::MatrixUnit> matrixUnits;
  ::tle::conversion::LayoutConversionCounts *conversionCounts = nullptr;
};

} // namespace

namespace tle::conversion {
std::unique_ptr<Pass> createDistributePass(const TargetInfo &Target,
                                           const DistributeOptions &Options) {
  return std::make_unique<DistributePass>(Target, Options);
}
} // namespace tle::conversion
