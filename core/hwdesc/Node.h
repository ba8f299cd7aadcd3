//===- Node.h - Located YAML tree for hardware descriptions -----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// yaml-cpp nodes are copied into this small tree right after parsing so that
// (1) no yaml-cpp type or exception leaves Yaml.cpp, (2) every key and value
// keeps the file, line and column it came from, which survives `extends`
// merging, so errors in inherited keys point at the base file, and (3)
// duplicate keys, which yaml-cpp accepts silently, can be reported.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_HWDESC_NODE_H
#define TLE_CORE_HWDESC_NODE_H

#include "core/hwdesc/HwDesc.h"

#include <memory>
#include <string>
#include <vector>

namespace tle {
namespace hwdesc {

struct Loc {
  std::shared_ptr<const std::string> File;
  unsigned Line = 0;
  unsigned Col = 0;
};

struct MapEntry;

struct Node {
  enum KindTy { Scalar, Seq, Map, Null } Kind = Null;
  Loc L;
  /// Scalar text as written (without quotes).
  std::string Text;
  /// True if the scalar was quoted, so that "true" stays a string.
  bool Quoted = false;
  std::vector<Node> Items;
  std::vector<MapEntry> Entries;

  const Node *get(llvm::StringRef Key) const;
  Node *get(llvm::StringRef Key);
  const MapEntry *getEntry(llvm::StringRef Key) const;
};

struct MapEntry {
  std::string Key;
  Loc KeyLoc;
  Node Value;
};

inline const MapEntry *Node::getEntry(llvm::StringRef Key) const {
  for (const MapEntry &E : Entries)
    if (E.Key == Key)
      return &E;
  return nullptr;
}
inline const Node *Node::get(llvm::StringRef Key) const {
  const MapEntry *E = getEntry(Key);
  return E ? &E->Value : nullptr;
}
inline Node *Node::get(llvm::StringRef Key) {
  return const_cast<Node *>(static_cast<const Node *>(this)->get(Key));
}

/// Collects diagnostics; shared by the parser, the resolver and the checks.
class DiagSink {
public:
  explicit DiagSink(std::vector<Diagnostic> &Out) : Out(Out) {}
  void error(const Loc &L, llvm::StringRef Path, llvm::StringRef Message,
             llvm::StringRef Expected = "");
  void error(llvm::StringRef File, llvm::StringRef Message);
  size_t count() const { return Out.size() - Start; }

private:
  std::vector<Diagnostic> &Out;
  size_t Start = Out.size();
};

/// Parses YAML text into a located tree. Reports syntax errors, duplicate
/// keys, non-scalar keys and oversized inputs; never throws.
std::optional<Node> parseYaml(llvm::StringRef Text, llvm::StringRef FileName,
                              DiagSink &Diags);

/// Checks Root against the schema and the cross-key consistency rules.
/// Abstract descriptions skip required keys and consistency.
void validate(const Node &Root, bool Abstract, DiagSink &Diags);

/// Converts a resolved, validated tree into the model; fills only what the
/// schema guarantees to be well-typed.
std::unique_ptr<HwDesc> buildHwDesc(std::shared_ptr<const Node> Tree,
                                    llvm::StringRef SourceFile);

/// The closest candidate within a small edit distance, or empty.
std::string closestMatch(llvm::StringRef Word,
                         llvm::ArrayRef<std::string> Candidates);

} // namespace hwdesc
} // namespace tle

#endif // TLE_CORE_HWDESC_NODE_H
