//===- Validate.cpp - Schema checks for hardware descriptions -------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Walks a resolved description against the schema table. Every problem is
// reported and the walk continues, so that one run of `tle-hwdesc validate`
// shows everything that is wrong with a file. Cross-key rules live in
// Consistency.cpp.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/Validate.h"
#include "core/hwdesc/Node.h"
#include "core/hwdesc/Schema.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tle {
namespace hwdesc {

static StringRef describeKind(const Node &N) {
  switch (N.Kind) {
  case Node::Scalar:
    return "a scalar";
  case Node::Seq:
    return "a list";
  case Node::Map:
    return "a mapping";
  case Node::Null:
    return "nothing";
  }
  return "";
}

std::string describeExpected(const SchemaNode &S) {
  switch (S.Type) {
  case ValueType::Map:
  case ValueType::DynMap:
    return "a mapping";
  case ValueType::List:
    return "a list";
  case ValueType::String:
    return "a string";
  case ValueType::Identifier:
    return "an identifier: a letter or '_' followed by letters, digits, "
           "'_', '.' or '-'";
  case ValueType::Enum:
    return "one of: " + join(S.EnumValues, ", ") +
           (S.OpenPrefix.empty() ? ""
                                 : ", or a name starting with " + S.OpenPrefix);
  case ValueType::Int: {
    std::string R = "an integer in [" + std::to_string(S.Min) + ", " +
                    std::to_string(S.Max) + "]";
    return S.PowerOfTwo ? R + " that is a power of two" : R;
  }
  case ValueType::Bool:
    return "true or false";
  case ValueType::Quantity:
    return describeUnitKind(S.Unit).str();
  }
  return "";
}

bool isIdentifier(StringRef S) {
  if (S.empty() || !(isAlpha(S[0]) || S[0] == '_'))
    return false;
  return llvm::all_of(
      S, [](char C) { return isAlnum(C) || C == '_' || C == '.' || C == '-'; });
}

static std::string quote(StringRef S) { return "'" + S.str() + "'"; }

namespace {
class SchemaChecker {
public:
  SchemaChecker(bool Abstract, DiagSink &Diags)
      : Abstract(Abstract), Diags(Diags) {}
  void check(const Node &N, const SchemaNode &S, const std::string &Path);

private:
  void checkMap(const Node &N, const SchemaNode &S, const std::string &Path);
  void checkDynMap(const Node &N, const SchemaNode &S, const std::string &Path);
  void checkScalar(const Node &N, const SchemaNode &S, const std::string &Path);

