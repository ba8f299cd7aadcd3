//===- Pipeline.cpp - Tile IR to distributed IR ---------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/Passes.h"
#include "core/hwdesc/HwDesc.h"
#include "core/transforms/Passes.h"
#include "tle/Backend/TargetInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace tle::conversion {
LogicalResult lowerToDistributedIR(ModuleOp Module,
                                   const backend::TargetInfo &Target,
                                   const hwdesc::HwDesc &Desc,
                                   const LoweringOptions &Options) {
  AssignLayoutsOptions Layouts;
  Layouts.NumWarps = Options.NumWarps;
  Layouts.WarpSize = Target.getWarpSize();
  if (Layouts.WarpSize == 0)
    Layouts.WarpSize = Desc.getWarpSize() > 0 ? Desc.getWarpSize() : 32;
  if (Desc.Compute.VectorWidth > 0)
    Layouts.VectorBytes = unsigned(Desc.Compute.VectorWidth);
  for (const hwdesc::MatrixInstruction &Instr :
       Desc.Compute.MatrixInstructions)
    if (std::optional<backend::MatrixFragments> Fragments =
            Target.getMatrixFragments(Instr))
      Layouts.MatrixUnits.push_back({Instr, *Fragments});
  Layouts.ConversionCounts = Options.ConversionCounts;
  DistributeOptions Dist;
  Dist.VectorBytes = Layouts.VectorBytes;
  for (const hwdesc::TleMapping &Mapping : Desc.getTleMapping())
    if (Mapping.Level == hwdesc::LevelKind::Block && Mapping.Memory)
      Dist.BlockMemoryRowBytes =
          unsigned(Mapping.Memory->Banks * Mapping.Memory->BankWidth);
  Dist.MatrixUnits = Layouts.MatrixUnits;
  Dist.RawLanguages = Desc.RawLanguages;
  Dist.WarpExchanges = Options.Optimizations.WarpExchanges;
  Dist.ScratchAlternation = Options.Optimizations.ScratchAlternation;
  Dist.ShuffledPartials = Options.Optimizations.ShuffledPartials;
  Dist.EarlyRefill = Options.Optimizations.EarlyRefill;
  Dist.LaunchTensorMaps = Options.Optimizations.LaunchTensorMaps;
  Dist.ConversionCounts = Options.ConversionCounts;

  PassManager PM(Module.getContext());
  // Native code the target takes, or the portable fallback in its place.
  mlir::tle::TLESelectRawVariantsOptions Raw;
  Raw.languages.assign(Desc.RawLanguages.begin(), Desc.RawLanguages.end());
  PM.addPass(mlir::tle::createTLESelectRawVariants(Raw));
  // Tile passes the distribution relies on: device functions inlined, facts
  // folded so that the axis analysis sees constants.
  PM.addPass(createInlinerPass());
  PM.addPass(createSymbolDCEPass());
  // TLE-Lite pipes become rings in block-level memory (tle_struct buffers,
  // loads, stores and barriers) before layouts are assigned.
  PM.addPass(mlir::tle::createTLELowerPipes());
  // Device meshes as this one device runs them (signals become atomics).
  PM.addPass(mlir::tle::createTLELowerMesh());
  // TLE-Struct parallel regions and buffer tiles become loops, loads and
  // stores.
  PM.addPass(mlir::tle::createTLELowerParallel());
  // Tensor descriptor tiles become masked pointer loads and stores, except
  // those that software pipelining may stage through tensor copies.
  bool StageLoads =
      Options.Optimizations.PipelineLoads && Target.supportsAsyncCopy(16);
  mlir::tle::TLELowerTensorDescriptorsOptions Descriptors;
  Descriptors.tensorCopies = StageLoads &&
                             Options.Optimizations.TensorCopies &&
                             Target.supportsTensorCopies();
  PM.addPass(mlir::tle::createTLELowerTensorDescriptors(Descriptors));
  PM.addPass(createCanonicalizerPass());
  PM.addPass(createCSEPass());
  if (Options.Optimizations.LoopInvariantCodeMotion)
    PM.addPass(createLoopInvariantCodeMotionPass());
  if (Options.Optimizations.LoopPointerBases)
    PM.addPass(createLoopPointerBasesPass());
  PM.addPass(createAssignLayoutsPass(Layouts));
  if (Options.Optimizations.RemoveLayoutConversions)
    PM.addPass(createRemoveLayoutConversionsPass(Options.ConversionCounts));
  PM.addPass(createCanonicalizerPass());
  // Conversions of loop-invariant tiles, made where the loop uses them, run
  // once before the loop.
  if (Options.Optimizations.LoopInvariantCodeMotion)
    PM.addPass(createLoopInvariantCodeMotionPass());
  // Only where copies run asynchronously: a synchronous copy waits for its
  // load where it is issued, so staging would only add block-memory traffic.
  if (StageLoads) {
    // A loop's rings and its body's scratch fit in what a block may opt in
    // to (softmax rows of 16384 fp32: three 64 KiB slots, as Triton's).
    PipelineLoadsOptions Pipelining;
    Pipelining.SharedMemoryLimit = Desc.Lim.SharedPerBlockOptin;
    Pipelining.OwnSlotWaits = Options.Optimizations.OwnSlotWaits;
    Pipelining.ScratchAlternation = Options.Optimizations.ScratchAlternation;
    Pipelining.ConversionCounts = Options.ConversionCounts;
    PM.addPass(createPipelineLoadsPass(Pipelining));
  }
  PM.addPass(createDistributePass(Target, Dist));
  // Distributed IR is large and flat (one op per element per register).
  // Top-down traversal seeds the worklist with every op and spends most of
  // its time comparing equivalent constants (matmul 64x64x32 for SPIR-V:
  // 13.9 s); bottom-up gives the same folding in 0.3 s.
  PM.addPass(createCanonicalizerPass(
      GreedyRewriteConfig().setUseTopDownTraversal(false)));
  PM.addPass(createCSEPass());
  // Scalar arith/math/scf left by distribution, to the LLVM dialect.
  PM.addPass(createSCFToControlFlowPass());
  PM.addPass(createArithToLLVMConversionPass());
  PM.addPass(createMathToLibraryPass());
  PM.addPass(createConvertMathToLLVMPass());
  // Math without an LLVM intrinsic (erf, cbrt, atan2, ...) becomes calls of
  // the C library's names (erff, erf, ...); each backend resolves them in
  // its own device library or says it has none.
  PM.addPass(createConvertMathToLibmPass());
  PM.addPass(createConvertFuncToLLVMPass());
  PM.addPass(createConvertIndexToLLVMPass());
  PM.addPass(createConvertControlFlowToLLVMPass());
  PM.addPass(createReconcileUnrealizedCastsPass());
  PM.addPass(createCSEPass());
  if (Options.InstrumentPassManager)
    Options.InstrumentPassManager(PM);
  return PM.run(Module);
}
} // namespace tle::conversion
