//===- tlec.cpp - The TLE kernel compiler driver --------------------------===//
//
// tlec FILE.py --emit=ast [--kernel NAME]   dump the syntax tree of the jit
//                                           functions (all, or one)
// tlec FILE.py --list-kernels               list jit and TLE-Raw functions
//                                           with parameters and autotune
//                                           configs
// tlec --list-targets [--plugin-dir DIR]    list backend plugins, the chips
//                                           they serve, rejected files
// tlec FILE.py... --target CHIP... -o OUT   compile each kernel for each chip
//                                           (in parallel, -j) into a bundle
//                                           directory (docs/bundle.md)
// tlec FILE.py --target CHIP --emit=STAGE   stop at tile-ir, gpu-ir, llvm or
//                                           asm and print that stage
// Several files may be given (e.g. a whole operator library through xargs);
// each is parsed on its own and the exit status is 1 if any has an error.
// The front end runs on the main thread; each (kernel, target) pair is a
// TargetJob with its own MLIRContext on a thread pool, and its messages are
// printed whole, in command-line order, once all jobs are done.
//
//===----------------------------------------------------------------------===//

#include "core/driver/Bundle.h"
#include "core/driver/Cache.h"
#include "core/driver/HeaderEmitter.h"
#include "core/driver/KernelMetadata.h"
#include "core/driver/KernelParams.h"
#include "core/driver/OutputFile.h"
#include "core/driver/TargetJob.h"
#include "core/driver/Version.h"
#include "core/frontend/ASTDump.h"
#include "core/frontend/ModuleLoader.h"
#include "core/frontend/Parser.h"
#include "core/frontend/lower/Lowering.h"
#include "core/plugins/Targets.h"
#include "core/tune/ConfigSpace.h"
#include "core/tune/Evaluation.h"
#include "core/tune/ResultsDB.h"
#include "dialects/Registration.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <csignal>

#include <set>

using namespace llvm;
using namespace tle::frontend;
using tle::driver::EmitKind;

