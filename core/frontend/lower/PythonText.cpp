//===- PythonText.cpp - Python's str() and repr() of constexprs -----------===//

#include "core/frontend/lower/PythonText.h"
#include "core/frontend/lower/Types.h"
#include "dialects/TLE/TLEDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace tle::frontend;

std::string tle::frontend::getPythonFloatRepr(double D) {
  if (std::isnan(D))
    return "nan";
  if (std::isinf(D))
    return D > 0 ? "inf" : "-inf";
  // The fewest significant digits that read back as D, as Python's repr.
  char Buf[40];
  for (int Digits = 1; Digits <= 17; ++Digits) {
    std::snprintf(Buf, sizeof(Buf), "%.*e", Digits - 1, D);
    if (std::strtod(Buf, nullptr) == D)
      break;
  }
  llvm::StringRef Text(Buf);
  bool Negative = Text.consume_front("-");
  auto [Mantissa, ExponentText] = Text.split('e');
  int Exponent = std::atoi(ExponentText.str().c_str());
  std::string Significand = Mantissa.str();
  llvm::erase(Significand, '.');
  while (Significand.size() > 1 && Significand.back() == '0')
    Significand.pop_back();

  std::string Out = Negative ? "-" : "";
  if (Exponent >= -4 && Exponent < 16) {
    if (Exponent < 0)
      return Out + "0." + std::string(-Exponent - 1, '0') + Significand;
    size_t IntDigits = Exponent + 1;
    if (Significand.size() <= IntDigits)
      return Out + Significand +
             std::string(IntDigits - Significand.size(), '0') + ".0";
    return Out + Significand.substr(0, IntDigits) + "." +
           Significand.substr(IntDigits);
  }
  Out += Significand.substr(0, 1);
  if (Significand.size() > 1)
    Out += "." + Significand.substr(1);
  llvm::raw_string_ostream OS(Out);
  OS << 'e' << (Exponent < 0 ? '-' : '+')
     << llvm::format("%02d", std::abs(Exponent));
  return Out;
}

/// Whether repr() shows the code point as it is (an approximation of
/// Python's str.isprintable beyond ASCII: C1 controls, no-break space and
/// soft hyphen are escaped, everything else is kept).
static bool isPrintable(uint32_t CodePoint) {
  if (CodePoint < 0x80)
    return CodePoint >= 0x20 && CodePoint != 0x7f;
  return CodePoint > 0xa0 && CodePoint != 0xad;
}

/// repr(S) (ascii(S) with AsciiOnly).
static std::string getStrRepr(llvm::StringRef S, bool AsciiOnly) {
  char Quote = S.contains('\'') && !S.contains('"') ? '"' : '\'';
  std::string Out(1, Quote);
  llvm::raw_string_ostream OS(Out);
  const auto *P = reinterpret_cast<const llvm::UTF8 *>(S.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(S.end());
  while (P < End) {
    const llvm::UTF8 *Start = P;
    llvm::UTF32 CodePoint;
    if (llvm::convertUTF8Sequence(&P, End, &CodePoint,
                                  llvm::strictConversion) !=
        llvm::conversionOK) {
      // Not UTF-8 (a \x escape made a lone byte): shown as its code point.
      CodePoint = *Start;
      P = Start + 1;
    }
    switch (CodePoint) {
    case '\\':
      OS << "\\\\";
      continue;
    case '\n':
      OS << "\\n";
      continue;
    case '\r':
      OS << "\\r";
      continue;
    case '\t':
      OS << "\\t";
      continue;
    default:
      break;
    }
    if (CodePoint == static_cast<uint32_t>(Quote))
      OS << '\\' << Quote;
    else if (CodePoint < 0x80 && isPrintable(CodePoint))
      OS << static_cast<char>(CodePoint);
    else if (!AsciiOnly && isPrintable(CodePoint))
      OS << llvm::StringRef(reinterpret_cast<const char *>(Start), P - Start);
    else if (CodePoint < 0x100)
      OS << "\\x" << llvm::format("%02x", CodePoint);
    else if (CodePoint < 0x10000)
      OS << "\\u" << llvm::format("%04x", CodePoint);
    else
      OS << "\\U" << llvm::format("%08x", CodePoint);
  }
  OS << Quote;
  return Out;
}

/// Triton's dtype names: str(tl.int32) is "int32", str(tl.float16) "fp16".
static std::string getTritonDTypeName(mlir::Type T, bool IsUnsigned) {
  if (auto Ptr = llvm::dyn_cast<mlir::tle::PointerType>(T))
    return "pointer<" + getTritonDTypeName(Ptr.getPointeeType(), IsUnsigned) +
           ">";
  if (auto Int = llvm::dyn_cast<mlir::IntegerType>(T))
    return (IsUnsigned ? "uint" : "int") + std::to_string(Int.getWidth());
  return getDTypeName(T);
}

/// repr(dtype): "triton.language.float16"; pointers as their str.
static std::string getTritonDTypeRepr(mlir::Type T, bool IsUnsigned) {
  std::string Name = getTritonDTypeName(T, IsUnsigned);
  if (llvm::isa<mlir::tle::PointerType>(T))
    return Name;
  llvm::StringRef N(Name);
  if (N.consume_front("fp"))
    return "triton.language.float" + N.str();
  if (N.consume_front("bf"))
    return "triton.language.bfloat" + N.str();
  return "triton.language." + Name;
}

std::optional<std::string> tle::frontend::getPythonText(const TValue &V,
                                                        char Conversion) {
  bool Repr = Conversion == 'r' || Conversion == 'a';
  switch (V.getKind()) {
  case TValue::Kind::None:
    return std::string("None");
  case TValue::Kind::Bool:
    return std::string(V.getBool() ? "True" : "False");
  case TValue::Kind::Int:
    return llvm::toString(V.getWideInt(), 10, /*Signed=*/true);
  case TValue::Kind::Float:
    return getPythonFloatRepr(V.getFloat());
  case TValue::Kind::Str:
    if (!Repr)
      return V.getStr().str();
    return getStrRepr(V.getStr(), /*AsciiOnly=*/Conversion == 'a');
  case TValue::Kind::DType:
    return Repr ? getTritonDTypeRepr(V.getType(), V.isUnsigned())
                : getTritonDTypeName(V.getType(), V.isUnsigned());
  case TValue::Kind::Tuple: {
    // Python shows the elements' repr: (1, 'a'), (1,), ().
    std::string Text = "(";
    for (const TValue &Element : V.getElements()) {
      std::optional<std::string> Item =
          getPythonText(Element, Conversion == 'a' ? 'a' : 'r');
      if (!Item)
        return std::nullopt;
      Text += (Text.size() > 1 ? ", " : "") + *Item;
    }
    return Text + (V.getElements().size() == 1 ? ",)" : ")");
  }
  default:
    return std::nullopt;
  }
}
