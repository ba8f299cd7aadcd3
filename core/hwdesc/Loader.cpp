//===- Loader.cpp - Reading and resolving hardware descriptions -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Reads a description, resolves its `extends:` chain and merges the bases in,
// then validates the result. Merging works on located trees, so a key that a
// chip inherits from its family file is reported at its place in the family
// file.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/HwDesc.h"
#include "core/hwdesc/Node.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace tle {
namespace hwdesc {

// Real descriptions are a few KiB; the cap keeps `extends: /dev/zero` or a
// huge file from exhausting memory.
static constexpr uint64_t MaxFileSize = 1 << 20;

static bool isRegularFile(const Twine &Path) {
  sys::fs::file_status St;
  return !sys::fs::status(Path, St) && sys::fs::is_regular_file(St);
}

/// Reads a file, or explains in one sentence why it could not.
static std::optional<std::string> readFile(StringRef Path, std::string &Why) {
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St)) {
    Why = EC.message();
    return std::nullopt;
  }
  if (!sys::fs::is_regular_file(St)) {
    Why = "not a regular file";
    return std::nullopt;
  }
  if (St.getSize() > MaxFileSize) {
    Why = "file is larger than 1 MiB";
    return std::nullopt;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true,
                            /*RequiresNullTerminator=*/false);
  if (!Buf) {
    Why = Buf.getError().message();
    return std::nullopt;
  }
  return (*Buf)->getBuffer().str();
}

/// Lists of maps that all have a distinct scalar `name` merge by name (a chip
/// can override one memory level); any other list is replaced as a whole, so
/// that duplicate names reach the validator instead of being merged away.
static bool isNamedList(const Node &N) {
  StringSet<> Names;
  return N.Kind == Node::Seq && all_of(N.Items, [&](const Node &I) {
           const Node *Name = I.Kind == Node::Map ? I.get("name") : nullptr;
           return Name && Name->Kind == Node::Scalar &&
                  Names.insert(Name->Text).second;
         });
}

static void merge(Node &Base, Node &&Derived) {
  if (Base.Kind == Node::Map && Derived.Kind == Node::Map) {
    for (MapEntry &E : Derived.Entries) {
      auto It = find_if(Base.Entries,
                        [&](const MapEntry &B) { return B.Key == E.Key; });
      if (It == Base.Entries.end()) {
        Base.Entries.push_back(std::move(E));
        continue;
      }
      It->KeyLoc = E.KeyLoc;
      merge(It->Value, std::move(E.Value));
    }
    // Missing-key errors belong to the file being loaded, not to the base.
    Base.L = Derived.L;
    return;
  }
  if (isNamedList(Base) && isNamedList(Derived) && !Derived.Items.empty()) {
    // Levels are ordered, so a new element goes right after the element that
    // precedes it in the derived list (or first, if none does).
    size_t InsertAt = 0;
    for (Node &D : Derived.Items) {
      auto It = find_if(Base.Items, [&](const Node &B) {
        return B.get("name")->Text == D.get("name")->Text;
      });
      if (It == Base.Items.end()) {
        Base.Items.insert(Base.Items.begin() + InsertAt, std::move(D));
        ++InsertAt;
        continue;
      }
      merge(*It, std::move(D));
      InsertAt = It - Base.Items.begin() + 1;
    }
    Base.L = Derived.L;
    return;
  }
  Base = std::move(Derived);
}

/// Turns a target name into the file names it may have: `H100 SXM` ->
/// `H100 SXM.yaml`, `h100 sxm.yaml`, `h100-sxm.yaml`.
static std::vector<std::string> candidateFileNames(StringRef Name) {
  std::vector<std::string> Out;
  auto Add = [&](std::string S) {
    if (!StringRef(S).ends_with(".yaml"))
      S += ".yaml";
    if (!is_contained(Out, S))
      Out.push_back(S);
  };
  Add(Name.str());
  std::string Lower = Name.lower();
  Add(Lower);
  for (char &C : Lower)
    if (C == ' ' || C == '_')
      C = '-';
  Add(Lower);
  return Out;
}

