//===- ParserImpl.h - Recursive-descent parser (internal) -------*- C++ -*-===//
//
// The parser works on the complete token vector of a file. Its three parts:
//   ModuleScanner.cpp  top level: imports, constants, decorated functions,
//                      and skipping of everything else by token structure;
//   ParseStmt.cpp      statements and blocks of jit function bodies;
//   ParseExpr.cpp      expressions, with Python's precedence;
//   ParseString.cpp    string literals and f-strings.
// Parse functions return null (statements: false) after reporting an error;
// statement-level callers then resynchronize at the next logical line.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_PARSERIMPL_H
#define TLE_FRONTEND_PARSERIMPL_H

#include "core/frontend/Diagnostics.h"
#include "core/frontend/Module.h"
#include "core/frontend/Token.h"
#include "llvm/ADT/SmallVector.h"

#include <array>

namespace tle::frontend {

/// The operator of an augmented assignment token (`+=`: Add); false for
/// any other token.
bool getAugAssignOp(TokenKind K, BinaryOpKind &Op);

class Parser {
public:
  Parser(llvm::ArrayRef<Token> Tokens, DiagnosticEngine &Diags, Module &M)
      : Tokens(Tokens), Diags(Diags), M(M), Ctx(M.getContext()) {}

  void parseModule();

private:
  //===--- Tokens and diagnostics (ModuleScanner.cpp)
  //----------------------===//
  const Token &tok() const { return Tokens[Pos]; }
  const Token &peekTok(unsigned Ahead = 1) const {
    return Tokens[std::min<size_t>(Pos + Ahead, Tokens.size() - 1)];
  }
  bool is(TokenKind K) const { return tok().is(K); }
  void consume() {
    if (!tok().is(TokenKind::eof))
      ++Pos;
  }
  bool consumeIf(TokenKind K) {
    if (!is(K))
      return false;
    consume();
    return true;
  }
  /// End of the previously consumed token, for node ranges.
  llvm::SMLoc prevEnd() const {
    return Pos ? Tokens[Pos - 1].getEndLoc() : tok().getLoc();
  }
  llvm::SMRange rangeFrom(llvm::SMLoc Start) const {
    return {Start, prevEnd()};
  }

  /// Reports Msg at the current token unless it is an error token (the lexer
  /// already explained it) or the parser is in quiet mode. Returns false.
  bool error(const llvm::Twine &Msg);
  bool errorAt(llvm::SMLoc Loc, const llvm::Twine &Msg,
               llvm::SMRange Range = {});
  /// Consumes a token of kind K or reports Msg.
  bool expect(TokenKind K, const llvm::Twine &Msg);
  /// Reports `unsupported syntax in a jit function: What` over Range.
  void unsupported(llvm::SMRange Range, const llvm::Twine &What);
  unsigned getLine(llvm::SMLoc Loc) const;

  /// Skips the rest of the logical line and the indented block after it.
  /// With OnlyCompoundBlock, the block is skipped only when the line is a
  /// compound statement's header (ends with ':'): the top level uses this so
  /// that stray indentation is still reported as unexpected; error recovery
  /// skips any block, which most likely belongs to the broken line.
  void skipStatement(bool OnlyCompoundBlock = false);
  void skipBlock();

