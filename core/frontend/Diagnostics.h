//===- Diagnostics.h - Front-end diagnostics --------------------*- C++ -*-===//
//
// Collects errors and warnings reported against an llvm::SourceMgr buffer.
// Every diagnostic has a location and an optional highlighted range, and is
// rendered by llvm::SourceMgr::PrintMessage as
//   file:line:col: error: message
//   <source line>
//       ^~~~
// Callers choose between printing as diagnostics arrive (tools) and keeping
// them for inspection (tests, the fuzzer).
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_DIAGNOSTICS_H
#define TLE_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include <string>
#include <vector>

namespace tle::frontend {

struct Diagnostic {
  llvm::SourceMgr::DiagKind Kind;
  llvm::SMLoc Loc;
  llvm::SMRange Range; // Empty when only a caret is shown.
  std::string Message;
};

class DiagnosticEngine {
public:
  /// Once this many errors were reported, further ones are dropped and
  /// hasReachedErrorLimit() tells the parser to stop: garbage input must not
  /// produce megabytes of output.
  static constexpr unsigned ErrorLimit = 20;

  explicit DiagnosticEngine(llvm::SourceMgr &SrcMgr) : SrcMgr(SrcMgr) {}

  /// Prints each diagnostic to OS as it is reported (nullptr: only collect).
  void setOutputStream(llvm::raw_ostream *OS) { Out = OS; }

  void error(llvm::SMLoc Loc, const llvm::Twine &Msg, llvm::SMRange Range = {});
  void warning(llvm::SMLoc Loc, const llvm::Twine &Msg,
               llvm::SMRange Range = {});
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg, llvm::SMRange Range = {});

  unsigned getNumErrors() const { return NumErrors; }
  bool hasErrors() const { return NumErrors != 0; }
  bool hasReachedErrorLimit() const { return NumErrors >= ErrorLimit; }
  const std::vector<Diagnostic> &getDiagnostics() const { return Diags; }

  /// Renders one diagnostic the way it is printed (file:line:col, source
  /// line, caret); used by tests that compare messages.
  void print(const Diagnostic &D, llvm::raw_ostream &OS) const;
  std::string format(const Diagnostic &D) const;

  llvm::SourceMgr &getSourceMgr() const { return SrcMgr; }

private:
  void report(llvm::SourceMgr::DiagKind Kind, llvm::SMLoc Loc,
              const llvm::Twine &Msg, llvm::SMRange Range);

  llvm::SourceMgr &SrcMgr;
  llvm::raw_ostream *Out = nullptr;
  std::vector<Diagnostic> Diags;
  unsigned NumErrors = 0;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_DIAGNOSTICS_H
