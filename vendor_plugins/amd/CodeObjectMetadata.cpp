//===- CodeObjectMetadata.cpp - What a code object says of a kernel -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "CodeObjectMetadata.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace tle {
namespace amd {

static Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "amd plugin: the code object " + Message);
}

/// The MessagePack blob of the AMDGPU metadata note.
static Expected<std::string>
findMetadataNote(const object::ELF64LEFile &Elf) {
  auto Headers = Elf.program_headers();
  if (!Headers)
    return Headers.takeError();
  for (const auto &Phdr : *Headers) {
    if (Phdr.p_type != ELF::PT_NOTE)
      continue;
    Error Err = Error::success();
    for (const auto &Note : Elf.notes(Phdr, Err))
      if (Note.getName() == "AMDGPU" &&
          Note.getType() == ELF::NT_AMDGPU_METADATA)
        return Note.getDescAsStringRef(4).str();
    if (Err)
      return std::move(Err);
  }
  return makeError("has no NT_AMDGPU_METADATA note");
}

/// A non-negative integer field of Map; MessagePack stores small ones
/// either as signed or unsigned.
static uint64_t getInteger(msgpack::MapDocNode &Map, StringRef Key) {
  auto It = Map.find(Key);
  if (It == Map.end())
    return 0;
  msgpack::DocNode &Node = It->second;
  if (Node.getKind() == msgpack::Type::UInt)
    return Node.getUInt();
  if (Node.getKind() == msgpack::Type::Int && Node.getInt() >= 0)
    return Node.getInt();
  return 0;
}

/// A scalar node as text: integers in decimal, booleans as true/false,
/// strings as they are; "" for anything else (arrays, maps).
static std::string toText(msgpack::DocNode &Node) {
  switch (Node.getKind()) {
  case msgpack::Type::UInt:
    return std::to_string(Node.getUInt());
  case msgpack::Type::Int:
    return std::to_string(Node.getInt());
  case msgpack::Type::Boolean:
    return Node.getBool() ? "true" : "false";
  case msgpack::Type::String:
    return Node.getString().str();
  default:
    return "";
  }
}

ArrayRef<std::pair<StringLiteral, StringLiteral>> getPropertyKeys() {
  // Key (without its dot) and unit. The note has more (e.g. .language);
  // these are the ones that say what a launch needs and costs.
  static const std::pair<StringLiteral, StringLiteral> Keys[] = {
      {"wavefront_size", "lanes"},
      {"sgpr_count", "registers"},
      {"vgpr_count", "registers"},
      {"agpr_count", "registers"},
      {"sgpr_spill_count", "registers"},
      {"vgpr_spill_count", "registers"},
      {"group_segment_fixed_size", "bytes"},
      {"private_segment_fixed_size", "bytes"},
      {"kernarg_segment_size", "bytes"},
      {"kernarg_segment_align", "bytes"},
      {"max_flat_workgroup_size", "work-items"},
      {"uses_dynamic_stack", ""},
  };
  return Keys;
}

static std::string getString(msgpack::MapDocNode &Map, StringRef Key) {
  auto It = Map.find(Key);
  if (It == Map.end() || !It->second.isString())
    return "";
  return It->second.getString().str();
}

