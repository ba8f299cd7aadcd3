//===- Kernel.cpp - Specializing and lowering one kernel ------------------===//
//
// Splits a jit function's parameters into constexpr ones (annotated
// tl.constexpr, or bound with -D) and runtime ones typed by the signature,
// builds the tle.func and lowers the body into it.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Emitter.h"

#include "core/frontend/lower/Builtins.h"
#include "dialects/TLE/TLEDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace ::tle::frontend;

namespace {
/// One runtime parameter type from the signature.
struct SigEntry {
  std::string Name; ///< Empty for positional entries.
  std::string Text;
  DType Type; ///< A tensor descriptor's element type.
  std::optional<int64_t> Divisibility;
  /// A tensor descriptor's block shape (`tensordesc<fp16[64, 32]>`); empty
  /// for scalars and pointers.
  SmallVector<int64_t> Block;
};

/// The signature's entries: its commas outside brackets (a descriptor's
/// block shape has its own).
SmallVector<llvm::StringRef> splitSignature(llvm::StringRef Signature) {
  SmallVector<llvm::StringRef> Items;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Signature.size(); ++I) {
    char C = Signature[I];
    if (C == '<' || C == '[')
      ++Depth;
    else if ((C == '>' || C == ']') && Depth > 0)
      --Depth;
    else if (C == ',' && Depth == 0) {
      Items.push_back(Signature.slice(Start, I));
      Start = I + 1;
    }
  }
  Items.push_back(Signature.drop_front(Start));
  return Items;
}

/// Parses `tensordesc<T[B0, B1, ...]>` (Triton's signature of a host
/// TensorDescriptor argument) into E's element type and block shape; an
/// error message on failure.
std::optional<std::string> parseDescriptorType(llvm::StringRef Text,
                                               MLIRContext *Ctx, SigEntry &E) {
  llvm::StringRef Inner = Text.trim();
  if (Inner.contains(">:"))
    return "a tensor descriptor takes no ':' hint: its base is 16-byte "
           "aligned and its strides multiples of 16 bytes, as Triton's "
           "TensorDescriptor asserts";
  if (!Inner.consume_front("tensordesc<") || !Inner.consume_back(">"))
    return "expected tensordesc<T[B0, B1, ...]>";
  auto [ElemText, Rest] = Inner.split('[');
  std::optional<DType> Elem = lookupDType(ElemText.trim(), Ctx);
  if (!Elem || !Elem->Type.isIntOrFloat())
    return "unknown element type '" + ElemText.trim().str() +
           "' (expected e.g. fp16, bf16, fp32, i8)";
  Rest = Rest.trim();
  if (!Rest.consume_back("]"))
    return "expected the block shape in brackets after the element type";
  for (llvm::StringRef Dim : llvm::split(Rest, ',')) {
    int64_t Size;
    if (Dim.trim().getAsInteger(10, Size) || Size <= 0 ||
        !llvm::isPowerOf2_64(Size))
      return "block dimension '" + Dim.trim().str() +
             "' is not a positive power of two";
    E.Block.push_back(Size);
  }
  if (E.Block.size() > 5)
    return "a descriptor's block has at most 5 dimensions";
  E.Type = *Elem;
  return std::nullopt;
}

/// Parses a -D value: Python literals and dtype names.
std::optional<TValue> parseDefine(llvm::StringRef Text, MLIRContext *Ctx) {
  Text = Text.trim();
  int64_t I;
  if (!Text.getAsInteger(0, I))
    return TValue::integer(I);
  uint64_t U; // [2^63, 2^64): a uint64, as the literal in a kernel.
  if (!Text.getAsInteger(0, U))
    return TValue::uint64(U);
  double D;
  if (!Text.getAsDouble(D))
    return TValue::floating(D);
  if (Text == "True" || Text == "true")
    return TValue::boolean(true);
  if (Text == "False" || Text == "false")
    return TValue::boolean(false);
  if (Text == "None")
    return TValue::none();
  if (Text.size() >= 2 && (Text.front() == '"' || Text.front() == '\'') &&
      Text.back() == Text.front())
    return TValue::string(Text.drop_front().drop_back());
  llvm::StringRef Name = Text;
  if (!Name.consume_front("tl."))
    Name.consume_front("triton.language.");
  if (std::optional<DType> T = lookupDType(Name, Ctx))
    return TValue::dtype(T->Type, T->IsUnsigned);
  // A bare word is taken as a string, as in `-D ACTIVATION=leaky_relu`.
  if (llvm::all_of(Text, [](char C) { return llvm::isAlnum(C) || C == '_'; }))
    return TValue::string(Text);
  return std::nullopt;
}