namespace {
/// What tlec produces; the later stages need --target.
enum class Stage { None, AST, TileIR, GpuIR, LLVMIR, Asm, Bin };

cl::OptionCategory TlecCategory("tlec options");

cl::list<std::string> InputFilenames(cl::Positional, cl::desc("<kernel.py>..."),
                                     cl::ZeroOrMore, cl::cat(TlecCategory));

cl::opt<Stage> Emit(
    "emit", cl::desc("What to produce (default: bin with --target)"),
    cl::values(
        clEnumValN(Stage::AST, "ast", "the syntax tree of jit functions"),
        clEnumValN(Stage::TileIR, "tile-ir",
                   "verified tile IR of one kernel (tle, tle_struct, "
                   "tle_raw); with --target, after the description checks"),
        clEnumValN(Stage::GpuIR, "gpu-ir",
                   "the IR a target's backend receives (distributed IR)"),
        clEnumValN(Stage::LLVMIR, "llvm", "the backend's optimized LLVM IR"),
        clEnumValN(Stage::Asm, "asm",
                   "the backend's assembly (PTX, SPIR-V text, ...)"),
        clEnumValN(Stage::Bin, "bin", "binaries (a bundle with -o)")),
    cl::init(Stage::None), cl::cat(TlecCategory));

cl::opt<std::string> KernelName("kernel",
                                cl::desc("Only this jit function (default: "
                                         "all)"),
                                cl::value_desc("name"), cl::cat(TlecCategory));

cl::opt<bool> ListKernels("list-kernels",
                          cl::desc("List the jit and TLE-Raw functions, their "
                                   "parameters and autotune configs"),
                          cl::cat(TlecCategory));
cl::list<std::string> Defines("D", cl::Prefix,
                              cl::desc("Bind a constexpr parameter: "
                                       "-D BLOCK=1024, -D DTYPE=tl.float16"),
                              cl::value_desc("NAME=VALUE"),
                              cl::cat(TlecCategory));

cl::opt<std::string>
    Signature("signature",
              cl::desc("Types of the runtime parameters in order, Triton "
                       "style: '*fp32:16, *fp32:16, i32' (':16' = pointer "
                       "divisible by 16), 'tensordesc<fp16[64, 64]>' a host "
                       "tensor descriptor; entries may be named: 'n=i32'"),
              cl::value_desc("types"), cl::cat(TlecCategory));

cl::opt<unsigned> NumWarps("num-warps",
                           cl::desc("Warps per program (Triton's num_warps, "
                                    "default 4)"),
                           cl::init(4), cl::cat(TlecCategory));
cl::opt<unsigned> NumStages(
    "num-stages",
    cl::desc("Software-pipelining depth of loops (Triton's num_stages, "
             "default 3; a loop's own num_stages wins): dot operands are "
             "copied asynchronously this many - 1 iterations ahead where the "
             "target can (NVIDIA sm_80+); 1 switches it off"),
    cl::init(3), cl::cat(TlecCategory));
cl::opt<bool> ArgsFromSource(
    "args-from-source",
    cl::desc("Take --kernel, -D, --signature, --num-warps and --num-stages "
             "of each file from its '# tlec-args:' line"),
    cl::cat(TlecCategory));
cl::opt<std::string> TunedResults(
    "tuned",
    cl::desc("Take the tuned constexprs, --num-warps and --num-stages for "
             "--tuned-shape from a tle-tune results file (docs/tune.md); "
             "-D, --num-warps and --num-stages given here take precedence"),
    cl::value_desc("results file"), cl::cat(TlecCategory));
cl::opt<std::string> TunedShape(
    "tuned-shape",
    cl::desc("The problem shape whose tuned config --tuned takes "
             "(M=4096,N=4096,K=4096); the nearest tuned shape when it was "
             "not tuned itself"),
    cl::value_desc("NAME=N,..."), cl::cat(TlecCategory));
cl::opt<bool> NoFPFusion(
    "no-fp-fusion",
    cl::desc("Keep floating-point multiplies and adds separate (Triton's "
             "enable_fp_fusion=False); by default the GPU backends may fuse "
             "them into fma"),
    cl::cat(TlecCategory));
cl::opt<unsigned> OptLevel("O", cl::Prefix,
                           cl::desc("Optimization level of the backends' "
                                    "LLVM pipelines: -O0 .. -O3"),
                           cl::init(3), cl::cat(TlecCategory));

cl::opt<std::string>
    OutputFilename("o",
                   cl::desc("With --target: the bundle directory (one "
                            "subdirectory per kernel), or for --emit of a "
                            "text stage the output file (a directory when "
                            "there are several outputs)"),
                   cl::value_desc("path"), cl::cat(TlecCategory));

cl::list<std::string> PluginDirs("plugin-dir",
                                 cl::desc("Look for backend plugins here "
                                          "first (repeatable)"),
                                 cl::value_desc("dir"), cl::cat(TlecCategory));
cl::opt<bool> ListTargets("list-targets",
                          cl::desc("List backend plugins, the chips they "
                                   "serve and the files rejected"),
                          cl::cat(TlecCategory));
cl::list<std::string> Targets("target",
                              cl::desc("Compile for this chip: a hardware "
                                       "description name or path "
                                       "(repeatable)"),
                              cl::value_desc("chip"), cl::cat(TlecCategory));
cl::opt<bool> AllTargets("all-targets",
                         cl::desc("Compile for every description on the "
                                  "search path"),
                         cl::cat(TlecCategory));
cl::opt<std::string> OutputDir("out-dir",
                               cl::desc("Write one binary per chip into this "
                                        "directory, without a manifest"),
                               cl::value_desc("dir"), cl::cat(TlecCategory));
cl::opt<unsigned> Jobs("j",
                       cl::desc("Targets compiled at once (default: one per "
                                "core)"),
                       cl::Prefix, cl::init(0), cl::cat(TlecCategory));
cl::opt<bool> NoCache("no-cache", cl::desc("Neither read nor fill the "
                                           "compile cache"),
                      cl::cat(TlecCategory));
cl::opt<std::string>
    CacheDir("cache-dir",
             cl::desc("The compile cache (default: $TLE_CACHE_DIR, else "
                      "~/.cache/tle)"),
             cl::value_desc("dir"), cl::cat(TlecCategory));
cl::opt<bool> EmitHeader(
    "emit-header",
    cl::desc("Also write <kernel>.h and <kernel>.cpp into each kernel's "
             "bundle: a launcher embedding the binaries"),
    cl::cat(TlecCategory));
cl::opt<bool> KeepGoing("keep-going",
                        cl::desc("Write the bundle with the targets that "
                                 "compiled even if others failed (the exit "
                                 "status still says they failed)"),
                        cl::cat(TlecCategory));
cl::opt<bool> NoLaunchLimitCheck(
    "no-launch-limit-check",
    cl::desc("Keep binaries over the target's launch limits (threads, "
             "registers, block-level memory per block) instead of failing "
             "the target; the manifest still gives their numbers"),
    cl::cat(TlecCategory));
cl::opt<std::string> PrintIRAfter(
    "print-ir-after",
    cl::desc("Print each target's module after every run of this core pass "
             "(e.g. tle-distribute, tle-assign-layouts, canonicalize); "
             "compiles without the cache"),
    cl::value_desc("pass"), cl::cat(TlecCategory));
cl::opt<bool> ConversionStats(
    "conversion-stats",
    cl::desc("Print, per kernel and target, how many layout conversions "
             "layout assignment inserted, how many the optimizations "
             "removed, and how each one left is distributed (no code, register "
             "selects, lane shuffles, or block-level memory); compiles "
             "without the cache"),
    cl::cat(TlecCategory));
// cl::desc keeps a reference: the text must outlive the option.
const std::string DisableOptsHelp =
    std::string("Switch off one optimization of the lowering or the "
                "backend, to measure "
                "what it gives (repeatable): ") +
    tle::conversion::OptimizationToggles::Names;
cl::list<std::string> DisableOpts(
    "disable-opt", cl::desc(DisableOptsHelp),
    cl::value_desc("name"), cl::CommaSeparated, cl::cat(TlecCategory));
const std::string EnableOptsHelp =
    std::string("Switch on one optimization that is off by default, to "
                "measure it (repeatable; --disable-opt wins): ") +
    tle::conversion::OptimizationToggles::OffByDefaultNames;
cl::list<std::string> EnableOpts("enable-opt", cl::desc(EnableOptsHelp),
                                 cl::value_desc("name"), cl::CommaSeparated,
                                 cl::cat(TlecCategory));
} // namespace

