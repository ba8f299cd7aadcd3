//===- ParseStmt.cpp - Statement parsing for jit function bodies ---------===//
//
// Jit bodies accept the statements Triton compiles. Other Python statements
// are recognized so that they get a precise "unsupported syntax in a jit
// function" error, after which the parser skips the statement (and its block)
// and continues, so one file reports all such problems at once.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/ParserImpl.h"

using namespace llvm;
using namespace tle::frontend;

/// `if`, `for`, ... as used in "expected an indented block after ..." and
/// "expected ':' after ..." messages.
bool Parser::parseBlock(SmallVectorImpl<Stmt *> &Body, StringRef What,
                        SMLoc HeaderLoc) {
  if (!consumeIf(TokenKind::newline)) {
    // `if x: a = 1; b = 2` -- simple statements on the header's line.
    return parseSimpleStatements(Body);
  }
  if (!consumeIf(TokenKind::indent))
    return error("expected an indented block after " + What + " on line " +
                 Twine(getLine(HeaderLoc)));
  while (!is(TokenKind::dedent) && !is(TokenKind::eof) &&
         !Diags.hasReachedErrorLimit()) {
    size_t Before = Pos;
    parseStatement(Body);
    if (Pos == Before)
      consume(); // Guarantees progress whatever the statement parser did.
  }
  consumeIf(TokenKind::dedent);
  return true;
}

bool Parser::isContinuationClause() const {
  return tok().isAny(TokenKind::kw_except, TokenKind::kw_finally,
                     TokenKind::kw_else, TokenKind::kw_elif);
}

void Parser::parseStatement(SmallVectorImpl<Stmt *> &Out) {
  const Token &T = tok();
  auto Unsupported = [&](StringRef What) {
    unsupported(T.getRange(), What);
    // Skip the whole construct: decorators with their def, and the
    // continuation clauses of a compound statement.
    while (is(TokenKind::at))
      skipStatement();
    skipStatement();
    while (isContinuationClause())
      skipStatement();
  };
  switch (T.getKind()) {
  case TokenKind::newline:
    consume();
    return;
  case TokenKind::indent:
    consume();
    errorAt(tok().getLoc(), "unexpected indent", tok().getRange());
    // Parse the over-indented lines anyway: they are likely the intended
    // code, and skipping them would hide their own errors.
    while (!is(TokenKind::dedent) && !is(TokenKind::eof) &&
           !Diags.hasReachedErrorLimit()) {
      size_t Before = Pos;
      parseStatement(Out);
      if (Pos == Before)
        consume();
    }
    consumeIf(TokenKind::dedent);
    return;
  case TokenKind::kw_if:
  case TokenKind::kw_for:
  case TokenKind::kw_while: {
    Stmt *S = T.is(TokenKind::kw_if)    ? parseIf(/*IsElif=*/false)
                 : T.is(TokenKind::kw_for) ? parseFor()
                                        : parseWhile();
    if (S)
      Out.push_back(S);
    else
      skipStatement();
    return;
  }
  case TokenKind::kw_elif:
  case TokenKind::kw_else:
    error(Twine("'") + T.getSpelling() + "' without a matching 'if'");
    return skipStatement();
  case TokenKind::kw_def:
  case TokenKind::at:
    return Unsupported("nested function definition");
  case TokenKind::kw_class:
    return Unsupported("'class' definition");
  case TokenKind::kw_with:
    return Unsupported("'with' statement");
  case TokenKind::kw_try:
    return Unsupported("'try' statement");
  case TokenKind::kw_async:
    return Unsupported("'async' statement");
  case TokenKind::kw_except:
  case TokenKind::kw_finally:
    error(Twine("'") + T.getSpelling() + "' without a matching 'try'");
    return skipStatement();
  default:
    if (!parseSimpleStatements(Out))
      skipStatement();
    return;
  }
}

bool Parser::parseSimpleStatements(SmallVectorImpl<Stmt *> &Out) {
  while (true) {
    Stmt *S = parseSimpleStatement();
    if (!S)
      return false;
    Out.push_back(S);
    if (!consumeIf(TokenKind::semi) || is(TokenKind::newline))
      break;
  }
  return expect(TokenKind::newline, "expected newline after statement");
}