static std::optional<std::string> findInDirs(StringRef Name,
                                             ArrayRef<std::string> Dirs) {
  for (const std::string &Dir : Dirs)
    for (const std::string &File : candidateFileNames(Name)) {
      SmallString<256> P(Dir);
      sys::path::append(P, File);
      if (isRegularFile(P))
        return std::string(P);
    }
  return std::nullopt;
}

std::optional<std::string> findTarget(StringRef NameOrPath,
                                      ArrayRef<std::string> SearchPath) {
  if (NameOrPath.empty())
    return std::nullopt;
  if (isRegularFile(NameOrPath))
    return NameOrPath.str();
  if (NameOrPath.contains('/'))
    return std::nullopt;
  return findInDirs(NameOrPath, SearchPath);
}

std::vector<std::string> getDefaultSearchPath() {
  std::vector<std::string> Path;
  if (std::optional<std::string> Env =
          sys::Process::GetEnv("TLE_HWDESC_PATH")) {
    SmallVector<StringRef, 4> Parts;
    StringRef(*Env).split(Parts, ':', -1, /*KeepEmpty=*/false);
    for (StringRef P : Parts)
      Path.push_back(P.str());
  }
#ifdef TLE_HWDESC_SOURCE_DIR
  // Development builds find the descriptions in the source tree, so that an
  // edited YAML file takes effect without reinstalling.
  if (sys::fs::is_directory(TLE_HWDESC_SOURCE_DIR))
    Path.push_back(TLE_HWDESC_SOURCE_DIR);
#endif
#ifdef TLE_HWDESC_INSTALL_DIR
  Path.push_back(TLE_HWDESC_INSTALL_DIR);
#endif
  return Path;
}

namespace {
class Resolver {
public:
  Resolver(const LoadOptions &Opts, DiagSink &Diags)
      : Opts(Opts), Diags(Diags) {}

  /// Parses Text and merges its bases in. Sets BaseFailed if a base could not
  /// be loaded, in which case only this file's own keys can be checked.
  std::optional<Node> resolve(StringRef Text, StringRef Name,
                              StringRef Identity);
  bool BaseFailed = false;

private:
  std::optional<std::string> locateBase(const Node &Ext, StringRef FromFile);

  const LoadOptions &Opts;
  DiagSink &Diags;
  /// Identities (real paths) of the files being resolved, for cycles.
  std::vector<std::string> Stack;
  std::vector<std::string> StackNames;
};
} // namespace

std::optional<std::string> Resolver::locateBase(const Node &Ext,
                                                StringRef FromFile) {
  StringRef Dir = sys::path::parent_path(FromFile);
  StringRef Value = Ext.Text;
  std::vector<std::string> Dirs{Dir.empty() ? std::string(".") : Dir.str()};
  if (Value.contains('/') || Value.ends_with(".yaml")) {
    SmallString<256> P;
    if (sys::path::is_absolute(Value) || Dir.empty())
      P = Value;
    else {
      P = Dirs[0];
      sys::path::append(P, Value);
    }
    if (isRegularFile(P))
      return std::string(P);
  } else {
    append_range(Dirs, Opts.SearchPath);
    if (std::optional<std::string> F = findInDirs(Value, Dirs))
      return F;
  }
  Diags.error(Ext.L, "extends", "cannot find '" + Value.str() + "'",
              "a path relative to the file, or a name in: " + join(Dirs, ", "));
  return std::nullopt;
}

