//===- tlec.cpp - The TLE kernel compiler driver --------------------------===//
//
// tlec FILE.py --emit=ast [--kernel NAME]   dump the syntax tree of the jit
//                                           functions (all, or one)
// tlec FILE.py --list-kernels               list jit and TLE-Raw functions
//                                           with parameters and autotune
//                                           configs
// tlec --list-targets [--plugin-dir DIR]    list backend plugins, the chips
//                                           they serve, rejected files
// tlec FILE.py --kernel K --target CHIP...  compile K for each chip through
//                                           the plugin serving it
// Several files may be given (e.g. a whole operator library through xargs);
// each is parsed on its own and the exit status is 1 if any has an error.
// Each --emit= stage is one function below; later stages (tile IR, ...)
// start from the same parsed Module.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/ASTDump.h"
#include "core/frontend/Parser.h"
#include "core/frontend/lower/Lowering.h"
#include "core/transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "core/plugins/Targets.h"
#include "dialects/Registration.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace tle::frontend;

namespace {
enum class EmitKind { None, AST, TileIR };

cl::OptionCategory TlecCategory("tlec options");

cl::list<std::string> InputFilenames(cl::Positional, cl::desc("<kernel.py>..."),
                                     cl::ZeroOrMore, cl::cat(TlecCategory));

cl::opt<EmitKind> Emit("emit", cl::desc("What to produce"),
                       cl::values(clEnumValN(EmitKind::AST, "ast",
                                             "the syntax tree of jit "
                                             "functions"),
                                  clEnumValN(EmitKind::TileIR, "tile-ir",
                                             "verified tile IR of one kernel "
                                             "(tle, tle_struct, tle_raw)")),
                       cl::init(EmitKind::None), cl::cat(TlecCategory));

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
                       "divisible by 16); entries may be named: 'n=i32'"),
              cl::value_desc("types"), cl::cat(TlecCategory));

cl::opt<unsigned> NumWarps("num-warps", cl::desc("Warps per program"),
                           cl::init(4), cl::cat(TlecCategory));
cl::opt<unsigned> NumStages("num-stages",
                            cl::desc("Software-pipelining depth of loops"),
                            cl::init(3), cl::cat(TlecCategory));

cl::opt<std::string> OutputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("path"), cl::init("-"),
                                    cl::cat(TlecCategory));

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
cl::opt<std::string> OutputDir("out-dir",
                               cl::desc("Where --target writes one binary "
                                        "per chip"),
                               cl::value_desc("dir"), cl::init("."),
                               cl::cat(TlecCategory));
} // namespace