/// The names of the kernel arguments a tensor descriptor parameter is
/// passed as: NAME_base, NAME_shape0.., NAME_stride0.. (all but the last).
SmallVector<std::string> getDescriptorArgNames(llvm::StringRef Name,
                                               ArrayRef<int64_t> Block) {
  SmallVector<std::string> Names{(Name + "_base").str()};
  for (size_t D = 0; D < Block.size(); ++D)
    Names.push_back((Name + "_shape" + llvm::Twine(D)).str());
  for (size_t D = 0; D + 1 < Block.size(); ++D)
    Names.push_back((Name + "_stride" + llvm::Twine(D)).str());
  return Names;
}

/// The tensor descriptor a parameter passed from the host (Triton's
/// TensorDescriptor) describes, made at entry from its arguments Fn's
/// First.. (see getDescriptorArgNames). What Triton's TensorDescriptor
/// asserts on the host is known here: the base is 16-byte aligned, the
/// last stride 1, the others multiples of 16 bytes.
TValue lowerDescriptorParam(OpBuilder &B, mlir::tle::FuncOp Fn, unsigned First,
                            llvm::StringRef Name, const SigEntry &E,
                            Location Loc) {
  size_t Rank = E.Block.size();
  Block &Entry = Fn.getBody().front();
  SmallVector<std::string> Names = getDescriptorArgNames(Name, E.Block);
  for (auto [I, ArgName] : llvm::enumerate(Names))
    Fn.setArgAttr(First + I, "tle.name", B.getStringAttr(ArgName));
  int64_t ElemBytes =
      std::max<int64_t>(1, E.Type.Type.getIntOrFloatBitWidth() / 8);
  Fn.setArgAttr(First, "tle.divisibility", B.getI32IntegerAttr(16));
  SmallVector<Value> Shape, Strides;
  for (size_t D = 0; D < Rank; ++D)
    Shape.push_back(Entry.getArgument(First + 1 + D));
  for (size_t D = 0; D + 1 < Rank; ++D) {
    unsigned Arg = First + 1 + Rank + D;
    if (ElemBytes < 16)
      Fn.setArgAttr(Arg, "tle.divisibility",
                    B.getI32IntegerAttr(16 / ElemBytes));
    Strides.push_back(Entry.getArgument(Arg));
  }
  Strides.push_back(arith::ConstantIntOp::create(B, Loc, 1, 64));
  auto Type = mlir::tle::TensorDescType::get(
      B.getContext(), RankedTensorType::get(E.Block, E.Type.Type));
  Value Desc = mlir::tle::MakeTensorDescOp::create(
      B, Loc, Type, Entry.getArgument(First), Shape, Strides,
      mlir::tle::PaddingOption::Zero);
  return TValue::ir(Desc, E.Type.IsUnsigned);
}

bool isConstexprAnnotation(const Module &M, const Expr *Ann) {
  if (!Ann)
    return false;
  std::string Name = canonicalizeName(M.getCanonicalName(Ann));
  return Name == "tl.constexpr" || Name == "constexpr";
}

/// A compile-time value as an attribute, for the kernel's metadata.
Attribute toAttr(const TValue &V, Builder &B) {
  switch (V.getKind()) {
  case TValue::Kind::Bool:
    return B.getBoolAttr(V.getBool());
  case TValue::Kind::Int:
    if (V.isUnsigned()) // In [2^63, 2^64).
      return B.getIntegerAttr(B.getIntegerType(64, /*isSigned=*/false),
                              APInt(64, V.getInt()));
    return B.getI64IntegerAttr(V.getInt());
  case TValue::Kind::Float:
    return B.getF64FloatAttr(V.getFloat());
  case TValue::Kind::Str:
    return B.getStringAttr(V.getStr());
  case TValue::Kind::DType:
    return TypeAttr::get(V.getType());
  case TValue::Kind::None:
    return B.getUnitAttr();
  default:
    return B.getStringAttr(V.describe());
  }
}
} // namespace

