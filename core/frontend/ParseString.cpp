//===- ParseString.cpp - String literals and f-strings --------------------===//
//
// Adjacent string tokens make one literal, as in Python. Plain literals
// become a Str (or Bytes) constant with their escapes decoded. A literal
// with an f-string part becomes a JoinedStr of Str constants and
// FormattedValue fields, as Python's ast module has it: each replacement
// field's expression is lexed and parsed in place (its tokens point into
// the file, so diagnostics inside a field carry exact locations).
//
//===----------------------------------------------------------------------===//

#include "core/frontend/Lexer.h"
#include "core/frontend/ParserImpl.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Unicode.h"

using namespace llvm;
using namespace tle::frontend;

namespace {
/// The parts of one string token.
struct StringToken {
  StringRef Body; ///< Between the quotes.
  bool IsBytes = false;
  bool IsRaw = false;
  bool IsFormat = false;
};
} // namespace

static StringToken splitStringToken(const Token &T) {
  StringRef S = T.getSpelling();
  size_t QuotePos = S.find_first_of("'\"");
  std::string Prefix = S.take_front(QuotePos).lower();
  StringToken Out;
  Out.IsBytes = Prefix.find('b') != std::string::npos;
  Out.IsFormat = Prefix.find('f') != std::string::npos;
  Out.IsRaw = Prefix.find('r') != std::string::npos;
  S = S.drop_front(QuotePos);
  size_t QuoteLen = S.size() >= 6 && S[1] == S[0] && S[2] == S[0] ? 3 : 1;
  Out.Body = S.drop_front(QuoteLen).drop_back(QuoteLen);
  return Out;
}

/// Appends the UTF-8 encoding of a code point.
static void appendUTF8(uint32_t CodePoint, std::string &Out) {
  char Buf[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
  char *P = Buf;
  if (ConvertCodePointToUTF8(CodePoint, P))
    Out.append(Buf, P);
}

/// Appends S, the text of a non-raw literal, with its escapes decoded.
static void appendDecoded(StringRef S, bool IsBytes, std::string &Out) {
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C != '\\' || I + 1 == S.size()) {
      Out += C;
      continue;
    }
    char E = S[++I];
    switch (E) {
    case '\n':
      break;
    case '\r':
      if (I + 1 < S.size() && S[I + 1] == '\n')
        ++I;
      break;
    case '\\':
      Out += '\\';
      break;
    case '\'':
      Out += '\'';
      break;
    case '"':
      Out += '"';
      break;
    case 'a':
      Out += '\a';
      break;
    case 'b':
      Out += '\b';
      break;
    case 'f':
      Out += '\f';
      break;
    case 'n':
      Out += '\n';
      break;
    case 'r':
      Out += '\r';
      break;
    case 't':
      Out += '\t';
      break;
    case 'v':
      Out += '\v';
      break;
    case 'x':
    case 'u':
    case 'U': {
      size_t Len = E == 'x' ? 2 : E == 'u' ? 4 : 8;
      StringRef Hex = S.substr(I + 1, Len);
      unsigned Value;
      if ((E != 'x' && IsBytes) || Hex.size() != Len ||
          Hex.getAsInteger(16, Value)) {
        Out += '\\';
        Out += E;
        break;
      }
      I += Len;
      if (E == 'x' && IsBytes)
        Out += static_cast<char>(Value);
      else
        appendUTF8(Value, Out);
      break;
    }
    case 'N': {
      // A named character, \N{BULLET}; Python accepts names in any case.
      size_t Close = S.find('}', I);
      std::optional<char32_t> CodePoint;
      if (!IsBytes && I + 1 < S.size() && S[I + 1] == '{' &&
          Close != StringRef::npos)
        CodePoint =
            sys::unicode::nameToCodepointStrict(S.slice(I + 2, Close).upper());
      if (!CodePoint) {
        Out += "\\N";
        break;
      }
      appendUTF8(*CodePoint, Out);
      I = Close;
      break;
    }
    default:
      if (E >= '0' && E <= '7') {
        unsigned Value = E - '0';
        for (int K = 0;
             K < 2 && I + 1 < S.size() && S[I + 1] >= '0' && S[I + 1] <= '7';
             ++K)
          Value = Value * 8 + (S[++I] - '0');
        if (IsBytes)
          Out += static_cast<char>(Value & 0xff);
        else
          appendUTF8(Value, Out);
        break;
      }
      // Unknown escapes are kept verbatim, as Python does.
      Out += '\\';
      Out += E;
    }
  }
}

