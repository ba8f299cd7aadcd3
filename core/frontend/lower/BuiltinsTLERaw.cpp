//===- BuiltinsTLERaw.cpp - TLE-Raw: native code (tle_raw.call) -----------===//
//
// `@dialect(name=..., file=..., extern_func_name=...)` functions hold native
// code (their docstring, their body text, or a file next to the kernel);
// `tle_raw.call(fn, [args], *result_types)` calls them. Passing a list of
// such functions gives one variant per native language, so a kernel carries
// PTX for NVIDIA and OpenCL C for SPIR-V devices side by side; each backend
// picks the variant its toolchain accepts.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/BuiltinsTLE.h"

#include "dialects/TLERaw/TLERawDialect.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace ::tle::frontend;

namespace {
const Node *sourceOf(const CallArg *A, const Node *Site) {
  return A && A->Source ? A->Source : Site;
}

/// Evaluates the decorator call `dialect(name=..., file=...,
/// extern_func_name=..., constraints=...)` of a TLE-Raw function.
FailureOr<BoundArgs> bindDialectDecorator(Emitter &E, const FunctionDef &F) {
  const Decorator *D = F.getDecorator(DecoratorKind::Dialect);
  auto *Call = D ? dyn_cast<CallExpr>(D->Value) : nullptr;
  if (!Call)
    return E.error(D ? static_cast<const Node *>(D->Value) : nullptr,
                   "@dialect needs arguments, e.g. @dialect(name=\"ptx\")");
  CallArgs Args;
  for (const Expr *A : Call->Args) {
    auto V = E.lowerExpr(A);
    if (failed(V))
      return failure();
    Args.Positional.push_back({*V, A});
  }
  for (const Keyword &K : Call->Keywords) {
    auto V = E.lowerExpr(K.Value);
    if (failed(V))
      return failure();
    Args.Keywords.push_back({K.Arg.str(), CallArg{*V, K.Value}});
  }
  return E.bind(Args, {"name", "file", "extern_func_name", "constraints"}, 1,
                "dialect", Call);
}

/// Where native source starts: file, line and column of its first character.
struct SourcePos {
  std::string File;
  unsigned Line = 0, Column = 0;
};

/// The position of the first character of F's docstring or body text: a
/// docstring starts after its prefix letters and opening quotes.
SourcePos bodyPosition(Emitter &E, const FunctionDef &F) {
  auto Loc = dyn_cast<FileLineColLoc>(E.loc(F.BodyLoc));
  if (!Loc || !F.BodyLoc.isValid())
    return {};
  SourcePos Pos{Loc.getFilename().str(), Loc.getLine(), Loc.getColumn()};
  if (!F.HasDocstring)
    return Pos;
  llvm::StringRef Token(F.BodyLoc.getPointer());
  size_t Prefix = Token.find_first_of("\"'");
  if (Prefix == llvm::StringRef::npos || Prefix > 3)
    return Pos;
  Token = Token.drop_front(Prefix);
  bool Triple = Token.starts_with("\"\"\"") || Token.starts_with("'''");
  Pos.Column += Prefix + (Triple ? 3 : 1);
  return Pos;
}

/// The native source of a TLE-Raw function: `file=` (relative to the kernel
/// file), else its docstring, else its body text. Pos is where it starts.
FailureOr<std::string> nativeSource(Emitter &E, const FunctionDef &F,
                                    const BoundArgs &D, const Node *Site,
                                    SourcePos &Pos) {
  if (D.has("file")) {
    auto File = E.requireStr(D.get("file"), "file", Site);
    if (failed(File))
      return failure();
    llvm::SmallString<256> Path(*File);
    if (llvm::sys::path::is_relative(Path)) {
      auto Loc = dyn_cast<FileLineColLoc>(E.loc(F.NameLoc));
      llvm::SmallString<256> Dir(
          Loc ? llvm::sys::path::parent_path(Loc.getFilename().getValue())
              : "");
      llvm::sys::path::append(Dir, *File);
      Path = Dir;
    }
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf)
      return E.error(sourceOf(D.get("file"), Site),
                     "cannot read the native source of '" + F.Name +
                         "' from '" + Path + "': " +
                         Buf.getError().message());
    Pos = {Path.str().str(), 1, 1};
    return (*Buf)->getBuffer().str();
  }
  llvm::StringRef Text = F.HasDocstring ? F.Docstring : F.BodyText;
  if (Text.trim().empty() || Text.trim() == "pass")
    return E.error(F.NameLoc.isValid()
                       ? llvm::SMRange(F.NameLoc, F.NameLoc)
                       : llvm::SMRange(),
                   "TLE-Raw function '" + F.Name +
                       "' has no native source: give it a docstring or "
                       "@dialect(file=...)");
  Pos = bodyPosition(E, F);
  return Text.str();
}

