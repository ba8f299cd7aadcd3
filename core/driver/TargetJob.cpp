//===- TargetJob.cpp - Compile one kernel for one target ------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/TargetJob.h"
#include "core/driver/LaunchLimits.h"
#include "core/driver/Version.h"

#include "core/transforms/Passes.h"
#include "dialects/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace tle;
using namespace tle::driver;

std::string tle::driver::computeCacheKey(const KernelSource &Source,
                                         const plugins::Target &T,
                                         const JobOptions &Options) {
  CacheKey Key;
  Key.add("compiler", getCompilerVersion());
  Key.add("compiler-files", Options.CompilerStamp);
  Key.add("source", Source.Text);
  Key.add("kernel", Source.KernelName);
  for (const auto &[Name, Value] : Source.Spec.Defines)
    Key.add("define " + Name, Value);
  Key.add("signature", Source.Spec.Signature);
  Key.add("num-warps", Options.Compile.NumWarps);
  Key.add("num-stages", Options.Compile.NumStages);
  Key.add("opt-level", Options.Compile.OptLevel);
  Key.add("fp-fusion", Options.Compile.FPFusion);
  Options.Optimizations.forEach(
      [&](llvm::StringRef Name, bool Enabled) { Key.add(Name, Enabled); });
  // The resolved description (extends applied): an edit to a family file
  // changes every chip that extends it.
  for (const auto &[Path, Value] : T.Desc->flatten())
    Key.add("hwdesc " + Path, Value);
  Key.add("plugin", T.ThePlugin->getName());
  Key.add("plugin-version", T.ThePlugin->getVersion());
  Key.addFileStamp("plugin-file", T.ThePlugin->getPath());
  Key.add("toolchain", T.ThePlugin->getBackend()->getToolchainKey(*T.Desc));
  return Key.final();
}

namespace {
/// What one job runs its passes with: IR printing into the job's log and
/// timing under Phase, a scope that must outlive the pass manager's run.
struct Instrumentation {
  const JobOptions &Options;
  raw_ostream &Log;

  void operator()(mlir::PassManager &PM, mlir::TimingScope &Phase) const {
    if (!Options.PrintIRAfter.empty()) {
      std::string Name = Options.PrintIRAfter;
      PM.enableIRPrinting(
          [](mlir::Pass *, mlir::Operation *) { return false; },
          [Name](mlir::Pass *P, mlir::Operation *) {
            return P->getArgument() == Name;
          },
          /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
          /*printAfterOnlyOnFailure=*/false, Log);
    }
    if (Options.Timing)
      PM.enableTiming(Phase);
  }
};
} // namespace

static std::string print(mlir::ModuleOp Module) {
  std::string Text;
  raw_string_ostream OS(Text);
  Module.print(OS);
  return Text;
}

/// Turns a binary over the target's launch limits into the job's error (it
/// stays cached: the limits are the description's, not the binary's).
static void checkLaunchLimits(TargetJobResult &Result,
                              const hwdesc::HwDesc &Desc,
                              const JobOptions &Options) {
  if (!Options.CheckLaunchLimits)
    return;
  std::string Over = getLaunchLimitViolation(*Result.Kernel, Desc);
  if (Over.empty())
    return;
  Result.Error = "the compiled kernel cannot be launched on " + Desc.Name +
                 ": " + Over + " (--no-launch-limit-check keeps it)";
  Result.Kernel.reset();
}

