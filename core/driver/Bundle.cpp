//===- Bundle.cpp - Compiled kernels on disk: manifest and binaries -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/Bundle.h"
#include "core/driver/KernelMetadata.h"
#include "core/driver/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tle;
using namespace tle::driver;

/// Bumped when a reader of an older bundle could misread a newer one: 2
/// added targets[].tensor_maps, arguments a launcher must build.
static constexpr int64_t BundleVersion = 2;

std::string tle::driver::sanitizeFileName(StringRef Name) {
  std::string Out = Name.str();
  for (char &C : Out)
    if (!isAlnum(C) && C != '.' && C != '_' && C != '-')
      C = '-';
  return Out;
}

std::string tle::driver::getBinaryFileName(StringRef Kernel, StringRef Target,
                                           StringRef Format) {
  return sanitizeFileName((Kernel + "." + Target + "." + Format).str());
}

static std::string render(const json::Value &V) {
  std::string Text;
  raw_string_ostream OS(Text);
  json::OStream J(OS, /*IndentSize=*/2);
  J.value(V);
  OS << '\n';
  return Text;
}

std::string tle::driver::renderManifest(const KernelBundle &B) {
  json::Object Defines;
  for (const auto &[Name, Value] : B.Spec.Defines)
    Defines[Name] = Value;
  json::Array Params;
  for (const KernelParam &P : B.Params)
    Params.push_back(json::Object{{"name", P.Name}, {"type", P.Type}});

  std::vector<const BundleTarget *> Sorted;
  for (const BundleTarget &T : B.Targets)
    Sorted.push_back(&T);
  llvm::sort(Sorted, [](const BundleTarget *L, const BundleTarget *R) {
    return L->Target < R->Target;
  });
  json::Array Targets;
  for (const BundleTarget *T : Sorted) {
    json::Object O = kernelToJSON(T->Kernel);
    O["target"] = T->Target;
    O["arch"] = T->Arch;
    O["backend"] = T->Backend;
    O["plugin"] = json::Object{{"name", T->PluginName},
                               {"version", T->PluginVersion}};
    O["binary"] = getBinaryFileName(B.Kernel, T->Target, T->Kernel.Format);
    O["num_warps"] = T->NumWarps;
    Targets.push_back(std::move(O));
  }

  return render(json::Object{
      {"bundle_version", BundleVersion},
      {"compiler", getCompilerVersion()},
      {"kernel", B.Kernel},
      {"source",
       json::Object{{"file", B.SourceName}, {"sha256", B.SourceSHA256}}},
      {"specialization", json::Object{{"defines", std::move(Defines)},
                                      {"signature", B.Spec.Signature},
                                      {"num_warps", B.Spec.NumWarps},
                                      {"num_stages", B.Spec.NumStages},
                                      {"opt_level", B.Spec.OptLevel}}},
      {"parameters", std::move(Params)},
      {"targets", std::move(Targets)}});
}

FileMap tle::driver::getBundleFiles(const KernelBundle &B) {
  FileMap Files;
  std::string Dir = sanitizeFileName(B.Kernel);
  Files[Dir + "/manifest.json"] = renderManifest(B);
  for (const BundleTarget &T : B.Targets)
    Files[Dir + "/" +
          getBinaryFileName(B.Kernel, T.Target, T.Kernel.Format)] =
        T.Kernel.Binary;
  return Files;
}

static Error writeFile(StringRef Path, StringRef Data) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (!EC) {
    OS << Data;
    OS.close();
    EC = OS.error();
    OS.clear_error();
  }
  if (EC)
    return createFileError(Path, EC);
  return Error::success();
}

/// A new, empty directory named after Model (with '%' placeholders).
static Expected<std::string> createUniqueDirectory(const Twine &Model) {
  for (int Attempt = 0; Attempt < 16; ++Attempt) {
    SmallString<256> Path;
    sys::fs::createUniquePath(Model, Path, /*MakeAbsolute=*/false);
    std::error_code EC =
        sys::fs::create_directory(Path, /*IgnoreExisting=*/false);
    if (!EC)
      return Path.str().str();
    if (EC != std::errc::file_exists)
      return createFileError(Path, EC);
  }
  return createStringError("no unused name for " + Model);
}

