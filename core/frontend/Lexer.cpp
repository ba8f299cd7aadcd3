//===- Lexer.cpp - Python 3 tokenizer -------------------------------------===//

#include "core/frontend/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tle::frontend;

StringRef tle::frontend::getTokenKindName(TokenKind Kind) {
  switch (Kind) {
#define TOK(Name)                                                              \
  case TokenKind::Name:                                                        \
    return #Name;
#include "core/frontend/TokenKinds.def"
  }
  return "unknown";
}

StringRef tle::frontend::getTokenSpelling(TokenKind Kind) {
  switch (Kind) {
#define KEYWORD(Name, Spelling)                                                \
  case TokenKind::kw_##Name:                                                   \
    return Spelling;
#define PUNCT(Name, Spelling)                                                  \
  case TokenKind::Name:                                                        \
    return Spelling;
#include "core/frontend/TokenKinds.def"
  default:
    return "";
  }
}

static bool isIdentStart(char C) {
  // Bytes of multi-byte UTF-8 sequences are accepted so that non-ASCII
  // identifiers (valid in Python 3) do not stop the scanner.
  return isAlpha(C) || C == '_' || static_cast<unsigned char>(C) >= 0x80;
}
static bool isIdentChar(char C) { return isIdentStart(C) || isDigit(C); }
static bool isNewline(char C) { return C == '\n' || C == '\r'; }

Lexer::Lexer(SourceMgr &SrcMgr, unsigned BufferID, DiagnosticEngine &Diags)
    : Diags(Diags) {
  const MemoryBuffer *Buf = SrcMgr.getMemoryBuffer(BufferID);
  Cur = Buf->getBufferStart();
  End = Buf->getBufferEnd();
  // Python skips a UTF-8 byte order mark at the start of a file.
  if (Buf->getBuffer().starts_with("\xEF\xBB\xBF"))
    Cur += 3;
}

Lexer::Lexer(StringRef Text, DiagnosticEngine &Diags)
    : Diags(Diags), Cur(Text.begin()), End(Text.end()), AtLineStart(false),
      InReplacementField(true) {}

size_t Lexer::measureStringLiteral(StringRef Text, DiagnosticEngine &Diags) {
  Lexer L(Text, Diags);
  L.lexToken();
  if (L.Tokens.empty() || !L.Tokens.front().is(TokenKind::string))
    return Text.size();
  return L.Tokens.front().getSpelling().size();
}

std::vector<Token> Lexer::lexAll() {
  while (!atEnd() && !Diags.hasReachedErrorLimit()) {
    if (AtLineStart && Brackets.empty())
      lexLineStart();
    else
      lexToken();
  }
  finish();
  return std::move(Tokens);
}

/// Measures the indentation of a new logical line and emits INDENT/DEDENT.
/// Blank and comment-only lines do not take part in indentation.
void Lexer::lexLineStart() {
  unsigned Col = 0;
  while (!atEnd()) {
    char C = *Cur;
    if (C == ' ')
      ++Col;
    else if (C == '\t')
      Col = (Col / 8 + 1) * 8;
    else if (C == '\f')
      Col = 0;
    else
      break;
    ++Cur;
  }
  if (atEnd())
    return;
  if (*Cur == '#') {
    while (!atEnd() && !isNewline(*Cur))
      ++Cur;
    return;
  }
  if (isNewline(*Cur)) {
    Cur += (Cur[0] == '\r' && peek(1) == '\n') ? 2 : 1;
    return;
  }
  AtLineStart = false;
  if (Col > IndentStack.back()) {
    if (IndentStack.size() > MaxIndentDepth) {
      Diags.error(loc(Cur), "too many levels of indentation");
      return;
    }
    IndentStack.push_back(Col);
    pushEmpty(TokenKind::indent, Cur);
    return;
  }
  while (Col < IndentStack.back()) {
    IndentStack.pop_back();
    pushEmpty(TokenKind::dedent, Cur);
  }
  if (Col != IndentStack.back())
    Diags.error(loc(Cur),
                "unindent does not match any outer indentation level");
}