/// The functions selected by Kernel (all when empty), or std::nullopt
/// after reporting that the kernel does not exist.
static std::optional<std::vector<const FunctionDef *>>
selectFunctions(const tle::frontend::Module &M, StringRef Kernel, StringRef Filename) {
  std::vector<const FunctionDef *> Selected;
  // Compile-time helpers (plain defs, @tl.constexpr) are not kernels.
  for (const FunctionDef *F : M.Functions)
    if (Kernel.empty() ? !F->IsCompileTime : F->Name == Kernel)
      Selected.push_back(F);
  if (!Kernel.empty() && Selected.empty()) {
    WithColor::error(errs(), "tlec") << "no jit function named '" << Kernel
                                     << "' in " << Filename << "\n";
    return std::nullopt;
  }
  return Selected;
}
static void listParams(ArrayRef<Param> Params, raw_ostream &OS) {
  for (const Param &P : Params) {
    OS << "  param ";
    if (P.Kind == Param::ParamKind::VarPositional)
      OS << '*';
    else if (P.Kind == Param::ParamKind::VarKeyword)
      OS << "**";
    OS << P.Name;
    if (P.Annotation)
      OS << ": " << getSourceText(P.Annotation->getRange());
    if (P.Default)
      OS << " = " << getSourceText(P.Default->getRange());
    OS << '\n';
  }
}

static void listKernels(const tle::frontend::Module &M, ArrayRef<const FunctionDef *> Fns,
                        const SourceMgr &SrcMgr, raw_ostream &OS) {
  for (const FunctionDef *F : Fns) {
    auto [Line, Col] = SrcMgr.getLineAndColumn(F->NameLoc);
    OS << (F->isJit() ? "jit " : "dialect ") << F->Name << " " << Line << ':'
       << Col << '\n';
    for (const Decorator &D : F->Decorators)
      if (D.Kind != DecoratorKind::Jit && D.Kind != DecoratorKind::Autotune)
        OS << "  decorator " << getSourceText(D.Value->getRange()) << '\n';
    listParams(F->Params, OS);
    if (const AutotuneInfo *A = F->Autotune) {
      OS << "  autotune key="
         << (A->Key ? getSourceText(A->Key->getRange()) : "") << '\n';
      if (A->Configs.empty() && A->ConfigsExpr)
        OS << "  configs " << getSourceText(A->ConfigsExpr->getRange()) << '\n';
      for (const AutotuneConfig &C : A->Configs) {
        OS << "  config";
        if (C.Kwargs)
          for (auto [K, V] : llvm::zip(C.Kwargs->Keys, C.Kwargs->Values))
            if (K)
              OS << ' ' << getSourceText(K->getRange()) << '='
                 << getSourceText(V->getRange());
        for (const Keyword &K : C.Options)
          OS << ' ' << K.Arg << '=' << getSourceText(K.Value->getRange());
        OS << '\n';
      }
    }
  }
  if (!KernelName.empty())
    return;
  for (const ModuleConstant &C : M.Constants)
    OS << "constant " << C.Name << " = " << getSourceText(C.Value->getRange())
       << '\n';
  for (const ImportAlias &I : M.Imports)
    OS << "import " << I.LocalName << " = " << I.Path << '\n';
}

static int emitAST(ArrayRef<const FunctionDef *> Fns, const SourceMgr &SrcMgr,
                   raw_ostream &OS) {
  for (const FunctionDef *F : Fns)
    dumpFunction(*F, SrcMgr, OS);
  return 0;
}


