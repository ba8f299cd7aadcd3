//===- TuneSpec.cpp - What to tune in a kernel and how to launch it -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/TuneSpec.h"
#include "core/tune/Expr.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tle {
namespace tune {

static json::Array strings(ArrayRef<std::string> V) {
  json::Array A;
  for (const std::string &S : V)
    A.push_back(S);
  return A;
}

static Error fieldError(StringRef Where, StringRef Key, StringRef Want) {
  return createStringError(
      formatv("{0}: '{1}' must be {2}", Where, Key, Want).str());
}

static Error readStrings(const json::Object &O, StringRef Where,
                         StringRef Key, std::vector<std::string> &Out) {
  const json::Array *A = O.getArray(Key);
  if (!A)
    return fieldError(Where, Key, "a list of strings");
  for (const json::Value &V : *A) {
    std::optional<StringRef> S = V.getAsString();
    if (!S)
      return fieldError(Where, Key, "a list of strings");
    Out.push_back(S->str());
  }
  return Error::success();
}

json::Value LaunchSpec::toJSON() const {
  json::Array Bufs;
  for (const BufferSpec &B : Buffers)
    Bufs.push_back(
        json::Object{{"name", B.Name}, {"bytes", B.Bytes}, {"fill", B.Fill}});
  return json::Object{{"shape_names", strings(ShapeNames)},
                      {"buffers", std::move(Bufs)},
                      {"args", strings(Args)},
                      {"grid", strings({Grid[0], Grid[1], Grid[2]})},
                      {"flops", Flops},
                      {"bytes", Bytes},
                      {"reference", Reference}};
}

Expected<LaunchSpec> LaunchSpec::fromJSON(const json::Value &V) {
  const StringRef W = "launch";
  const json::Object *O = V.getAsObject();
  if (!O)
    return createStringError("launch: expected an object");
  LaunchSpec L;
  if (Error E = readStrings(*O, W, "shape_names", L.ShapeNames))
    return std::move(E);
  if (Error E = readStrings(*O, W, "args", L.Args))
    return std::move(E);
  std::vector<std::string> Grid;
  if (Error E = readStrings(*O, W, "grid", Grid))
    return std::move(E);
  if (Grid.empty() || Grid.size() > 3)
    return fieldError(W, "grid", "a list of 1 to 3 expressions");
  for (size_t I = 0; I < Grid.size(); ++I)
    L.Grid[I] = Grid[I];
  const json::Array *Bufs = O->getArray("buffers");
  if (!Bufs)
    return fieldError(W, "buffers", "a list of objects");
  for (const json::Value &BV : *Bufs) {
    const json::Object *B = BV.getAsObject();
    std::optional<StringRef> Name = B ? B->getString("name") : std::nullopt;
    std::optional<StringRef> Bytes = B ? B->getString("bytes") : std::nullopt;
    if (!Name || !Bytes)
      return fieldError(W, "buffers", "objects with 'name' and 'bytes'");
    BufferSpec S{Name->str(), Bytes->str(), "zero"};
    if (std::optional<StringRef> F = B->getString("fill"))
      S.Fill = F->str();
    if (S.Fill != "zero" && S.Fill != "fp16" && S.Fill != "bf16" &&
        S.Fill != "fp32")
      return createStringError(formatv("launch: buffer '{0}': fill '{1}' is "
                                       "not one of zero, fp16, bf16, fp32",
                                       S.Name, S.Fill)
                                   .str());
    L.Buffers.push_back(std::move(S));
  }
  if (std::optional<StringRef> F = O->getString("flops"))
    L.Flops = F->str();
  if (std::optional<StringRef> B = O->getString("bytes"))
    L.Bytes = B->str();
  if (std::optional<StringRef> R = O->getString("reference"))
    L.Reference = R->str();
  if (!L.Reference.empty() && L.Reference != "matmul")
    return createStringError(
        formatv("launch: unknown reference '{0}' (known: matmul)", L.Reference)
            .str());
  for (const std::string &A : L.Args) {
    StringRef S(A);
    if (S.starts_with("i32:") || S.starts_with("i64:"))
      continue;
    if (llvm::none_of(L.Buffers,
                      [&](const BufferSpec &B) { return B.Name == A; }))
      return createStringError(
          formatv("launch: argument '{0}' is neither a buffer name nor "
                  "i32:EXPR / i64:EXPR",
                  A)
              .str());
  }
  return L;
}

Error LaunchSpec::check(const Shape &S, const Config &C) const {
  NameLookup Lookup = [&](StringRef N) -> std::optional<int64_t> {
    if (std::optional<int64_t> V = S.get(N))
      return V;
    return C.get(N);
  };
  std::vector<std::string> Exprs = {Flops, Bytes, Grid[0], Grid[1], Grid[2]};
  for (const BufferSpec &B : Buffers)
    Exprs.push_back(B.Bytes);
  for (const std::string &A : Args)
    if (StringRef(A).starts_with("i32:") || StringRef(A).starts_with("i64:"))
      Exprs.push_back(A.substr(4));
  for (const std::string &E : Exprs)
    if (Expected<int64_t> V = evalExpr(E, Lookup); !V)
      return V.takeError();
  return Error::success();
}

json::Value modelToJSON(const KernelModel &M) {
  return json::Object{{"kind", M.Kind},         {"block_m", M.BlockM},
                      {"block_n", M.BlockN},    {"block_k", M.BlockK},
                      {"group_m", M.GroupM},    {"element_bytes", M.ElementBytes}};
}

Expected<KernelModel> modelFromJSON(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return createStringError("model: expected an object");
  KernelModel M;
  auto Str = [&](StringRef K, std::string &Out) {
    if (std::optional<StringRef> S = O->getString(K))
      Out = S->str();
  };
  Str("kind", M.Kind);
  Str("block_m", M.BlockM);
  Str("block_n", M.BlockN);
  Str("block_k", M.BlockK);
  Str("group_m", M.GroupM);
  if (std::optional<int64_t> EB = O->getInteger("element_bytes"))
    M.ElementBytes = *EB;
  if (M.Kind == "matmul" &&
      (M.BlockM.empty() || M.BlockN.empty() || M.BlockK.empty()))
    return createStringError(
        "model: kind 'matmul' needs block_m, block_n and block_k");
  return M;
}

Expected<TuneSpec> TuneSpec::load(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(formatv("cannot read tuning spec '{0}': {1}",
                                     Path, Buf.getError().message())
                                 .str());
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return createStringError(formatv("tuning spec '{0}': {1}", Path,
                                     toString(V.takeError()))
                                 .str());
  auto Fail = [&](Error E) -> Error {
    return createStringError(
        formatv("tuning spec '{0}': {1}", Path, toString(std::move(E))).str());
  };
  const json::Object *O = V->getAsObject();
  if (!O)
    return Fail(createStringError("expected an object"));
  TuneSpec S;
  std::optional<StringRef> Src = O->getString("source");
  std::optional<StringRef> Kernel = O->getString("kernel");
  if (!Src || !Kernel)
    return Fail(createStringError("'source' and 'kernel' are required"));
  S.Source = Src->str();
  if (!sys::path::is_absolute(S.Source)) {
    SmallString<256> P(sys::path::parent_path(Path));
    sys::path::append(P, S.Source);
    S.Source = std::string(P);
  }
  S.Kernel = Kernel->str();
  if (std::optional<StringRef> Sig = O->getString("signature"))
    S.Signature = Sig->str();
  if (std::optional<bool> A = O->getBoolean("autotune"))
    S.UseAutotune = *A;
  if (std::optional<StringRef> T = O->getString("input_type"))
    S.InputType = T->str();
  if (const json::Object *D = O->getObject("defines"))
    for (const auto &[K, DV] : *D) {
      std::optional<StringRef> DS = DV.getAsString();
      if (!DS)
        return Fail(fieldError("defines", K.str(), "a string"));
      S.Defines.emplace_back(K.str(), DS->str());
    }
  if (const json::Object *G = O->getObject("generator"))
    for (const auto &[K, GV] : *G) {
      const json::Array *A = GV.getAsArray();
      if (!A)
        return Fail(fieldError("generator", K.str(), "a list of integers"));
      Axis Ax{K.str(), {}};
      for (const json::Value &I : *A) {
        std::optional<int64_t> N = I.getAsInteger();
        if (!N || *N <= 0)
          return Fail(
              fieldError("generator", K.str(), "a list of positive integers"));
        Ax.Values.push_back(*N);
      }
      S.Generator.push_back(std::move(Ax));
    }
  // JSON objects do not keep their order; axes are sorted by name so that
  // the enumeration is the same everywhere.
  llvm::sort(S.Generator,
             [](const Axis &A, const Axis &B) { return A.Name < B.Name; });
  if (const json::Value *M = O->get("model")) {
    Expected<KernelModel> KM = modelFromJSON(*M);
    if (!KM)
      return Fail(KM.takeError());
    S.Model = std::move(*KM);
  }
  const json::Value *L = O->get("launch");
  if (!L)
    return Fail(createStringError("'launch' is required"));
  Expected<LaunchSpec> LS = LaunchSpec::fromJSON(*L);
  if (!LS)
    return Fail(LS.takeError());
  S.Launch = std::move(*LS);
  return S;
}

} // namespace tune
} // namespace tle
