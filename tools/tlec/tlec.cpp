//===- tlec.cpp - The TLE kernel compiler driver --------------------------===//
//
// tlec FILE.py --emit=ast [--kernel NAME]   dump the syntax tree of the jit
//                                           functions (all, or one)
// tlec FILE.py --list-kernels               list jit and TLE-Raw functions
//                                           with parameters and autotune
//                                           configs
// Several files may be given (e.g. a whole operator library through xargs);
// each is parsed on its own and the exit status is 1 if any has an error.
// Each --emit= stage is one function below; later stages (tile IR, ...)
// start from the same parsed Module.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/ASTDump.h"
#include "core/frontend/Parser.h"
#include "core/frontend/lower/Lowering.h"
#include "dialects/Registration.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace tle::frontend;

namespace {
enum class EmitKind { None, AST, TileIR };

cl::OptionCategory TlecCategory("tlec options");

cl::list<std::string> InputFilenames(cl::Positional, cl::desc("<kernel.py>..."),
                                     cl::OneOrMore, cl::cat(TlecCategory));

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

/// Lowers the selected kernel to tile IR and prints it.
static int emitTileIR(const Module &M, DiagnosticEngine &Diags) {
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
      return 1;
    }
    Spec.Defines.emplace_back(Name.trim().str(), Value.trim().str());
  }
  mlir::DialectRegistry Registry;
  mlir::tle::registerTLEDialects(Registry);
  mlir::MLIRContext Context(Registry);
  Context.loadAllAvailableDialects();
  // Tile IR carries source locations; print them so that later stages and
  // users can map ops back to kernel lines.
  mlir::OwningOpRef<mlir::ModuleOp> IR = lowerKernel(M, Spec, Context, Diags);
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

/// Parses one file and runs the requested stages on it; returns the exit
/// status for that file.
static int processFile(StringRef Filename, bool PrintHeader) {
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

  int Status = 0;
  for (const std::string &Filename : InputFilenames)
    Status |= processFile(Filename, InputFilenames.size() > 1);
  return Status;
}