void Lexer::lexToken() {
  while (!atEnd() && (*Cur == ' ' || *Cur == '\t' || *Cur == '\f'))
    ++Cur;
  if (atEnd())
    return;
  const char *Start = Cur;
  char C = *Cur;
  if (C == '#') {
    while (!atEnd() && !isNewline(*Cur))
      ++Cur;
    // In a replacement field a comment must end at a line break, not take
    // the field's end with it (`f"{x#}"`).
    if (InReplacementField && atEnd()) {
      Diags.error(loc(Start), "f-string: a comment in a replacement field "
                              "must end at a line break");
      push(TokenKind::error, Start);
    }
    return;
  }
  if (isNewline(C)) {
    Cur += (C == '\r' && peek(1) == '\n') ? 2 : 1;
    if (Brackets.empty() && !InReplacementField) {
      Tokens.emplace_back(TokenKind::newline, StringRef(Start, 1));
      AtLineStart = true;
    }
    return;
  }
  if (C == '\\') {
    ++Cur;
    if (!atEnd() && isNewline(*Cur)) {
      Cur += (*Cur == '\r' && peek(1) == '\n') ? 2 : 1;
      return;
    }
    Diags.error(loc(Start),
                atEnd() ? "unexpected end of file after line continuation "
                          "character"
                        : "unexpected character after line continuation "
                          "character");
    push(TokenKind::error, Start);
    return;
  }
  if (isIdentStart(C))
    return lexIdentifierOrString();
  if (isDigit(C) || (C == '.' && isDigit(peek(1))))
    return lexNumber();
  if (C == '"' || C == '\'') {
    bool Ok = lexStringBody(Start, /*IsRaw=*/false, /*IsFormat=*/false);
    return push(Ok ? TokenKind::string : TokenKind::error, Start);
  }
  lexPunctuation();
}

void Lexer::lexIdentifierOrString() {
  const char *Start = Cur;
  while (!atEnd() && isIdentChar(*Cur))
    ++Cur;
  StringRef Text(Start, Cur - Start);
  if (!atEnd() && (*Cur == '"' || *Cur == '\'') && Text.size() <= 2) {
    std::string Prefix = Text.lower();
    bool IsPrefix = StringSwitch<bool>(Prefix)
                        .Cases({"r", "u", "b", "f"}, true)
                        .Cases({"br", "rb", "fr", "rf"}, true)
                        .Default(false);
    if (IsPrefix) {
      bool Ok = lexStringBody(Start, Prefix.find('r') != std::string::npos,
                              Prefix.find('f') != std::string::npos);
      return push(Ok ? TokenKind::string : TokenKind::error, Start);
    }
  }
  TokenKind Kind = StringSwitch<TokenKind>(Text)
#define KEYWORD(Name, Spelling) .Case(Spelling, TokenKind::kw_##Name)
#include "core/frontend/TokenKinds.def"
                       .Default(TokenKind::identifier);
  push(Kind, Start);
}

/// Scans the body of a string literal whose prefix starts at Start and whose
/// opening quote is at Cur. In f-strings, replacement fields are tracked with
/// Python 3.12 rules (they may contain any expression, including strings that
/// reuse the outer quote), and quotes in a format spec are literal text.
bool Lexer::lexStringBody(const char *Start, bool IsRaw, bool IsFormat) {
  char Quote = *Cur;
  bool Triple = peek(1) == Quote && peek(2) == Quote;
  Cur += Triple ? 3 : 1;
  const char *OpenEnd = Cur;

  struct Field {
    unsigned Parens = 0;
    bool InSpec = false;
  };
  SmallVector<Field, 4> Fields;
  auto Unterminated = [&] {
    Diags.error(loc(Start),
                Triple ? "unterminated triple-quoted string"
                       : "unterminated string literal",
                SMRange(loc(Start), loc(OpenEnd)));
    return false;
  };

  while (true) {
    if (atEnd())
      return Unterminated();
    char C = *Cur;
    bool InExpr = !Fields.empty() && !Fields.back().InSpec;
    if (C == '\\' && !InExpr) {
      Cur += 1;
      // A backslash never hides an f-string brace (`rf'\{{'` is a
      // backslash and an escaped brace).
      if (!atEnd() && !(IsFormat && (*Cur == '{' || *Cur == '}')))
        Cur += (*Cur == '\r' && peek(1) == '\n') ? 2 : 1;
      continue;
    }
    if (isNewline(C) && !Triple && Fields.empty())
      return Unterminated();
    if (!IsFormat) {
      if (C == Quote && (!Triple || (peek(1) == Quote && peek(2) == Quote))) {
        Cur += Triple ? 3 : 1;
        return true;
      }
      ++Cur;
      continue;
    }
    if (!InExpr) {
      // Literal text of the string or of a format spec.
      if (Fields.empty() && C == Quote &&
          (!Triple || (peek(1) == Quote && peek(2) == Quote))) {
        Cur += Triple ? 3 : 1;
        return true;
      }
      if (C == '{' && Fields.empty() && peek(1) == '{')
        Cur += 2;
      else if (C == '}' && Fields.empty() && peek(1) == '}')
        Cur += 2;
      else if (C == '{')
        Fields.emplace_back(), ++Cur;
      else if (C == '}' && !Fields.empty())
        Fields.pop_back(), ++Cur;
      else
        ++Cur;
      continue;
    }
    // Inside the expression of a replacement field.
    Field &F = Fields.back();
    if (C == '"' || C == '\'') {
      const char *P = Cur;
      while (P > OpenEnd && isIdentChar(P[-1]))
        --P;
      std::string Prefix = StringRef(P, Cur - P).lower();
      if (StringNesting >= MaxStringNesting) {
        Diags.error(loc(P), "too many nested strings in f-string");
        return false;
      }
      ++StringNesting;
      bool Ok = lexStringBody(P, Prefix.find('r') != std::string::npos,
                              Prefix.find('f') != std::string::npos);
      --StringNesting;
      if (!Ok)
        return false;
      continue;
    }
    if (C == '(' || C == '[' || C == '{')
      ++F.Parens;
    else if ((C == ')' || C == ']') && F.Parens)
      --F.Parens;
    else if (C == '}' && F.Parens)
      --F.Parens;
    else if (C == '}')
      Fields.pop_back();
    else if (C == ':' && F.Parens == 0)
      F.InSpec = true;
    ++Cur;
  }
}

