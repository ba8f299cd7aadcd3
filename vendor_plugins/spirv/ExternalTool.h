//===- ExternalTool.h - Run a command-line tool on bytes --------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The plugin hands SPIR-V to two external programs: spirv-val (validation)
// and llvm-spirv (SPIR-V to SPIR 1.2 bitcode for OpenCL drivers without
// SPIR-V input). Both run without a shell, from an argument vector, on files
// in a private temporary directory that is removed afterwards, with a time
// limit.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_EXTERNALTOOL_H
#define TLE_VENDOR_PLUGINS_SPIRV_EXTERNALTOOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tle {
namespace spirv {

/// The program named by the environment variable EnvOverride if it is set,
/// else the first of Names found on PATH; empty if none.
std::string findTool(llvm::StringRef EnvOverride,
                     llvm::ArrayRef<llvm::StringRef> Names);

/// Writes Input to a file in a fresh private directory and runs Program with
/// the arguments MakeArgs returns for that input path and an output path in
/// the same directory. Returns what the tool wrote to the output path (empty
/// if it wrote nothing), or an error naming Program with its exit status and
/// its stderr and stdout when it fails or runs longer than TimeoutSeconds.
llvm::Expected<std::string>
runTool(llvm::StringRef Program, llvm::StringRef Input,
        llvm::function_ref<std::vector<std::string>(llvm::StringRef In,
                                                    llvm::StringRef Out)>
            MakeArgs,
        unsigned TimeoutSeconds = 60);

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_EXTERNALTOOL_H
