//===- LexerTest.cpp - Unit tests for the Python tokenizer ----------------===//

#include "core/frontend/Lexer.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace tle::frontend;

namespace {
struct Lexed {
  SourceMgr SrcMgr;
  std::unique_ptr<DiagnosticEngine> Diags;
  std::vector<Token> Tokens;

  explicit Lexed(StringRef Source) {
    unsigned ID = SrcMgr.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(Source, "test.py"), SMLoc());
    Diags = std::make_unique<DiagnosticEngine>(SrcMgr);
    Tokens = Lexer(SrcMgr, ID, *Diags).lexAll();
  }

  /// Kinds as a space-separated string; identifiers, numbers and strings
  /// show their spelling.
  std::string kinds() const {
    std::string S;
    for (const Token &T : Tokens) {
      if (!S.empty())
        S += ' ';
      if (T.isAny(TokenKind::identifier, TokenKind::number, TokenKind::string))
        S += T.getSpelling().str();
      else
        S += getTokenKindName(T.getKind()).str();
    }
    return S;
  }
  std::string firstError() const {
    return Diags->getDiagnostics().empty()
               ? ""
               : Diags->getDiagnostics().front().Message;
  }
};
} // namespace

TEST(LexerTest, IndentDedentStack) {
  Lexed L("if a:\n  if b:\n    x\n  y\nz\n");
  EXPECT_EQ(L.kinds(),
            "kw_if a colon newline indent kw_if b colon newline "
            "indent x newline dedent y newline dedent z newline eof");
  EXPECT_FALSE(L.Diags->hasErrors());
}

TEST(LexerTest, DedentsAtEndOfFileWithoutNewline) {
  Lexed L("def f():\n    if a:\n        return 1");
  EXPECT_EQ(L.kinds(), "kw_def f l_paren r_paren colon newline indent kw_if a "
                       "colon newline indent kw_return 1 newline dedent dedent "
                       "eof");
}

TEST(LexerTest, BlankAndCommentLinesDoNotIndent) {
  Lexed L("a\n\n      # comment\n   \nb  # trailing\n");
  EXPECT_EQ(L.kinds(), "a newline b newline eof");
}

TEST(LexerTest, NoNewlineInsideBrackets) {
  Lexed L("x = f(1,\n        2)[\n  3]\ny\n");
  EXPECT_EQ(L.kinds(), "x equal f l_paren 1 comma 2 r_paren l_square 3 "
                       "r_square newline y newline eof");
}

TEST(LexerTest, BackslashContinuation) {
  Lexed L("x = 1 + \\\n    2\n");
  EXPECT_EQ(L.kinds(), "x equal 1 plus 2 newline eof");
}

TEST(LexerTest, TabsCountToMultiplesOfEight) {
  Lexed L("if a:\n\tx\n        y\n");
  EXPECT_FALSE(L.Diags->hasErrors());
  EXPECT_EQ(L.kinds(), "kw_if a colon newline indent x newline y newline "
                       "dedent eof");
}

TEST(LexerTest, InconsistentDedent) {
  Lexed L("if a:\n    x\n  y\n");
  EXPECT_EQ(L.firstError(),
            "unindent does not match any outer indentation level");
}

