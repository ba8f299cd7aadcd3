//===- Lexer.h - Python 3 tokenizer -----------------------------*- C++ -*-===//
//
// Turns one SourceMgr buffer into the token stream of Python's tokenizer:
// INDENT/DEDENT from an indentation stack, NEWLINE only at the end of logical
// lines (not inside brackets, not after a backslash continuation), comments
// and blank lines dropped, and every string form (prefixes, triple quotes,
// f-strings with nested replacement fields) as one string token. Keeping the
// token structure exact is what lets the module scanner skip host code it
// does not parse.
//
// Lexing errors are reported to the DiagnosticEngine and produce an `error`
// token (or are recovered from in place); the lexer never stops early, always
// balances INDENT with DEDENT and always ends with NEWLINE? DEDENT* EOF.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_LEXER_H
#define TLE_FRONTEND_LEXER_H

#include "core/frontend/Diagnostics.h"
#include "core/frontend/Token.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace tle::frontend {

class Lexer {
public:
  /// Python's own limits; deeper nesting is reported instead of exhausting
  /// the stack of the recursive-descent parser.
  static constexpr unsigned MaxIndentDepth = 100;
  static constexpr unsigned MaxBracketDepth = 200;
  /// Strings nested in f-string replacement fields.
  static constexpr unsigned MaxStringNesting = 16;

  Lexer(llvm::SourceMgr &SrcMgr, unsigned BufferID, DiagnosticEngine &Diags);
  /// Tokenizes Text, the expression of an f-string replacement field (a
  /// part of a buffer, so that locations stay exact), as Python does inside
  /// brackets: newlines are whitespace, and the tokens end with EOF only.
  Lexer(llvm::StringRef Text, DiagnosticEngine &Diags);

  /// Tokenizes the whole buffer.
  std::vector<Token> lexAll();

  /// The length of the string literal (prefix letters included) at the
  /// start of Text, a part of a buffer, read by the lexer's rules (strings
  /// nested in f-string fields may reuse the outer quote, as in Python
  /// 3.12); Text's length when it does not end there.
  static size_t measureStringLiteral(llvm::StringRef Text,
                                     DiagnosticEngine &Diags);

private:
  void lexLineStart();
  void lexToken();
  void lexIdentifierOrString();
  void lexNumber();
  bool lexStringBody(const char *Start, bool IsRaw, bool IsFormat);
  void lexPunctuation();
  void finish();

  void push(TokenKind Kind, const char *Start) {
    Tokens.emplace_back(Kind, llvm::StringRef(Start, Cur - Start));
  }
  void pushEmpty(TokenKind Kind, const char *At) {
    Tokens.emplace_back(Kind, llvm::StringRef(At, 0));
  }
  bool atEnd() const { return Cur >= End; }
  char peek(unsigned Ahead = 0) const {
    return Cur + Ahead < End ? Cur[Ahead] : '\0';
  }
  llvm::SMLoc loc(const char *P) const {
    return llvm::SMLoc::getFromPointer(P);
  }

  DiagnosticEngine &Diags;
  const char *Cur;
  const char *End;
  std::vector<Token> Tokens;
  std::vector<unsigned> IndentStack{0};
  /// Open brackets with their positions, for "never closed" and mismatch
  /// diagnostics.
  llvm::SmallVector<const char *, 16> Brackets;
  bool AtLineStart = true;
  bool InReplacementField = false;
  unsigned StringNesting = 0;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_LEXER_H