void Parser::decodeString(const Token &T, std::string &Out, bool &IsBytes) {
  StringToken S = splitStringToken(T);
  IsBytes = S.IsBytes;
  if (S.IsRaw || S.IsFormat)
    Out += S.Body.str();
  else
    appendDecoded(S.Body, S.IsBytes, Out);
}

static SMLoc locAt(StringRef Text, size_t I) {
  return SMLoc::getFromPointer(Text.data() + I);
}

void Parser::flushLiteral(std::string &Literal, SMRange Range,
                          SmallVectorImpl<Expr *> &Parts) {
  if (Literal.empty())
    return;
  auto *C = Ctx.create<ConstantExpr>(Range, ConstantExpr::ValueKind::Str);
  C->Str = Ctx.copyString(Literal);
  Parts.push_back(C);
  Literal.clear();
}

Expr *Parser::parseFieldExpression(StringRef Text) {
  if (Text.trim().empty())
    return errorAt(locAt(Text, 0),
                   "f-string: valid expression required before '}'"),
           nullptr;
  Lexer L(Text, Diags);
  std::vector<Token> FieldTokens = L.lexAll();
  Parser Sub(FieldTokens, Diags, M);
  Sub.Quiet = Quiet;
  Sub.InJitBody = InJitBody;
  Sub.ExprDepth = ExprDepth;
  Sub.TreeDepth = TreeDepth;
  Expr *E = Sub.parseExprList();
  if (E && !Sub.is(TokenKind::eof)) {
    Sub.error("f-string: expecting '}'");
    E = nullptr;
  }
  QuietFailed |= Sub.QuietFailed;
  return E;
}

bool Parser::parseReplacementField(StringRef Text, size_t &I, bool IsRaw,
                                   SMRange LiteralRange, std::string &Literal,
                                   SmallVectorImpl<Expr *> &Parts) {
  size_t Open = I++;
  size_t ExprBegin = I;
  // The expression ends at the first '}', ':', '!' or '=' outside brackets
  // and nested strings that is not part of an operator (==, !=, <=, >=).
  unsigned Depth = 0;
  for (; I < Text.size(); ++I) {
    char C = Text[I];
    char Next = I + 1 < Text.size() ? Text[I + 1] : '\0';
    if (C == '\'' || C == '"') {
      // A string nested in the field, from its prefix letters on.
      size_t Start = I;
      while (Start > ExprBegin && isAlpha(Text[Start - 1]))
        --Start;
      I = Start + Lexer::measureStringLiteral(Text.drop_front(Start), Diags) -
          1;
      continue;
    }
    if (C == '(' || C == '[' || C == '{') {
      ++Depth;
      continue;
    }
    if ((C == ')' || C == ']' || C == '}') && Depth) {
      --Depth;
      continue;
    }
    if (Depth)
      continue;
    if (C == '}' || C == ':' || (C == '!' && Next != '='))
      break;
    if (C == '=' && Next == '=') {
      ++I;
      continue;
    }
    if (C == '=' && !StringRef("=!<>").contains(Text[I - 1]))
      break;
  }
  if (I == Text.size())
    return errorAt(locAt(Text, Open), "f-string: expecting '}'",
                   SMRange(locAt(Text, Open), locAt(Text, Open + 1)));
  Expr *Value = parseFieldExpression(Text.slice(ExprBegin, I));
  if (!Value)
    return false;

  // `{x=}`: the expression's text, the '=' and the spaces after it are
  // literal text.
  bool SelfDocumenting = Text[I] == '=';
  if (SelfDocumenting) {
    ++I;
    while (I < Text.size() && isSpace(Text[I]))
      ++I;
    Literal += Text.slice(ExprBegin, I).str();
  }
  char Conversion = 0;
  if (I < Text.size() && Text[I] == '!') {
    if (I + 1 == Text.size() || !StringRef("sra").contains(Text[I + 1]))
      return errorAt(locAt(Text, I),
                     "f-string: invalid conversion character: expected "
                     "'s', 'r', or 'a'");
    Conversion = Text[I + 1];
    I += 2;
  }
  JoinedStrExpr *Spec = nullptr;
  if (I < Text.size() && Text[I] == ':') {
    size_t SpecBegin = ++I;
    unsigned Nested = 0;
    for (; I < Text.size(); ++I) {
      if (Text[I] == '{')
        ++Nested;
      else if (Text[I] == '}' && Nested)
        --Nested;
      else if (Text[I] == '}')
        break;
    }
    StringRef SpecText = Text.slice(SpecBegin, I);
    SMRange SpecRange(locAt(Text, SpecBegin), locAt(Text, I));
    std::string SpecLiteral;
    SmallVector<Expr *, 2> SpecParts;
    ++FormatSpecDepth;
    bool SpecOk = parseFStringText(SpecText, IsRaw, /*InSpec=*/true, SpecRange,
                                   SpecLiteral, SpecParts);
    --FormatSpecDepth;
    if (!SpecOk)
      return false;
    flushLiteral(SpecLiteral, SpecRange, SpecParts);
    Spec = Ctx.create<JoinedStrExpr>(SpecRange, copy<Expr *>(SpecParts));
  }
  if (I == Text.size() || Text[I] != '}')
    return errorAt(locAt(Text, std::min(I, Text.size())),
                   "f-string: expecting '}'");
  ++I;
  if (SelfDocumenting && !Conversion && !Spec)
    Conversion = 'r';
  flushLiteral(Literal, LiteralRange, Parts);
  Parts.push_back(Ctx.create<FormattedValueExpr>(
      SMRange(locAt(Text, Open), locAt(Text, I)), Value, Conversion, Spec));
  return true;
}

