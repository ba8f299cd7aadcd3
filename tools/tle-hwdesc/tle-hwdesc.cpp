//===- tle-hwdesc.cpp - Work with hardware descriptions -------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The hardware architect's tool: check descriptions, see how TLE levels land
// on a chip, compare chips, start a new description, and describe the local
// GPU. Exit status: 0 success, 1 problems found (or differences, for diff),
// 2 usage errors.
//
//===----------------------------------------------------------------------===//

#include "Probe.h"

#include "core/hwdesc/HwDesc.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tle::hwdesc;

static const char *const Usage =
    "usage: tle-hwdesc COMMAND [ARGS] [-I DIR]...\n"
    "\n"
    "commands:\n"
    "  validate FILE...        check descriptions; reports every problem\n"
    "  show FILE|NAME          print the resolved description and where the\n"
    "                          TLE levels (device, cluster, block, warp,\n"
    "                          thread) land\n"
    "  diff A B                key-by-key differences of two resolved\n"
    "                          descriptions (exit 1 if they differ)\n"
    "  new --from FILE|NAME    print an annotated scaffold for a new chip\n"
    "  probe [-o FILE] [--device N]\n"
    "                          describe the local NVIDIA GPU from the CUDA\n"
    "                          driver\n"
    "  schema [--check FILE]   print the key reference (Markdown table), or\n"
    "                          check that FILE embeds the current one\n"
    "\n"
    "options:\n"
    "  -I DIR                  also look for descriptions named by `extends`\n"
    "                          or on the command line in DIR\n"
    "\n"
    "NAME is looked up in -I directories, $TLE_HWDESC_PATH and the installed\n"
    "descriptions, ignoring case (H200, h200, mi300x).\n";

static int usageError(const Twine &Message) {
  WithColor::error(errs(), "tle-hwdesc") << Message << "\n";
  errs() << Usage;
  return 2;
}

static void printDiags(ArrayRef<Diagnostic> Diags) {
  for (const Diagnostic &D : Diags)
    errs() << D.str() << "\n";
}

namespace {
struct Context {
  LoadOptions Opts;

  /// Loads a chip given by file or name; prints problems and returns null on
  /// failure.
  std::unique_ptr<HwDesc> load(StringRef Arg) {
    std::optional<std::string> File = findTarget(Arg, Opts.SearchPath);
    if (!File) {
      WithColor::error(errs(), "tle-hwdesc")
          << "no description file or target named '" << Arg << "'\n";
      return nullptr;
    }
    std::vector<Diagnostic> Diags;
    std::unique_ptr<HwDesc> D = loadFile(*File, Opts, Diags);
    printDiags(Diags);
    return D;
  }
};
} // namespace

static int runValidate(Context &Ctx, ArrayRef<std::string> Files) {
  if (Files.empty())
    return usageError("validate needs at least one FILE");
  // Family bases are valid on their own when their keys and types are.
  Ctx.Opts.AllowAbstract = true;
  unsigned Bad = 0;
  for (const std::string &F : Files) {
    std::vector<Diagnostic> Diags;
    loadFile(F, Ctx.Opts, Diags);
    printDiags(Diags);
    if (Diags.empty())
      outs() << F << ": ok\n";
    else
      ++Bad;
    // Keep "ok" lines and problems in order when both go to one terminal.
    outs().flush();
  }
  if (Bad)
    errs() << Bad << " of " << Files.size() << " description"
           << (Files.size() == 1 ? "" : "s") << " had problems\n";
  return Bad ? 1 : 0;
}

static int runShow(Context &Ctx, ArrayRef<std::string> Args) {
  if (Args.size() != 1)
    return usageError("show needs exactly one FILE or NAME");
  std::unique_ptr<HwDesc> D = Ctx.load(Args[0]);
  if (!D)
    return 1;
  outs() << "# " << D->Name << " resolved from " << D->SourceFile << "\n";
  D->printTree(outs());
  return 0;
}

static int runDiff(Context &Ctx, ArrayRef<std::string> Args) {
  if (Args.size() != 2)
    return usageError("diff needs two descriptions");
  std::unique_ptr<HwDesc> A = Ctx.load(Args[0]);
  std::unique_ptr<HwDesc> B = Ctx.load(Args[1]);
  if (!A || !B)
    return 2;
  auto FA = A->flatten(), FB = B->flatten();
  StringMap<std::string> InB;
  for (const auto &[K, V] : FB)
    InB[K] = V;
  StringMap<bool> InA;
  unsigned Changes = 0;
  outs() << "--- " << A->SourceFile << "\n+++ " << B->SourceFile << "\n";
  for (const auto &[K, V] : FA) {
    InA[K] = true;
    auto It = InB.find(K);
    if (It == InB.end()) {
      outs() << "- " << K << ": " << V << "\n";
      ++Changes;
    } else if (It->second != V) {
      outs() << "~ " << K << ": " << V << " -> " << It->second << "\n";
      ++Changes;
    }
  }
  for (const auto &[K, V] : FB)
    if (!InA.count(K)) {
      outs() << "+ " << K << ": " << V << "\n";
      ++Changes;
    }
  outs() << Changes << " difference" << (Changes == 1 ? "" : "s") << "\n";
  return Changes ? 1 : 0;
}