std::optional<Node> Resolver::resolve(StringRef Text, StringRef Name,
                                      StringRef Identity) {
  Stack.push_back(Identity.str());
  StackNames.push_back(Name.str());
  scope_exit Pop([&] {
    Stack.pop_back();
    StackNames.pop_back();
  });
  std::optional<Node> Root = parseYaml(Text, Name, Diags);
  if (!Root || Root->Kind != Node::Map)
    return Root;
  const Node *Ext = Root->get("extends");
  if (!Ext)
    return Root;
  if (Ext->Kind != Node::Scalar) {
    // The schema check reports the type; without a base, missing keys would
    // only be noise.
    BaseFailed = true;
    return Root;
  }

  std::optional<std::string> BasePath = locateBase(*Ext, Name);
  if (!BasePath) {
    BaseFailed = true;
    return Root;
  }
  SmallString<256> Real;
  if (sys::fs::real_path(*BasePath, Real))
    Real = *BasePath;
  if (is_contained(Stack, std::string(Real))) {
    std::string Chain;
    for (const std::string &S : StackNames)
      Chain += sys::path::filename(S).str() + " -> ";
    Chain += sys::path::filename(*BasePath).str();
    Diags.error(Ext->L, "extends", "cycle: " + Chain,
                "a chain of bases that ends");
    BaseFailed = true;
    return Root;
  }
  std::string Why;
  std::optional<std::string> BaseText = readFile(*BasePath, Why);
  if (!BaseText) {
    Diags.error(Ext->L, "extends", "cannot read '" + *BasePath + "': " + Why);
    BaseFailed = true;
    return Root;
  }
  std::optional<Node> Base = resolve(*BaseText, *BasePath, Real);
  if (!Base || Base->Kind != Node::Map) {
    if (Base)
      Diags.error(Base->L, "", "base description is not a mapping",
                  "a mapping of keys");
    BaseFailed = true;
    return Root;
  }
  // `abstract` describes the base file itself and `extends` has been used;
  // neither is inherited.
  llvm::erase_if(Base->Entries, [](const MapEntry &E) {
    return E.Key == "abstract" || E.Key == "extends";
  });
  merge(*Base, std::move(*Root));
  return Base;
}

static std::unique_ptr<HwDesc> loadImpl(StringRef Text, StringRef Name,
                                        StringRef Identity,
                                        const LoadOptions &Opts,
                                        std::vector<Diagnostic> &Out) {
  DiagSink Diags(Out);
  Resolver R(Opts, Diags);
  std::optional<Node> Root = R.resolve(Text, Name, Identity);
  if (!Root)
    return nullptr;
  const Node *Abs = Root->Kind == Node::Map ? Root->get("abstract") : nullptr;
  bool Abstract = Abs && Abs->Kind == Node::Scalar && Abs->Text == "true";
  if (Abstract && !Opts.AllowAbstract)
    Diags.error(Abs->L, "abstract",
                "'" + Name.str() +
                    "' is a family base, not a chip; load a chip that "
                    "extends it");
  // With a broken base the merged tree is incomplete: check only the keys
  // this file wrote, so that its own mistakes still show up.
  size_t First = Out.size();
  validate(*Root, Abstract || R.BaseFailed, Diags);
  // Report in reading order: this file's problems first, then those in its
  // bases, each by line and column.
  // (Position breaks ties, keeping the sort stable without libstdc++'s
  // deprecated temporary buffer.)
  std::vector<std::pair<size_t, Diagnostic>> Sorted;
  for (size_t I = First; I < Out.size(); ++I)
    Sorted.emplace_back(I, std::move(Out[I]));
  llvm::sort(Sorted, [&](const auto &A, const auto &B) {
    auto Key = [&](const std::pair<size_t, Diagnostic> &P) {
      const Diagnostic &D = P.second;
      return std::make_tuple(D.File != Name, D.File, D.Line, D.Col, P.first);
    };
    return Key(A) < Key(B);
  });
  for (size_t I = 0; I < Sorted.size(); ++I)
    Out[First + I] = std::move(Sorted[I].second);
  if (Diags.count() || Abstract)
    return nullptr;
  return buildHwDesc(std::make_shared<const Node>(std::move(*Root)), Name);
}

std::unique_ptr<HwDesc> loadFile(StringRef Path, const LoadOptions &Opts,
                                 std::vector<Diagnostic> &Diags) {
  std::string Why;
  std::optional<std::string> Text = readFile(Path, Why);
  if (!Text) {
    DiagSink(Diags).error(Path, "cannot read file: " + Why);
    return nullptr;
  }
  SmallString<256> Real;
  if (sys::fs::real_path(Path, Real))
    Real = Path;
  return loadImpl(*Text, Path, Real, Opts, Diags);
}

std::unique_ptr<HwDesc> loadBuffer(StringRef Buffer, StringRef BufferName,
                                   const LoadOptions &Opts,
                                   std::vector<Diagnostic> &Diags) {
  return loadImpl(Buffer, BufferName, BufferName, Opts, Diags);
}

} // namespace hwdesc
} // namespace tle