void Lexer::lexNumber() {
  const char *Start = Cur;
  bool IsInteger = true;
  bool IsDecimal = true;
  auto SkipDigits = [&](bool Hex) {
    while (!atEnd() &&
           (isDigit(*Cur) || *Cur == '_' || (Hex && isHexDigit(*Cur))))
      ++Cur;
  };
  if (*Cur == '0' && StringRef("xXoObB").contains(peek(1))) {
    IsDecimal = false;
    char Base = toLower(peek(1));
    Cur += 2;
    SkipDigits(Base == 'x');
    StringRef Digits(Start + 2, Cur - Start - 2);
    bool Valid =
        !Digits.empty() && Digits.find_first_not_of('_') != StringRef::npos;
    for (char D : Digits)
      if ((Base == 'o' && D >= '8') || (Base == 'b' && D >= '2' && D != '_'))
        Valid = false;
    if (!Valid || (!atEnd() && isIdentChar(*Cur))) {
      while (!atEnd() && isIdentChar(*Cur))
        ++Cur;
      StringRef Kind = Base == 'x'   ? "hexadecimal"
                       : Base == 'o' ? "octal"
                                     : "binary";
      Diags.error(loc(Start), "invalid " + Kind + " literal",
                  SMRange(loc(Start), loc(Cur)));
      return push(TokenKind::error, Start);
    }
  } else {
    SkipDigits(false);
    if (!atEnd() && *Cur == '.' && !(peek(1) == '.' && peek(2) == '.')) {
      IsInteger = false;
      ++Cur;
      SkipDigits(false);
    }
    if (!atEnd() && (*Cur == 'e' || *Cur == 'E') &&
        (isDigit(peek(1)) ||
         ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
      IsInteger = false;
      Cur += isDigit(peek(1)) ? 1 : 2;
      SkipDigits(false);
    }
    if (!atEnd() && (*Cur == 'j' || *Cur == 'J')) {
      IsInteger = false;
      ++Cur;
    }
  }
  StringRef Text(Start, Cur - Start);
  bool BadUnderscore = false;
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '_' && (I + 1 == Text.size() || !isHexDigit(Text[I + 1]) ||
                           I == 0 || !isAlnum(Text[I - 1])))
      BadUnderscore = true;
  if (BadUnderscore || (!atEnd() && isIdentChar(*Cur))) {
    while (!atEnd() && isIdentChar(*Cur))
      ++Cur;
    Diags.error(loc(Start), "invalid decimal literal",
                SMRange(loc(Start), loc(Cur)));
    return push(TokenKind::error, Start);
  }
  if (IsDecimal && IsInteger && Text.size() > 1 && Text[0] == '0' &&
      Text.find_first_not_of("0_") != StringRef::npos) {
    Diags.error(loc(Start),
                "leading zeros in decimal integer literals are not permitted",
                SMRange(loc(Start), loc(Cur)));
    return push(TokenKind::error, Start);
  }
  push(TokenKind::number, Start);
}