static int runNew(Context &Ctx, ArrayRef<std::string> Args) {
  if (Args.size() != 2 || Args[0] != "--from")
    return usageError("new needs --from FILE|NAME");
  std::unique_ptr<HwDesc> D = Ctx.load(Args[1]);
  if (!D)
    return 1;
  D->printScaffold(outs());
  return 0;
}

static int runProbe(ArrayRef<std::string> Args) {
  std::string OutFile = "-";
  int Device = 0;
  for (size_t I = 0; I < Args.size(); ++I) {
    if ((Args[I] == "-o" || Args[I] == "--device") && I + 1 == Args.size())
      return usageError("option " + Args[I] + " needs a value");
    if (Args[I] == "-o")
      OutFile = Args[++I];
    else if (Args[I] == "--device") {
      if (StringRef(Args[++I]).getAsInteger(10, Device))
        return usageError("--device needs a number");
    } else
      return usageError("unknown probe argument '" + Args[I] + "'");
  }
  std::string Text, Error;
  raw_string_ostream OS(Text);
  if (!probeCudaDevice(Device, OS, Error)) {
    WithColor::error(errs(), "tle-hwdesc") << "probe: " << Error << "\n";
    return 1;
  }
  std::error_code EC;
  ToolOutputFile Out(OutFile, EC, sys::fs::OF_Text);
  if (EC) {
    WithColor::error(errs(), "tle-hwdesc")
        << "cannot write '" << OutFile << "': " << EC.message() << "\n";
    return 1;
  }
  Out.os() << Text;
  Out.keep();
  return 0;
}

/// SCHEMA.md embeds the generated key table between two markers; --check
/// fails when someone changed the schema without regenerating the document
/// (or edited the table by hand).
static int runSchema(ArrayRef<std::string> Args) {
  std::string Table;
  raw_string_ostream TableOS(Table);
  printSchemaMarkdown(TableOS);
  if (Args.empty()) {
    outs() << Table;
    return 0;
  }
  if (Args.size() != 2 || Args[0] != "--check")
    return usageError("schema takes no arguments or --check FILE");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Doc = MemoryBuffer::getFile(Args[1]);
  if (!Doc) {
    WithColor::error(errs(), "tle-hwdesc")
        << "cannot read '" << Args[1] << "': " << Doc.getError().message()
        << "\n";
    return 1;
  }
  StringRef Text = (*Doc)->getBuffer();
  StringRef Begin = "<!-- BEGIN GENERATED KEY TABLE -->\n";
  StringRef End = "<!-- END GENERATED KEY TABLE -->";
  size_t B = Text.find(Begin), E = Text.find(End);
  if (B == StringRef::npos || E == StringRef::npos || E < B) {
    WithColor::error(errs(), "tle-hwdesc")
        << Args[1] << ": no generated key table between markers\n";
    return 1;
  }
  StringRef Embedded = Text.slice(B + Begin.size(), E);
  if (Embedded == Table) {
    outs() << Args[1] << ": key table matches the schema\n";
    return 0;
  }
  // Name the first differing row so the fix is obvious.
  SmallVector<StringRef> Want, Have;
  StringRef(Table).split(Want, '\n');
  Embedded.split(Have, '\n');
  size_t I = 0;
  while (I < Want.size() && I < Have.size() && Want[I] == Have[I])
    ++I;
  WithColor::error(errs(), "tle-hwdesc")
      << Args[1] << ": key table differs from the schema at row " << I + 1
      << "; regenerate it with `tle-hwdesc schema`\n"
      << "  schema:   " << (I < Want.size() ? Want[I] : "<end>") << "\n"
      << "  document: " << (I < Have.size() ? Have[I] : "<end>") << "\n";
  return 1;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  if (Argc < 2)
    return usageError("no command given");
  StringRef Cmd = Argv[1];
  if (Cmd == "-h" || Cmd == "--help" || Cmd == "help") {
    outs() << Usage;
    return 0;
  }
  Context Ctx;
  std::vector<std::string> Args;
  for (int I = 2; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "-I") {
      if (I + 1 == Argc)
        return usageError("-I needs a directory");
      Ctx.Opts.SearchPath.push_back(Argv[++I]);
    } else if (A.starts_with("-I")) {
      Ctx.Opts.SearchPath.push_back(A.drop_front(2).str());
    } else {
      Args.push_back(A.str());
    }
  }
  for (std::string &P : getDefaultSearchPath())
    Ctx.Opts.SearchPath.push_back(std::move(P));

  if (Cmd == "validate")
    return runValidate(Ctx, Args);
  if (Cmd == "show")
    return runShow(Ctx, Args);
  if (Cmd == "diff")
    return runDiff(Ctx, Args);
  if (Cmd == "new")
    return runNew(Ctx, Args);
  if (Cmd == "probe")
    return runProbe(Args);
  if (Cmd == "schema")
    return runSchema(Args);
  return usageError("unknown command '" + Cmd + "'");
}