/// Fills Dir with Files and index.json.
static Error populate(StringRef Dir, const FileMap &Files,
                      ArrayRef<std::string> Kernels) {
  std::vector<std::string> Sorted(Kernels.begin(), Kernels.end());
  llvm::sort(Sorted);
  json::Array KernelList;
  for (const std::string &K : Sorted)
    KernelList.push_back(sanitizeFileName(K));
  SmallString<256> Index(Dir);
  sys::path::append(Index, "index.json");
  if (Error E = writeFile(Index, render(json::Object{
                                     {"bundle_version", BundleVersion},
                                     {"compiler", getCompilerVersion()},
                                     {"kernels", std::move(KernelList)}})))
    return E;
  for (const auto &[Name, Data] : Files) {
    SmallString<256> Path(Dir);
    sys::path::append(Path, Name);
    if (std::error_code EC =
            sys::fs::create_directories(sys::path::parent_path(Path)))
      return createFileError(sys::path::parent_path(Path), EC);
    if (Error E = writeFile(Path, Data))
      return E;
  }
  return Error::success();
}

/// Whether Dir may be replaced: empty, or an output directory of tlec.
static Error checkReplaceable(StringRef Dir) {
  if (!sys::fs::is_directory(Dir))
    return createStringError("it exists and is not a directory");
  SmallString<256> Index(Dir);
  sys::path::append(Index, "index.json");
  if (sys::fs::exists(Index))
    return Error::success();
  std::error_code EC;
  sys::fs::directory_iterator It(Dir, EC);
  if (EC)
    return createStringError(EC.message());
  if (It != sys::fs::directory_iterator())
    return createStringError("it is a non-empty directory that tlec did not "
                             "write (no index.json); refusing to replace it");
  return Error::success();
}

Error tle::driver::writeOutputDirectory(StringRef OutDir, const FileMap &Files,
                                        ArrayRef<std::string> Kernels) {
  auto Fail = [&](Error E) {
    return createStringError("cannot write output directory '" + OutDir +
                             "': " + toString(std::move(E)));
  };
  SmallString<256> Out(OutDir);
  if (std::error_code EC = sys::fs::make_absolute(Out))
    return Fail(errorCodeToError(EC));
  sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  bool Exists = sys::fs::exists(Out);
  if (Exists)
    if (Error E = checkReplaceable(Out))
      return Fail(std::move(E));
  StringRef Parent = sys::path::parent_path(Out);
  if (std::error_code EC = sys::fs::create_directories(Parent))
    return Fail(createFileError(Parent, EC));
  if (!sys::fs::is_directory(Parent))
    return Fail(createStringError("'" + Parent + "' is not a directory"));

  // Built beside OutDir so that the final rename stays on one file system.
  Expected<std::string> Temp = createUniqueDirectory(Out + ".tmp-%%%%%%");
  if (!Temp)
    return Fail(createStringError("cannot create a directory in '" + Parent +
                                  "': " + toString(Temp.takeError())));
  scope_exit Cleanup([&] { sys::fs::remove_directories(*Temp); });
  if (Error E = populate(*Temp, Files, Kernels))
    return Fail(std::move(E));

  if (!Exists) {
    if (std::error_code EC = sys::fs::rename(*Temp, Out))
      return Fail(errorCodeToError(EC));
    Cleanup.release();
    return Error::success();
  }
  // rename() cannot replace a non-empty directory: move the old one aside
  // first and put it back if the new one cannot take its place.
  SmallString<256> Old;
  sys::fs::createUniquePath(Out + ".old-%%%%%%", Old, /*MakeAbsolute=*/false);
  if (std::error_code EC = sys::fs::rename(Out, Old))
    return Fail(errorCodeToError(EC));
  if (std::error_code EC = sys::fs::rename(*Temp, Out)) {
    sys::fs::rename(Old, Out);
    return Fail(errorCodeToError(EC));
  }
  Cleanup.release();
  sys::fs::remove_directories(Old);
  return Error::success();
}
