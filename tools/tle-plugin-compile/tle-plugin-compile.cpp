//===- tle-plugin-compile.cpp - Run a plugin's compile() on a file --------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tle-plugin-compile FILE.mlir --target CHIP [--emit=binary|asm|info] [-o F]
//
// Hands an IR file (distributed IR or tile IR, whichever the plugin serving
// CHIP takes) straight to that plugin's compile(), without the front end or
// the core's passes. It is how backends are tested on hand-written IR, and how
// a plugin author checks the output of one stage in isolation.
//
//===----------------------------------------------------------------------===//

#include "core/plugins/Targets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {
enum class EmitKind { Binary, Assembly, Info };

cl::OptionCategory Category("tle-plugin-compile options");
cl::opt<std::string> InputFilename(cl::Positional, cl::Required,
                                   cl::desc("<input .mlir>"),
                                   cl::cat(Category));
cl::opt<std::string> TargetName("target", cl::Required,
                                cl::desc("Hardware description name or path"),
                                cl::value_desc("chip"), cl::cat(Category));
cl::list<std::string> PluginDirs("plugin-dir",
                                 cl::desc("Look for backend plugins here "
                                          "first (repeatable)"),
                                 cl::value_desc("dir"), cl::cat(Category));
cl::opt<unsigned> NumWarps("num-warps",
                           cl::desc("Warps per block, unless the IR says"),
                           cl::init(4), cl::cat(Category));
cl::opt<unsigned> NumStages("num-stages", cl::desc("Software-pipelining depth"),
                            cl::init(3), cl::cat(Category));
cl::opt<EmitKind> Emit(
    "emit", cl::desc("What to write"), cl::init(EmitKind::Binary),
    cl::values(clEnumValN(EmitKind::Binary, "binary", "the binary (default)"),
               clEnumValN(EmitKind::Assembly, "asm",
                          "the assembly the binary was made from (PTX)"),
               clEnumValN(EmitKind::Info, "info",
                          "entry, format, launch size and resources")),
    cl::cat(Category));
cl::opt<std::string> OutputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("path"), cl::init("-"),
                                    cl::cat(Category));
} // namespace

static int fail(const Twine &Message) {
  WithColor::error(errs(), "tle-plugin-compile") << Message << "\n";
  return 1;
}

static void printInfo(const tle::backend::CompiledKernel &K, raw_ostream &OS) {
  OS << "entry: " << K.EntryName << "\n"
     << "format: " << K.Format << "\n"
     << "bytes: " << K.Binary.size() << "\n"
     << "threads-per-block: " << K.ThreadsPerBlock << "\n"
     << "shared-memory: " << K.SharedMemoryBytes << "\n";
  if (K.Resources)
    OS << "registers: " << K.Resources->Registers << "\n"
       << "spill-stores: " << K.Resources->SpillStoreBytes << "\n"
       << "spill-loads: " << K.Resources->SpillLoadBytes << "\n"
       << "stack-frame: " << K.Resources->StackFrameBytes << "\n"
       << "static-shared-memory: " << K.Resources->StaticSharedMemoryBytes
       << "\n";
  // What the plugin reports beyond the common fields, as it reports it.
  for (const tle::backend::KernelProperty &P : K.Properties)
    OS << "property " << P.Name << ": " << P.Value
       << (P.Unit.empty() ? "" : " ") << P.Unit << "\n";
  for (const tle::backend::KernelArgumentSlot &A : K.ArgumentLayout)
    OS << "argument: offset " << A.Offset << " size " << A.Size << " " << A.Kind
       << (A.Name.empty() ? "" : " ") << A.Name << "\n";
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Compile an IR file with one backend plugin\n");

  // Created before the MLIRContext so that the plugin libraries outlive it.
  tle::plugins::PluginHost Host;
  for (const std::string &Dir : PluginDirs)
    Host.addDirectory(Dir, /*MustExist=*/true);
  for (const std::string &Dir : tle::plugins::getDefaultPluginSearchPath())
    Host.addDirectory(Dir, /*MustExist=*/false);
  Expected<tle::plugins::Target> T =
      tle::plugins::resolveTarget(TargetName, Host);
  if (!T)
    return fail("target " + TargetName + ": " + toString(T.takeError()));

  mlir::DialectRegistry Registry;
  T->ThePlugin->getBackend()->registerDialects(Registry);
  mlir::MLIRContext Context(Registry);
  Context.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> Module =
      mlir::parseSourceFile<mlir::ModuleOp>(InputFilename, &Context);
  if (!Module)
    return 1;

  tle::backend::CompileOptions Options;
  Options.NumWarps = NumWarps;
  Options.NumStages = NumStages;
  Expected<tle::backend::CompiledKernel> Kernel =
      T->ThePlugin->compile(*Module, *T->Desc, Options);
  if (!Kernel)
    return fail("target " + TargetName + ": " + toString(Kernel.takeError()));

  std::error_code EC;
  ToolOutputFile Out(OutputFilename, EC, sys::fs::OF_None);
  if (EC)
    return fail("cannot open " + OutputFilename + ": " + EC.message());
  switch (Emit) {
  case EmitKind::Binary:
    Out.os() << Kernel->Binary;
    break;
  case EmitKind::Assembly:
    Out.os() << Kernel->Assembly;
    break;
  case EmitKind::Info:
    printInfo(*Kernel, Out.os());
    break;
  }
  Out.keep();
  return 0;
}