  //===--- Top level (ModuleScanner.cpp)
  //-----------------------------------===//
  void parseImport();
  bool parseDottedName(std::string &Name);
  void parseDecorated();
  /// An undecorated top-level def (see FunctionDef::IsCompileTime).
  void parsePlainDef();
  void parseModuleConstant();
  /// Module-level `if` / `elif` / `else`: the branch bodies are scanned as
  /// top-level code, and closeModuleIf keeps what every run of the module
  /// would bind (see there).
  void enterModuleIfBranch();
  /// Notes as host bindings the names the statement at Pos binds without
  /// the scan recording them (`a, b = ...`, `x += 1`, `for x in`, `class x`,
  /// `del x`, `with ... as x`, and what the block of a `for`, `while`,
  /// `with`, `else` or `finally` binds); consumes nothing.
  void noteUnrecordedBindings();
  void noteBlockBindings(size_t LineEnd);
  /// A new binding of Name supersedes the current scope's earlier ones.
  void rebind(llvm::StringRef Name);
  void noteHostBinding(llvm::StringRef Spelling);
  /// noteHostBinding of the token at I when it is a name.
  void noteHostBindingAt(size_t I);
  void closeModuleIf();
  /// Whether the current scope (the innermost module-level `if` branch, or
  /// the whole module outside one) binds Name: a handler's binding is a
  /// fallback only for a name its try body left unbound.
  bool boundInScope(llvm::StringRef Name) const;
  FunctionDef *parseFunctionDef(llvm::ArrayRef<Decorator> Decorators,
                                llvm::SMLoc Start, bool IsJit);
  void extractAutotune(FunctionDef &F);
  DecoratorKind classifyDecorator(llvm::StringRef Canonical) const;

  //===--- Statements (ParseStmt.cpp)
  //--------------------------------------===//
  bool parseBlock(llvm::SmallVectorImpl<Stmt *> &Body, llvm::StringRef What,
                  llvm::SMLoc HeaderLoc);
  void parseStatement(llvm::SmallVectorImpl<Stmt *> &Out);
  /// `except`, `finally`, `else`, `elif`: clauses that continue the
  /// compound statement before them.
  bool isContinuationClause() const;
  bool parseSimpleStatements(llvm::SmallVectorImpl<Stmt *> &Out);
  Stmt *parseSimpleStatement();
  Stmt *parseExprOrAssign();
  Stmt *parseIf(bool IsElif);
  Stmt *parseFor();
  Stmt *parseWhile();
  bool parseElse(llvm::SmallVectorImpl<Stmt *> &OrElse);
  bool parseParams(TokenKind Close, bool AllowAnnotations,
                   llvm::SmallVectorImpl<Param> &Params);
  bool setStore(Expr *E, bool AllowTuple);

  //===--- Expressions (ParseExpr.cpp)
  //-------------------------------------===//
  bool canStartExpr() const;
  Expr *parseNamedExprTest();
  Expr *parseTest();
  Expr *parseOrTest();
  Expr *parseAndTest();
  Expr *parseNotTest();
  Expr *parseComparison();
  Expr *parseBinary(unsigned MinPrec);
  Expr *parseFactor();
  Expr *parsePower();
  Expr *parsePrimary();
  Expr *parseAtom();
  Expr *parseNumber();
  Expr *parseParenthesized();
  Expr *parseListDisplay();
  Expr *parseBraceDisplay();
  Expr *parseLambda();
  Expr *parseCall(Expr *Func);
  Expr *parseSubscript(Expr *Value);
  Expr *parseSliceItem();
  /// Comma-separated expressions (`a, *b`); a tuple when there is a comma.
  /// Targets parse at the `|` level, as Python's star_targets do.
  Expr *parseExprList(bool ForTargets = false);
  Expr *parseStarOrTest(bool ForTargets);
  Expr *parseComprehension(llvm::SMLoc Start, ComprehensionExpr::CompKind Kind,
                           Expr *Elt, Expr *Value, TokenKind Close);

