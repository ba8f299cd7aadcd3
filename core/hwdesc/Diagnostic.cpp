//===- Diagnostic.cpp - Problems found in hardware descriptions -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/Node.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tle {
namespace hwdesc {

std::string Diagnostic::str() const {
  std::string S = File;
  if (Line)
    S += ":" + std::to_string(Line) + ":" + std::to_string(Col);
  S += ": error: ";
  if (!Path.empty())
    S += Path + ": ";
  S += Message;
  if (!Expected.empty())
    S += " (expected " + Expected + ")";
  return S;
}

void DiagSink::error(const Loc &L, StringRef Path, StringRef Message,
                     StringRef Expected) {
  Diagnostic D;
  D.File = L.File ? *L.File : std::string("<unknown>");
  D.Line = L.Line;
  D.Col = L.Col;
  D.Path = Path.str();
  D.Message = Message.str();
  D.Expected = Expected.str();
  Out.push_back(std::move(D));
}

void DiagSink::error(StringRef File, StringRef Message) {
  Diagnostic D;
  D.File = File.str();
  D.Message = Message.str();
  Out.push_back(std::move(D));
}

std::string closestMatch(StringRef Word, ArrayRef<std::string> Candidates) {
  // Allow roughly one typo per three characters, at least one: enough for
  // "warpsize" -> "warp_size" and "sahred" -> "shared", not for unrelated
  // words of similar length.
  unsigned Best = std::max<unsigned>(1, Word.size() / 3) + 1;
  std::string Result;
  for (const std::string &C : Candidates) {
    unsigned D = Word.edit_distance(C, /*AllowReplacements=*/true, Best);
    if (D < Best) {
      Best = D;
      Result = C;
    }
  }
  return Result;
}

} // namespace hwdesc
} // namespace tle
