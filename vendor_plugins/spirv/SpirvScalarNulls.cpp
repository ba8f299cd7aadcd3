//===- SpirvScalarNulls.cpp - Spell scalar nulls as plain constants -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvScalarNulls.h"
#include "SpirvWords.h"

#include "llvm/ADT/DenseMap.h"

#include <vector>

using namespace llvm;

namespace tle {
namespace spirv {

Expected<std::string> rewriteScalarNulls(StringRef Binary) {
  Expected<std::vector<uint32_t>> Read = readSpirvWords(Binary);
  if (!Read)
    return Read.takeError();
  const std::vector<uint32_t> &In = *Read;
  // Type id -> bit width of a scalar number type; 0 for bool.
  DenseMap<uint32_t, uint32_t> ScalarWidth;
  std::vector<uint32_t> Out(In.begin(), In.begin() + SpirvHeaderWords);
  for (size_t I = SpirvHeaderWords; I < In.size();) {
    uint32_t Count = In[I] >> 16, Op = In[I] & 0xffff;
    if (Count == 0 || I + Count > In.size())
      return createStringError("spirv runtime: malformed SPIR-V binary: an "
                               "instruction runs past the end");
    const uint32_t *Operands = &In[I + 1];
    if ((Op == OpTypeInt || Op == OpTypeFloat) && Count >= 3)
      ScalarWidth[Operands[0]] = Operands[1];
    else if (Op == OpTypeBool && Count >= 2)
      ScalarWidth[Operands[0]] = 0;
    auto It = Op == OpConstantNull && Count == 3 ? ScalarWidth.find(Operands[0])
                                                 : ScalarWidth.end();
    if (It == ScalarWidth.end()) {
      Out.insert(Out.end(), &In[I], &In[I] + Count);
      I += Count;
      continue;
    }
    uint32_t Type = Operands[0], Result = Operands[1];
    if (It->second == 0) {
      Out.insert(Out.end(), {makeInstructionWord(3, OpConstantFalse), Type, Result});
    } else {
      // One literal word per 32 bits, low-order word first.
      uint32_t LiteralWords = It->second > 32 ? 2 : 1;
      Out.insert(Out.end(),
                 {makeInstructionWord(3 + LiteralWords, OpConstant), Type, Result});
      Out.insert(Out.end(), LiteralWords, 0);
    }
    I += Count;
  }
  return std::string(reinterpret_cast<const char *>(Out.data()),
                     Out.size() * 4);
}

} // namespace spirv
} // namespace tle
