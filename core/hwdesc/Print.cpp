//===- Print.cpp - Printing resolved hardware descriptions ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// `tle-hwdesc show`, `diff` and `new` all print the resolved tree; they share
// one schema-aware emitter so that the scaffold's comments are the schema's
// own documentation and its values parse back to the same description.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/HwDesc.h"
#include "core/hwdesc/Node.h"
#include "core/hwdesc/Schema.h"
#include "core/hwdesc/Units.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace tle {
namespace hwdesc {

static const SchemaNode *fieldSchema(const SchemaNode *S, StringRef Key) {
  if (!S)
    return nullptr;
  if (S->Type == ValueType::DynMap)
    return &S->Element[0];
  for (const SchemaField &F : S->Fields)
    if (F.Key == Key)
      return &F.Node;
  return nullptr;
}

/// Writes a scalar so that it reads back as the same string.
static std::string yamlScalar(const Node &N) {
  StringRef T = N.Text;
  bool Plain = !T.empty() && !N.Quoted &&
               T.find_first_of(":#{}[],&*!|>'\"%@`") == StringRef::npos &&
               T.front() != '-' && T.front() != '?' && T.trim() == T;
  if (Plain)
    return T.str();
  std::string Out = "\"";
  for (char C : T) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

/// The canonical value of a quantity, for annotations and diffs.
static std::string canonical(const Node &N, const SchemaNode *S) {
  if (!S || S->Type != ValueType::Quantity || N.Kind != Node::Scalar)
    return "";
  UnitError Err;
  std::optional<double> V = parseQuantity(N.Text, S->Unit, Err);
  if (!V)
    return "";
  switch (S->Unit) {
  case UnitKind::Size:
    return formatv("{0:F0} B", *V).str();
  case UnitKind::Bandwidth:
    return formatv("{0:E3} B/s", *V).str();
  case UnitKind::Frequency:
    return formatv("{0:E3} Hz", *V).str();
  case UnitKind::Rate:
    return formatv("{0:E3} op/s", *V).str();
  }
  return "";
}

namespace {
class Emitter {
public:
  Emitter(raw_ostream &OS, bool Scaffold) : OS(OS), Scaffold(Scaffold) {}
  void map(const Node &N, const SchemaNode *S, unsigned Indent, bool ListItem,
           bool Comments);

private:
  void comment(const SchemaField &F, unsigned Indent);
  void value(const Node &N, const SchemaNode *S, unsigned Indent,
             bool Comments);

  raw_ostream &OS;
  bool Scaffold;
};
} // namespace

void Emitter::comment(const SchemaField &F, unsigned Indent) {
  OS.indent(Indent) << "# " << F.Doc << " [" << describeType(F.Node)
                    << (F.Required ? ", required" : ", optional") << "]\n";
}

void Emitter::map(const Node &N, const SchemaNode *S, unsigned Indent,
                  bool ListItem, bool Comments) {
  bool First = true;
  auto Lead = [&]() -> raw_ostream & {
    if (ListItem && First)
      OS.indent(Indent - 2) << "- ";
    else
      OS.indent(Indent);
    First = false;
    return OS;
  };
  // Keys follow the schema's order, whatever order the files (and the merge
  // of a chip over its base) left them in. The scaffold also mentions
  // absent optional keys.
  if (S && S->Type == ValueType::Map) {
    for (const SchemaField &F : S->Fields) {
      if (Scaffold && (F.Key == "extends" || F.Key == "abstract"))
        continue;
      const Node *Child = N.get(F.Key);
      if (Comments)
        comment(F, Indent);
      if (!Child) {
        if (Comments)
          OS.indent(Indent) << "# " << F.Key << ":\n";
        continue;
      }
      Lead() << F.Key << ":";
      value(*Child, &F.Node, Indent, Comments);
    }
    return;
  }
  for (const MapEntry &E : N.Entries) {
    Lead() << E.Key << ":";
    value(E.Value, fieldSchema(S, E.Key), Indent, Comments);
  }
}

void Emitter::value(const Node &N, const SchemaNode *S, unsigned Indent,
                    bool Comments) {
  switch (N.Kind) {
  case Node::Null:
    OS << "\n";
    return;
  case Node::Scalar: {
    OS << " " << yamlScalar(N);
    std::string C = Scaffold ? "" : canonical(N, S);
    if (!C.empty())
      OS << "  # = " << C;
    OS << "\n";
    return;
  }
  case Node::Map:
    OS << "\n";
    map(N, S, Indent + 2, /*ListItem=*/false, Comments);
    return;
  case Node::Seq: {
    const SchemaNode *Elem =
        S && !S->Element.empty() ? &S->Element[0] : nullptr;
    bool AllScalar =
        all_of(N.Items, [](const Node &I) { return I.Kind == Node::Scalar; });
    if (AllScalar) {
      OS << " [";
      ListSeparator LS;
      for (const Node &I : N.Items)
        OS << LS << yamlScalar(I);
      OS << "]\n";
      return;
    }
    OS << "\n";
    for (size_t I = 0; I < N.Items.size(); ++I) {
      const Node &Item = N.Items[I];
      if (Item.Kind == Node::Map) {
        // Document the fields of a list element once, not per element.
        map(Item, Elem, Indent + 4, /*ListItem=*/true, Comments && I == 0);
        continue;
      }
      OS.indent(Indent + 2) << "-";
      value(Item, Elem, Indent + 2, false);
    }
    return;
  }
  }
}

void HwDesc::printTree(raw_ostream &OS) const {
  Emitter(OS, /*Scaffold=*/false).map(*Tree, &getSchema(), 0, false, false);
  OS << "\n# TLE level -> parallel level, memory level\n";
  OS << "tle_mapping:\n";
  for (const TleMapping &M : getTleMapping()) {
    StringRef Name = M.Level == LevelKind::Grid ? "device" : toString(M.Level);
    OS << "  " << Name << ": {parallel: "
       << (M.Parallel ? M.Parallel->Name : std::string("none")) << ", memory: ";
    if (M.Memory)
      OS << M.Memory->Name << " (" << toString(M.Memory->Kind) << ", "
         << formatQuantity(double(M.Memory->Size), UnitKind::Size) << ")";
    else
      OS << "none";
    if (!M.ViaAlias.empty())
      OS << ", via alias: " << M.ViaAlias;
    OS << "}\n";
  }
}

void HwDesc::printScaffold(raw_ostream &OS) const {
  OS << "# Hardware description scaffold generated from " << SourceFile << ".\n"
     << "# Replace every figure with one from the vendor's documents and\n"
     << "# cite them here (document title, revision, table).\n"
     << "# To share a family base instead, add `extends: FAMILY` and delete\n"
     << "# the keys the base already sets.\n";
  Emitter(OS, /*Scaffold=*/true).map(*Tree, &getSchema(), 0, false, true);
}

static void flattenInto(const Node &N, const SchemaNode *S,
                        const std::string &Path,
                        std::vector<std::pair<std::string, std::string>> &Out) {
  switch (N.Kind) {
  case Node::Null:
    Out.emplace_back(Path, "");
    return;
  case Node::Scalar: {
    std::string V = N.Text;
    if (S && S->Type == ValueType::Quantity) {
      UnitError Err;
      if (std::optional<double> Q = parseQuantity(N.Text, S->Unit, Err))
        V = formatQuantity(*Q, S->Unit);
    }
    Out.emplace_back(Path, V);
    return;
  }
  case Node::Map: {
    auto Visit = [&](const MapEntry &E) {
      flattenInto(E.Value, fieldSchema(S, E.Key),
                  Path.empty() ? E.Key : Path + "." + E.Key, Out);
    };
    // Schema order, so that diffs list keys the way files are written.
    if (S && S->Type == ValueType::Map) {
      for (const SchemaField &F : S->Fields)
        if (const MapEntry *E = N.getEntry(F.Key))
          Visit(*E);
      return;
    }
    for (const MapEntry &E : N.Entries)
      Visit(E);
    return;
  }
  case Node::Seq: {
    const SchemaNode *Elem =
        S && !S->Element.empty() ? &S->Element[0] : nullptr;
    if (all_of(N.Items, [](const Node &I) { return I.Kind == Node::Scalar; })) {
      std::string V;
      ListSeparator LS;
      for (const Node &I : N.Items)
        V += std::string(StringRef(LS)) + I.Text;
      Out.emplace_back(Path, "[" + V + "]");
      return;
    }
    for (size_t I = 0; I < N.Items.size(); ++I) {
      const Node *Name =
          N.Items[I].Kind == Node::Map ? N.Items[I].get("name") : nullptr;
      std::string Key =
          Name && Name->Kind == Node::Scalar ? Name->Text : std::to_string(I);
      flattenInto(N.Items[I], Elem, Path + "[" + Key + "]", Out);
    }
    return;
  }
  }
}

std::vector<std::pair<std::string, std::string>> HwDesc::flatten() const {
  std::vector<std::pair<std::string, std::string>> Out;
  flattenInto(*Tree, &getSchema(), "", Out);
  return Out;
}

} // namespace hwdesc
} // namespace tle