Stmt *Parser::parseSimpleStatement() {
  const Token &T = tok();
  SMLoc Start = T.getLoc();
  auto Unsupported = [&](StringRef What) -> Stmt * {
    unsupported(T.getRange(), What);
    // Swallow the rest of the line quietly; the caller expects a newline.
    while (!is(TokenKind::newline) && !is(TokenKind::eof))
      consume();
    return nullptr;
  };
  switch (T.getKind()) {
  case TokenKind::kw_pass:
    consume();
    return Ctx.create<PassStmt>(rangeFrom(Start));
  case TokenKind::kw_break:
  case TokenKind::kw_continue:
    if (LoopDepth == 0)
      return errorAt(Start, Twine("'") + T.getSpelling() + "' outside loop",
                     T.getRange()),
             nullptr;
    consume();
    if (T.is(TokenKind::kw_break))
      return Ctx.create<BreakStmt>(rangeFrom(Start));
    return Ctx.create<ContinueStmt>(rangeFrom(Start));
  case TokenKind::kw_return: {
    consume();
    Expr *Value = nullptr;
    if (canStartExpr() && !(Value = parseExprList()))
      return nullptr;
    return Ctx.create<ReturnStmt>(rangeFrom(Start), Value);
  }
  case TokenKind::kw_assert: {
    consume();
    Expr *Test = parseTest();
    if (!Test)
      return nullptr;
    Expr *Msg = nullptr;
    if (consumeIf(TokenKind::comma) && !(Msg = parseTest()))
      return nullptr;
    return Ctx.create<AssertStmt>(rangeFrom(Start), Test, Msg);
  }
  case TokenKind::kw_del:
    return Unsupported("'del' statement");
  case TokenKind::kw_global:
    return Unsupported("'global' statement");
  case TokenKind::kw_nonlocal:
    return Unsupported("'nonlocal' statement");
  case TokenKind::kw_import:
  case TokenKind::kw_from:
    return Unsupported("'import' statement");
  case TokenKind::kw_raise: {
    consume();
    Expr *Exc = nullptr, *Cause = nullptr;
    if (canStartExpr() && !(Exc = parseTest()))
      return nullptr;
    if (Exc && consumeIf(TokenKind::kw_from) && !(Cause = parseTest()))
      return nullptr;
    return Ctx.create<RaiseStmt>(rangeFrom(Start), Exc, Cause);
  }
  case TokenKind::kw_yield:
    return Unsupported("'yield' expression");
  default:
    return parseExprOrAssign();
  }
}

bool tle::frontend::getAugAssignOp(TokenKind K, BinaryOpKind &Op) {
  switch (K) {
  case TokenKind::plusequal:
    Op = BinaryOpKind::Add;
    return true;
  case TokenKind::minusequal:
    Op = BinaryOpKind::Sub;
    return true;
  case TokenKind::starequal:
    Op = BinaryOpKind::Mult;
    return true;
  case TokenKind::atequal:
    Op = BinaryOpKind::MatMult;
    return true;
  case TokenKind::slashequal:
    Op = BinaryOpKind::Div;
    return true;
  case TokenKind::slashslashequal:
    Op = BinaryOpKind::FloorDiv;
    return true;
  case TokenKind::percentequal:
    Op = BinaryOpKind::Mod;
    return true;
  case TokenKind::starstarequal:
    Op = BinaryOpKind::Pow;
    return true;
  case TokenKind::lesslessequal:
    Op = BinaryOpKind::LShift;
    return true;
  case TokenKind::greatergreaterequal:
    Op = BinaryOpKind::RShift;
    return true;
  case TokenKind::pipeequal:
    Op = BinaryOpKind::BitOr;
    return true;
  case TokenKind::caretequal:
    Op = BinaryOpKind::BitXor;
    return true;
  case TokenKind::ampequal:
    Op = BinaryOpKind::BitAnd;
    return true;
  default:
    return false;
  }
}