/// The functions selected by --kernel, or null after reporting that the
/// kernel does not exist.
static std::optional<std::vector<const FunctionDef *>>
selectFunctions(const Module &M, StringRef Filename) {
  std::vector<const FunctionDef *> Selected;
  for (const FunctionDef *F : M.Functions)
    if (KernelName.empty() || F->Name == KernelName)
      Selected.push_back(F);
  if (!KernelName.empty() && Selected.empty()) {
    WithColor::error(errs(), "tlec") << "no jit function named '" << KernelName
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

static void listKernels(const Module &M, ArrayRef<const FunctionDef *> Fns,
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

/// Lowers the kernel selected by --kernel, -D and --signature to tile IR;
/// null after reporting why not.
static mlir::OwningOpRef<mlir::ModuleOp>
lowerSelectedKernel(const Module &M, DiagnosticEngine &Diags,
                    mlir::MLIRContext &Context) {
  KernelSpec Spec;
  Spec.KernelName = KernelName;
  Spec.Signature = Signature;
  Spec.NumWarps = NumWarps;
  Spec.NumStages = NumStages;
  for (StringRef D : Defines) {
    auto [Name, Value] = D.split('=');
    if (Name.empty() || Value.empty() || !D.contains('=')) {
      WithColor::error(errs(), "tlec")
          << "-D" << D << ": expected -D NAME=VALUE\n";
      return nullptr;
    }
    Spec.Defines.emplace_back(Name.trim().str(), Value.trim().str());
  }
  return lowerKernel(M, Spec, Context, Diags);
}

/// Lowers the selected kernel to tile IR and prints it.
static int emitTileIR(const Module &M, DiagnosticEngine &Diags) {
  mlir::DialectRegistry Registry;
  mlir::tle::registerTLEDialects(Registry);
  mlir::MLIRContext Context(Registry);
  Context.loadAllAvailableDialects();
  // Tile IR carries source locations; print them so that later stages and
  // users can map ops back to kernel lines.
  mlir::OwningOpRef<mlir::ModuleOp> IR =
      lowerSelectedKernel(M, Diags, Context);
  if (!IR)
    return 1;
  std::string Error;
  auto Out = mlir::openOutputFile(OutputFilename, &Error);
  if (!Out) {
    WithColor::error(errs(), "tlec") << Error << "\n";
    return 1;
  }
  IR->print(Out->os());
  Out->keep();
  return 0;
}

/// Checks the kernel against a target's description (memory and parallel
/// levels, buffer capacity, raw languages); problems are reported at the
/// kernel's source lines.
static mlir::LogicalResult checkForTarget(mlir::ModuleOp IR,
                                          const tle::hwdesc::HwDesc &Desc,
                                          SourceMgr &SrcMgr) {
  mlir::SourceMgrDiagnosticHandler Handler(SrcMgr, IR.getContext());
  // The source line is the context users need, not the op's generic form.
  IR.getContext()->printOpOnDiagnostic(false);
  mlir::PassManager PM(IR.getContext());
  PM.addPass(mlir::tle::createCheckHwDescPass(Desc));
  return PM.run(IR);
}

/// Compiles the selected kernel for every --target. A target that fails is
/// reported in one line and the others still compile.
static int compileTargets(const Module &M, DiagnosticEngine &Diags,
                          const tle::plugins::PluginHost &Host) {
  mlir::DialectRegistry Registry;
  mlir::tle::registerTLEDialects(Registry);
  mlir::MLIRContext Context(Registry);
  Context.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> IR =
      lowerSelectedKernel(M, Diags, Context);
  if (!IR)
    return 1;
  if (std::error_code EC = sys::fs::create_directories(OutputDir)) {
    WithColor::error(errs(), "tlec") << "cannot create output directory '"
                                     << OutputDir << "': " << EC.message()
                                     << "\n";
    return 1;
  }
  tle::backend::CompileOptions Options;
  Options.NumWarps = NumWarps;
  Options.NumStages = NumStages;
  int Status = 0;
  for (const std::string &Name : Targets) {
    auto Fail = [&](Error E) {
      WithColor::error(errs(), "tlec")
          << "target " << Name << ": " << toString(std::move(E)) << "\n";
      Status = 1;
    };
    Expected<tle::plugins::Target> T = tle::plugins::resolveTarget(Name, Host);
    if (!T) {
      Fail(T.takeError());
      continue;
    }
    if (mlir::failed(checkForTarget(*IR, *T->Desc, Diags.getSourceMgr()))) {
      Status = 1;
      continue;
    }
    auto Kernel = tle::plugins::compileForTarget(*IR, *T, Options);
    if (!Kernel) {
      Fail(Kernel.takeError());
      continue;
    }
    SmallString<256> Path(OutputDir);
    sys::path::append(Path, (Kernel->EntryName.empty() ? KernelName.getValue()
                                                       : Kernel->EntryName) +
                                "." + T->Desc->Name + "." + Kernel->Format);
    std::error_code EC;
    raw_fd_ostream Out(Path, EC);
    if (!EC) {
      Out << Kernel->Binary;
      Out.close();
      EC = Out.error();
    }
    if (EC) {
      Fail(createFileError(Path, EC));
      continue;
    }
    outs() << "target " << Name << ": " << T->ThePlugin->getName() << " -> "
           << Path << " (" << Kernel->Binary.size() << " bytes)\n";
  }
  return Status;
}

/// Parses one file and runs the requested stages on it; returns the exit
/// status for that file.
static int processFile(StringRef Filename, bool PrintHeader,
                       const tle::plugins::PluginHost &Host) {
  auto BufOrErr = MemoryBuffer::getFileOrSTDIN(Filename);
  if (std::error_code EC = BufOrErr.getError()) {
    WithColor::error(errs(), "tlec")
        << "cannot open '" << Filename << "': " << EC.message() << "\n";
    return 1;
  }
  SourceMgr SrcMgr;
  unsigned BufferID = SrcMgr.AddNewSourceBuffer(std::move(*BufOrErr), SMLoc());
  DiagnosticEngine Diags(SrcMgr);
  Diags.setOutputStream(&errs());
  std::unique_ptr<Module> M = parseModule(SrcMgr, BufferID, Diags);
  if (Diags.hasErrors())
    return 1;

  auto Fns = selectFunctions(*M, Filename);
  if (!Fns)
    return 1;
  if (PrintHeader)
    outs() << "file " << Filename << '\n';
  if (ListKernels)
    listKernels(*M, *Fns, SrcMgr, outs());
  if (!Targets.empty())
    return compileTargets(*M, Diags, Host);
  switch (Emit) {
  case EmitKind::None:
    return 0;
  case EmitKind::AST:
    return emitAST(*Fns, SrcMgr, outs());
  case EmitKind::TileIR:
    return emitTileIR(*M, Diags);
  }
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(TlecCategory);
  cl::ParseCommandLineOptions(argc, argv, "TLE kernel compiler\n");

  if (InputFilenames.empty() && !ListTargets) {
    WithColor::error(errs(), "tlec") << "no input files\n";
    return 1;
  }

  int Status = 0;
  // Created before any MLIRContext so that it (and the plugin libraries)
  // outlive every context a plugin's dialects were loaded into.
  tle::plugins::PluginHost Host;
  if (ListTargets || !Targets.empty()) {
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
  } else if (!Targets.empty()) {
    // A broken plugin file fails the run even when no target needs it, so
    // that it is noticed.
    for (const tle::plugins::RejectedPlugin &R : Host.getRejected()) {
      WithColor::error(errs(), "tlec") << R.Path << ": " << R.Reason << "\n";
      Status = 1;
    }
  }
  for (const std::string &Filename : InputFilenames)
    Status |= processFile(Filename, InputFilenames.size() > 1, Host);
  return Status;
}
