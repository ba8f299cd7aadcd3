//===- Cache.cpp - The compile cache shared by tlec processes -------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/Cache.h"
#include "core/driver/KernelMetadata.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tle;
using namespace tle::driver;

/// First line of every entry; bump the number when the layout changes so
/// that older entries read as misses.
static constexpr StringLiteral EntryMagic = "tle-cache-entry 1\n";

void CacheKey::add(StringRef Field, StringRef Value) {
  for (StringRef S : {Field, Value}) {
    uint64_t Size = S.size();
    Hash.update(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&Size),
                                  sizeof(Size)));
    Hash.update(S);
  }
}

void CacheKey::add(StringRef Field, uint64_t Value) {
  add(Field, StringRef(utostr(Value)));
}

void CacheKey::addFileStamp(StringRef Field, StringRef File) {
  sys::fs::file_status Status;
  if (sys::fs::status(File, Status)) {
    add(Field, "missing");
    return;
  }
  add(Field, (Twine(Status.getSize()) + "@" +
              Twine(Status.getLastModificationTime()
                        .time_since_epoch()
                        .count()))
                 .str());
}

std::string CacheKey::final() {
  return toHex(Hash.final(), /*LowerCase=*/true);
}

std::string CompileCache::getDefaultDirectory() {
  if (std::optional<std::string> Dir = sys::Process::GetEnv("TLE_CACHE_DIR"))
    return *Dir;
  SmallString<256> Path;
  if (std::optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME"))
    Path = *Xdg;
  else if (sys::path::home_directory(Path))
    sys::path::append(Path, ".cache");
  else
    // No home: a per-process-tree cache is still better than failing.
    sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Path);
  sys::path::append(Path, "tle");
  return Path.str().str();
}

std::string CompileCache::getEntryPath(StringRef Key) const {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Key + ".entry");
  return Path.str().str();
}

std::optional<backend::CompiledKernel>
CompileCache::lookup(StringRef Key) const {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(getEntryPath(Key), /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  // Layout: magic, the metadata's length in decimal and a newline, the
  // metadata (JSON), then the binary.
  StringRef Data = (*Buf)->getBuffer();
  if (!Data.consume_front(EntryMagic))
    return std::nullopt;
  auto [LengthText, Rest] = Data.split('\n');
  size_t Length;
  if (LengthText.getAsInteger(10, Length) || Length > Rest.size())
    return std::nullopt;
  Expected<json::Value> Meta = json::parse(Rest.take_front(Length));
  if (!Meta) {
    consumeError(Meta.takeError());
    return std::nullopt;
  }
  const json::Object *Object = Meta->getAsObject();
  if (!Object)
    return std::nullopt;
  backend::CompiledKernel Kernel;
  Expected<std::pair<uint64_t, std::string>> Check =
      kernelFromJSON(*Object, Kernel);
  if (!Check) {
    consumeError(Check.takeError());
    return std::nullopt;
  }
  StringRef Binary = Rest.drop_front(Length);
  if (Binary.size() != Check->first || sha256Hex(Binary) != Check->second)
    return std::nullopt;
  Kernel.Binary = Binary.str();
  return Kernel;
}

Error CompileCache::store(StringRef Key,
                          const backend::CompiledKernel &Kernel) const {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError("cannot create cache directory '" + Dir +
                             "': " + EC.message());
  std::string Meta;
  raw_string_ostream(Meta) << json::Value(kernelToJSON(Kernel));

  // A unique temporary name in the cache directory itself: rename() is
  // atomic only within one file system.
  SmallString<256> Temp;
  int FD;
  if (std::error_code EC = sys::fs::createUniqueFile(
          getEntryPath(Key) + ".tmp-%%%%%%%%", FD, Temp))
    return createStringError("cannot write to cache directory '" + Dir +
                             "': " + EC.message());
  std::error_code EC;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << EntryMagic << Meta.size() << '\n' << Meta << Kernel.Binary;
    OS.close();
    EC = OS.error();
    OS.clear_error();
  }
  if (!EC)
    EC = sys::fs::rename(Temp, getEntryPath(Key));
  if (EC) {
    sys::fs::remove(Temp);
    return createStringError("cannot write cache entry in '" + Dir +
                             "': " + EC.message());
  }
  return Error::success();
}