  //===--- String literals and f-strings (ParseString.cpp)
  //-----------------===//
  Expr *parseStrings();
  /// Appends the value of one string token to Out: escapes decoded, except
  /// in raw strings and f-strings (whose text is kept as written).
  void decodeString(const Token &T, std::string &Out, bool &IsBytes);
  /// Parses Text, an f-string's body or a format spec (InSpec, where braces
  /// are not doubled), into Parts; literal text gathers in Literal until a
  /// field follows, and literal parts take LiteralRange.
  bool parseFStringText(llvm::StringRef Text, bool IsRaw, bool InSpec,
                        llvm::SMRange LiteralRange, std::string &Literal,
                        llvm::SmallVectorImpl<Expr *> &Parts);
  /// Parses the replacement field opening at Text[I] and moves I past it.
  bool parseReplacementField(llvm::StringRef Text, size_t &I, bool IsRaw,
                             llvm::SMRange LiteralRange, std::string &Literal,
                             llvm::SmallVectorImpl<Expr *> &Parts);
  /// A field's expression, lexed and parsed by a parser of its own tokens.
  Expr *parseFieldExpression(llvm::StringRef Text);
  /// Moves non-empty Literal into Parts as a Str constant.
  void flushLiteral(std::string &Literal, llvm::SMRange Range,
                    llvm::SmallVectorImpl<Expr *> &Parts);

  template <typename T> llvm::ArrayRef<T> copy(llvm::ArrayRef<T> A) {
    return Ctx.copyArray(A);
  }

  /// Bounds the recursion of nested expressions so that adversarial input
  /// cannot exhaust the stack.
  static constexpr unsigned MaxExprDepth = 200;
  struct DepthGuard {
    Parser &P;
    bool Ok;
    explicit DepthGuard(Parser &P);
    ~DepthGuard() {
      --P.ExprDepth;
      --P.TreeDepth;
    }
  };
  /// Bounds the depth of the tree built by loops (`a + b + ...` and
  /// `a.b(c)[d]...` chains are left-deep), so that recursive walks of the
  /// AST -- the dump, the lowering -- cannot exhaust the stack either.
  static constexpr unsigned MaxTreeDepth = 4000;
  bool extendChain();

  llvm::ArrayRef<Token> Tokens;
  size_t Pos = 0;
  DiagnosticEngine &Diags;
  Module &M;
  ASTContext &Ctx;
  unsigned ExprDepth = 0;
  unsigned TreeDepth = 0;
  /// f-string format specs being parsed, one inside another.
  unsigned FormatSpecDepth = 0;
  /// Tentative parses (module constants) report nothing; QuietFailed tells
  /// whether one went wrong.
  bool Quiet = false;
  bool QuietFailed = false;
  /// Inside a jit function body constructs Triton cannot compile are
  /// errors; in decorator arguments and constants they are fine.
  bool InJitBody = false;
  unsigned LoopDepth = 0;
  /// Top-level `try:` / `except:` blocks entered by the module scan, and
  /// the depths of the `except` handlers among them: a handler's binding is
  /// a fallback, recorded only for a name the try body left unbound.
  unsigned ModuleBlockDepth = 0;
  llvm::SmallVector<unsigned, 2> HandlerDepths;
  /// How many module-level `if`s were open when each handler began: its
  /// fallbacks are judged against what the try body bound in that scope.
  llvm::SmallVector<size_t, 2> HandlerIfCounts;
  /// How far the module's binding lists reached at one point of the scan:
  /// Functions, Constants, Imports, ConditionalNames and HostBindings.
  using ScanMark = std::array<size_t, 5>;
  ScanMark mark() const;
  ScanMark scopeStart() const;
  /// The name the entry Index of binding list List binds (the lists of
  /// ScanMark, in its order).
  llvm::StringRef bindingName(unsigned List, size_t Index) const;
  /// Open module-level `if` statements: the block depth of the `if` line,
  /// where each branch's bindings start, whether the last branch's block
  /// has ended (an `elif` or `else` may follow), whether there is an `else`,
  /// and whether a branch was a one-line statement the scan skipped.
  struct ModuleIf {
    unsigned Depth;
    llvm::SMRange IfRange;
    llvm::SmallVector<ScanMark, 2> BranchStarts;
    bool BranchEnded = false;
    bool HasElse = false;
    bool HasOpaqueBranch = false;
  };
  llvm::SmallVector<ModuleIf, 1> ModuleIfs;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_PARSERIMPL_H
