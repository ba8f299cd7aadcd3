//===- SpirvSubgroupEmulation.cpp - Subgroups for devices without ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvSubgroupEmulation.h"
#include "SpirvWords.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <vector>

using namespace llvm;

namespace tle {
namespace spirv {

namespace {
constexpr uint32_t DecorationBuiltIn = 11;
constexpr uint32_t BuiltInLocalInvocationId = 27;
constexpr uint32_t BuiltInSubgroupSize = 36;
constexpr uint32_t BuiltInSubgroupMaxSize = 37;
constexpr uint32_t BuiltInSubgroupId = 40;
constexpr uint32_t BuiltInSubgroupLocalInvocationId = 41;
constexpr uint32_t ExecutionModeLocalSize = 17;
constexpr uint32_t StorageWorkgroup = 4;
constexpr uint32_t ScopeWorkgroup = 2;
constexpr uint32_t ScopeSubgroup = 3;
/// SequentiallyConsistent | WorkgroupMemory | CrossWorkgroupMemory, what
/// the plugin's own barriers carry.
constexpr uint32_t BarrierSemantics = 0x310;
/// GroupNonUniform .. GroupNonUniformQuad.
constexpr uint32_t FirstSubgroupCapability = 61;
constexpr uint32_t LastSubgroupCapability = 68;

using Instruction = SmallVector<uint32_t, 8>;

uint32_t opcode(const Instruction &I) { return I[0] & 0xffff; }

Instruction make(uint32_t Op, std::initializer_list<uint32_t> Operands) {
  Instruction I;
  I.push_back(uint32_t(Operands.size() + 1) << 16 | Op);
  I.append(Operands.begin(), Operands.end());
  return I;
}

const char *getOpcodeName(uint32_t Op) {
  switch (Op) {
  case 333:
    return "OpGroupNonUniformElect";
  case 334:
    return "OpGroupNonUniformAll";
  case 335:
    return "OpGroupNonUniformAny";
  case 337:
    return "OpGroupNonUniformBroadcast";
  case 338:
    return "OpGroupNonUniformBroadcastFirst";
  case 339:
    return "OpGroupNonUniformBallot";
  case 349:
    return "OpGroupNonUniformIAdd";
  case 350:
    return "OpGroupNonUniformFAdd";
  default:
    return "a GroupNonUniform instruction";
  }
}
} // namespace

Expected<EmulatedSubgroups> emulateSubgroups(StringRef Binary,
                                             unsigned SubgroupSize) {
  EmulatedSubgroups Result;
  Result.Binary = Binary.str();
  Expected<std::vector<uint32_t>> Read = readSpirvWords(Binary);
  if (!Read)
    return Read.takeError();
  std::vector<uint32_t> &Words = *Read;
  uint32_t Version = Words[1];
  uint32_t Bound = Words[3];
  std::vector<Instruction> Module;
  for (size_t I = SpirvHeaderWords; I < Words.size();) {
    uint32_t Count = Words[I] >> 16;
    if (Count == 0 || I + Count > Words.size())
      return createStringError("spirv runtime: malformed SPIR-V binary: an "
                               "instruction runs past the end");
    Module.emplace_back(&Words[I], &Words[I] + Count);
    I += Count;
  }

  // What the rewrite needs to know about the module.
  uint32_t Int32 = 0, Int64 = 0, Bool = 0;
  DenseMap<uint32_t, uint32_t> ConstantValue; // 32-bit integer constants
  DenseMap<uint32_t, uint32_t> IntWidth;
  DenseMap<uint32_t, uint32_t> BuiltInOf; // variable -> BuiltIn
  DenseMap<std::pair<uint32_t, uint32_t>, uint32_t> PointerTypes;
  DenseMap<uint32_t, uint32_t> TypeOf; // result id -> type id
  DenseMap<uint32_t, uint32_t> PointeeOf;
  uint32_t LocalSize = 0;
  bool Uses = false;
  for (const Instruction &I : Module) {
    uint32_t Op = opcode(I);
    if (Op == OpTypeInt && I.size() >= 4 && I[3] == 0) {
      IntWidth[I[1]] = I[2];
      if (I[2] == 32 && !Int32)
        Int32 = I[1];
      if (I[2] == 64 && !Int64)
        Int64 = I[1];
    } else if (Op == OpTypeBool && !Bool) {
      Bool = I[1];
    } else if (Op == OpTypePointer && I.size() == 4) {
      PointerTypes.try_emplace({I[2], I[3]}, I[1]);
      PointeeOf[I[1]] = I[3];
    } else if (Op == OpConstant && I.size() == 4 &&
               IntWidth.lookup(I[1]) == 32) {
      ConstantValue[I[2]] = I[3];
    } else if (Op == OpDecorate && I.size() == 4 && I[2] == DecorationBuiltIn) {
      BuiltInOf[I[1]] = I[3];
    } else if (Op == OpExecutionMode && I.size() >= 6 &&
               I[2] == ExecutionModeLocalSize) {
      LocalSize = std::max(LocalSize, I[3] * I[4] * I[5]);
    }
    if (Op >= OpGroupNonUniformFirst && Op <= OpGroupNonUniformLast)
      Uses = true;
  }
  auto IsSubgroupBuiltIn = [&](uint32_t Var) {
    auto It = BuiltInOf.find(Var);
    return It != BuiltInOf.end() &&
           (It->second == BuiltInSubgroupSize ||
            It->second == BuiltInSubgroupMaxSize ||
            It->second == BuiltInSubgroupId ||
            It->second == BuiltInSubgroupLocalInvocationId);
  };
  auto IsSubgroupBarrier = [&](const Instruction &I) {
    return opcode(I) == OpControlBarrier && I.size() == 4 &&
           ConstantValue.lookup(I[1]) == ScopeSubgroup;
  };
  for (const Instruction &I : Module)
    if (IsSubgroupBarrier(I) ||
        (opcode(I) == OpLoad && I.size() >= 4 && IsSubgroupBuiltIn(I[3])))
      Uses = true;
  if (!Uses)
    return Result;

  if (SubgroupSize == 0)
    return createStringError("spirv runtime: the kernel uses subgroups, but "
                             "the description gives no subgroup size");
  if (LocalSize == 0)
    return createStringError("spirv runtime: cannot emulate subgroups: the "
                             "kernel has no LocalSize execution mode");
  uint32_t LocalId = 0;
  for (auto [Var, Kind] : BuiltInOf)
    if (Kind == BuiltInLocalInvocationId)
      LocalId = Var;
  if (!LocalId || !Int32 || !Int64)
    return createStringError("spirv runtime: cannot emulate subgroups: the "
                             "kernel reads no 64-bit LocalInvocationId");
  uint32_t LocalIdVector = 0;
  for (const Instruction &I : Module)
    if (opcode(I) == OpVariable && I[2] == LocalId)
      LocalIdVector = PointeeOf.lookup(I[1]);
  if (!LocalIdVector)
    return createStringError("spirv runtime: cannot emulate subgroups: no "
                             "type for LocalInvocationId");

  // New declarations, placed before the first function.
  std::vector<Instruction> Declarations;
  auto Fresh = [&] { return Bound++; };
  if (!Bool) {
    Bool = Fresh();
    Declarations.push_back(make(OpTypeBool, {Bool}));
  }
  auto Constant = [&](uint32_t Type, uint32_t Value) {
    uint32_t Id = Fresh();
    if (Type == Int64)
      Declarations.push_back(make(OpConstant, {Type, Id, Value, 0}));
    else
      Declarations.push_back(make(OpConstant, {Type, Id, Value}));
    return Id;
  };
  auto Pointer = [&](uint32_t Pointee) {
    auto [It, New] = PointerTypes.try_emplace({StorageWorkgroup, Pointee}, 0);
    if (New) {
      It->second = Fresh();
      Declarations.push_back(
          make(OpTypePointer, {It->second, StorageWorkgroup, Pointee}));
    }
    return It->second;
  };
  uint32_t WorkgroupScope = Constant(Int32, ScopeWorkgroup);
  uint32_t Semantics = Constant(Int32, BarrierSemantics);
  uint32_t Size64 = Constant(Int64, SubgroupSize);
  uint32_t Slots = Constant(Int32, LocalSize);
  uint32_t SlotArray = Fresh();
  Declarations.push_back(make(OpTypeArray, {SlotArray, Int64, Slots}));
  uint32_t SlotArrayPtr = Pointer(SlotArray);
  uint32_t SlotPtr = Pointer(Int64);
  uint32_t Exchange = Fresh();
  Declarations.push_back(
      make(OpVariable, {SlotArrayPtr, Exchange, StorageWorkgroup}));
  // Workgroup pointers to each shuffled type, declared with the rest.
  for (const Instruction &I : Module)
    if (opcode(I) >= OpGroupNonUniformShuffle &&
        opcode(I) <= OpGroupNonUniformShuffleDown && I.size() == 6)
      Pointer(I[1]);

  // Result types of values, to find the width of shuffle operands.
  for (const Instruction &I : Module)
    if (opcode(I) == OpConstant && I.size() >= 4)
      TypeOf[I[2]] = I[1];
  for (const Instruction &I : Module) {
    uint32_t Op = opcode(I);
    if (Op >= 113 && Op <= 200 && I.size() >= 3)
      TypeOf[I[2]] = I[1];
    if (Op == OpLoad && I.size() >= 4)
      TypeOf[I[2]] = I[1];
  }

  std::vector<Instruction> Body;
  auto Emit = [&](uint32_t Op, std::initializer_list<uint32_t> Operands) {
    Body.push_back(make(Op, Operands));
  };
  /// This work-item's local id x, as a 64-bit integer.
  auto LoadLocalId = [&] {
    uint32_t Vector = Fresh(), X = Fresh();
    Emit(OpLoad, {LocalIdVector, Vector, LocalId});
    Emit(OpCompositeExtract, {Int64, X, Vector, 0});
    return X;
  };
  auto Barrier = [&] {
    Emit(OpControlBarrier, {WorkgroupScope, WorkgroupScope, Semantics});
  };

  bool FunctionsStarted = false;
  std::vector<Instruction> Out;
  for (Instruction &I : Module) {
    uint32_t Op = opcode(I);
    if (Op == OpFunction && !FunctionsStarted) {
      FunctionsStarted = true;
      Out.insert(Out.end(), Declarations.begin(), Declarations.end());
    }
    if (Op == OpCapability && I.size() == 2 &&
        I[1] >= FirstSubgroupCapability && I[1] <= LastSubgroupCapability)
      continue;
    if (Op == OpEntryPoint && Version >= 0x10400) {
      // From SPIR-V 1.4 the interface lists every global variable used.
      I.push_back(Exchange);
      I[0] = uint32_t(I.size()) << 16 | Op;
    }
    if (IsSubgroupBarrier(I)) {
      Out.push_back(
          make(OpControlBarrier, {WorkgroupScope, WorkgroupScope, Semantics}));
      ++Result.Rewritten;
      continue;
    }
    if (Op == OpLoad && I.size() >= 4 && IsSubgroupBuiltIn(I[3])) {
      uint32_t Type = I[1], Id = I[2], Kind = BuiltInOf.lookup(I[3]);
      Body.clear();
      uint32_t Value;
      if (Kind == BuiltInSubgroupLocalInvocationId) {
        Value = Fresh();
        Emit(OpUMod, {Int64, Value, LoadLocalId(), Size64});
      } else if (Kind == BuiltInSubgroupId) {
        Value = Fresh();
        Emit(OpUDiv, {Int64, Value, LoadLocalId(), Size64});
      } else {
        Value = Size64;
      }
      Emit(Type == Int64 ? OpBitcast : OpUConvert, {Type, Id, Value});
      Out.insert(Out.end(), Body.begin(), Body.end());
      ++Result.Rewritten;
      continue;
    }
    if (Op < OpGroupNonUniformFirst || Op > OpGroupNonUniformLast) {
      Out.push_back(std::move(I));
      continue;
    }
    if (Op < OpGroupNonUniformShuffle || Op > OpGroupNonUniformShuffleDown ||
        I.size() != 6)
      return createStringError(
          formatv("spirv runtime: this OpenCL device has no subgroups, and "
                  "only subgroup shuffles are emulated, not {0} (opcode {1})",
                  getOpcodeName(Op), Op)
              .str());
    if (ConstantValue.lookup(I[3]) != ScopeSubgroup)
      return createStringError("spirv runtime: cannot emulate a shuffle "
                               "whose scope is not Subgroup");
    uint32_t Type = I[1], Id = I[2], Value = I[4], Operand = I[5];
    Body.clear();
    uint32_t X = LoadLocalId();
    uint32_t Base = Fresh(), Own = Fresh();
    Barrier();
    Emit(OpBitcast, {SlotPtr, Base, Exchange});
    Emit(OpInBoundsPtrAccessChain, {SlotPtr, Own, Base, X});
    uint32_t TypedPtr = Pointer(Type);
    uint32_t OwnTyped = Own;
    if (TypedPtr != SlotPtr) {
      OwnTyped = Fresh();
      Emit(OpBitcast, {TypedPtr, OwnTyped, Own});
    }
    Emit(OpStore, {OwnTyped, Value});
    Barrier();
    uint32_t Lane = Fresh(), Warp = Fresh();
    Emit(OpUMod, {Int64, Lane, X, Size64});
    Emit(OpISub, {Int64, Warp, X, Lane});
    uint32_t Delta = Operand;
    if (IntWidth.lookup(TypeOf.lookup(Operand)) != 64) {
      Delta = Fresh();
      Emit(OpUConvert, {Int64, Delta, Operand});
    }
    uint32_t SourceLane = Fresh();
    switch (Op) {
    case OpGroupNonUniformShuffleXor: {
      uint32_t Mixed = Fresh();
      Emit(OpBitwiseXor, {Int64, Mixed, Lane, Delta});
      Emit(OpUMod, {Int64, SourceLane, Mixed, Size64});
      break;
    }
    case OpGroupNonUniformShuffle:
      Emit(OpUMod, {Int64, SourceLane, Delta, Size64});
      break;
    case OpGroupNonUniformShuffleUp: {
      uint32_t InRange = Fresh(), Below = Fresh();
      Emit(OpUGreaterThanEqual, {Bool, InRange, Lane, Delta});
      Emit(OpISub, {Int64, Below, Lane, Delta});
      Emit(OpSelect, {Int64, SourceLane, InRange, Below, Lane});
      break;
    }
    case OpGroupNonUniformShuffleDown: {
      uint32_t Above = Fresh(), InRange = Fresh();
      Emit(OpIAdd, {Int64, Above, Lane, Delta});
      Emit(OpULessThan, {Bool, InRange, Above, Size64});
      Emit(OpSelect, {Int64, SourceLane, InRange, Above, Lane});
      break;
    }
    }
    uint32_t Source = Fresh(), Slot = Fresh();
    Emit(OpIAdd, {Int64, Source, Warp, SourceLane});
    Emit(OpInBoundsPtrAccessChain, {SlotPtr, Slot, Base, Source});
    uint32_t SlotTyped = Slot;
    if (TypedPtr != SlotPtr) {
      SlotTyped = Fresh();
      Emit(OpBitcast, {TypedPtr, SlotTyped, Slot});
    }
    Emit(OpLoad, {Type, Id, SlotTyped});
    Out.insert(Out.end(), Body.begin(), Body.end());
    ++Result.Rewritten;
  }
  std::vector<uint32_t> Result32(Words.begin(), Words.begin() + SpirvHeaderWords);
  Result32[3] = Bound;
  for (const Instruction &I : Out)
    Result32.insert(Result32.end(), I.begin(), I.end());
  Result.Binary.assign(reinterpret_cast<const char *>(Result32.data()),
                       Result32.size() * 4);
  return Result;
}

} // namespace spirv
} // namespace tle