/// The specialization of a file's kernel: from the command line, or with
/// --args-from-source from the file's `# tlec-args:` line.
/// --tuned: the best config for --tuned-shape in a tle-tune results file
/// (the tuner's pick, else the exhaustive best; the nearest tuned shape when
/// this one was not tuned) fills the constexprs and options not given here.
static Error applyTunedConfig(tle::driver::Specialization &Spec,
                              StringRef Filename) {
  if (TunedShape.empty())
    return createStringError("--tuned needs --tuned-shape");
  Expected<tle::tune::ResultsDB> DB = tle::tune::ResultsDB::read(TunedResults);
  if (!DB)
    return DB.takeError();
  Expected<tle::tune::Shape> S = tle::tune::Shape::parseKey(TunedShape);
  if (!S)
    return S.takeError();
  // The device: the only one with results for this kernel.
  std::string Kernel = Spec.KernelName;
  std::set<std::string> Kernels, Devices;
  for (const tle::tune::Record &R : DB->records())
    if (R.isOk() && (Kernel.empty() || R.Kernel == Kernel)) {
      Kernels.insert(R.Kernel);
      Devices.insert(R.Device);
    }
  if (Kernels.size() != 1 || Devices.size() != 1)
    return createStringError(
        formatv("'{0}' has measured configs for {1} kernels on {2} devices; "
                "--tuned needs exactly one (name it with --kernel)",
                TunedResults, Kernels.size(), Devices.size())
            .str());
  std::optional<tle::tune::Pick> P = tle::tune::pickConfig(
      *DB, *Kernels.begin(), *Devices.begin(), *S, /*Nearest=*/true);
  if (!P)
    return createStringError(formatv("'{0}' has no measured config for {1}",
                                     TunedResults, *Kernels.begin())
                                 .str());
  Expected<tle::tune::Config> C = tle::tune::Config::parseKey(P->Best.Config);
  if (!C)
    return C.takeError();
  for (const auto &Param : C->Params)
    if (llvm::none_of(Spec.Defines,
                      [&](const auto &D) { return D.first == Param.first; }))
      Spec.Defines.emplace_back(Param.first, std::to_string(Param.second));
  if (!NumWarps.getNumOccurrences())
    Spec.NumWarps = static_cast<unsigned>(C->NumWarps);
  if (!NumStages.getNumOccurrences())
    Spec.NumStages = static_cast<unsigned>(C->NumStages);
  WithColor::note(errs(), "tlec")
      << Filename << ": tuned config for " << S->key() << " on "
      << *Devices.begin() << " (" << P->Best.Mode << ", "
      << (P->Exact ? "this shape" : "nearest tuned shape " + P->FromShape)
      << "): " << C->key() << "\n";
  return Error::success();
}

static Expected<tle::driver::Specialization>
getSpecialization(StringRef Source, StringRef Filename) {
  tle::driver::Specialization Spec;
  if (ArgsFromSource) {
    std::optional<std::string> Line = tle::driver::findSourceArgsLine(Source);
    if (!Line)
      return createStringError(Filename +
                               ": no '# tlec-args:' line (--args-from-source)");
    Expected<tle::driver::Specialization> Parsed =
        tle::driver::parseSourceArgs(*Line);
    if (!Parsed)
      return createStringError(Filename + ": '# tlec-args:' line: " +
                               toString(Parsed.takeError()));
    Spec = std::move(*Parsed);
  } else {
    Spec.KernelName = KernelName;
    Spec.Signature = Signature;
    Spec.NumWarps = NumWarps;
    Spec.NumStages = NumStages;
    for (StringRef D : Defines) {
      Expected<std::pair<std::string, std::string>> Define =
          tle::driver::parseDefine(D);
      if (!Define)
        return Define.takeError();
      Spec.Defines.push_back(std::move(*Define));
    }
  }
  if (!TunedResults.empty())
    if (Error E = applyTunedConfig(Spec, Filename))
      return std::move(E);
  Spec.OptLevel = OptLevel;
  return Spec;
}

/// The jit function Spec compiles: the one it names, or the file's only one.
static std::string getKernelName(const tle::frontend::Module &M,
                                 const tle::driver::Specialization &Spec) {
  if (!Spec.KernelName.empty())
    return Spec.KernelName;
  for (const FunctionDef *F : M.Functions)
    if (F->isKernel())
      return F->Name.str();
  return "";
}

static mlir::OwningOpRef<mlir::ModuleOp>
lowerToTileIR(const tle::frontend::Module &M,
              const tle::driver::Specialization &Spec, DiagnosticEngine &Diags,
              mlir::MLIRContext &Context, tle::frontend::ModuleLoader &Loader) {
  KernelSpec KS;
  KS.KernelName = Spec.KernelName;
  KS.Defines = Spec.Defines;
  KS.Signature = Spec.Signature;
  KS.NumWarps = Spec.NumWarps;
  KS.NumStages = Spec.NumStages;
  return lowerKernel(M, KS, Context, Diags, &Loader);
}

/// Writes Text to Path ("-" is stdout) through a temporary file, so that a
/// failed write leaves no partial file.
static bool writeTextOutput(StringRef Path, StringRef Text) {
  if (Error E = tle::driver::writeOutputFile(Path, Text)) {
    WithColor::error(errs(), "tlec") << toString(std::move(E)) << "\n";
    return false;
  }
  return true;
}