/// One #tle_raw.variant from a TLE-Raw function.
FailureOr<tle_raw::VariantAttr> makeVariant(Emitter &E, const FunctionDef &F,
                                            size_t NumArgs,
                                            const Node *Site) {
  auto D = bindDialectDecorator(E, F);
  if (failed(D))
    return failure();
  auto Lang = E.requireStr(D->get("name"), "dialect name", Site);
  if (failed(Lang))
    return failure();
  if (!llvm::is_contained(tle_raw::getKnownLanguages(), *Lang))
    return E.error(sourceOf(D->get("name"), Site),
                   "unknown native language '" + *Lang +
                       "' (expected cuda, ptx, hip, amdgcn, spirv, opencl, "
                       "mlir or llvm)");
  bool InlineAsm = *Lang == "ptx" || *Lang == "amdgcn";
  if (F.Params.size() != NumArgs)
    return E.error(Site, "'" + F.Name + "' takes " +
                             llvm::Twine(F.Params.size()) + " argument" +
                             (F.Params.size() == 1 ? "" : "s") + " but " +
                             llvm::Twine(NumArgs) + " were given");
  SourcePos Pos;
  auto Code = nativeSource(E, F, *D, Site, Pos);
  if (failed(Code))
    return failure();
  MLIRContext *Ctx = E.getContext();
  // Languages with functions need the entry name; inline assembly has none
  // unless the source is a whole PTX/AMDGCN function.
  StringAttr Entry;
  if (D->has("extern_func_name")) {
    auto N = E.requireStr(D->get("extern_func_name"), "extern_func_name", Site);
    if (failed(N))
      return failure();
    Entry = StringAttr::get(Ctx, *N);
  } else if (!InlineAsm) {
    Entry = StringAttr::get(Ctx, F.Name);
  }
  StringAttr Constraints;
  if (D->has("constraints")) {
    if (!InlineAsm)
      return E.error(sourceOf(D->get("constraints"), Site),
                     "constraints apply to inline assembly (ptx, amdgcn), "
                     "not to '" +
                         *Lang + "'");
    auto C = E.requireStr(D->get("constraints"), "constraints", Site);
    if (failed(C))
      return failure();
    Constraints = StringAttr::get(Ctx, *C);
  }
  return tle_raw::VariantAttr::get(
      Ctx, StringAttr::get(Ctx, *Lang), StringAttr::get(Ctx, *Code), Entry,
      Constraints, Pos.File.empty() ? StringAttr() : StringAttr::get(Ctx, Pos.File),
      Pos.Line, Pos.Column);
}

/// A result type: a dtype (scalar) or a (dtype, shape) pair (tile).
FailureOr<DType> resultType(Emitter &E, const CallArg &A, const Node *Site) {
  const TValue &V = A.Value;
  if (V.is(TValue::Kind::DType))
    return DType{V.getType(), V.isUnsigned()};
  if (V.is(TValue::Kind::Tuple) && V.getElements().size() == 2 &&
      V.getElements()[0].is(TValue::Kind::DType)) {
    CallArg Shape{V.getElements()[1], A.Source};
    auto S = E.requireShape(&Shape, "result shape", Site);
    if (failed(S))
      return failure();
    const TValue &Elem = V.getElements()[0];
    return DType{RankedTensorType::get(*S, Elem.getType()), Elem.isUnsigned()};
  }
  return E.error(sourceOf(&A, Site),
                 "a result type must be a dtype or a (dtype, shape) pair, "
                 "got " +
                     V.describe());
}