OwningOpRef<ModuleOp> Emitter::lowerKernel(const FunctionDef &F,
                                           const KernelSpec &Spec) {
  Location FnLoc = loc(F.NameLoc);
  bool Ok = true;
  auto Fail = [&](llvm::SMRange R, const llvm::Twine &Msg) {
    (void)error(R, Msg);
    Ok = false;
  };
  llvm::SMRange NameRange(F.NameLoc,
                          llvm::SMLoc::getFromPointer(F.NameLoc.getPointer() +
                                                      F.Name.size()));

  // -D bindings, by parameter name.
  llvm::StringMap<TValue> Defines;
  for (const auto &[Name, Text] : Spec.Defines) {
    if (!F.getParam(Name)) {
      Fail(NameRange, "-D " + Name + ": '" + F.Name +
                          "' has no parameter named '" + Name + "'");
      continue;
    }
    std::optional<TValue> V = parseDefine(Text, &Context);
    if (!V) {
      Fail(NameRange, "-D " + Name + "=" + Text +
                          ": expected a number, True/False, a string or a "
                          "dtype such as tl.float16");
      continue;
    }
    Defines[Name] = *V;
  }

  // Autotune configs supply constexprs that -D leaves open; the first config
  // is the default specialization.
  llvm::StringMap<const Expr *> ConfigValues;
  if (F.Autotune && !F.Autotune->Configs.empty())
    if (const DictExpr *Kwargs = F.Autotune->Configs.front().Kwargs)
      for (auto [K, V] : llvm::zip(Kwargs->Keys, Kwargs->Values))
        if (auto *Key = dyn_cast_or_null<ConstantExpr>(K);
            Key && Key->isString())
          ConfigValues[Key->Str] = V;

  // The runtime signature.
  std::vector<SigEntry> Sig;
  for (llvm::StringRef Item : splitSignature(Spec.Signature)) {
    Item = Item.trim();
    if (Item.empty())
      continue;
    SigEntry E;
    E.Text = Item.str();
    if (auto [Name, Type] = Item.split('='); !Type.empty()) {
      E.Name = Name.trim().str();
      Item = Type.trim();
    }
    if (Item.starts_with("tensordesc")) {
      if (std::optional<std::string> Error =
              parseDescriptorType(Item, &Context, E))
        Fail(NameRange, "--signature: '" + E.Text + "': " + *Error);
      else
        Sig.push_back(E);
      continue;
    }
    auto [TypeText, Hint] = Item.split(':');
    std::optional<DType> T = parseSignatureType(TypeText, &Context);
    if (!T) {
      Fail(NameRange, "--signature: unknown type '" + TypeText.str() +
                          "' (expected e.g. *fp32, *fp16:16, i32, i64, fp32)");
      continue;
    }
    E.Type = *T;
    if (!Hint.empty()) {
      int64_t Div;
      if (Hint.getAsInteger(10, Div) || Div <= 0) {
        Fail(NameRange, "--signature: '" + E.Text +
                            "': the hint after ':' must be a positive "
                            "divisibility such as 16");
        continue;
      }
      E.Divisibility = Div;
    }
    Sig.push_back(E);
  }

  // A bad entry would shift the positional ones after it.
  if (!Ok)
    return nullptr;

  // Classify the parameters.
  Frames.emplace_back();
  Frames.back().Fn = &F;
  SmallVector<Type> ArgTypes;
  std::vector<const Param *> RuntimeParams;
  std::vector<const SigEntry *> RuntimeSig;
  size_t NextPositional = 0;
  NamedAttrList Constexprs;
  for (const Param &P : F.Params) {
    if (P.Kind == Param::ParamKind::VarPositional ||
        P.Kind == Param::ParamKind::VarKeyword) {
      Fail(P.Range, "'*args' and '**kwargs' are not supported in kernels");
      continue;
    }
    auto Def = Defines.find(P.Name);
    bool IsConstexpr = isConstexprAnnotation(M, P.Annotation);
    if (Def != Defines.end() || IsConstexpr) {
      TValue V;
      if (Def != Defines.end()) {
        V = Def->second;
      } else if (auto C = ConfigValues.find(P.Name); C != ConfigValues.end()) {
        auto R = lowerExpr(C->second);
        if (failed(R)) {
          Ok = false;
          continue;
        }
        V = *R;
      } else if (P.Default) {
        auto R = lowerExpr(P.Default);
        if (failed(R)) {
          Ok = false;
          continue;
        }
        V = *R;
      } else {
        Fail(P.Range, "constexpr parameter '" + P.Name +
                          "' has no value; pass -D " + P.Name + "=<value>");
        continue;
      }
      frame().Vars[P.Name] = V;
      Constexprs.append(P.Name, toAttr(V, B));
      continue;
    }
    const SigEntry *E = nullptr;
    for (const SigEntry &S : Sig)
      if (S.Name == P.Name)
        E = &S;
    if (!E) {
      while (NextPositional < Sig.size() && !Sig[NextPositional].Name.empty())
        ++NextPositional;
      if (NextPositional < Sig.size())
        E = &Sig[NextPositional++];
    }
    if (!E) {
      Fail(P.Range, "runtime parameter '" + P.Name +
                        "' has no type; give it in --signature (e.g. "
                        "'*fp32:16, i32') or bind it with -D " +
                        P.Name + "=<value>");
      continue;
    }
    RuntimeParams.push_back(&P);
    RuntimeSig.push_back(E);
    if (E->Block.empty()) {
      ArgTypes.push_back(E->Type.Type);
      continue;
    }
    // A tensor descriptor is passed as its base, its shape and all but its
    // last stride (which is 1).
    ArgTypes.push_back(mlir::tle::PointerType::get(E->Type.Type));
    ArgTypes.append(E->Block.size(), B.getI32Type());
    ArgTypes.append(E->Block.size() - 1, B.getI64Type());
    SmallVector<std::string> Parts = getDescriptorArgNames(P.Name, E->Block);
    for (const std::string &Part : Parts)
      if (const Param *Other = F.getParam(Part))
        Fail(Other->Range, "'" + Part +
                               "' is also the name of a part of tensor "
                               "descriptor parameter '" +
                               P.Name + "' (passed as " +
                               llvm::join(Parts, ", ") +
                               "); rename one of them");
  }
  size_t NumPositionalSig =
      llvm::count_if(Sig, [](const SigEntry &S) { return S.Name.empty(); });
  if (Ok && NextPositional < NumPositionalSig)
    Fail(NameRange, "--signature has " + llvm::Twine(NumPositionalSig) +
                        " positional types but '" + F.Name + "' has only " +
                        llvm::Twine(NextPositional) + " runtime parameters");
  if (!Ok) {
    Frames.pop_back();
    return nullptr;
  }

  OwningOpRef<ModuleOp> Module = ModuleOp::create(FnLoc);
  B.setInsertionPointToEnd(Module->getBody());
  auto Fn = mlir::tle::FuncOp::create(B, FnLoc, F.Name,
                                B.getFunctionType(ArgTypes, {}));
  Block *Entry = Fn.addEntryBlock();
  B.setInsertionPointToStart(Entry);
  unsigned Arg = 0;
  for (auto [P, E] : llvm::zip(RuntimeParams, RuntimeSig)) {
    if (!E->Block.empty()) {
      frame().Vars[P->Name] =
          lowerDescriptorParam(B, Fn, Arg, P->Name, *E, loc(P->Range.Start));
      Arg += 2 * E->Block.size();
      continue;
    }
    frame().Vars[P->Name] =
        TValue::ir(Entry->getArgument(Arg), E->Type.IsUnsigned);
    if (E->Divisibility)
      Fn.setArgAttr(Arg, "tle.divisibility",
                    B.getI32IntegerAttr(*E->Divisibility));
    Fn.setArgAttr(Arg++, "tle.name", B.getStringAttr(P->Name));
  }
  Fn->setAttr("tle.constexprs", Constexprs.getDictionary(&Context));
  Module->getOperation()->setAttr("tle.num_warps",
                                  B.getI32IntegerAttr(Spec.NumWarps));
  Module->getOperation()->setAttr("tle.num_stages",
                                  B.getI32IntegerAttr(Spec.NumStages));
  if (F.Autotune) {
    SmallVector<Attribute> Configs;
    for (const AutotuneConfig &C : F.Autotune->Configs) {
      NamedAttrList Entries;
      if (C.Kwargs)
        for (auto [K, V] : llvm::zip(C.Kwargs->Keys, C.Kwargs->Values)) {
          auto *Key = dyn_cast_or_null<ConstantExpr>(K);
          if (!Key || !Key->isString())
            continue;
          if (auto R = lowerExpr(V); succeeded(R))
            Entries.append(Key->Str, toAttr(*R, B));
        }
      for (const Keyword &K : C.Options)
        if (auto R = lowerExpr(K.Value); succeeded(R))
          Entries.append(K.Arg, toAttr(*R, B));
      Configs.push_back(Entries.getDictionary(&Context));
    }
    Fn->setAttr("tle.autotune_configs", B.getArrayAttr(Configs));
  }

  B.setInsertionPointToEnd(Entry);
  PipeUses.clear();
  LogicalResult Lowered = lowerBlock(F.Body);
  Frames.pop_back();
  if (failed(Lowered))
    return nullptr;
  // A reader_wait on a pipe that nothing commits to can never complete:
  // reject it here, at the read, rather than hang on the device.
  for (const auto &[Pipe, Use] : PipeUses) {
    if (!Use.FirstRead || Use.Written)
      continue;
    auto Create = Pipe.getDefiningOp<mlir::tle::PipeCreateOp>();
    (void)error(Use.FirstRead,
                "pipe '" + (Create ? Create.getName() : "pipe") +
                    "' is read here, but nothing in kernel '" + F.Name +
                    "' commits to it: reader_wait() would wait forever; "
                    "write it with writer_commit() (earlier in this role "
                    "or in another warp_specialize partition)");
    return nullptr;
  }
  B.setInsertionPointToEnd(Entry);
  mlir::tle::ReturnOp::create(B, FnLoc);

  // A verifier failure here is a compiler bug, not a user error: report it
  // as such, with the IR location.
  std::string VerifierOutput;
  {
    ScopedDiagnosticHandler Handler(&Context, [&](mlir::Diagnostic &D) {
      llvm::raw_string_ostream OS(VerifierOutput);
      OS << D.getLocation() << ": " << D.str() << "\n";
      return success();
    });
    if (failed(verify(*Module))) {
      (void)error(NameRange, "internal compiler error: the tile IR for '" +
                                 F.Name + "' does not verify:\n" +
                                 VerifierOutput);
      return nullptr;
    }
  }
  return Module;
}

