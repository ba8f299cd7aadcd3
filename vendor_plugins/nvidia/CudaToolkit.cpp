//===- CudaToolkit.cpp - ptxas and libdevice from a CUDA toolkit ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tle;
using namespace tle::nvidia;

static Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "nvidia plugin: " + Message);
}

/// ptxas and libdevice of the toolkit installed at Root, where they exist.
static CudaToolkit lookInRoot(StringRef Root) {
  CudaToolkit Kit;
  SmallString<256> Path(Root);
  sys::path::append(Path, "bin", "ptxas");
  if (sys::fs::can_execute(Path))
    Kit.Ptxas = std::string(Path);
  Path = Root;
  sys::path::append(Path, "nvvm", "libdevice", "libdevice.10.bc");
  if (sys::fs::exists(Path))
    Kit.LibDevice = std::string(Path);
  return Kit;
}

CudaToolkit tle::nvidia::findCudaToolkit() {
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> Root = sys::Process::GetEnv(Var))
      if (!Root->empty())
        return lookInRoot(*Root);
  CudaToolkit Kit = lookInRoot("/usr/local/cuda");
  if (!Kit.Ptxas.empty())
    return Kit;
  if (ErrorOr<std::string> Ptxas = sys::findProgramByName("ptxas")) {
    // <root>/bin/ptxas: libdevice is under the same root.
    SmallString<256> Root(*Ptxas);
    sys::path::remove_filename(Root);
    sys::path::remove_filename(Root);
    Kit = lookInRoot(Root);
    Kit.Ptxas = *Ptxas;
  }
  return Kit;
}

/// The number before Suffix in Line (e.g. "12" of "12 bytes spill stores").
static uint64_t numberBefore(StringRef Line, StringRef Suffix) {
  size_t Pos = Line.find(Suffix);
  if (Pos == StringRef::npos)
    return 0;
  StringRef Digits = Line.take_front(Pos).rtrim();
  Digits = Digits.drop_front(Digits.find_last_not_of("0123456789") + 1);
  uint64_t N = 0;
  Digits.getAsInteger(10, N);
  return N;
}

backend::ResourceUsage tle::nvidia::parsePtxasInfo(StringRef Log,
                                                   StringRef Entry) {
  // ptxas -v reports, per function:
  //   ptxas info    : Compiling entry function 'add' for 'sm_90a'
  //   ptxas info    : Function properties for add
  //       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  //   ptxas info    : Used 8 registers, used 0 barriers, 1024 bytes smem, ...
  // Lines are attributed to the function named last.
  backend::ResourceUsage Usage;
  bool InEntry = false;
  SmallVector<StringRef> Lines;
  Log.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (Line.consume_front("ptxas info    : Compiling entry function '") ||
        Line.consume_front("ptxas info    : Compiling function '")) {
      InEntry = Line.starts_with((Entry + "'").str());
      continue;
    }
    if (Line.consume_front("ptxas info    : Function properties for ")) {
      InEntry = Line == Entry;
      continue;
    }
    if (!InEntry)
      continue;
    if (Line.contains("bytes stack frame")) {
      Usage.StackFrameBytes = numberBefore(Line, " bytes stack frame");
      Usage.SpillStoreBytes = numberBefore(Line, " bytes spill stores");
      Usage.SpillLoadBytes = numberBefore(Line, " bytes spill loads");
    } else if (Line.contains(" registers")) {
      Usage.Registers = numberBefore(Line, " registers");
      Usage.StaticSharedMemoryBytes = numberBefore(Line, " bytes smem");
    }
  }
  return Usage;
}

Expected<std::string> tle::nvidia::runPtxas(StringRef Ptxas, StringRef Ptx,
                                            StringRef Arch, StringRef Entry,
                                            backend::ResourceUsage &Usage,
                                            std::string *PtxasLog) {
  SmallString<128> PtxPath, CubinPath, LogPath;
  for (auto [Path, Ext] :
       {std::pair{&PtxPath, "ptx"}, std::pair{&CubinPath, "cubin"},
        std::pair{&LogPath, "log"}})
    if (std::error_code EC =
            sys::fs::createTemporaryFile("tle-nvidia", Ext, *Path))
      return makeError("cannot create a temporary file: " + EC.message());
  FileRemover RemovePtx(PtxPath), RemoveCubin(CubinPath), RemoveLog(LogPath);
  {
    std::error_code EC;
    raw_fd_ostream OS(PtxPath, EC);
    if (!EC) {
      OS << Ptx;
      OS.close();
      EC = OS.error();
    }
    if (EC)
      return makeError("cannot write " + PtxPath + ": " + EC.message());
  }
  std::string ArchFlag = ("-arch=" + Arch).str();
  SmallVector<StringRef> Args = {Ptxas, ArchFlag,  "-v",
                                 "-o",  CubinPath, PtxPath};
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(LogPath),
                                          StringRef(LogPath)};
  std::string ExecError;
  int Status =
      sys::ExecuteAndWait(Ptxas, Args, std::nullopt, Redirects,
                          /*SecondsToWait=*/0, /*MemoryLimit=*/0, &ExecError);
  std::string Log;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
          MemoryBuffer::getFile(LogPath))
    Log = (*Buf)->getBuffer().str();
  if (Status != 0) {
    // Name the PTX after the kernel rather than after a removed temporary.
    std::string Message = StringRef(Log).trim().str();
    size_t Pos;
    std::string Shown = (Entry + ".ptx").str();
    while ((Pos = Message.find(PtxPath.str())) != std::string::npos)
      Message.replace(Pos, PtxPath.size(), Shown);
    if (Message.empty())
      Message = ExecError.empty() ? "exit status " + std::to_string(Status)
                                  : ExecError;
    return makeError("ptxas -arch=" + Arch + " failed:\n" + Message);
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Cubin =
      MemoryBuffer::getFile(CubinPath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Cubin)
    return makeError("ptxas wrote no cubin: " + Cubin.getError().message());
  Usage = parsePtxasInfo(Log, Entry);
  if (PtxasLog)
    *PtxasLog = std::move(Log);
  return (*Cubin)->getBuffer().str();
}
