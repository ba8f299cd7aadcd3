//===- ASTDump.h - Textual dump of the syntax tree --------------*- C++ -*-===//
//
// One node per line, indented two spaces per level, each line ending with the
// node's line:col. A child is prefixed with its role in the parent
// ("value: ", "test: ", "body: "), which keeps FileCheck patterns readable:
//
//   FunctionDef add_kernel 3:5
//     param: x_ptr 3:16
//     body: Assign 5:5
//       target: Name pid (store) 5:5
//       value: Call 5:11
//         func: Attribute program_id 5:11
//           value: Name tl 5:11
//         keyword: axis 5:25
//           value: Constant int 0 5:30
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_ASTDUMP_H
#define TLE_FRONTEND_ASTDUMP_H

#include "core/frontend/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace tle::frontend {

void dumpFunction(const FunctionDef &F, const llvm::SourceMgr &SrcMgr,
                  llvm::raw_ostream &OS);
void dumpNode(const Node *N, const llvm::SourceMgr &SrcMgr,
              llvm::raw_ostream &OS);

/// The source text of a node with runs of whitespace (newlines included)
/// collapsed to one space: how --list-kernels shows annotations, defaults
/// and decorator arguments.
std::string getSourceText(llvm::SMRange Range);

} // namespace tle::frontend

#endif // TLE_FRONTEND_ASTDUMP_H
