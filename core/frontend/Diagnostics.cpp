//===- Diagnostics.cpp - Front-end diagnostics ----------------------------===//

#include "core/frontend/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tle::frontend;

void DiagnosticEngine::error(SMLoc Loc, const Twine &Msg, SMRange Range) {
  report(SourceMgr::DK_Error, Loc, Msg, Range);
}

void DiagnosticEngine::warning(SMLoc Loc, const Twine &Msg, SMRange Range) {
  report(SourceMgr::DK_Warning, Loc, Msg, Range);
}

void DiagnosticEngine::note(SMLoc Loc, const Twine &Msg, SMRange Range) {
  report(SourceMgr::DK_Note, Loc, Msg, Range);
}

void DiagnosticEngine::report(SourceMgr::DiagKind Kind, SMLoc Loc,
                              const Twine &Msg, SMRange Range) {
  if (hasReachedErrorLimit())
    return;
  if (Kind == SourceMgr::DK_Error)
    ++NumErrors;
  Diags.push_back({Kind, Loc, Range, Msg.str()});
  if (Out)
    print(Diags.back(), *Out);
  if (hasReachedErrorLimit()) {
    Diags.push_back(
        {SourceMgr::DK_Note, Loc, {}, "too many errors emitted, stopping now"});
    if (Out)
      print(Diags.back(), *Out);
  }
}

void DiagnosticEngine::print(const Diagnostic &D, raw_ostream &OS) const {
  ArrayRef<SMRange> Ranges;
  if (D.Range.isValid() && D.Range.Start != D.Range.End)
    Ranges = D.Range;
  SrcMgr.PrintMessage(OS, D.Loc, D.Kind, D.Message, Ranges);
}

std::string DiagnosticEngine::format(const Diagnostic &D) const {
  std::string S;
  raw_string_ostream OS(S);
  print(D, OS);
  return S;
}