bool Parser::parseFStringText(StringRef Text, bool IsRaw, bool InSpec,
                              SMRange LiteralRange, std::string &Literal,
                              SmallVectorImpl<Expr *> &Parts) {
  size_t TextStart = 0;
  auto AppendText = [&](size_t End) {
    StringRef Piece = Text.slice(TextStart, End);
    if (IsRaw)
      Literal += Piece.str();
    else
      appendDecoded(Piece, /*IsBytes=*/false, Literal);
  };
  size_t I = 0;
  while (I < Text.size()) {
    char C = Text[I];
    if (C == '\\' && !IsRaw && Text.substr(I + 1, 2) == "N{") {
      // A named character (\N{BULLET}): its braces are not a field.
      size_t Close = Text.find('}', I);
      I = Close == StringRef::npos ? Text.size() : Close + 1;
      continue;
    }
    if (C == '\\') {
      // A backslash never hides a brace (`\{{` is a backslash and a brace).
      bool BeforeBrace =
          I + 1 < Text.size() && (Text[I + 1] == '{' || Text[I + 1] == '}');
      I += BeforeBrace ? 1 : 2;
      continue;
    }
    if (!InSpec && (C == '{' || C == '}') && I + 1 < Text.size() &&
        Text[I + 1] == C) {
      AppendText(I + 1);
      I += 2;
      TextStart = I;
      continue;
    }
    if (C == '}')
      return errorAt(locAt(Text, I), "f-string: single '}' is not allowed",
                     SMRange(locAt(Text, I), locAt(Text, I + 1)));
    if (C == '{') {
      // Python allows a field in a spec, not one in a spec of that field.
      if (InSpec && FormatSpecDepth > 1)
        return errorAt(locAt(Text, I),
                       "f-string: expressions nested too deeply",
                       SMRange(locAt(Text, I), locAt(Text, I + 1)));
      AppendText(I);
      if (!parseReplacementField(Text, I, IsRaw, LiteralRange, Literal, Parts))
        return false;
      TextStart = I;
      continue;
    }
    ++I;
  }
  AppendText(Text.size());
  return true;
}

Expr *Parser::parseStrings() {
  SMLoc Start = tok().getLoc();
  std::string Literal;
  SmallVector<Expr *, 4> Parts;
  bool AnyBytes = false, AnyStr = false, AnyFormat = false, Ok = true;
  while (is(TokenKind::string)) {
    StringToken S = splitStringToken(tok());
    AnyBytes |= S.IsBytes;
    AnyStr |= !S.IsBytes;
    if (S.IsFormat) {
      AnyFormat = true;
      Ok = Ok && parseFStringText(S.Body, S.IsRaw, /*InSpec=*/false,
                                  tok().getRange(), Literal, Parts);
    } else if (S.IsRaw) {
      Literal += S.Body.str();
    } else {
      appendDecoded(S.Body, S.IsBytes, Literal);
    }
    consume();
  }
  SMRange Range = rangeFrom(Start);
  if (!Ok)
    return nullptr;
  if (AnyBytes && AnyStr)
    return errorAt(Start, "cannot mix bytes and nonbytes literals", Range),
           nullptr;
  if (AnyFormat) {
    flushLiteral(Literal, Range, Parts);
    return Ctx.create<JoinedStrExpr>(Range, copy<Expr *>(Parts));
  }
  auto *C =
      Ctx.create<ConstantExpr>(Range, AnyBytes ? ConstantExpr::ValueKind::Bytes
                                               : ConstantExpr::ValueKind::Str);
  C->Str = Ctx.copyString(Literal);
  return C;
}
