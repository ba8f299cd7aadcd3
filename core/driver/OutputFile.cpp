//===- OutputFile.cpp - Writing one output file whole or not at all -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

/// Writes Data to an open stream and reports what the system said: a full
/// disk shows up only when the buffer is flushed, so the stream is flushed
/// and its error taken (and cleared, or its destructor aborts the process).
static std::error_code writeAll(raw_fd_ostream &OS, StringRef Data) {
  OS << Data;
  OS.flush();
  std::error_code EC = OS.error();
  OS.clear_error();
  return EC;
}

static Error fileError(StringRef Path, std::error_code EC) {
  return createStringError(EC, "cannot write '" + Path + "': " + EC.message());
}

Error tle::driver::writeOutputFile(StringRef Path, StringRef Data) {
  sys::fs::file_status Status;
  bool InPlace =
      Path == "-" ||
      (!sys::fs::status(Path, Status) && sys::fs::exists(Status) &&
       !sys::fs::is_regular_file(Status) && !sys::fs::is_directory(Status));
  if (InPlace) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    if (!EC)
      EC = writeAll(OS, Data);
    if (!EC) {
      OS.close();
      EC = OS.error();
      OS.clear_error();
    }
    return EC ? fileError(Path, EC) : Error::success();
  }

  // Beside Path, so that the rename stays on one file system. TempFile
  // removes itself if tlec is interrupted before keep() or discard().
  Expected<sys::fs::TempFile> Temp = sys::fs::TempFile::create(
      Path + ".tmp-%%%%%%", sys::fs::all_read | sys::fs::all_write);
  if (!Temp) {
    std::error_code EC = errorToErrorCode(Temp.takeError());
    return fileError(Path, EC);
  }
  std::error_code EC;
  {
    raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    EC = writeAll(OS, Data);
  }
  if (EC) {
    consumeError(Temp->discard());
    return fileError(Path, EC);
  }
  if (Error E = Temp->keep(Path)) {
    std::error_code KeepEC = errorToErrorCode(std::move(E));
    consumeError(Temp->discard());
    return fileError(Path, KeepEC);
  }
  return Error::success();
}