/// Result types from the return annotation of a TLE-Raw function
/// (`-> tl.int32`, `-> (tl.float32, tl.int32)`), evaluated like a default.
FailureOr<SmallVector<DType>> annotatedResults(Emitter &E, const FunctionDef &F,
                                               const Node *Site) {
  SmallVector<DType> Types;
  if (!F.Returns)
    return Types;
  auto V = E.lowerExpr(F.Returns);
  if (failed(V))
    return failure();
  std::vector<TValue> Elts = V->is(TValue::Kind::Tuple)
                                 ? V->getElements()
                                 : std::vector<TValue>{*V};
  for (const TValue &Elt : Elts) {
    if (Elt.is(TValue::Kind::None))
      continue;
    auto T = resultType(E, CallArg{Elt, F.Returns}, Site);
    if (failed(T))
      return failure();
    Types.push_back(*T);
  }
  return Types;
}

/// tle_raw.call(fn | [fn, ...], [args], *result_types).
Result builtinCall(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"func", "args", "*result_types"}, 2, "tle_raw.call",
                  Site);
  if (failed(A))
    return failure();
  const CallArg *Fn = A->get("func");
  std::vector<TValue> Fns = Fn->Value.is(TValue::Kind::Tuple)
                                ? Fn->Value.getElements()
                                : std::vector<TValue>{Fn->Value};
  // A @triton.jit function in the list is the portable fallback: targets
  // that accept none of the native languages run it instead.
  std::vector<TValue> All = std::move(Fns);
  Fns.clear();
  const FunctionDef *Fallback = nullptr;
  for (const TValue &V : All) {
    if (!V.is(TValue::Kind::Function))
      return E.error(sourceOf(Fn, Site),
                     "tle_raw.call needs a @dialect function or a list of "
                     "them, got " +
                         V.describe());
    if (!V.getFunction()->isJit()) {
      Fns.push_back(V);
      continue;
    }
    if (Fallback)
      return E.error(sourceOf(Fn, Site),
                     "'" + Fallback->Name + "' and '" + V.getFunction()->Name +
                         "' are both portable fallbacks (@triton.jit); give "
                         "at most one");
    Fallback = V.getFunction();
  }
  if (Fns.empty())
    return E.error(sourceOf(Fn, Site),
                   Fallback ? "tle_raw.call needs a @dialect function or a "
                              "list of them, got jit function (a @triton.jit "
                              "function is accepted only next to @dialect "
                              "variants, as their portable fallback)"
                            : "tle_raw.call needs at least one @dialect "
                              "function");
  const CallArg *ArgList = A->get("args");
  if (!ArgList->Value.is(TValue::Kind::Tuple))
    return E.error(sourceOf(ArgList, Site),
                   "the arguments of tle_raw.call must be a list, e.g. "
                   "tle_raw.call(fn, [x, y]), got " +
                       ArgList->Value.describe());
  SmallVector<Value> Operands;
  for (const TValue &V : ArgList->Value.getElements()) {
    CallArg Arg{V, ArgList->Source};
    auto IR = E.requireIR(&Arg, "a tle_raw.call argument", Site);
    if (failed(IR))
      return failure();
    Operands.push_back(IR->getValue());
  }

  SmallVector<Attribute> Variants;
  llvm::StringMap<const FunctionDef *> ByLanguage;
  for (const TValue &V : Fns) {
    const FunctionDef &F = *V.getFunction();
    auto Variant = makeVariant(E, F, Operands.size(), Site);
    if (failed(Variant))
      return failure();
    llvm::StringRef Lang = Variant->getLanguage().getValue();
    auto [It, New] = ByLanguage.try_emplace(Lang, &F);
    if (!New)
      return E.error(sourceOf(Fn, Site),
                     "'" + It->second->Name + "' and '" + F.Name +
                         "' are both '" + Lang +
                         "' variants; give one function per language");
    Variants.push_back(*Variant);
  }

  // Explicit result types win; otherwise every variant's annotation must
  // agree (they implement one operation).
  SmallVector<DType> Results;
  if (!A->Rest.empty()) {
    for (const CallArg &R : A->Rest) {
      auto T = resultType(E, R, Site);
      if (failed(T))
        return failure();
      Results.push_back(*T);
    }
  } else {
    const FunctionDef *First = nullptr;
    for (const TValue &V : Fns) {
      auto Types = annotatedResults(E, *V.getFunction(), Site);
      if (failed(Types))
        return failure();
      if (!First) {
        First = V.getFunction();
        Results = *Types;
      } else if (*Types != Results) {
        return E.error(Site, "'" + First->Name + "' and '" +
                                 V.getFunction()->Name +
                                 "' declare different result types; give "
                                 "them explicitly: tle_raw.call(fns, args, "
                                 "tl.int32)");
      }
    }
  }

  const FunctionDef &Primary = *Fns.front().getFunction();
  auto Entry = cast<tle_raw::VariantAttr>(Variants.front()).getEntry();
  llvm::StringRef Name = Entry ? Entry.getValue() : Primary.Name;
  SmallVector<Type> ResultTypes;
  for (const DType &T : Results)
    ResultTypes.push_back(T.Type);
  auto Op =
      tle_raw::CallOp::create(E.getBuilder(), E.loc(Site), ResultTypes, Name,
                              E.getBuilder().getArrayAttr(Variants), Operands);
  if (Fallback) {
    OpBuilder &B = E.getBuilder();
    OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPointToStart(&Op.getFallback().emplaceBlock());
    CallArgs FallbackArgs;
    for (const TValue &V : ArgList->Value.getElements())
      FallbackArgs.Positional.push_back(CallArg{V, ArgList->Source});
    auto R = E.callJit(*Fallback, FallbackArgs, Site);
    if (failed(R))
      return failure();
    std::vector<TValue> Returned =
        R->is(TValue::Kind::Tuple) ? R->getElements()
        : R->is(TValue::Kind::None) ? std::vector<TValue>{}
                                     : std::vector<TValue>{*R};
    SmallVector<Value> Yielded;
    for (const TValue &V : Returned) {
      auto IR = E.toIRValue(V, Site);
      if (failed(IR))
        return failure();
      Yielded.push_back(*IR);
    }
    if (TypeRange(ValueRange(Yielded)) != Op.getResultTypes()) {
      std::string Want, Got;
      llvm::raw_string_ostream W(Want), G(Got);
      llvm::interleaveComma(Op.getResultTypes(), W);
      llvm::interleaveComma(ValueRange(Yielded).getTypes(), G);
      return E.error(Site, "the fallback '" + Fallback->Name + "' returns (" +
                               Got + ") but the native variants return (" +
                               Want + ")");
    }
    tle_raw::YieldOp::create(B, E.loc(Site), Yielded);
  }
  if (Op.getNumResults() == 0)
    return TValue::none();
  std::vector<TValue> Values;
  for (auto [R, T] : llvm::zip(Op.getResults(), Results))
    Values.push_back(TValue::ir(R, T.IsUnsigned));
  if (Values.size() == 1)
    return Values.front();
  return TValue::tuple(std::move(Values));
}

/// tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
/// Triton's inline assembly, read as PTX (what it means on NVIDIA, where
/// Triton kernels use it) and run once per `pack` elements of a thread: a
/// tle_raw.call with one ptx variant, so other targets refuse it by name. The
/// arguments are broadcast to one shape; dtype is one dtype or a tuple of them.
/// The call is kept whatever is_pure says.
Result builtinInlineAsmElementwise(Emitter &E, CallArgs &Args,
                                   const Node *Site) {
  auto A =
      E.bind(Args, {"asm", "constraints", "args", "dtype", "is_pure", "pack"},
             6, "tl.inline_asm_elementwise", Site);
  if (failed(A))
    return failure();
  auto Asm = E.requireStr(A->get("asm"), "asm", Site);
  auto Constraints = E.requireStr(A->get("constraints"), "constraints", Site);
  if (failed(Asm) || failed(Constraints))
    return failure();
  const CallArg *Pack = A->get("pack");
  if (!Pack->Value.is(TValue::Kind::Int) || Pack->Value.getInt() < 1 ||
      Pack->Value.getInt() > 64)
    return E.error(sourceOf(Pack, Site),
                   "tl.inline_asm_elementwise: pack must be an int from 1 to "
                   "64 (elements per instance of the assembly), got " +
                       Pack->Value.describe());
  const CallArg *ArgList = A->get("args");
  if (!ArgList->Value.is(TValue::Kind::Tuple))
    return E.error(sourceOf(ArgList, Site),
                   "the arguments of tl.inline_asm_elementwise must be a "
                   "list, got " +
                       ArgList->Value.describe());
  // Every argument as a tile of the common shape (scalars stay scalars when
  // all are).
  std::vector<TValue> Values;
  for (const TValue &V : ArgList->Value.getElements()) {
    CallArg Arg{V, ArgList->Source};
    auto IR = E.requireIR(&Arg, "a tl.inline_asm_elementwise argument", Site);
    if (failed(IR))
      return failure();
    Values.push_back(*IR);
  }
  if (failed(E.broadcastAll(Values, Site)))
    return failure();
  SmallVector<int64_t> Shape;
  if (!Values.empty())
    Shape.assign(getShape(Values.front().getType()).begin(),
                 getShape(Values.front().getType()).end());
  SmallVector<Value> Operands;
  for (const TValue &V : Values)
    Operands.push_back(V.getValue());

  const CallArg *DTypeArg = A->get("dtype");
  std::vector<TValue> DTypes = DTypeArg->Value.is(TValue::Kind::Tuple)
                                   ? DTypeArg->Value.getElements()
                                   : std::vector<TValue>{DTypeArg->Value};
  SmallVector<Type> Results;
  SmallVector<bool> Unsigned;
  for (const TValue &D : DTypes) {
    if (!D.is(TValue::Kind::DType))
      return E.error(sourceOf(DTypeArg, Site),
                     "tl.inline_asm_elementwise: dtype must be a dtype or a "
                     "tuple of dtypes, got " +
                         D.describe());
    Unsigned.push_back(D.isUnsigned());
    Results.push_back(Shape.empty()
                          ? D.getType()
                          : Type(RankedTensorType::get(Shape, D.getType())));
  }

  MLIRContext *Ctx = E.getContext();
  SourcePos Pos;
  if (auto Loc = dyn_cast<FileLineColLoc>(E.loc(sourceOf(A->get("asm"), Site))))
    Pos = {Loc.getFilename().str(), Loc.getLine(), Loc.getColumn()};
  auto Variant = tle_raw::VariantAttr::get(
      Ctx, StringAttr::get(Ctx, "ptx"), StringAttr::get(Ctx, *Asm),
      StringAttr(), StringAttr::get(Ctx, *Constraints),
      Pos.File.empty() ? StringAttr() : StringAttr::get(Ctx, Pos.File),
      Pos.Line, Pos.Column);
  auto Op = tle_raw::CallOp::create(
      E.getBuilder(), E.loc(Site), Results, "inline_asm_elementwise",
      E.getBuilder().getArrayAttr({Variant}), Operands,
      static_cast<uint32_t>(Pack->Value.getInt()));
  // The verifier's checks, said in the kernel's terms at `pack=`.
  if (Op.getPackedBoolType()) {
    Op.erase();
    return E.error(
        sourceOf(Pack, Site),
        "tl.inline_asm_elementwise: pack=" + Twine(Pack->Value.getInt()) +
            " cannot pack bool (int1) values into registers; use "
            "pack=1, or convert them to int8");
  }
  if (Type T = Op.getTypeSplittingPack()) {
    unsigned PerRegister = Op.getElementsPerRegister(T);
    Op.erase();
    return E.error(
        sourceOf(Pack, Site),
        "tl.inline_asm_elementwise: pack=" + Twine(Pack->Value.getInt()) +
            " does not split into 32-bit registers of " + Twine(PerRegister) +
            " " + getDTypeName(getScalarType(T)) + " elements");
  }
  std::vector<TValue> Out;
  for (auto [R, IsUnsigned] : llvm::zip(Op.getResults(), Unsigned))
    Out.push_back(TValue::ir(R, IsUnsigned));
  // A tuple of dtypes gives a tuple, one of one element too (Triton's).
  if (!DTypeArg->Value.is(TValue::Kind::Tuple))
    return Out.front();
  return TValue::tuple(std::move(Out));
}
} // namespace

void ::tle::frontend::registerTLERawBuiltins(
    llvm::StringMap<BuiltinFn> &Table) {
  Table["tle_raw.call"] = builtinCall;
  Table["tl.inline_asm_elementwise"] = builtinInlineAsmElementwise;
}