Stmt *Parser::parseExprOrAssign() {
  SMLoc Start = tok().getLoc();
  Expr *First = parseExprList();
  if (!First)
    return nullptr;

  BinaryOpKind Op;
  if (getAugAssignOp(tok().getKind(), Op)) {
    consume();
    if (!setStore(First, /*AllowTuple=*/false))
      return nullptr;
    Expr *Value = parseExprList();
    if (!Value)
      return nullptr;
    return Ctx.create<AugAssignStmt>(rangeFrom(Start), First, Op, Value);
  }

  if (consumeIf(TokenKind::colon)) {
    if (!setStore(First, /*AllowTuple=*/false))
      return nullptr;
    Expr *Annotation = parseTest();
    if (!Annotation)
      return nullptr;
    Expr *Value = nullptr;
    if (consumeIf(TokenKind::equal) && !(Value = parseExprList()))
      return nullptr;
    return Ctx.create<AnnAssignStmt>(rangeFrom(Start), First, Annotation,
                                     Value);
  }

  if (!is(TokenKind::equal))
    return Ctx.create<ExprStmt>(rangeFrom(Start), First);

  // `a = b = value`: every expression but the last is a target.
  SmallVector<Expr *, 2> Targets{First};
  Expr *Value = nullptr;
  while (consumeIf(TokenKind::equal)) {
    if (is(TokenKind::kw_yield)) {
      unsupported(tok().getRange(), "'yield' expression");
      return nullptr;
    }
    Value = parseExprList();
    if (!Value)
      return nullptr;
    if (is(TokenKind::equal))
      Targets.push_back(Value);
  }
  for (Expr *T : Targets)
    if (!setStore(T, /*AllowTuple=*/true))
      return nullptr;
  return Ctx.create<AssignStmt>(rangeFrom(Start), copy<Expr *>(Targets), Value);
}

/// Marks E as an assignment target, or reports why it cannot be one.
bool Parser::setStore(Expr *E, bool AllowTuple) {
  switch (E->getKind()) {
  case NodeKind::Name:
    cast<NameExpr>(E)->Ctx = ExprContext::Store;
    return true;
  case NodeKind::Attribute:
    cast<AttributeExpr>(E)->Ctx = ExprContext::Store;
    return true;
  case NodeKind::Subscript:
    cast<SubscriptExpr>(E)->Ctx = ExprContext::Store;
    return true;
  case NodeKind::Tuple:
  case NodeKind::List: {
    if (!AllowTuple)
      return errorAt(E->getLoc(),
                     "only a single target (not a tuple or list) is allowed "
                     "here",
                     E->getRange());
    auto *Seq = cast<SequenceExpr>(E);
    Seq->Ctx = ExprContext::Store;
    for (Expr *Elt : Seq->Elts)
      if (!setStore(Elt, /*AllowTuple=*/true))
        return false;
    return true;
  }
  case NodeKind::Starred:
    if (!AllowTuple)
      return errorAt(E->getLoc(), "cannot use starred expression here",
                     E->getRange());
    cast<StarredExpr>(E)->Ctx = ExprContext::Store;
    return setStore(cast<StarredExpr>(E)->Value, /*AllowTuple=*/false);
  case NodeKind::Call:
    return errorAt(E->getLoc(), "cannot assign to function call",
                   E->getRange());
  case NodeKind::Constant:
    return errorAt(E->getLoc(), "cannot assign to literal", E->getRange());
  default:
    return errorAt(E->getLoc(), "cannot assign to expression", E->getRange());
  }
}

bool Parser::parseElse(SmallVectorImpl<Stmt *> &OrElse) {
  SMLoc ElseLoc = tok().getLoc();
  if (!consumeIf(TokenKind::kw_else))
    return true;
  if (!expect(TokenKind::colon, "expected ':' after 'else'"))
    return false;
  return parseBlock(OrElse, "'else' statement", ElseLoc);
}

Stmt *Parser::parseIf(bool IsElif) {
  SMLoc Start = tok().getLoc();
  StringRef Keyword = IsElif ? "elif" : "if";
  consume();
  Expr *Test = parseNamedExprTest();
  if (!Test)
    return nullptr;
  if (!expect(TokenKind::colon,
              "expected ':' after '" + Keyword + "' condition"))
    return nullptr;
  SmallVector<Stmt *, 8> Body, OrElse;
  if (!parseBlock(Body, ("'" + Keyword + "' statement").str(), Start))
    return nullptr;
  if (is(TokenKind::kw_elif)) {
    Stmt *Elif = parseIf(/*IsElif=*/true);
    if (!Elif)
      return nullptr;
    OrElse.push_back(Elif);
  } else if (!parseElse(OrElse)) {
    return nullptr;
  }
  return Ctx.create<IfStmt>(rangeFrom(Start), Test, copy<Stmt *>(Body),
                            copy<Stmt *>(OrElse), IsElif);
}

