//===- KernelMetadata.cpp - A compiled kernel's metadata as JSON ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/KernelMetadata.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;
using namespace tle;
using namespace tle::driver;

std::string tle::driver::sha256Hex(StringRef Data) {
  return toHex(SHA256::hash(arrayRefFromStringRef(Data)), /*LowerCase=*/true);
}

json::Object tle::driver::kernelToJSON(const backend::CompiledKernel &K) {
  json::Object O{{"format", K.Format},
                 {"entry", K.EntryName},
                 {"threads_per_block", K.ThreadsPerBlock},
                 {"shared_memory_bytes", K.SharedMemoryBytes},
                 {"binary_size", uint64_t(K.Binary.size())},
                 {"binary_sha256", sha256Hex(K.Binary)}};
  if (const std::optional<backend::ResourceUsage> &R = K.Resources)
    O["resources"] = json::Object{
        {"registers", R->Registers},
        {"spill_store_bytes", R->SpillStoreBytes},
        {"spill_load_bytes", R->SpillLoadBytes},
        {"stack_frame_bytes", R->StackFrameBytes},
        {"static_shared_memory_bytes", R->StaticSharedMemoryBytes}};
  return O;
}

Expected<std::pair<uint64_t, std::string>>
tle::driver::kernelFromJSON(const json::Object &O,
                            backend::CompiledKernel &K) {
  auto Missing = [](StringRef Key) {
    return createStringError("kernel metadata lacks '" + Key + "'");
  };
  auto getString = [&](StringRef Key, std::string &Out) -> Error {
    std::optional<StringRef> V = O.getString(Key);
    if (!V)
      return Missing(Key);
    Out = V->str();
    return Error::success();
  };
  auto getInt = [](const json::Object &Obj, StringRef Key,
                   auto &Out) -> Error {
    std::optional<int64_t> V = Obj.getInteger(Key);
    if (!V || *V < 0)
      return createStringError("kernel metadata lacks '" + Key + "'");
    Out = *V;
    return Error::success();
  };
  std::string Sha;
  uint64_t Size = 0;
  if (Error E = getString("format", K.Format))
    return std::move(E);
  if (Error E = getString("entry", K.EntryName))
    return std::move(E);
  if (Error E = getString("binary_sha256", Sha))
    return std::move(E);
  if (Error E = getInt(O, "threads_per_block", K.ThreadsPerBlock))
    return std::move(E);
  if (Error E = getInt(O, "shared_memory_bytes", K.SharedMemoryBytes))
    return std::move(E);
  if (Error E = getInt(O, "binary_size", Size))
    return std::move(E);
  if (const json::Object *R = O.getObject("resources")) {
    backend::ResourceUsage U;
    for (auto [Key, Field] :
         {std::pair{"spill_store_bytes", &U.SpillStoreBytes},
          std::pair{"spill_load_bytes", &U.SpillLoadBytes},
          std::pair{"stack_frame_bytes", &U.StackFrameBytes},
          std::pair{"static_shared_memory_bytes",
                    &U.StaticSharedMemoryBytes}})
      if (Error E = getInt(*R, Key, *Field))
        return std::move(E);
    if (Error E = getInt(*R, "registers", U.Registers))
      return std::move(E);
    K.Resources = U;
  }
  return std::make_pair(Size, Sha);
}