/// Parses one file and runs the target-independent stages on it; a kernel
/// to compile for targets is added to Kernels (with its parameters). Returns
/// the exit status for that file.
static int processFile(StringRef Filename, bool PrintHeader, bool ForTargets,
                       std::vector<tle::driver::KernelSource> &Kernels,
                       std::vector<std::vector<tle::driver::KernelParam>> &Params) {
  auto BufOrErr = MemoryBuffer::getFileOrSTDIN(Filename);
  if (std::error_code EC = BufOrErr.getError()) {
    WithColor::error(errs(), "tlec")
        << "cannot open '" << Filename << "': " << EC.message() << "\n";
    return 1;
  }
  std::string Text = (*BufOrErr)->getBuffer().str();
  SourceMgr SrcMgr;
  unsigned BufferID = SrcMgr.AddNewSourceBuffer(std::move(*BufOrErr), SMLoc());
  DiagnosticEngine Diags(SrcMgr);
  Diags.setOutputStream(&errs());
  std::unique_ptr<tle::frontend::Module> M = parseModule(SrcMgr, BufferID, Diags);
  if (Diags.hasErrors())
    return 1;

  Expected<tle::driver::Specialization> Spec =
      getSpecialization(Text, Filename);
  if (!Spec) {
    WithColor::error(errs(), "tlec") << toString(Spec.takeError()) << "\n";
    return 1;
  }
  auto Fns = selectFunctions(*M, Spec->KernelName, Filename);
  if (!Fns)
    return 1;
  // Listings of several files need to say which file they come from;
  // compiled targets name the file in their own lines.
  if (PrintHeader && (ListKernels || Emit == Stage::AST))
    outs() << "file " << Filename << '\n';
  if (ListKernels)
    listKernels(*M, *Fns, SrcMgr, outs());
  if (Emit == Stage::AST)
    return emitAST(*Fns, SrcMgr, outs());
  if (Emit != Stage::TileIR && !ForTargets)
    return 0;

  mlir::DialectRegistry Registry;
  mlir::tle::registerTLEDialects(Registry);
  mlir::MLIRContext Context(Registry);
  Context.loadAllAvailableDialects();
  // Jit functions the file imports from other modules of its package.
  tle::frontend::ModuleLoader Loader(SrcMgr, Diags, Filename, *M);
  mlir::OwningOpRef<mlir::ModuleOp> IR =
      lowerToTileIR(*M, *Spec, Diags, Context, Loader);
  if (!IR)
    return 1;
  if (!ForTargets)
    return writeTextOutput(OutputFilename.empty() ? "-" : OutputFilename.getValue(),
                           [&] {
                             std::string S;
                             raw_string_ostream OS(S);
                             IR->print(OS);
                             return S;
                           }())
               ? 0
               : 1;

  tle::driver::KernelSource Source;
  Source.FileName = Filename.str();
  Source.Text = std::move(Text);
  Source.KernelName = getKernelName(*M, *Spec);
  Source.Spec = std::move(*Spec);
  raw_string_ostream BC(Source.TileIRBytecode);
  if (mlir::failed(mlir::writeBytecodeToFile(*IR, BC))) {
    WithColor::error(errs(), "tlec")
        << Filename << ": cannot write the tile IR as bytecode\n";
    return 1;
  }
  Expected<std::vector<tle::driver::KernelParam>> P =
      tle::driver::getKernelParams(*IR, Source.KernelName);
  if (!P) {
    WithColor::error(errs(), "tlec")
        << Filename << ": " << toString(P.takeError()) << "\n";
    return 1;
  }
  Kernels.push_back(std::move(Source));
  Params.push_back(std::move(*P));
  return 0;
}

/// The --target names, with --all-targets every description on the search
/// path; each name once.
static std::vector<std::string> getTargetNames() {
  std::vector<std::string> Names;
  StringSet<> Seen;
  for (const std::string &T : Targets)
    if (Seen.insert(T).second)
      Names.push_back(T);
  if (AllTargets)
    for (const tle::plugins::DescriptionFile &D : tle::plugins::findDescriptions(
             tle::hwdesc::getDefaultSearchPath()))
      if (Seen.insert(D.Name).second)
        Names.push_back(D.Name);
  return Names;
}

static EmitKind getEmitKind() {
  switch (Emit) {
  case Stage::TileIR:
    return EmitKind::TileIR;
  case Stage::GpuIR:
    return EmitKind::GpuIR;
  case Stage::LLVMIR:
    return EmitKind::LLVMIR;
  case Stage::Asm:
    return EmitKind::Assembly;
  default:
    return EmitKind::Binary;
  }
}

static StringRef getTextExtension(EmitKind Kind) {
  switch (Kind) {
  case EmitKind::TileIR:
    return "tile.mlir";
  case EmitKind::GpuIR:
    return "gpu.mlir";
  case EmitKind::LLVMIR:
    return "ll";
  default:
    return "s";
  }
}

/// One line of --conversion-stats.
static void
printConversionCounts(StringRef Kernel, StringRef Target,
                      const tle::conversion::LayoutConversionCounts &C) {
  errs() << "tlec: " << Kernel << " for " << Target
         << ": layout conversions: " << C.Assigned << " assigned, " << C.Removed
         << " removed, " << C.ReadFromRings << " read from pipeline rings; "
         << C.distributed() << " distributed: " << C.Free << " free, "
         << C.RegisterSelects << " by register selects, " << C.WarpExchanges
         << " by lane shuffles, " << C.ThroughBlockMemory
         << " through block-level memory\n";
}