namespace tle::frontend {
OwningOpRef<ModuleOp> lowerKernel(const Module &M, const KernelSpec &Spec,
                                  MLIRContext &Context, DiagnosticEngine &Diags,
                                  ModuleLoader *Loader) {
  const FunctionDef *Kernel = nullptr;
  if (!Spec.KernelName.empty()) {
    Kernel = M.lookupFunction(Spec.KernelName);
    if (!Kernel || !Kernel->isKernel()) {
      std::string Names;
      for (const FunctionDef *F : M.Functions)
        if (F->isKernel())
          Names += (Names.empty() ? "" : ", ") + F->Name.str();
      Diags.error(llvm::SMLoc(), "no jit function named '" + Spec.KernelName +
                                     "' (the file defines: " + Names + ")");
      return nullptr;
    }
  } else {
    std::vector<const FunctionDef *> Jit;
    for (const FunctionDef *F : M.Functions)
      if (F->isKernel())
        Jit.push_back(F);
    if (Jit.size() != 1) {
      std::string Names;
      for (const FunctionDef *F : Jit)
        Names += (Names.empty() ? "" : ", ") + F->Name.str();
      Diags.error(llvm::SMLoc(),
                  Jit.empty() ? "the file defines no jit function"
                              : "the file defines several jit functions (" +
                                    Names + "); choose one with --kernel");
      return nullptr;
    }
    Kernel = Jit.front();
  }
  Emitter E(M, Context, Diags, Loader);
  return E.lowerKernel(*Kernel, Spec);
}
} // namespace tle::frontend
