//===- BuiltinsTorch.cpp - torch.finfo / torch.iinfo limits ---------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Kernel modules spell type limits with PyTorch (FlagGems' sort and topk:
// `_MIN_FLOAT32_VAL = tl.constexpr(torch.finfo(torch.float32).min)`). The
// limits are properties of the formats, so they are computed here without
// PyTorch: torch.finfo(T) / torch.iinfo(T) is the value `torch.finfo.T`,
// whose attributes (getTorchTypeInfo) are compile-time numbers.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Builtins.h"
#include "core/frontend/lower/Emitter.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ::tle::frontend;

namespace {

const llvm::fltSemantics *getFloatFormat(llvm::StringRef DType) {
  return llvm::StringSwitch<const llvm::fltSemantics *>(DType)
      .Cases({"float16", "half"}, &llvm::APFloat::IEEEhalf())
      .Case("bfloat16", &llvm::APFloat::BFloat())
      .Cases({"float32", "float"}, &llvm::APFloat::IEEEsingle())
      .Cases({"float64", "double"}, &llvm::APFloat::IEEEdouble())
      .Default(nullptr);
}

/// Bits and signedness of a torch integer dtype that fits an int64 range.
std::optional<std::pair<unsigned, bool>> getIntFormat(llvm::StringRef DType) {
  return llvm::StringSwitch<std::optional<std::pair<unsigned, bool>>>(DType)
      .Case("int8", std::pair(8u, true))
      .Case("int16", std::pair(16u, true))
      .Cases({"int32", "int"}, std::pair(32u, true))
      .Cases({"int64", "long"}, std::pair(64u, true))
      .Case("uint8", std::pair(8u, false))
      .Case("uint16", std::pair(16u, false))
      .Case("uint32", std::pair(32u, false))
      .Default(std::nullopt);
}

Result typeInfo(Emitter &E, CallArgs &Args, const Node *Site,
                llvm::StringRef Fn) {
  llvm::StringRef DType;
  if (Args.Positional.size() == 1 && Args.Keywords.empty() &&
      Args.Positional[0].Value.is(TValue::Kind::Builtin))
    DType = Args.Positional[0].Value.getName();
  bool Known = DType.consume_front("torch.") &&
               (Fn == "finfo" ? getFloatFormat(DType) != nullptr
                              : getIntFormat(DType).has_value());
  if (!Known)
    return E.error(Site, "torch." + Fn + "() takes one torch " +
                             (Fn == "finfo" ? "floating-point" : "integer") +
                             " dtype such as torch." +
                             (Fn == "finfo" ? "float32" : "int32") +
                             " (a value known when the kernel compiles)");
  return TValue::builtin(("torch." + Fn + "." + DType).str());
}

Result builtinFinfo(Emitter &E, CallArgs &Args, const Node *Site) {
  return typeInfo(E, Args, Site, "finfo");
}
Result builtinIinfo(Emitter &E, CallArgs &Args, const Node *Site) {
  return typeInfo(E, Args, Site, "iinfo");
}

} // namespace

std::optional<TValue> tle::frontend::getTorchTypeInfo(llvm::StringRef Info,
                                                      llvm::StringRef Attr) {
  llvm::StringRef DType = Info;
  if (DType.consume_front("torch.finfo.")) {
    const llvm::fltSemantics *S = getFloatFormat(DType);
    if (!S)
      return std::nullopt;
    auto toDouble = [](llvm::APFloat V) {
      bool LosesInfo;
      V.convert(llvm::APFloat::IEEEdouble(),
                llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
      return TValue::floating(V.convertToDouble());
    };
    if (Attr == "max")
      return toDouble(llvm::APFloat::getLargest(*S));
    if (Attr == "min")
      return toDouble(llvm::APFloat::getLargest(*S, /*Negative=*/true));
    if (Attr == "tiny" || Attr == "smallest_normal")
      return toDouble(llvm::APFloat::getSmallestNormalized(*S));
    if (Attr == "eps") {
      llvm::APFloat One(*S, 1), Next = One;
      Next.next(/*nextDown=*/false);
      Next.subtract(One, llvm::APFloat::rmNearestTiesToEven);
      return toDouble(Next);
    }
    if (Attr == "bits")
      return TValue::integer(llvm::APFloat::getSizeInBits(*S));
    return std::nullopt;
  }
  if (DType.consume_front("torch.iinfo.")) {
    std::optional<std::pair<unsigned, bool>> F = getIntFormat(DType);
    if (!F)
      return std::nullopt;
    auto [Bits, Signed] = *F;
    if (Attr == "bits")
      return TValue::integer(Bits);
    if (Attr == "min")
      return TValue::integer(Signed ? llvm::minIntN(Bits) : 0);
    if (Attr == "max")
      return Signed ? TValue::integer(llvm::maxIntN(Bits))
                    : TValue::uint64(llvm::maxUIntN(Bits));
  }
  return std::nullopt;
}

void tle::frontend::registerTorchBuiltins(llvm::StringMap<BuiltinFn> &Table) {
  Table["torch.finfo"] = builtinFinfo;
  Table["torch.iinfo"] = builtinIinfo;
}