/// Compiles every kernel for every target on a thread pool, then reports
/// and writes the results in command-line order.
static int compileAll(ArrayRef<tle::driver::KernelSource> Kernels,
                      ArrayRef<std::vector<tle::driver::KernelParam>> Params,
                      bool FrontEndFailed,
                      const tle::plugins::PluginHost &Host,
                      mlir::DefaultTimingManager &Timing) {
  int Status = FrontEndFailed ? 1 : 0;
  unsigned Failures = FrontEndFailed ? 1 : 0;
  std::vector<std::string> Names = getTargetNames();
  std::vector<std::optional<tle::plugins::Target>> Resolved;
  for (const std::string &Name : Names) {
    Expected<tle::plugins::Target> T = tle::plugins::resolveTarget(Name, Host);
    if (!T) {
      WithColor::error(errs(), "tlec")
          << "target " << Name << ": " << toString(T.takeError()) << "\n";
      Status = 1;
      ++Failures;
      Resolved.emplace_back();
      continue;
    }
    Resolved.push_back(std::move(*T));
  }

  tle::driver::JobOptions Options;
  Options.Emit = getEmitKind();
  Options.Compile.NumWarps = NumWarps;
  Options.Compile.NumStages = NumStages;
  Options.Compile.OptLevel = OptLevel;
  Options.Compile.FPFusion = !NoFPFusion;
  Options.CheckLaunchLimits = !NoLaunchLimitCheck;
  Options.PrintIRAfter = PrintIRAfter;
  Options.ConversionStats = ConversionStats;
  for (const std::string &Name : EnableOpts)
    (void)Options.Optimizations.enable(Name);
  for (const std::string &Name : DisableOpts)
    (void)Options.Optimizations.disable(Name);
  if (Timing.isEnabled())
    Options.Timing = &Timing;
  std::optional<tle::driver::CompileCache> Cache;
  // Jobs that print IR or count conversions pass the cache by themselves
  // (runTargetJob).
  if (!NoCache && Options.Emit == EmitKind::Binary) {
    Cache.emplace(CacheDir.empty()
                      ? tle::driver::CompileCache::getDefaultDirectory()
                      : CacheDir.getValue());
    Options.Cache = &*Cache;
    tle::driver::CacheKey Stamp;
    for (const std::string &File : tle::driver::getCompilerFiles())
      Stamp.addFileStamp(File, File);
    Options.CompilerStamp = Stamp.final();
  }

  // Each kernel's own warps and stages (they differ with
  // --args-from-source) travel in its job's options.
  std::vector<tle::driver::TargetJobResult> Results(Kernels.size() *
                                                    Names.size());
  {
    DefaultThreadPool Pool(hardware_concurrency(Jobs));
    for (size_t K = 0; K < Kernels.size(); ++K)
      for (size_t T = 0; T < Names.size(); ++T) {
        if (!Resolved[T])
          continue;
        tle::driver::JobOptions JobOpts = Options;
        JobOpts.Compile.NumWarps = Kernels[K].Spec.NumWarps;
        JobOpts.Compile.NumStages = Kernels[K].Spec.NumStages;
        Pool.async([&, K, T, JobOpts] {
          Results[K * Names.size() + T] =
              tle::driver::runTargetJob(Kernels[K], *Resolved[T], JobOpts);
        });
      }
    Pool.wait();
  }

  bool Bundle = Options.Emit == EmitKind::Binary && !OutputFilename.empty();
  std::vector<tle::driver::KernelBundle> Bundles;
  std::vector<std::pair<std::string, std::string>> TextOutputs;
  std::string WrittenLines;
  raw_string_ostream Written(WrittenLines);
  for (size_t K = 0; K < Kernels.size(); ++K) {
    const tle::driver::KernelSource &Src = Kernels[K];
    tle::driver::KernelBundle B;
    B.Kernel = Src.KernelName;
    B.SourceName = sys::path::filename(Src.FileName).str();
    B.SourceSHA256 = tle::driver::sha256Hex(Src.Text);
    B.Spec = Src.Spec;
    B.Params = Params[K];
    std::string Prefix =
        Kernels.size() > 1 ? Src.FileName + ": target " : "target ";
    for (size_t T = 0; T < Names.size(); ++T) {
      if (!Resolved[T])
        continue;
      tle::driver::TargetJobResult &R = Results[K * Names.size() + T];
      const tle::plugins::Target &Target = *Resolved[T];
      errs() << R.Log;
      // A job that failed after distribution began counted part of it.
      if (R.ConversionCounts && R.Error.empty())
        printConversionCounts(Src.KernelName, Names[T], *R.ConversionCounts);
      if (!R.Error.empty()) {
        WithColor::error(errs(), "tlec")
            << Prefix << Names[T] << ": " << R.Error << "\n";
        Status = 1;
        ++Failures;
        continue;
      }
      if (Options.Emit != EmitKind::Binary) {
        TextOutputs.emplace_back(
            tle::driver::sanitizeFileName(
                (Src.KernelName + "." + Target.Desc->Name + "." +
                 getTextExtension(Options.Emit))
                    .str()),
            std::move(R.Text));
        continue;
      }
      std::string File = tle::driver::getBinaryFileName(
          Src.KernelName, Target.Desc->Name, R.Kernel->Format);
      SmallString<256> Path(Bundle ? OutputFilename.getValue()
                                   : OutputDir.getValue());
      if (Bundle)
        sys::path::append(Path, tle::driver::sanitizeFileName(Src.KernelName));
      sys::path::append(Path, File);
      if (!Bundle) {
        if (std::error_code EC = sys::fs::create_directories(OutputDir)) {
          WithColor::error(errs(), "tlec")
              << "cannot create output directory '" << OutputDir
              << "': " << EC.message() << "\n";
          return 1;
        }
        if (!writeTextOutput(Path, R.Kernel->Binary)) {
          Status = 1;
          continue;
        }
      }
      // A bundle's lines wait until it is written: a run whose bundle is
      // not written must not name files that do not exist.
      (Bundle ? static_cast<raw_ostream &>(Written) : outs())
          << Prefix << Names[T] << ": " << Target.ThePlugin->getName()
          << " -> " << Path << " (" << R.Kernel->Binary.size() << " bytes"
          << (R.FromCache ? ", cached" : "") << ")\n";
      tle::driver::BundleTarget BT;
      BT.Target = Target.Desc->Name;
      BT.Arch = Target.Desc->Arch;
      BT.Backend = Target.Desc->Backend;
      BT.PluginName = Target.ThePlugin->getName().str();
      BT.PluginVersion = Target.ThePlugin->getVersion().str();
      // The launch's warps: warp_specialize partitions add to --num-warps.
      BT.NumWarps = Src.Spec.NumWarps;
      if (unsigned Warp = Target.Desc->getWarpSize();
          Warp && R.Kernel->ThreadsPerBlock)
        BT.NumWarps = R.Kernel->ThreadsPerBlock / Warp;
      BT.Kernel = std::move(*R.Kernel);
      B.Targets.push_back(std::move(BT));
    }
    Bundles.push_back(std::move(B));
  }

  if (Options.Emit != EmitKind::Binary) {
    if (TextOutputs.size() == 1 && !sys::fs::is_directory(OutputFilename))
      return writeTextOutput(OutputFilename.empty() ? "-" : OutputFilename.getValue(),
                             TextOutputs.front().second)
                 ? Status
                 : 1;
    for (const auto &[Name, Text] : TextOutputs) {
      SmallString<256> Path(OutputFilename);
      sys::path::append(Path, Name);
      if (!writeTextOutput(Path, Text))
        Status = 1;
    }
    return Status;
  }
  if (!Bundle)
    return Status;

  if (Failures && !KeepGoing) {
    WithColor::error(errs(), "tlec")
        << "nothing written to '" << OutputFilename << "': " << Failures
        << " failure" << (Failures == 1 ? "" : "s")
        << " (--keep-going writes what compiled)\n";
    return 1;
  }
  tle::driver::FileMap Files;
  std::vector<std::string> KernelNames;
  StringMap<std::string> Owners;
  for (const tle::driver::KernelBundle &B : Bundles) {
    if (B.Targets.empty())
      continue;
    auto [It, New] = Owners.try_emplace(
        tle::driver::sanitizeFileName(B.Kernel), B.SourceName);
    if (!New) {
      WithColor::error(errs(), "tlec")
          << "two kernels named '" << B.Kernel << "' (" << It->second
          << ", " << B.SourceName
          << "): a bundle directory holds one directory per kernel name\n";
      return 1;
    }
    KernelNames.push_back(B.Kernel);
    Files.merge(tle::driver::getBundleFiles(B));
    if (EmitHeader)
      if (Error E = tle::driver::emitLauncher(B, Files)) {
        WithColor::error(errs(), "tlec") << toString(std::move(E)) << "\n";
        return 1;
      }
  }
  if (Error E = tle::driver::writeOutputDirectory(OutputFilename, Files,
                                                  KernelNames)) {
    WithColor::error(errs(), "tlec") << toString(std::move(E)) << "\n";
    return 1;
  }
  outs() << WrittenLines;
  return Status;
}

