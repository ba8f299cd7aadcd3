//===- ParserFuzz.cpp - libFuzzer target for the front end ----------------===//
//
// Lexes and parses arbitrary bytes as a kernel file and dumps every function
// found. Any crash, sanitizer report, assertion or hang is a bug: the front
// end must answer every input with a Module and diagnostics.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/ASTDump.h"
#include "core/frontend/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tle::frontend;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  SourceMgr SrcMgr;
  unsigned BufferID = SrcMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(Data), Size), "fuzz.py"),
      SMLoc());
  DiagnosticEngine Diags(SrcMgr);
  std::unique_ptr<Module> M = parseModule(SrcMgr, BufferID, Diags);

  // Rendering diagnostics and dumps exercises every stored location.
  std::string Sink;
  raw_string_ostream OS(Sink);
  for (const Diagnostic &D : Diags.getDiagnostics())
    Diags.print(D, OS);
  for (const FunctionDef *F : M->Functions)
    dumpFunction(*F, SrcMgr, OS);
  for (const ModuleConstant &C : M->Constants)
    OS << getSourceText(C.Value->getRange());
  return 0;
}
