//===- SpirvWords.h - Reading SPIR-V binaries word by word ------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// What the plugin's SPIR-V readers and rewriters (kernel signature, scalar
// nulls, subgroup emulation) share: the binary's header, the opcodes they
// look at (the SPIR-V specification's numbers), and checked reading of the
// binary as 32-bit words.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_VENDOR_PLUGINS_SPIRV_SPIRVWORDS_H
#define TLE_VENDOR_PLUGINS_SPIRV_SPIRVWORDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace tle {
namespace spirv {

inline constexpr uint32_t SpirvMagic = 0x07230203;
/// Magic, version, generator, id bound, schema.
inline constexpr unsigned SpirvHeaderWords = 5;

enum SpirvOpcode : uint32_t {
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpCapability = 17,
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypeVector = 23,
  OpTypeArray = 28,
  OpTypePointer = 32,
  OpConstantFalse = 42,
  OpConstant = 43,
  OpConstantNull = 46,
  OpFunction = 54,
  OpFunctionParameter = 55,
  OpVariable = 59,
  OpLoad = 61,
  OpStore = 62,
  OpInBoundsPtrAccessChain = 70,
  OpDecorate = 71,
  OpCompositeExtract = 81,
  OpUConvert = 113,
  OpBitcast = 124,
  OpIAdd = 128,
  OpISub = 130,
  OpUDiv = 134,
  OpUMod = 137,
  OpSelect = 169,
  OpUGreaterThanEqual = 174,
  OpULessThan = 176,
  OpBitwiseXor = 198,
  OpControlBarrier = 224,
  OpGroupNonUniformFirst = 333,
  OpGroupNonUniformShuffle = 345,
  OpGroupNonUniformShuffleXor = 346,
  OpGroupNonUniformShuffleUp = 347,
  OpGroupNonUniformShuffleDown = 348,
  OpGroupNonUniformLast = 366,
};

/// The first word of an instruction of WordCount words.
inline uint32_t makeInstructionWord(uint32_t WordCount, uint32_t Op) {
  return WordCount << 16 | Op;
}

/// Binary as 32-bit words, once its size is whole words holding at least a
/// header and it starts with the SPIR-V magic number.
inline llvm::Expected<std::vector<uint32_t>>
readSpirvWords(llvm::StringRef Binary) {
  if (Binary.size() % 4 || Binary.size() < SpirvHeaderWords * 4)
    return llvm::createStringError("spirv runtime: malformed SPIR-V binary: "
                                   "its size is not a whole number of words");
  std::vector<uint32_t> Words(Binary.size() / 4);
  std::memcpy(Words.data(), Binary.data(), Binary.size());
  if (Words[0] != SpirvMagic)
    return llvm::createStringError(
        "spirv runtime: not a SPIR-V binary (no magic number)");
  return Words;
}

} // namespace spirv
} // namespace tle

#endif // TLE_VENDOR_PLUGINS_SPIRV_SPIRVWORDS_H
