//===- ResultsDB.h - Tuning results keyed by kernel, shape, device -*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The results database is a plain text file (docs/tune.md, "results
// database"): a header line, then one record per line with tab-separated
// fields
//
//   kernel  device  shape  mode  config  status  time_ms  detail
//
// appended (and flushed) as soon as a measurement is done, so that a tuner
// stopped at any point -- a time budget, a crash, a lost machine -- resumes
// from what it wrote: records are looked up before anything is measured.
// A torn last line (no newline) is dropped when the file is opened. Plain
// text rather than SQLite because the measuring binary runs on a machine
// with nothing but glibc and the driver, and because the file diffs, greps
// and concatenates.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_TUNE_RESULTSDB_H
#define TLE_CORE_TUNE_RESULTSDB_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_fd_ostream;
} // namespace llvm

namespace tle {
namespace tune {

struct Record {
  std::string Kernel, Device, Shape, Mode, Config;
  /// "ok", or why there is no time: launch-failed, wrong-result,
  /// compile-failed, exceeds-resources, pruned.
  std::string Status = "ok";
  double TimeMs = 0;
  std::string Detail;

  bool isOk() const { return Status == "ok"; }
};

class ResultsDB {
public:
  ResultsDB();
  ~ResultsDB();
  ResultsDB(ResultsDB &&);
  ResultsDB &operator=(ResultsDB &&);

  /// Opens Path for reading and appending, creating it (with its header)
  /// when missing. A malformed line is an error naming Path:line.
  static llvm::Expected<ResultsDB> open(llvm::StringRef Path);
  /// Reads Path without opening it for writing.
  static llvm::Expected<ResultsDB> read(llvm::StringRef Path);

  static std::string format(const Record &R);
  /// Parses one line; Where names it in errors.
  static llvm::Expected<Record> parseLine(llvm::StringRef Line,
                                          llvm::StringRef Where);

  const std::vector<Record> &records() const { return Records; }
  /// The last record for this key, or null.
  const Record *find(llvm::StringRef Kernel, llvm::StringRef Device,
                     llvm::StringRef Shape, llvm::StringRef Mode,
                     llvm::StringRef Config) const;
  /// The fastest ok record for (kernel, device, shape, mode), or null.
  const Record *best(llvm::StringRef Kernel, llvm::StringRef Device,
                     llvm::StringRef Shape, llvm::StringRef Mode) const;
  /// Appends R to the file (flushed before returning) and to records().
  llvm::Error append(Record R);
  /// True when the last line was torn and dropped at open.
  bool droppedTornLine() const { return DroppedTorn; }

private:
  llvm::Error load(llvm::StringRef Text);
  void index(size_t I);

  std::string Path;
  std::vector<Record> Records;
  llvm::StringMap<size_t> ByKey;
  std::unique_ptr<llvm::raw_fd_ostream> Out;
  bool DroppedTorn = false;
};

} // namespace tune
} // namespace tle

#endif // TLE_CORE_TUNE_RESULTSDB_H