void Lexer::lexPunctuation() {
  const char *Start = Cur;
  static const std::pair<StringRef, TokenKind> Puncts[] = {
      // Longest first so that matching is maximal munch.
      {"**=", TokenKind::starstarequal},
      {"//=", TokenKind::slashslashequal},
      {">>=", TokenKind::greatergreaterequal},
      {"<<=", TokenKind::lesslessequal},
      {"...", TokenKind::ellipsis},
      {"**", TokenKind::starstar},
      {"//", TokenKind::slashslash},
      {"<<", TokenKind::lessless},
      {">>", TokenKind::greatergreater},
      {"<=", TokenKind::lessequal},
      {">=", TokenKind::greaterequal},
      {"==", TokenKind::equalequal},
      {"!=", TokenKind::exclaimequal},
      {"->", TokenKind::arrow},
      {":=", TokenKind::colonequal},
      {"+=", TokenKind::plusequal},
      {"-=", TokenKind::minusequal},
      {"*=", TokenKind::starequal},
      {"/=", TokenKind::slashequal},
      {"%=", TokenKind::percentequal},
      {"@=", TokenKind::atequal},
      {"&=", TokenKind::ampequal},
      {"|=", TokenKind::pipeequal},
      {"^=", TokenKind::caretequal},
      {"(", TokenKind::l_paren},
      {")", TokenKind::r_paren},
      {"[", TokenKind::l_square},
      {"]", TokenKind::r_square},
      {"{", TokenKind::l_brace},
      {"}", TokenKind::r_brace},
      {",", TokenKind::comma},
      {":", TokenKind::colon},
      {";", TokenKind::semi},
      {".", TokenKind::period},
      {"=", TokenKind::equal},
      {"+", TokenKind::plus},
      {"-", TokenKind::minus},
      {"*", TokenKind::star},
      {"/", TokenKind::slash},
      {"%", TokenKind::percent},
      {"@", TokenKind::at},
      {"&", TokenKind::amp},
      {"|", TokenKind::pipe},
      {"^", TokenKind::caret},
      {"~", TokenKind::tilde},
      {"<", TokenKind::less},
      {">", TokenKind::greater},
  };
  StringRef Rest(Cur, End - Cur);
  for (const auto &[Spelling, Kind] : Puncts) {
    if (!Rest.starts_with(Spelling))
      continue;
    Cur += Spelling.size();
    char C = Spelling[0];
    if (C == '(' || C == '[' || C == '{') {
      if (Brackets.size() >= MaxBracketDepth) {
        Diags.error(loc(Start), "too many nested parentheses");
        return push(TokenKind::error, Start);
      }
      Brackets.push_back(Start);
    } else if (C == ')' || C == ']' || C == '}') {
      if (Brackets.empty()) {
        Diags.error(loc(Start), Twine("unmatched '") + Twine(C) + "'",
                    SMRange(loc(Start), loc(Cur)));
        return push(TokenKind::error, Start);
      }
      char Open = *Brackets.pop_back_val();
      char Expected = Open == '(' ? ')' : Open == '[' ? ']' : '}';
      if (C != Expected) {
        Diags.error(loc(Start),
                    Twine("closing parenthesis '") + Twine(C) +
                        "' does not match opening parenthesis '" + Twine(Open) +
                        "'",
                    SMRange(loc(Start), loc(Cur)));
        return push(TokenKind::error, Start);
      }
    }
    return push(Kind, Start);
  }
  ++Cur;
  unsigned char C = *Start;
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (isPrint(C))
    OS << "invalid character '" << C << "' (U+"
       << format_hex_no_prefix(C, 4, true) << ")";
  else
    OS << "invalid non-printable character U+"
       << format_hex_no_prefix(C, 4, true);
  Diags.error(loc(Start), Msg, SMRange(loc(Start), loc(Cur)));
  push(TokenKind::error, Start);
}

void Lexer::finish() {
  if (!Brackets.empty()) {
    const char *Open = Brackets.back();
    Diags.error(loc(Open), Twine("'") + Twine(*Open) + "' was never closed",
                SMRange(loc(Open), loc(Open + 1)));
  }
  if (InReplacementField)
    return pushEmpty(TokenKind::eof, End);
  if (!Tokens.empty() &&
      !Tokens.back().isAny(TokenKind::newline, TokenKind::dedent))
    pushEmpty(TokenKind::newline, End);
  while (IndentStack.size() > 1) {
    IndentStack.pop_back();
    pushEmpty(TokenKind::dedent, End);
  }
  pushEmpty(TokenKind::eof, End);
}