TEST(LexerTest, StringForms) {
  Lexed L(
      R"py(a = 'x' "y" r'\d' b"\x00" Rb'q' bR"q" f"{a['k']}" F'{x:>{w}}' rf"{y}" '''a
b''' """c"d""" u'é')py");
  EXPECT_FALSE(L.Diags->hasErrors()) << L.firstError();
  EXPECT_EQ(
      L.kinds(),
      R"py(a equal 'x' "y" r'\d' b"\x00" Rb'q' bR"q" f"{a['k']}" F'{x:>{w}}' rf"{y}" '''a
b''' """c"d""" u'é' newline eof)py");
}

TEST(LexerTest, FStringWithNestedSameQuotes) {
  Lexed L("s = f\"{x[\"a\"]:{w}} {{lit}}\"\n");
  EXPECT_FALSE(L.Diags->hasErrors()) << L.firstError();
  EXPECT_EQ(L.Tokens.size(), 5u);
}

TEST(LexerTest, EscapedQuotes) {
  Lexed L("s = 'it\\'s' + \"\\\"\"\n");
  EXPECT_FALSE(L.Diags->hasErrors());
  EXPECT_EQ(L.kinds(), "s equal 'it\\'s' plus \"\\\"\" newline eof");
}

TEST(LexerTest, UnterminatedStrings) {
  EXPECT_EQ(Lexed("s = 'abc\n").firstError(), "unterminated string literal");
  EXPECT_EQ(Lexed("s = \"\"\"abc\n\n").firstError(),
            "unterminated triple-quoted string");
}

TEST(LexerTest, Numbers) {
  Lexed L("0 7 1_000 0x_FF 0o17 0b1010 1.5 .5 1. 1e10 1E-3 2.5e+2 3j 1.5J "
          "123456789012345678901234567890\n");
  EXPECT_FALSE(L.Diags->hasErrors()) << L.firstError();
  EXPECT_EQ(L.kinds(), "0 7 1_000 0x_FF 0o17 0b1010 1.5 .5 1. 1e10 1E-3 "
                       "2.5e+2 3j 1.5J 123456789012345678901234567890 newline "
                       "eof");
}

TEST(LexerTest, InvalidNumbers) {
  EXPECT_EQ(Lexed("x = 012\n").firstError(),
            "leading zeros in decimal integer literals are not permitted");
  EXPECT_EQ(Lexed("x = 1__0\n").firstError(), "invalid decimal literal");
  EXPECT_EQ(Lexed("x = 0b102\n").firstError(), "invalid binary literal");
  EXPECT_EQ(Lexed("x = 0xZ\n").firstError(), "invalid hexadecimal literal");
  EXPECT_EQ(Lexed("x = 1abc\n").firstError(), "invalid decimal literal");
}

TEST(LexerTest, Operators) {
  Lexed L("a **= b //= c -> d := e @ f ... >>= <<= != ** // @= ~\n");
  EXPECT_EQ(L.kinds(), "a starstarequal b slashslashequal c arrow d "
                       "colonequal e at f ellipsis greatergreaterequal "
                       "lesslessequal exclaimequal starstar slashslash atequal "
                       "tilde newline eof");
}

TEST(LexerTest, BracketErrors) {
  EXPECT_EQ(Lexed("x = (1, 2]\n").firstError(),
            "closing parenthesis ']' does not match opening parenthesis '('");
  EXPECT_EQ(Lexed("x = 1)\n").firstError(), "unmatched ')'");
  EXPECT_EQ(Lexed("x = [1,\n").firstError(), "'[' was never closed");
}

TEST(LexerTest, InvalidCharacters) {
  EXPECT_EQ(Lexed("x = $\n").firstError(), "invalid character '$' (U+0024)");
  EXPECT_EQ(Lexed(StringRef("x = \0\n", 6)).firstError(),
            "invalid non-printable character U+0000");
}

TEST(LexerTest, TokenLocations) {
  Lexed L("a\n  bb = 1\n");
  ASSERT_GE(L.Tokens.size(), 4u);
  const Token &BB = L.Tokens[3];
  ASSERT_EQ(BB.getSpelling(), "bb");
  auto [Line, Col] = L.SrcMgr.getLineAndColumn(BB.getLoc());
  EXPECT_EQ(Line, 2u);
  EXPECT_EQ(Col, 3u);
}

TEST(LexerTest, CRLFAndByteOrderMark) {
  Lexed L("\xEF\xBB\xBFif a:\r\n    b = (1,\r\n         2)\r\n");
  EXPECT_FALSE(L.Diags->hasErrors()) << L.firstError();
  EXPECT_EQ(L.kinds(), "kw_if a colon newline indent b equal l_paren 1 comma 2 "
                       "r_paren newline dedent eof");
}

TEST(LexerTest, EmptyAndCommentOnlyFiles) {
  EXPECT_EQ(Lexed("").kinds(), "eof");
  EXPECT_EQ(Lexed("# only a comment").kinds(), "eof");
  EXPECT_EQ(Lexed("\n\n   \n").kinds(), "eof");
}

TEST(LexerTest, BackslashBeforeFStringBrace) {
  Lexed L("a = rf'(\\{{)' + f'{x}\\{{'\n");
  EXPECT_FALSE(L.Diags->hasErrors()) << L.firstError();
  EXPECT_EQ(L.Tokens.size(), 7u);
}
