//===- Token.h - Python tokens ----------------------------------*- C++ -*-===//
//
// A token is a kind plus its spelling, a StringRef into the llvm::SourceMgr
// buffer it came from; locations are derived from the spelling so a token is
// two words and needs no separate line/column bookkeeping.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_TOKEN_H
#define TLE_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace tle::frontend {

enum class TokenKind : unsigned char {
#define TOK(Name) Name,
#include "core/frontend/TokenKinds.def"
};

/// Returns the enumerator name ("identifier", "kw_if", "plusequal", ...).
llvm::StringRef getTokenKindName(TokenKind Kind);

/// Returns the fixed spelling of keywords and punctuation, or an empty string
/// for the kinds whose spelling varies.
llvm::StringRef getTokenSpelling(TokenKind Kind);

class Token {
public:
  Token() = default;
  Token(TokenKind Kind, llvm::StringRef Spelling)
      : Kind(Kind), Spelling(Spelling) {}

  TokenKind getKind() const { return Kind; }
  bool is(TokenKind K) const { return Kind == K; }
  bool isNot(TokenKind K) const { return Kind != K; }
  template <typename... Ts> bool isAny(TokenKind K, Ts... Ks) const {
    return is(K) || (is(Ks) || ...);
  }

  /// The exact source text; empty for newline/indent/dedent/eof, which point
  /// at the position where they were synthesized.
  llvm::StringRef getSpelling() const { return Spelling; }
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(Spelling.data());
  }
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(Spelling.data() + Spelling.size());
  }
  llvm::SMRange getRange() const { return {getLoc(), getEndLoc()}; }

private:
  TokenKind Kind = TokenKind::eof;
  llvm::StringRef Spelling;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_TOKEN_H
