//===- ExternalTool.cpp - Run a command-line tool on bytes ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "ExternalTool.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace tle {
namespace spirv {

std::string findTool(StringRef EnvOverride, ArrayRef<StringRef> Names) {
  if (const char *Path = std::getenv(EnvOverride.str().c_str()); Path && *Path)
    return Path;
  for (StringRef Name : Names)
    if (ErrorOr<std::string> Path = sys::findProgramByName(Name))
      return *Path;
  return "";
}

static std::string readFileOrEmpty(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

Expected<std::string>
runTool(StringRef Program, StringRef Input,
        function_ref<std::vector<std::string>(StringRef, StringRef)> MakeArgs,
        unsigned TimeoutSeconds) {
  SmallString<128> Dir;
  // createUniqueDirectory makes it with mode 0700.
  if (std::error_code EC = sys::fs::createUniqueDirectory("tle-spirv", Dir))
    return createStringError(EC, "cannot create a temporary directory: " +
                                     EC.message());
  SmallString<128> In(Dir), Out(Dir), Stdout(Dir), Stderr(Dir);
  sys::path::append(In, "input");
  sys::path::append(Out, "output");
  sys::path::append(Stdout, "stdout");
  sys::path::append(Stderr, "stderr");
  scope_exit Cleanup([&] {
    for (StringRef F : {In.str(), Out.str(), Stdout.str(), Stderr.str()})
      sys::fs::remove(F);
    sys::fs::remove(Dir);
  });
  {
    std::error_code EC;
    raw_fd_ostream OS(In, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(EC, In + ": " + EC.message());
    OS << Input;
  }
  std::vector<std::string> Args = MakeArgs(In, Out);
  SmallVector<StringRef> Argv = {Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<StringRef> Redirects[] = {StringRef(""), Stdout.str(),
                                          Stderr.str()};
  std::string ErrMsg;
  int Status = sys::ExecuteAndWait(Program, Argv, /*Env=*/std::nullopt,
                                   Redirects, TimeoutSeconds,
                                   /*MemoryLimit=*/0, &ErrMsg);
  if (Status != 0) {
    std::string Message = (sys::path::filename(Program) + " failed").str();
    // -1: not run or timed out, -2: crashed; ErrMsg says which.
    if (Status < 0)
      Message += ": " + (ErrMsg.empty() ? std::string("crashed") : ErrMsg);
    else
      Message += " with exit status " + std::to_string(Status);
    for (StringRef Log : {StringRef(Stderr), StringRef(Stdout)}) {
      std::string Text = readFileOrEmpty(Log);
      if (!StringRef(Text).trim().empty())
        Message += "\n" + StringRef(Text).rtrim().str();
    }
    return createStringError(inconvertibleErrorCode(), Message);
  }
  return readFileOrEmpty(Out);
}

} // namespace spirv
} // namespace tle
