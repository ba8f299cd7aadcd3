//===- SpirvKernelSignature.cpp - Parameters of a SPIR-V kernel -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvKernelSignature.h"
#include "SpirvWords.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"


using namespace llvm;

namespace tle {
namespace spirv {

namespace {
constexpr uint32_t ExecutionModelKernel = 6;
constexpr uint32_t StorageClassCrossWorkgroup = 5;

Error malformed(const Twine &Why) {
  return createStringError("spirv runtime: malformed SPIR-V binary: " + Why);
}
} // namespace

Expected<std::vector<KernelParameter>> readKernelSignature(StringRef Binary,
                                                           StringRef Entry) {
  Expected<std::vector<uint32_t>> Read = readSpirvWords(Binary);
  if (!Read)
    return Read.takeError();
  const std::vector<uint32_t> &Words = *Read;

  // Result id -> what a parameter of that type is.
  DenseMap<uint32_t, KernelParameter> Types;
  std::optional<uint32_t> EntryFunction;
  std::vector<std::string> EntryNames;
  std::vector<KernelParameter> Params;
  bool InEntry = false;
  for (size_t I = SpirvHeaderWords; I < Words.size();) {
    uint32_t Count = Words[I] >> 16, Op = Words[I] & 0xffff;
    if (Count == 0 || I + Count > Words.size())
      return malformed("an instruction runs past the end");
    ArrayRef<uint32_t> Operands(&Words[I + 1], Count - 1);
    I += Count;
    switch (Op) {
    case OpEntryPoint: {
      if (Operands.size() < 3 || Operands[0] != ExecutionModelKernel)
        break;
      // The name is a NUL-terminated string packed into words.
      StringRef Name(reinterpret_cast<const char *>(&Operands[2]),
                     (Operands.size() - 2) * 4);
      Name = Name.take_until([](char C) { return C == '\0'; });
      EntryNames.push_back(Name.str());
      if (Name == Entry)
        EntryFunction = Operands[1];
      break;
    }
    case OpTypeBool:
      if (Operands.size() >= 1)
        Types[Operands[0]] = {false, 1};
      break;
    case OpTypeInt:
    case OpTypeFloat:
      if (Operands.size() >= 2)
        Types[Operands[0]] = {false, Operands[1] / 8};
      break;
    case OpTypePointer:
      if (Operands.size() >= 2)
        Types[Operands[0]] = {Operands[1] == StorageClassCrossWorkgroup, 8};
      break;
    case OpFunction:
      if (Operands.size() < 2)
        return malformed("a short OpFunction");
      InEntry = EntryFunction && Operands[1] == *EntryFunction;
      break;
    case OpFunctionParameter: {
      if (!InEntry)
        break;
      if (Operands.size() < 2)
        return malformed("a short OpFunctionParameter");
      auto It = Types.find(Operands[0]);
      if (It == Types.end())
        return createStringError(
            "spirv runtime: parameter " + Twine(Params.size()) + " of " +
            Entry +
            " has a type the runtime cannot pass (not a scalar or "
            "a global pointer)");
      Params.push_back(It->second);
      break;
    }
    default:
      // Parameters are contiguous right after their OpFunction.
      if (InEntry)
        return Params;
      break;
    }
  }
  if (!EntryFunction)
    return createStringError(
        "spirv runtime: the binary has no kernel named '" + Entry +
        "' (kernels: " +
        (EntryNames.empty() ? std::string("none") : join(EntryNames, ", ")) +
        ")");
  return Params;
}

} // namespace spirv
} // namespace tle