Expected<KernelMetadata> readKernelMetadata(StringRef CodeObject,
                                            StringRef Kernel) {
  auto Elf = object::ELF64LEFile::create(CodeObject);
  if (!Elf)
    return makeError("is not a 64-bit ELF file: " +
                     toString(Elf.takeError()));
  if (Elf->getHeader().e_machine != ELF::EM_AMDGPU)
    return makeError("is not an AMDGPU ELF file");
  if (Elf->getHeader().e_type != ELF::ET_DYN)
    return makeError("is not a shared object (ld.lld -shared makes one)");

  Expected<std::string> Blob = findMetadataNote(*Elf);
  if (!Blob)
    return Blob.takeError();
  msgpack::Document Doc;
  if (!Doc.readFromBlob(*Blob, /*Multi=*/false) || !Doc.getRoot().isMap())
    return makeError("has an unreadable AMDGPU metadata note");
  msgpack::MapDocNode Root = Doc.getRoot().getMap();

  KernelMetadata Result;
  Result.Target = getString(Root, "amdhsa.target");
  auto Kernels = Root.find("amdhsa.kernels");
  if (Kernels == Root.end() || !Kernels->second.isArray())
    return makeError("metadata lists no kernels (amdhsa.kernels)");
  for (msgpack::DocNode &Node : Kernels->second.getArray()) {
    if (!Node.isMap())
      continue;
    msgpack::MapDocNode Map = Node.getMap();
    if (getString(Map, ".name") != Kernel)
      continue;
    Result.Name = Kernel.str();
    Result.DescriptorSymbol = getString(Map, ".symbol");
    Result.KernargSegmentSize = getInteger(Map, ".kernarg_segment_size");
    Result.KernargSegmentAlign = getInteger(Map, ".kernarg_segment_align");
    Result.GroupSegmentFixedSize =
        getInteger(Map, ".group_segment_fixed_size");
    Result.PrivateSegmentFixedSize =
        getInteger(Map, ".private_segment_fixed_size");
    Result.SgprCount = getInteger(Map, ".sgpr_count");
    Result.VgprCount = getInteger(Map, ".vgpr_count");
    Result.AgprCount = getInteger(Map, ".agpr_count");
    Result.SgprSpillCount = getInteger(Map, ".sgpr_spill_count");
    Result.VgprSpillCount = getInteger(Map, ".vgpr_spill_count");
    Result.WavefrontSize = getInteger(Map, ".wavefront_size");
    Result.MaxFlatWorkgroupSize = getInteger(Map, ".max_flat_workgroup_size");
    auto Args = Map.find(".args");
    if (Args != Map.end() && Args->second.isArray())
      for (msgpack::DocNode &ArgNode : Args->second.getArray()) {
        if (!ArgNode.isMap())
          continue;
        msgpack::MapDocNode Arg = ArgNode.getMap();
        backend::KernelArgumentSlot Slot;
        Slot.Name = getString(Arg, ".name");
        Slot.Kind = getString(Arg, ".value_kind");
        Slot.Offset = getInteger(Arg, ".offset");
        Slot.Size = getInteger(Arg, ".size");
        Result.Arguments.push_back(std::move(Slot));
      }
    llvm::stable_sort(Result.Arguments, [](const auto &L, const auto &R) {
      return L.Offset < R.Offset;
    });
    for (auto [Key, Unit] : getPropertyKeys()) {
      auto It = Map.find(("." + Key).str());
      if (It == Map.end())
        continue;
      std::string Value = toText(It->second);
      if (!Value.empty())
        Result.Properties.push_back({Key.str(), Value, Unit.str()});
    }
    break;
  }
  if (Result.Name.empty())
    return makeError("metadata does not describe kernel '" + Kernel + "'");

  // The loader finds the kernel through its descriptor symbol; the code
  // must be there too.
  auto Sections = Elf->sections();
  if (!Sections)
    return Sections.takeError();
  StringSet<> Symbols;
  for (const auto &Section : *Sections) {
    if (Section.sh_type != ELF::SHT_SYMTAB &&
        Section.sh_type != ELF::SHT_DYNSYM)
      continue;
    auto Syms = Elf->symbols(&Section);
    if (!Syms)
      return Syms.takeError();
    Expected<StringRef> Strings = Elf->getStringTableForSymtab(Section);
    if (!Strings)
      return Strings.takeError();
    for (const auto &Sym : *Syms) {
      Expected<StringRef> Name = Sym.getName(*Strings);
      if (!Name)
        return Name.takeError();
      Symbols.insert(*Name);
    }
  }
  if (Result.DescriptorSymbol.empty() ||
      !Symbols.contains(Result.DescriptorSymbol))
    return makeError("has no kernel descriptor for '" + Kernel + "'");
  if (!Symbols.contains(Kernel))
    return makeError("has no code for '" + Kernel + "'");
  return Result;
}

} // namespace amd
} // namespace tle
