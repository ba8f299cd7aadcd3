//===- OutputFile.h - Writing one output file whole or not at all -*- C++
//-*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tlec's loose outputs (--out-dir binaries, --emit text files) are written
// to a temporary file beside the output and renamed over it only once every
// byte reached the disk. A full disk, a file-size limit or an I/O error then
// gives one message and leaves the output path as it was -- never a
// truncated binary that a later launch would load.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_DRIVER_OUTPUTFILE_H
#define TLE_CORE_DRIVER_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tle {
namespace driver {

/// Writes Data to Path ("-" is standard output). A regular file (or a new
/// one) is replaced atomically; other existing files (devices, pipes) are
/// written in place, since renaming over them would replace the node. The
/// error names Path and the system's reason (e.g. "No space left on
/// device").
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Data);

} // namespace driver
} // namespace tle

#endif // TLE_CORE_DRIVER_OUTPUTFILE_H