TargetJobResult tle::driver::runTargetJob(const KernelSource &Source,
                                          const plugins::Target &T,
                                          const JobOptions &Options) {
  TargetJobResult Result;
  raw_string_ostream Log(Result.Log);
  mlir::TimingScope Scope;
  if (Options.Timing)
    Scope = Options.Timing->getRootScope().nest("target " + T.Desc->Name);

  std::string Key;
  // A binary from the cache runs no pass: a job that prints a pass's IR or
  // counts conversions compiles without it.
  bool UseCache = Options.Emit == EmitKind::Binary && Options.Cache &&
                  Options.PrintIRAfter.empty() && !Options.ConversionStats;
  if (UseCache) {
    Key = computeCacheKey(Source, T, Options);
    if (std::optional<backend::CompiledKernel> Hit =
            Options.Cache->lookup(Key)) {
      Result.Kernel = std::move(*Hit);
      Result.FromCache = true;
      checkLaunchLimits(Result, *T.Desc, Options);
      return Result;
    }
  }

  mlir::DialectRegistry Registry;
  mlir::tle::registerTLEDialects(Registry);
  // The parallelism is across targets; a thread pool per context would
  // oversubscribe the machine, and IR printing needs a single thread.
  mlir::MLIRContext Context(Registry, mlir::MLIRContext::Threading::DISABLED);
  Context.printOpOnDiagnostic(false);
  plugins::loadBackendDialects(Context, T);

  // Description checks report at the kernel's source lines, from this job's
  // own copy of the source (SourceMgr is not safe to share across threads).
  SourceMgr SrcMgr;
  SrcMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Source.Text, Source.FileName), SMLoc());
  mlir::SourceMgrDiagnosticHandler Handler(SrcMgr, &Context, Log);

  mlir::OwningOpRef<mlir::ModuleOp> Module;
  {
    mlir::TimingScope Parse = Scope.nest("parse tile IR");
    Module = mlir::parseSourceString<mlir::ModuleOp>(
        Source.TileIRBytecode, mlir::ParserConfig(&Context));
  }
  if (!Module) {
    Result.Error = "cannot read back the tile IR";
    return Result;
  }
  Instrumentation Instrument{Options, Log};
  {
    mlir::TimingScope Phase = Scope.nest("check against the description");
    mlir::PassManager PM(&Context);
    // TLE-Lite pipes become block-level buffers first, so that their
    // schedule errors show at the kernel line and their rings count against
    // the level's capacity.
    PM.addPass(mlir::tle::createTLELowerPipes());
    // A mesh the device cannot run is refused at its line here too.
    PM.addPass(mlir::tle::createTLELowerMesh());
    PM.addPass(mlir::tle::createCheckHwDescPass(*T.Desc));
    Instrument(PM, Phase);
    if (mlir::failed(PM.run(*Module))) {
      Result.Error = "the kernel does not fit " + T.Desc->Name;
      return Result;
    }
  }
  if (Options.Emit == EmitKind::TileIR) {
    Result.Text = print(*Module);
    return Result;
  }

  mlir::TimingScope Distribute = Scope.nest("distribute");
  if (Error E = plugins::lowerForTarget(
          *Module, T, Options.Compile,
          [&](mlir::PassManager &PM) { Instrument(PM, Distribute); },
          Options.Optimizations,
          Options.ConversionStats ? &Result.ConversionCounts : nullptr)) {
    Result.Error = toString(std::move(E));
    return Result;
  }
  Distribute.stop();
  if (Options.Emit == EmitKind::GpuIR) {
    Result.Text = print(*Module);
    return Result;
  }

  backend::CompileOptions Compile = Options.Compile;
  Compile.KeepLLVMIR = Options.Emit == EmitKind::LLVMIR;
  Compile.RaiseOccupancy = Options.Optimizations.Occupancy;
  Compile.HoldMmaResidency = Options.Optimizations.MmaResidency;
  Expected<backend::CompiledKernel> Kernel = [&] {
    mlir::TimingScope Backend =
        Scope.nest("backend " + T.ThePlugin->getName().str());
    return T.ThePlugin->compile(*Module, *T.Desc, Compile);
  }();
  if (!Kernel) {
    Result.Error = toString(Kernel.takeError());
    return Result;
  }
  switch (Options.Emit) {
  case EmitKind::LLVMIR:
  case EmitKind::Assembly: {
    std::string &Text = Options.Emit == EmitKind::LLVMIR ? Kernel->LLVMIR
                                                         : Kernel->Assembly;
    if (Text.empty())
      Result.Error = "plugin '" + T.ThePlugin->getName().str() + "' offers no " +
                     (Options.Emit == EmitKind::LLVMIR ? "LLVM IR"
                                                       : "assembly");
    Result.Text = std::move(Text);
    return Result;
  }
  default:
    break;
  }
  if (UseCache)
    if (Error E = Options.Cache->store(Key, *Kernel))
      Log << "tlec: warning: " << toString(std::move(E)) << "\n";
  Result.Kernel = std::move(*Kernel);
  checkLaunchLimits(Result, *T.Desc, Options);
  return Result;
}
