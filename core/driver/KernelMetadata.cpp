//===- KernelMetadata.cpp - A compiled kernel's metadata as JSON ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/KernelMetadata.h"

#include "core/runtime/Runtime.h"

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
  // Only kernels that take the argument say so: other manifests stay as
  // they were.
  if (K.GlobalScratchBytes)
    O["global_scratch_bytes"] = K.GlobalScratchBytes;
  runtime::writeLaunchTensorMaps(O, K.LaunchTensorMaps);
  if (const std::optional<backend::ResourceUsage> &R = K.Resources)
    O["resources"] = json::Object{
        {"registers", R->Registers},
        {"spill_store_bytes", R->SpillStoreBytes},
        {"spill_load_bytes", R->SpillLoadBytes},
        {"stack_frame_bytes", R->StackFrameBytes},
        {"static_shared_memory_bytes", R->StaticSharedMemoryBytes}};
  // Arrays keep the plugin's order; empty ones are left out so that
  // manifests of plugins that report none stay as they were.
  if (!K.Properties.empty()) {
    json::Array Properties;
    for (const backend::KernelProperty &P : K.Properties) {
      json::Object Entry{{"name", P.Name}, {"value", P.Value}};
      if (!P.Unit.empty())
        Entry["unit"] = P.Unit;
      Properties.push_back(std::move(Entry));
    }
    O["properties"] = std::move(Properties);
  }
  if (!K.ArgumentLayout.empty()) {
    json::Array Layout;
    for (const backend::KernelArgumentSlot &A : K.ArgumentLayout) {
      json::Object Entry{
          {"kind", A.Kind}, {"offset", A.Offset}, {"size", A.Size}};
      if (!A.Name.empty())
        Entry["name"] = A.Name;
      Layout.push_back(std::move(Entry));
    }
    O["argument_layout"] = std::move(Layout);
  }
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
  if (O.get("global_scratch_bytes"))
    if (Error E = getInt(O, "global_scratch_bytes", K.GlobalScratchBytes))
      return std::move(E);
  Expected<std::vector<backend::LaunchTensorMap>> Maps =
      runtime::readLaunchTensorMaps(O);
  if (!Maps)
    return Maps.takeError();
  K.LaunchTensorMaps = std::move(*Maps);
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
  auto getText = [](const json::Object &Obj, StringRef Key, bool Required,
                    std::string &Out) -> Error {
    std::optional<StringRef> V = Obj.getString(Key);
    if (!V && Required)
      return createStringError("kernel metadata lacks '" + Key + "'");
    Out = V ? V->str() : "";
    return Error::success();
  };
  if (const json::Value *V = O.get("properties")) {
    const json::Array *Properties = V->getAsArray();
    if (!Properties)
      return createStringError("kernel metadata: 'properties' is no array");
    for (const json::Value &Item : *Properties) {
      const json::Object *P = Item.getAsObject();
      if (!P)
        return createStringError("kernel metadata: a property is no object");
      backend::KernelProperty Property;
      if (Error E = getText(*P, "name", true, Property.Name))
        return std::move(E);
      if (Error E = getText(*P, "value", true, Property.Value))
        return std::move(E);
      if (Error E = getText(*P, "unit", false, Property.Unit))
        return std::move(E);
      K.Properties.push_back(std::move(Property));
    }
  }
  if (const json::Value *V = O.get("argument_layout")) {
    const json::Array *Layout = V->getAsArray();
    if (!Layout)
      return createStringError(
          "kernel metadata: 'argument_layout' is no array");
    for (const json::Value &Item : *Layout) {
      const json::Object *A = Item.getAsObject();
      if (!A)
        return createStringError(
            "kernel metadata: an argument slot is no object");
      backend::KernelArgumentSlot Slot;
      if (Error E = getText(*A, "kind", true, Slot.Kind))
        return std::move(E);
      if (Error E = getText(*A, "name", false, Slot.Name))
        return std::move(E);
      if (Error E = getInt(*A, "offset", Slot.Offset))
        return std::move(E);
      if (Error E = getInt(*A, "size", Slot.Size))
        return std::move(E);
      K.ArgumentLayout.push_back(std::move(Slot));
    }
  }
  return std::make_pair(Size, Sha);
}
