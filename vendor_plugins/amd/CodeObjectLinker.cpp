//===- CodeObjectLinker.cpp - Link an AMDGPU object with ld.lld -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "CodeObjectLinker.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace tle {
namespace amd {

static Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "amd plugin: " + Message);
}

std::string findLld() {
  if (const char *Path = std::getenv("TLE_AMD_LLD"); Path && *Path)
    return Path;
  std::string Versioned = "ld.lld-" + std::to_string(LLVM_VERSION_MAJOR);
  if (ErrorOr<std::string> Path = sys::findProgramByName(Versioned))
    return *Path;
  std::string Packaged =
      "/usr/lib/llvm-" + std::to_string(LLVM_VERSION_MAJOR) + "/bin/ld.lld";
  if (sys::fs::can_execute(Packaged))
    return Packaged;
  return "";
}

static std::string readFileOrEmpty(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

Expected<std::string> linkCodeObject(StringRef Lld, StringRef Object,
                                     unsigned TimeoutSeconds) {
  if (!sys::fs::can_execute(Lld))
    return makeError(Lld + " is not an executable program; the code object "
                           "is linked with ld.lld (set TLE_AMD_LLD to one)");
  SmallString<128> Dir;
  // createUniqueDirectory makes it with mode 0700.
  if (std::error_code EC = sys::fs::createUniqueDirectory("tle-amd", Dir))
    return makeError("cannot create a temporary directory: " + EC.message());
  SmallString<128> In(Dir), Out(Dir), Log(Dir);
  sys::path::append(In, "kernel.o");
  sys::path::append(Out, "kernel.hsaco");
  sys::path::append(Log, "lld.log");
  // The whole directory goes, whatever ld.lld left in it (a partial output
  // when it fails, files of its own), on every path out of here.
  scope_exit Cleanup([&] { sys::fs::remove_directories(Dir); });
  {
    std::error_code EC;
    raw_fd_ostream OS(In, EC, sys::fs::OF_None);
    if (!EC) {
      // A full disk shows when the stream is flushed; the error must be
      // taken (and cleared), or the stream's destructor ends the process.
      OS << Object;
      OS.close();
      EC = OS.error();
      OS.clear_error();
    }
    if (EC)
      return makeError("cannot write " + In + ": " + EC.message());
  }
  StringRef Argv[] = {Lld,  "-shared", "--no-undefined",
                      "-o", Out,       In};
  std::optional<StringRef> Redirects[] = {StringRef(""), Log.str(),
                                          Log.str()};
  std::string ErrMsg;
  int Status = sys::ExecuteAndWait(Lld, Argv, /*Env=*/std::nullopt, Redirects,
                                   TimeoutSeconds, /*MemoryLimit=*/0, &ErrMsg);
  if (Status != 0) {
    std::string Message = "linking the code object with " + Lld.str();
    // -1: not run or timed out, -2: crashed; ErrMsg says which.
    if (Status < 0)
      Message += " failed: " + (ErrMsg.empty() ? "crashed" : ErrMsg);
    else
      Message += " failed with exit status " + std::to_string(Status);
    std::string Text = readFileOrEmpty(Log);
    if (!StringRef(Text).trim().empty())
      Message += "\n" + StringRef(Text).rtrim().str();
    return makeError(Message);
  }
  std::string CodeObject = readFileOrEmpty(Out);
  if (CodeObject.empty())
    return makeError(Lld + " wrote no code object");
  return CodeObject;
}

} // namespace amd
} // namespace tle
