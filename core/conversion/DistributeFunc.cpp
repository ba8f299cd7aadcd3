//===- DistributeFunc.cpp - Functions, grid queries, barriers -------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;
using ::tle::backend::BarrierScope;
using ::tle::conversion::kSlotReleaseAttr;

namespace {

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
    // Tensor maps the launcher builds come by value after the kernel's own
    // arguments, then global memory for those the kernel writes
    // (DistributeTensorCopy.cpp).
    auto spec = st.launchTensorMapSpecs.find(func);
    ArrayAttr launched =
        spec == st.launchTensorMapSpecs.end() ? ArrayAttr() : spec->second;
    unsigned ownArgs = inputs.size();
    auto generic = LLVM::LLVMPointerType::get(rewriter.getContext());
    for (unsigned i = 0, e = launched ? launched.size() : 0; i < e; ++i) {
      sig.addInputs(generic);
      inputs.push_back(generic);
    }
    auto counted = st.tensorMapCount.find(func);
    unsigned tensorMaps = func.isPrivate() || counted == st.tensorMapCount.end()
                              ? 0
                              : counted->second;
    if (tensorMaps) {
      auto global = LLVM::LLVMPointerType::get(rewriter.getContext(), 1);
      sig.addInputs(global);
      inputs.push_back(global);
    }
    auto fnType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(rewriter.getContext()), inputs);
    auto newFunc = LLVM::LLVMFuncOp::create(rewriter, func.getLoc(),
                                            func.getName(), fnType);
    if (!func.isPrivate())
      newFunc->setAttr("tle.kernel", rewriter.getUnitAttr());
    if (tensorMaps)
      newFunc->setAttr(kGlobalScratchAttr, rewriter.getI64IntegerAttr(
                                               int64_t(tensorMaps) *
                                               st.target.getTensorMapBytes()));
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto div = func.getArgAttrOfType<IntegerAttr>(i, "tle.divisibility");
      if (div && isa<LLVM::LLVMPointerType>(inputs[i]) &&
          llvm::isPowerOf2_64(div.getInt()))
        newFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                           rewriter.getI64IntegerAttr(div.getInt()));
    }
    if (launched) {
      newFunc->setAttr(kLaunchTensorMapsAttr, launched);
      auto bytes = LLVM::LLVMArrayType::get(rewriter.getI8Type(),
                                            st.target.getTensorMapBytes());
      for (unsigned i = ownArgs; i < ownArgs + launched.size(); ++i) {
        newFunc.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                           TypeAttr::get(bytes));
        newFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                           rewriter.getI64IntegerAttr(
                               st.target.getLaunchTensorMapAlignment()));
        newFunc.setArgAttr(i, kLaunchTensorMapArgAttr, rewriter.getUnitAttr());
      }
    }
    rewriter.inlineRegionBefore(func.getBody(), newFunc.getBody(),
                                newFunc.end());
    FailureOr<Block *> entry = rewriter.convertRegionTypes(
        &newFunc.getBody(), *getTypeConverter(), &sig);
    if (failed(entry))
      return failure();
    if (tensorMaps)
      st.globalScratch[newFunc] = (*entry)->getArguments().back();
    if (launched)
      st.launchTensorMapArgs[newFunc] = llvm::to_vector_of<Value>(
          (*entry)->getArguments().slice(ownArgs, launched.size()));
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
    // Software pipelining's barrier before a slot's refill keeps its mark:
    // sinkScratchBarriers drops it where another barrier serves.
    auto emit = [&] {
      return st.target.emitBarrier(rewriter, op.getLoc(), BarrierScope::Block);
    };
    if (failed(op->hasAttr(kSlotReleaseAttr)
                   ? markEmitted(rewriter, kSlotReleaseAttr, emit)
                   : emit()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateFunctionPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<FuncOpConversion, ReturnOpConversion, GetProgramIdConversion,
               GetNumProgramsConversion, DebugBarrierConversion>(
      tc, patterns.getContext(), st);
}