/// Options that cannot go together, or a stage that needs what is missing;
/// one message each.
static std::optional<std::string> checkOptionConflicts(bool HaveTargets) {
  bool Text = Emit == Stage::GpuIR || Emit == Stage::LLVMIR ||
              Emit == Stage::Asm;
  if (Text && !HaveTargets)
    return std::string("--emit=gpu-ir, llvm and asm need --target");
  if (Emit == Stage::Bin && !HaveTargets)
    return std::string("--emit=bin needs --target");
  if (ArgsFromSource && (!KernelName.empty() || !Defines.empty() ||
                         !Signature.empty() || NumWarps.getNumOccurrences() ||
                         NumStages.getNumOccurrences()))
    return std::string(
        "--args-from-source takes --kernel, -D, --signature, --num-warps "
        "and --num-stages from each file; do not give them too");
  if (OptLevel > 3)
    return "-O" + std::to_string(OptLevel) + ": the levels are -O0 to -O3";
  bool BinaryOut = HaveTargets && (Emit == Stage::None || Emit == Stage::Bin);
  if (BinaryOut && !OutputFilename.empty() && !OutputDir.empty())
    return std::string("-o writes a bundle and --out-dir loose binaries; "
                       "give one of them");
  if (EmitHeader && !(BinaryOut && !OutputFilename.empty()))
    return std::string("--emit-header writes into a bundle: it needs "
                       "--target and -o OUT");
  if (KeepGoing && !(BinaryOut && !OutputFilename.empty()))
    return std::string("--keep-going applies to bundles (-o OUT)");
  if (!OutputDir.empty() && !BinaryOut)
    return std::string("--out-dir holds binaries; --emit=") +
           (Emit == Stage::AST ? "ast" : "tile-ir/gpu-ir/llvm/asm") +
           " writes to -o";
  if (NoCache && CacheDir.getNumOccurrences())
    return std::string("--no-cache and --cache-dir contradict each other");
  bool SeveralOutputs =
      InputFilenames.size() > 1 || Targets.size() > 1 || AllTargets;
  if ((Text || (HaveTargets && Emit == Stage::TileIR)) && SeveralOutputs &&
      (OutputFilename.empty() || !sys::fs::is_directory(OutputFilename)))
    return std::string("--emit of a text stage for several kernels or "
                       "targets writes one file each: -o must name an "
                       "existing directory");
  return std::nullopt;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // Past a file-size limit (RLIMIT_FSIZE) a write should fail like one on a
  // full disk, with a message and the output left as it was; LLVM's handler
  // for SIGXFSZ would instead end the process with a stack dump.
  std::signal(SIGXFSZ, SIG_IGN);
  cl::HideUnrelatedOptions(TlecCategory);
  cl::ParseCommandLineOptions(argc, argv, "TLE kernel compiler\n");

  if (InputFilenames.empty() && !ListTargets) {
    WithColor::error(errs(), "tlec") << "no input files\n";
    return 1;
  }
  for (const std::string &Name :
       llvm::concat<const std::string>(DisableOpts, EnableOpts))
    if (!tle::conversion::OptimizationToggles::isKnown(Name)) {
      WithColor::error(errs(), "tlec")
          << (llvm::is_contained(DisableOpts, Name) ? "--disable-opt"
                                                    : "--enable-opt")
          << ": unknown optimization '" << Name
          << "' (known: " << tle::conversion::OptimizationToggles::Names
          << ")\n";
      return 1;
    }
  bool HaveTargets = !Targets.empty() || AllTargets;
  if (std::optional<std::string> Conflict = checkOptionConflicts(HaveTargets)) {
    WithColor::error(errs(), "tlec") << *Conflict << "\n";
    return 1;
  }
  if (HaveTargets && Emit != Stage::AST && OutputFilename.empty() &&
      OutputDir.empty())
    OutputDir = ".";

  int Status = 0;
  // Created before any MLIRContext so that it (and the plugin libraries)
  // outlive every context a plugin's dialects were loaded into.
  tle::plugins::PluginHost Host;
  if (ListTargets || HaveTargets) {
    for (const std::string &Dir : PluginDirs)
      Host.addDirectory(Dir, /*MustExist=*/true);
    for (const std::string &Dir : tle::plugins::getDefaultPluginSearchPath())
      Host.addDirectory(Dir, /*MustExist=*/false);
  }
  if (ListTargets) {
    tle::plugins::printTargetList(
        Host,
        tle::plugins::findDescriptions(tle::hwdesc::getDefaultSearchPath()),
        outs());
    Status |= !Host.getRejected().empty();
  } else if (HaveTargets) {
    // A broken plugin file fails the run even when no target needs it, so
    // that it is noticed.
    for (const tle::plugins::RejectedPlugin &R : Host.getRejected()) {
      WithColor::error(errs(), "tlec") << R.Path << ": " << R.Reason << "\n";
      Status = 1;
    }
  }

  // --time-passes is LLVM's own option (it also times the backends' LLVM
  // code generation); the core's MLIR passes report under the same flag.
  mlir::DefaultTimingManager Timing;
  Timing.setEnabled(llvm::TimePassesIsEnabled);
  Timing.setDisplayMode(mlir::DefaultTimingManager::DisplayMode::Tree);

  bool ForTargets = HaveTargets && Emit != Stage::AST;
  std::vector<tle::driver::KernelSource> Kernels;
  std::vector<std::vector<tle::driver::KernelParam>> Params;
  bool FrontEndFailed = false;
  {
    mlir::TimingScope FrontEnd = Timing.getRootScope().nest("front end");
    for (const std::string &Filename : InputFilenames)
      FrontEndFailed |= processFile(Filename, InputFilenames.size() > 1,
                                    ForTargets, Kernels, Params) != 0;
  }
  Status |= FrontEndFailed;
  if (ForTargets)
    Status |= compileAll(Kernels, Params, FrontEndFailed, Host, Timing);
  return Status;
}