Stmt *Parser::parseFor() {
  SMLoc Start = tok().getLoc();
  consume();
  Expr *Target = parseExprList(/*ForTargets=*/true);
  if (!Target)
    return nullptr;
  if (!expect(TokenKind::kw_in, "expected 'in' after 'for' target"))
    return nullptr;
  if (!setStore(Target, /*AllowTuple=*/true))
    return nullptr;
  Expr *Iter = parseExprList();
  if (!Iter)
    return nullptr;
  if (!expect(TokenKind::colon, "expected ':' after 'for' iterable"))
    return nullptr;
  SmallVector<Stmt *, 8> Body, OrElse;
  ++LoopDepth;
  bool Ok = parseBlock(Body, "'for' statement", Start);
  --LoopDepth;
  if (!Ok || !parseElse(OrElse))
    return nullptr;
  return Ctx.create<ForStmt>(rangeFrom(Start), Target, Iter, copy<Stmt *>(Body),
                             copy<Stmt *>(OrElse));
}

Stmt *Parser::parseWhile() {
  SMLoc Start = tok().getLoc();
  consume();
  Expr *Test = parseNamedExprTest();
  if (!Test)
    return nullptr;
  if (!expect(TokenKind::colon, "expected ':' after 'while' condition"))
    return nullptr;
  SmallVector<Stmt *, 8> Body, OrElse;
  ++LoopDepth;
  bool Ok = parseBlock(Body, "'while' statement", Start);
  --LoopDepth;
  if (!Ok || !parseElse(OrElse))
    return nullptr;
  return Ctx.create<WhileStmt>(rangeFrom(Start), Test, copy<Stmt *>(Body),
                               copy<Stmt *>(OrElse));
}

/// Parameters of a def (up to ')') or a lambda (up to ':'), with Python's
/// markers: `/` ends positional-only parameters, `*` or `*args` starts
/// keyword-only ones.
bool Parser::parseParams(TokenKind Close, bool AllowAnnotations,
                         SmallVectorImpl<Param> &Params) {
  using PK = Param::ParamKind;
  bool KeywordOnly = false, SawDefault = false;
  while (!is(Close)) {
    SMLoc Start = tok().getLoc();
    Param P;
    if (consumeIf(TokenKind::slash)) {
      for (Param &Prev : Params)
        if (Prev.Kind == PK::Regular)
          Prev.Kind = PK::PositionalOnly;
    } else {
      if (consumeIf(TokenKind::star)) {
        P.Kind = PK::VarPositional;
        KeywordOnly = true;
        if (is(TokenKind::comma) || is(Close))
          P.Kind = PK::KeywordOnly; // A bare `*` marker, not a parameter.
      } else if (consumeIf(TokenKind::starstar)) {
        P.Kind = PK::VarKeyword;
      } else if (KeywordOnly) {
        P.Kind = PK::KeywordOnly;
      }
      bool IsMarker = P.Kind == PK::KeywordOnly && !is(TokenKind::identifier);
      if (!IsMarker) {
        if (!is(TokenKind::identifier))
          return error("expected parameter name");
        P.Name = tok().getSpelling();
        for (const Param &Prev : Params)
          if (Prev.Name == P.Name)
            return error("duplicate argument '" + P.Name +
                         "' in function definition");
        consume();
        if (AllowAnnotations && consumeIf(TokenKind::colon) &&
            !(P.Annotation = parseTest()))
          return false;
        if (consumeIf(TokenKind::equal)) {
          if (P.Kind == PK::VarPositional || P.Kind == PK::VarKeyword)
            return errorAt(Start, "variadic parameter cannot have a default "
                                  "value");
          if (!(P.Default = parseTest()))
            return false;
          SawDefault = true;
        } else if (SawDefault && !KeywordOnly && P.Kind == PK::Regular) {
          return errorAt(Start,
                         "parameter without a default follows "
                         "parameter with a default",
                         rangeFrom(Start));
        }
        P.Range = rangeFrom(Start);
        Params.push_back(P);
      }
    }
    if (!consumeIf(TokenKind::comma))
      break;
  }
  return true;
}