  bool Abstract;
  DiagSink &Diags;
};
} // namespace

static std::string join(const std::string &Path, StringRef Key) {
  return Path.empty() ? Key.str() : Path + "." + Key.str();
}

void SchemaChecker::check(const Node &N, const SchemaNode &S,
                          const std::string &Path) {
  bool WantMap = S.Type == ValueType::Map || S.Type == ValueType::DynMap;
  bool WantSeq = S.Type == ValueType::List;
  Node::KindTy Want = WantMap ? Node::Map : WantSeq ? Node::Seq : Node::Scalar;
  if (N.Kind == Node::Null) {
    Diags.error(N.L, Path, Path.empty() ? "empty description" : "missing value",
                describeExpected(S));
    return;
  }
  if (N.Kind != Want) {
    Diags.error(N.L, Path, "found " + describeKind(N).str(),
                describeExpected(S));
    return;
  }
  switch (S.Type) {
  case ValueType::Map:
    return checkMap(N, S, Path);
  case ValueType::DynMap:
    return checkDynMap(N, S, Path);
  case ValueType::List:
    if (S.MaxItems && N.Items.size() > S.MaxItems)
      Diags.error(N.L, Path, "has " + std::to_string(N.Items.size()) + " items",
                  "at most " + std::to_string(S.MaxItems));
    for (size_t I = 0; I < N.Items.size(); ++I)
      check(N.Items[I], S.Element[0], Path + "[" + std::to_string(I) + "]");
    return;
  default:
    return checkScalar(N, S, Path);
  }
}

void SchemaChecker::checkMap(const Node &N, const SchemaNode &S,
                             const std::string &Path) {
  std::vector<std::string> Keys;
  for (const SchemaField &F : S.Fields)
    Keys.push_back(F.Key);
  for (const MapEntry &E : N.Entries) {
    const SchemaField *Field = nullptr;
    for (const SchemaField &F : S.Fields)
      if (F.Key == E.Key)
        Field = &F;
    if (!Field) {
      std::string Close = closestMatch(E.Key, Keys);
      if (!Close.empty())
        Diags.error(E.KeyLoc, join(Path, E.Key),
                    "unknown key, did you mean " + quote(Close) + "?");
      else
        Diags.error(E.KeyLoc, join(Path, E.Key), "unknown key",
                    "one of: " + llvm::join(Keys, ", "));
      continue;
    }
    check(E.Value, Field->Node, join(Path, E.Key));
  }
  if (Abstract)
    return;
  for (const SchemaField &F : S.Fields)
    if (F.Required && !N.getEntry(F.Key))
      Diags.error(N.L, join(Path, F.Key), "missing required key",
                  describeType(F.Node));
}

void SchemaChecker::checkDynMap(const Node &N, const SchemaNode &S,
                                const std::string &Path) {
  for (const MapEntry &E : N.Entries) {
    std::string KeyPath = join(Path, E.Key);
    if (!S.KeyValues.empty() && !is_contained(S.KeyValues, E.Key)) {
      std::string Close = closestMatch(E.Key, S.KeyValues);
      Diags.error(E.KeyLoc, KeyPath,
                  "unknown key" +
                      (Close.empty() ? std::string()
                                     : ", did you mean " + quote(Close) + "?"),
                  Close.empty() ? "one of: " + llvm::join(S.KeyValues, ", ")
                                : "");
      continue;
    }
    if (S.KeyValues.empty() && !isIdentifier(E.Key)) {
      Diags.error(E.KeyLoc, KeyPath, quote(E.Key) + " is not an identifier",
                  describeExpected(ident()));
      continue;
    }
    check(E.Value, S.Element[0], KeyPath);
  }
}

void SchemaChecker::checkScalar(const Node &N, const SchemaNode &S,
                                const std::string &Path) {
  StringRef T = N.Text;
  std::string Expected = describeExpected(S);
  switch (S.Type) {
  case ValueType::String:
    return;
  case ValueType::Identifier:
    if (!isIdentifier(T))
      Diags.error(N.L, Path, quote(T) + " is not an identifier", Expected);
    return;
  case ValueType::Enum: {
    if (is_contained(S.EnumValues, T.str()) ||
        (!S.OpenPrefix.empty() && T.starts_with(S.OpenPrefix) &&
         isIdentifier(T)))
      return;
    std::string Close = closestMatch(T, S.EnumValues);
    if (!Close.empty())
      Diags.error(N.L, Path,
                  quote(T) + " is not a valid value, did you mean " +
                      quote(Close) + "?");
    else
      Diags.error(N.L, Path, quote(T) + " is not a valid value", Expected);
    return;
  }
  case ValueType::Int: {
    int64_t V = 0;
    if (N.Quoted || T.getAsInteger(10, V)) {
      Diags.error(N.L, Path, quote(T) + " is not an integer", Expected);
      return;
    }
    if (V < S.Min || V > S.Max)
      Diags.error(N.L, Path, std::to_string(V) + " is out of range", Expected);
    else if (S.PowerOfTwo && (V <= 0 || (V & (V - 1))))
      Diags.error(N.L, Path, std::to_string(V) + " is not a power of two",
                  Expected);
    return;
  }
  case ValueType::Bool:
    if (N.Quoted || (T != "true" && T != "false"))
      Diags.error(N.L, Path, quote(T) + " is not a boolean", Expected);
    return;
  case ValueType::Quantity: {
    UnitError Err;
    std::optional<double> V = parseQuantity(T, S.Unit, Err);
    if (!V)
      Diags.error(N.L, Path, Err.Message, Err.Expected);
    else if (S.NonZero && *V == 0)
      Diags.error(N.L, Path, quote(T) + " is zero", "a value greater than 0");
    return;
  }
  default:
    return;
  }
}

SchemaNode ident() {
  SchemaNode N;
  N.Type = ValueType::Identifier;
  return N;
}

void validate(const Node &Root, bool Abstract, DiagSink &Diags) {
  SchemaChecker(Abstract, Diags).check(Root, getSchema(), "");
  if (!Abstract)
    checkConsistency(Root, Diags);
}

} // namespace hwdesc
} // namespace tle
