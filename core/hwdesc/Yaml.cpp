//===- Yaml.cpp - yaml-cpp front end for hardware descriptions ------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The only translation unit that sees yaml-cpp. It is compiled with
// -fexceptions; every exception is caught here and turned into a diagnostic,
// so none crosses into LLVM frames (which are built without exceptions).
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/Node.h"

#include <yaml-cpp/yaml.h>

#include <exception>

using namespace llvm;

namespace tle {
namespace hwdesc {

namespace {
/// Copies a yaml-cpp tree into a located Node tree.
class Converter {
public:
  Converter(std::shared_ptr<const std::string> File, DiagSink &Diags)
      : File(std::move(File)), Diags(Diags) {}

  bool convert(const YAML::Node &In, const Loc &Parent, Node &Out,
               unsigned Depth);

private:
  Loc locOf(const YAML::Mark &M, const Loc &Fallback) const {
    // Implicit nulls (`key:` with no value) carry no mark of their own.
    if (M.line < 0 || M.column < 0)
      return Fallback;
    return Loc{File, unsigned(M.line) + 1, unsigned(M.column) + 1};
  }

  std::shared_ptr<const std::string> File;
  DiagSink &Diags;
  // Anchors and aliases can make a small text expand exponentially ("billion
  // laughs"); real descriptions have a few hundred nodes.
  static constexpr unsigned MaxNodes = 100000;
  static constexpr unsigned MaxDepth = 64;
  unsigned NumNodes = 0;
  bool Aborted = false;
};
} // namespace

bool Converter::convert(const YAML::Node &In, const Loc &Parent, Node &Out,
                        unsigned Depth) {
  if (Aborted)
    return false;
  Out.L = locOf(In.Mark(), Parent);
  if (++NumNodes > MaxNodes || Depth > MaxDepth) {
    Diags.error(Out.L, "",
                NumNodes > MaxNodes ? "description is too large"
                                    : "description is nested too deeply",
                NumNodes > MaxNodes ? "at most 100000 nodes"
                                    : "at most 64 levels");
    Aborted = true;
    return false;
  }
  switch (In.Type()) {
  case YAML::NodeType::Undefined:
  case YAML::NodeType::Null:
    Out.Kind = Node::Null;
    return true;
  case YAML::NodeType::Scalar:
    Out.Kind = Node::Scalar;
    Out.Text = In.Scalar();
    // yaml-cpp tags quoted scalars "!" and plain ones "?".
    Out.Quoted = In.Tag() == "!";
    return true;
  case YAML::NodeType::Sequence:
    Out.Kind = Node::Seq;
    for (const YAML::Node &Item : In) {
      Out.Items.emplace_back();
      if (!convert(Item, Out.L, Out.Items.back(), Depth + 1))
        return false;
    }
    return true;
  case YAML::NodeType::Map:
    Out.Kind = Node::Map;
    for (auto It = In.begin(); It != In.end(); ++It) {
      MapEntry E;
      E.KeyLoc = locOf(It->first.Mark(), Out.L);
      if (!It->first.IsScalar()) {
        Diags.error(E.KeyLoc, "", "mapping keys must be plain scalars");
        continue;
      }
      E.Key = It->first.Scalar();
      if (const MapEntry *Prev = Out.getEntry(E.Key)) {
        Diags.error(E.KeyLoc, E.Key, "duplicate key",
                    "each key once; first defined at line " +
                        std::to_string(Prev->KeyLoc.Line));
        continue;
      }
      if (!convert(It->second, E.KeyLoc, E.Value, Depth + 1))
        return false;
      // yaml-cpp marks an empty value where the next token starts, often
      // lines later; the key is where the reader should look.
      if (E.Value.Kind == Node::Null)
        E.Value.L = E.KeyLoc;
      Out.Entries.push_back(std::move(E));
    }
    return true;
  }
  return true;
}

std::optional<Node> parseYaml(StringRef Text, StringRef FileName,
                              DiagSink &Diags) {
  auto File = std::make_shared<const std::string>(FileName.str());
  try {
    YAML::Node Doc = YAML::Load(Text.str());
    Node Root;
    Converter C(File, Diags);
    // Duplicate or non-scalar keys are reported but the rest of the tree is
    // kept so that validation can report further problems in the same run.
    if (!C.convert(Doc, Loc{File, 1, 1}, Root, 0))
      return std::nullopt;
    return Root;
  } catch (const YAML::Exception &E) {
    Loc L{File, 1, 1};
    if (E.mark.line >= 0 && E.mark.column >= 0)
      L = Loc{File, unsigned(E.mark.line) + 1, unsigned(E.mark.column) + 1};
    Diags.error(L, "", "invalid YAML: " + E.msg);
  } catch (const std::exception &E) {
    Diags.error(Loc{File, 1, 1}, "", std::string("invalid YAML: ") + E.what());
  } catch (...) {
    Diags.error(Loc{File, 1, 1}, "", "invalid YAML");
  }
  return std::nullopt;
}

} // namespace hwdesc
} // namespace tle
