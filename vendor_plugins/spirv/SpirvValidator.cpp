//===- SpirvValidator.cpp - Check SPIR-V binaries with spirv-val ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvValidator.h"
#include "ExternalTool.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace tle {
namespace spirv {

bool isValidationRequested() {
  const char *Value = std::getenv("TLE_SPIRV_VALIDATE");
  return Value && *Value && StringRef(Value) != "0";
}

std::string getValidationKey() {
  if (!isValidationRequested())
    return "";
  std::string Validator = findTool("TLE_SPIRV_VAL", {"spirv-val"});
  return "spirv-val=" + (Validator.empty() ? "none" : Validator);
}

Expected<bool> validateSpirv(StringRef Binary, unsigned Version) {
  std::string Validator = findTool("TLE_SPIRV_VAL", {"spirv-val"});
  if (Validator.empty()) {
    errs() << "spirv plugin: spirv-val not found (Debian package "
              "spirv-tools); the binary is not validated\n";
    return false;
  }
  std::string Env =
      "spv" + std::to_string(Version / 10) + "." + std::to_string(Version % 10);
  Expected<std::string> Report =
      runTool(Validator, Binary, [&](StringRef In, StringRef) {
        return std::vector<std::string>{"--target-env", Env, In.str()};
      });
  if (!Report)
    return createStringError(inconvertibleErrorCode(),
                             "spirv plugin: the generated SPIR-V is invalid "
                             "(" +
                                 Env + "): " + toString(Report.takeError()));
  return true;
}

} // namespace spirv
} // namespace tle
