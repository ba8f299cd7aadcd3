//===- Parser.h - Front-end entry point -------------------------*- C++ -*-===//
//
// parseModule() lexes one buffer and builds the Module: it scans the file's
// top level, parses jit functions in full and skips everything else. All
// problems are reported to the DiagnosticEngine; the returned Module is
// always valid (possibly incomplete) and callers check Diags.hasErrors().
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_PARSER_H
#define TLE_FRONTEND_PARSER_H

#include "core/frontend/Diagnostics.h"
#include "core/frontend/Module.h"
#include <memory>

namespace tle::frontend {

std::unique_ptr<Module> parseModule(llvm::SourceMgr &SrcMgr, unsigned BufferID,
                                    DiagnosticEngine &Diags);

} // namespace tle::frontend

#endif // TLE_FRONTEND_PARSER_H
