//===- ParseExpr.cpp - Expression parsing ---------------------------------===//
//
// Follows Python's grammar, from loosest to tightest binding:
//   namedexpr  NAME ':=' test
//   test       or_test ['if' or_test 'else' test] | lambda
//   or/and/not boolean operators
//   comparison chained: a < b <= c, in, not in, is, is not
//   |  ^  &  << >>  + -  * / // % @      (binary, left-associative)
//   factor     + - ~ factor
//   power      primary ['**' factor]     (so -x**2 is -(x**2), 2**-1 is ok)
//   primary    atom trailers: call, subscript, attribute
//
//===----------------------------------------------------------------------===//

#include "core/frontend/ParserImpl.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace llvm;
using namespace tle::frontend;

Parser::DepthGuard::DepthGuard(Parser &P) : P(P) {
  ++P.ExprDepth;
  ++P.TreeDepth;
  Ok = P.ExprDepth <= MaxExprDepth && P.TreeDepth <= MaxTreeDepth;
  if (!Ok)
    P.error("expression is too deeply nested");
}

bool Parser::extendChain() {
  if (++TreeDepth <= MaxTreeDepth)
    return true;
  return error("expression is too deeply nested");
}

bool Parser::canStartExpr() const {
  switch (tok().getKind()) {
  case TokenKind::identifier:
  case TokenKind::number:
  case TokenKind::string:
  case TokenKind::kw_None:
  case TokenKind::kw_True:
  case TokenKind::kw_False:
  case TokenKind::kw_not:
  case TokenKind::kw_lambda:
  case TokenKind::kw_await:
  case TokenKind::ellipsis:
  case TokenKind::l_paren:
  case TokenKind::l_square:
  case TokenKind::l_brace:
  case TokenKind::plus:
  case TokenKind::minus:
  case TokenKind::tilde:
  case TokenKind::star:
    return true;
  default:
    return false;
  }
}

Expr *Parser::parseNamedExprTest() {
  if (is(TokenKind::identifier) && peekTok().is(TokenKind::colonequal)) {
    SMLoc Start = tok().getLoc();
    auto *Target = Ctx.create<NameExpr>(tok().getRange(), tok().getSpelling(),
                                        ExprContext::Store);
    consume();
    consume();
    Expr *Value = parseTest();
    if (!Value)
      return nullptr;
    return Ctx.create<NamedExprExpr>(rangeFrom(Start), Target, Value);
  }
  return parseTest();
}

Expr *Parser::parseTest() {
  DepthGuard G(*this);
  if (!G.Ok)
    return nullptr;
  if (is(TokenKind::kw_lambda))
    return parseLambda();
  SMLoc Start = tok().getLoc();
  Expr *Body = parseOrTest();
  if (!Body || !is(TokenKind::kw_if))
    return Body;
  consume();
  Expr *Test = parseOrTest();
  if (!Test)
    return nullptr;
  if (!expect(TokenKind::kw_else,
              "expected 'else' after 'if' expression condition"))
    return nullptr;
  Expr *OrElse = parseTest();
  if (!OrElse)
    return nullptr;
  return Ctx.create<IfExpExpr>(rangeFrom(Start), Test, Body, OrElse);
}

Expr *Parser::parseOrTest() {
  SMLoc Start = tok().getLoc();
  Expr *First = parseAndTest();
  if (!First || !is(TokenKind::kw_or))
    return First;
  SmallVector<Expr *, 4> Values{First};
  while (consumeIf(TokenKind::kw_or)) {
    Expr *Next = parseAndTest();
    if (!Next)
      return nullptr;
    Values.push_back(Next);
  }
  return Ctx.create<BoolOpExpr>(rangeFrom(Start), BoolOpKind::Or,
                                copy<Expr *>(Values));
}

Expr *Parser::parseAndTest() {
  SMLoc Start = tok().getLoc();
  Expr *First = parseNotTest();
  if (!First || !is(TokenKind::kw_and))
    return First;
  SmallVector<Expr *, 4> Values{First};
  while (consumeIf(TokenKind::kw_and)) {
    Expr *Next = parseNotTest();
    if (!Next)
      return nullptr;
    Values.push_back(Next);
  }
  return Ctx.create<BoolOpExpr>(rangeFrom(Start), BoolOpKind::And,
                                copy<Expr *>(Values));
}

Expr *Parser::parseNotTest() {
  if (!is(TokenKind::kw_not))
    return parseComparison();
  DepthGuard G(*this);
  if (!G.Ok)
    return nullptr;
  SMLoc Start = tok().getLoc();
  consume();
  Expr *Operand = parseNotTest();
  if (!Operand)
    return nullptr;
  return Ctx.create<UnaryOpExpr>(rangeFrom(Start), UnaryOpKind::Not, Operand);
}

Expr *Parser::parseComparison() {
  SMLoc Start = tok().getLoc();
  Expr *Left = parseBinary(0);
  if (!Left)
    return nullptr;
  SmallVector<CmpOpKind, 2> Ops;
  SmallVector<Expr *, 2> Comparators;
  while (true) {
    CmpOpKind Op;
    switch (tok().getKind()) {
    case TokenKind::equalequal:
      Op = CmpOpKind::Eq;
      break;
    case TokenKind::exclaimequal:
      Op = CmpOpKind::NotEq;
      break;
    case TokenKind::less:
      Op = CmpOpKind::Lt;
      break;
    case TokenKind::lessequal:
      Op = CmpOpKind::LtE;
      break;
    case TokenKind::greater:
      Op = CmpOpKind::Gt;
      break;
    case TokenKind::greaterequal:
      Op = CmpOpKind::GtE;
      break;
    case TokenKind::kw_in:
      Op = CmpOpKind::In;
      break;
    case TokenKind::kw_is:
      Op = peekTok().is(TokenKind::kw_not) ? CmpOpKind::IsNot : CmpOpKind::Is;
      break;
    case TokenKind::kw_not:
      if (!peekTok().is(TokenKind::kw_in))
        return error("expected 'in' after 'not' in a comparison"), nullptr;
      Op = CmpOpKind::NotIn;
      break;
    default:
      if (Ops.empty())
        return Left;
      return Ctx.create<CompareExpr>(rangeFrom(Start), Left,
                                     copy<CmpOpKind>(Ops),
                                     copy<Expr *>(Comparators));
    }
    consume();
    if (Op == CmpOpKind::IsNot || Op == CmpOpKind::NotIn)
      consume();
    Expr *Right = parseBinary(0);
    if (!Right)
      return nullptr;
    Ops.push_back(Op);
    Comparators.push_back(Right);
  }
}

/// Precedence of the binary operators between comparisons and unary ones;
/// 0 when the token is not one of them.
static unsigned getBinaryPrecedence(TokenKind K, BinaryOpKind &Op) {
  switch (K) {
  case TokenKind::pipe:
    Op = BinaryOpKind::BitOr;
    return 1;
  case TokenKind::caret:
    Op = BinaryOpKind::BitXor;
    return 2;
  case TokenKind::amp:
    Op = BinaryOpKind::BitAnd;
    return 3;
  case TokenKind::lessless:
    Op = BinaryOpKind::LShift;
    return 4;
  case TokenKind::greatergreater:
    Op = BinaryOpKind::RShift;
    return 4;
  case TokenKind::plus:
    Op = BinaryOpKind::Add;
    return 5;
  case TokenKind::minus:
    Op = BinaryOpKind::Sub;
    return 5;
  case TokenKind::star:
    Op = BinaryOpKind::Mult;
    return 6;
  case TokenKind::slash:
    Op = BinaryOpKind::Div;
    return 6;
  case TokenKind::slashslash:
    Op = BinaryOpKind::FloorDiv;
    return 6;
  case TokenKind::percent:
    Op = BinaryOpKind::Mod;
    return 6;
  case TokenKind::at:
    Op = BinaryOpKind::MatMult;
    return 6;
  default:
    return 0;
  }
}

/// Precedence climbing over the left-associative binary operators.
Expr *Parser::parseBinary(unsigned MinPrec) {
  SMLoc Start = tok().getLoc();
  Expr *Left = parseFactor();
  if (!Left)
    return nullptr;
  SaveAndRestore<unsigned> RestoreTreeDepth(TreeDepth);
  while (true) {
    BinaryOpKind Op;
    unsigned Prec = getBinaryPrecedence(tok().getKind(), Op);
    if (Prec == 0 || Prec <= MinPrec)
      return Left;
    if (!extendChain())
      return nullptr;
    consume();
    Expr *Right = parseBinary(Prec);
    if (!Right)
      return nullptr;
    Left = Ctx.create<BinOpExpr>(rangeFrom(Start), Left, Op, Right);
  }
}

Expr *Parser::parseFactor() {
  UnaryOpKind Op;
  switch (tok().getKind()) {
  case TokenKind::plus:
    Op = UnaryOpKind::UAdd;
    break;
  case TokenKind::minus:
    Op = UnaryOpKind::USub;
    break;
  case TokenKind::tilde:
    Op = UnaryOpKind::Invert;
    break;
  default:
    return parsePower();
  }
  DepthGuard G(*this);
  if (!G.Ok)
    return nullptr;
  SMLoc Start = tok().getLoc();
  consume();
  Expr *Operand = parseFactor();
  if (!Operand)
    return nullptr;
  return Ctx.create<UnaryOpExpr>(rangeFrom(Start), Op, Operand);
}

Expr *Parser::parsePower() {
  SMLoc Start = tok().getLoc();
  if (is(TokenKind::kw_await)) {
    unsupported(tok().getRange(), "'await' expression");
    consume();
  }
  Expr *Base = parsePrimary();
  if (!Base || !consumeIf(TokenKind::starstar))
    return Base;
  DepthGuard G(*this);
  if (!G.Ok)
    return nullptr;
  Expr *Exponent = parseFactor();
  if (!Exponent)
    return nullptr;
  return Ctx.create<BinOpExpr>(rangeFrom(Start), Base, BinaryOpKind::Pow,
                               Exponent);
}

Expr *Parser::parsePrimary() {
  SMLoc Start = tok().getLoc();
  Expr *E = parseAtom();
  SaveAndRestore<unsigned> RestoreTreeDepth(TreeDepth);
  while (E && tok().isAny(TokenKind::l_paren, TokenKind::l_square,
                          TokenKind::period)) {
    if (!extendChain())
      return nullptr;
    if (is(TokenKind::l_paren)) {
      E = parseCall(E);
    } else if (is(TokenKind::l_square)) {
      E = parseSubscript(E);
    } else {
      consume(); // .
      if (!is(TokenKind::identifier))
        return error("expected attribute name after '.'"), nullptr;
      E = Ctx.create<AttributeExpr>(SMRange(Start, tok().getEndLoc()), E,
                                    tok().getSpelling(), tok().getLoc(),
                                    ExprContext::Load);
      consume();
    }
  }
  return E;
}

Expr *Parser::parseAtom() {
  const Token &T = tok();
  switch (T.getKind()) {
  case TokenKind::identifier: {
    consume();
    return Ctx.create<NameExpr>(T.getRange(), T.getSpelling(),
                                ExprContext::Load);
  }
  case TokenKind::number:
    return parseNumber();
  case TokenKind::string:
    return parseStrings();
  case TokenKind::kw_None:
  case TokenKind::kw_True:
  case TokenKind::kw_False:
  case TokenKind::ellipsis: {
    consume();
    using VK = ConstantExpr::ValueKind;
    VK Kind = T.is(TokenKind::kw_None)    ? VK::None
              : T.is(TokenKind::ellipsis) ? VK::Ellipsis
                                          : VK::Bool;
    auto *C = Ctx.create<ConstantExpr>(T.getRange(), Kind);
    C->Bool = T.is(TokenKind::kw_True);
    return C;
  }
  case TokenKind::l_paren:
    return parseParenthesized();
  case TokenKind::l_square:
    return parseListDisplay();
  case TokenKind::l_brace:
    return parseBraceDisplay();
  case TokenKind::kw_yield:
    unsupported(T.getRange(), "'yield' expression");
    return nullptr;
  default:
    return error("expected expression"), nullptr;
  }
}

Expr *Parser::parseNumber() {
  const Token &T = tok();
  consume();
  std::string Text;
  for (char C : T.getSpelling())
    if (C != '_')
      Text += C;
  using VK = ConstantExpr::ValueKind;
  StringRef S(Text);
  bool IsImaginary = S.back() == 'j' || S.back() == 'J';
  bool IsPrefixed = S.size() > 2 && S[0] == '0' && isAlpha(S[1]);
  if (IsImaginary ||
      (!IsPrefixed && S.find_first_of(".eE") != StringRef::npos)) {
    auto *C = Ctx.create<ConstantExpr>(T.getRange(),
                                       IsImaginary ? VK::Imaginary : VK::Float);
    if (IsImaginary)
      S = S.drop_back();
    // getAsDouble only fails on input the lexer rejected.
    (void)S.getAsDouble(C->Float, /*AllowInexact=*/true);
    return C;
  }
  auto *C = Ctx.create<ConstantExpr>(T.getRange(), VK::Int);
  if (IsPrefixed) {
    char Base = toLower(S[1]);
    C->IntRadix = Base == 'x' ? 16 : Base == 'o' ? 8 : 2;
    S = S.drop_front(2);
  }
  C->IntDigits = Ctx.copyString(S);
  APInt Value;
  if (!S.getAsInteger(C->IntRadix, Value)) {
    C->IntOverflow = Value.getActiveBits() > 64;
    C->Int = Value.trunc(std::min(Value.getBitWidth(), 64u)).getZExtValue();
  }
  return C;
}

Expr *Parser::parseParenthesized() {
  SMLoc Start = tok().getLoc();
  consume();
  if (consumeIf(TokenKind::r_paren))
    return Ctx.create<TupleExpr>(rangeFrom(Start), ArrayRef<Expr *>(),
                                 ExprContext::Load);
  if (is(TokenKind::kw_yield)) {
    unsupported(tok().getRange(), "'yield' expression");
    return nullptr;
  }
  Expr *First =
      is(TokenKind::star) ? parseStarOrTest(false) : parseNamedExprTest();
  if (!First)
    return nullptr;
  if (is(TokenKind::kw_for) || is(TokenKind::kw_async))
    return parseComprehension(Start, ComprehensionExpr::CompKind::Generator,
                              First, nullptr, TokenKind::r_paren);
  if (!is(TokenKind::comma)) {
    if (!expect(TokenKind::r_paren, "expected ')'"))
      return nullptr;
    return First;
  }
  SmallVector<Expr *, 4> Elts{First};
  while (consumeIf(TokenKind::comma) && !is(TokenKind::r_paren)) {
    Expr *E = parseStarOrTest(false);
    if (!E)
      return nullptr;
    Elts.push_back(E);
  }
  if (!expect(TokenKind::r_paren, "expected ',' or ')' in tuple"))
    return nullptr;
  return Ctx.create<TupleExpr>(rangeFrom(Start), copy<Expr *>(Elts),
                               ExprContext::Load);
}

Expr *Parser::parseListDisplay() {
  SMLoc Start = tok().getLoc();
  consume();
  SmallVector<Expr *, 4> Elts;
  while (!is(TokenKind::r_square)) {
    Expr *E =
        is(TokenKind::star) ? parseStarOrTest(false) : parseNamedExprTest();
    if (!E)
      return nullptr;
    if (Elts.empty() && (is(TokenKind::kw_for) || is(TokenKind::kw_async)))
      return parseComprehension(Start, ComprehensionExpr::CompKind::List, E,
                                nullptr, TokenKind::r_square);
    Elts.push_back(E);
    if (!consumeIf(TokenKind::comma))
      break;
  }
  if (!expect(TokenKind::r_square, "expected ',' or ']' in list"))
    return nullptr;
  return Ctx.create<ListExpr>(rangeFrom(Start), copy<Expr *>(Elts),
                              ExprContext::Load);
}

Expr *Parser::parseBraceDisplay() {
  SMLoc Start = tok().getLoc();
  consume();
  SmallVector<Expr *, 4> Keys, Values;
  bool IsDict = true;
  bool First = true;
  while (!is(TokenKind::r_brace)) {
    if (consumeIf(TokenKind::starstar)) {
      if (!IsDict)
        return error("cannot use '**' in a set display"), nullptr;
      Expr *V = parseBinary(0);
      if (!V)
        return nullptr;
      Keys.push_back(nullptr);
      Values.push_back(V);
    } else {
      Expr *K =
          is(TokenKind::star) ? parseStarOrTest(false) : parseNamedExprTest();
      if (!K)
        return nullptr;
      if (First && !is(TokenKind::colon))
        IsDict = false;
      if (IsDict) {
        if (!expect(TokenKind::colon, "expected ':' after dictionary key"))
          return nullptr;
        Expr *V = parseTest();
        if (!V)
          return nullptr;
        if (First && (is(TokenKind::kw_for) || is(TokenKind::kw_async)))
          return parseComprehension(Start, ComprehensionExpr::CompKind::Dict, K,
                                    V, TokenKind::r_brace);
        Keys.push_back(K);
        Values.push_back(V);
      } else {
        if (First && (is(TokenKind::kw_for) || is(TokenKind::kw_async)))
          return parseComprehension(Start, ComprehensionExpr::CompKind::Set, K,
                                    nullptr, TokenKind::r_brace);
        Values.push_back(K);
      }
    }
    First = false;
    if (!consumeIf(TokenKind::comma))
      break;
  }
  if (!expect(TokenKind::r_brace, IsDict ? "expected ',' or '}' in dictionary"
                                         : "expected ',' or '}' in set"))
    return nullptr;
  SMRange Range = rangeFrom(Start);
  if (!IsDict) {
    if (InJitBody)
      unsupported(Range, "set display");
    return Ctx.create<SetExpr>(Range, copy<Expr *>(Values));
  }
  return Ctx.create<DictExpr>(Range, copy<Expr *>(Keys), copy<Expr *>(Values));
}

Expr *Parser::parseComprehension(SMLoc Start,
                                 ComprehensionExpr::CompKind CompKind,
                                 Expr *Elt, Expr *Value, TokenKind Close) {
  using CK = ComprehensionExpr::CompKind;
  SmallVector<ComprehensionFor, 2> Generators;
  while (is(TokenKind::kw_for) || is(TokenKind::kw_async)) {
    consumeIf(TokenKind::kw_async);
    if (!expect(TokenKind::kw_for, "expected 'for' after 'async'"))
      return nullptr;
    Expr *Target = parseExprList(/*ForTargets=*/true);
    if (!Target || !setStore(Target, /*AllowTuple=*/true))
      return nullptr;
    if (!expect(TokenKind::kw_in, "expected 'in' after comprehension target"))
      return nullptr;
    Expr *Iter = parseOrTest();
    if (!Iter)
      return nullptr;
    SmallVector<Expr *, 2> Ifs;
    while (consumeIf(TokenKind::kw_if)) {
      Expr *Cond = parseOrTest();
      if (!Cond)
        return nullptr;
      Ifs.push_back(Cond);
    }
    Generators.push_back({Target, Iter, copy<Expr *>(Ifs)});
  }
  if (!expect(Close, Twine("expected '") + getTokenSpelling(Close) +
                         "' after comprehension"))
    return nullptr;
  SMRange Range = rangeFrom(Start);
  if (InJitBody)
    unsupported(Range, CompKind == CK::Generator ? "generator expression"
                       : CompKind == CK::List    ? "list comprehension"
                       : CompKind == CK::Set     ? "set comprehension"
                                                 : "dict comprehension");
  return Ctx.create<ComprehensionExpr>(Range, CompKind, Elt, Value,
                                       copy<ComprehensionFor>(Generators));
}

Expr *Parser::parseLambda() {
  SMLoc Start = tok().getLoc();
  consume();
  SmallVector<Param, 4> Params;
  if (!parseParams(TokenKind::colon, /*AllowAnnotations=*/false, Params))
    return nullptr;
  if (!expect(TokenKind::colon, "expected ':' after lambda parameters"))
    return nullptr;
  Expr *Body = parseTest();
  if (!Body)
    return nullptr;
  return Ctx.create<LambdaExpr>(rangeFrom(Start), copy<Param>(Params), Body);
}

Expr *Parser::parseCall(Expr *Func) {
  SMLoc Start = Func->getLoc();
  consume(); // (
  SmallVector<Expr *, 4> Args;
  SmallVector<Keyword, 4> Keywords;
  while (!is(TokenKind::r_paren)) {
    SMLoc ArgStart = tok().getLoc();
    if (consumeIf(TokenKind::starstar)) {
      Expr *V = parseTest();
      if (!V)
        return nullptr;
      Keywords.push_back({StringRef(), V, rangeFrom(ArgStart)});
    } else if (is(TokenKind::identifier) && peekTok().is(TokenKind::equal)) {
      StringRef Name = tok().getSpelling();
      consume();
      consume();
      Expr *V = parseTest();
      if (!V)
        return nullptr;
      for (const Keyword &K : Keywords)
        if (K.Arg == Name)
          return errorAt(ArgStart, "keyword argument repeated: " + Name,
                         rangeFrom(ArgStart)),
                 nullptr;
      Keywords.push_back({Name, V, rangeFrom(ArgStart)});
    } else {
      bool IsStar = is(TokenKind::star);
      Expr *E = IsStar ? parseStarOrTest(false) : parseNamedExprTest();
      if (!E)
        return nullptr;
      if (!IsStar && Args.empty() && Keywords.empty() &&
          (is(TokenKind::kw_for) || is(TokenKind::kw_async))) {
        // `f(x for x in y)`: the parentheses of the call delimit the
        // generator, which then must be the only argument.
        E = parseComprehension(ArgStart, ComprehensionExpr::CompKind::Generator,
                               E, nullptr, TokenKind::r_paren);
        if (!E)
          return nullptr;
        Args.push_back(E);
        return Ctx.create<CallExpr>(rangeFrom(Start), Func, copy<Expr *>(Args),
                                    ArrayRef<Keyword>());
      }
      if (!IsStar && !Keywords.empty())
        return errorAt(ArgStart, "positional argument follows keyword argument",
                       E->getRange()),
               nullptr;
      Args.push_back(E);
    }
    if (!consumeIf(TokenKind::comma))
      break;
  }
  if (!expect(TokenKind::r_paren, "expected ',' or ')' after call argument"))
    return nullptr;
  return Ctx.create<CallExpr>(rangeFrom(Start), Func, copy<Expr *>(Args),
                              copy<Keyword>(Keywords));
}

Expr *Parser::parseSliceItem() {
  SMLoc Start = tok().getLoc();
  Expr *Lower = nullptr, *Upper = nullptr, *Step = nullptr;
  if (!is(TokenKind::colon)) {
    Lower = is(TokenKind::star) ? parseStarOrTest(false) : parseNamedExprTest();
    if (!Lower || !is(TokenKind::colon))
      return Lower;
  }
  consume(); // :
  auto AtPartEnd = [&] {
    return is(TokenKind::colon) || is(TokenKind::comma) ||
           is(TokenKind::r_square);
  };
  if (!AtPartEnd() && !(Upper = parseTest()))
    return nullptr;
  if (consumeIf(TokenKind::colon) && !AtPartEnd() && !(Step = parseTest()))
    return nullptr;
  return Ctx.create<SliceExpr>(rangeFrom(Start), Lower, Upper, Step);
}

Expr *Parser::parseSubscript(Expr *Value) {
  consume(); // [
  SMLoc IndexStart = tok().getLoc();
  if (is(TokenKind::r_square))
    return error("expected index or slice in subscript"), nullptr;
  SmallVector<Expr *, 4> Items;
  bool SawComma = false;
  while (!is(TokenKind::r_square)) {
    Expr *Item = parseSliceItem();
    if (!Item)
      return nullptr;
    Items.push_back(Item);
    if (!consumeIf(TokenKind::comma))
      break;
    SawComma = true;
  }
  SMRange IndexRange = rangeFrom(IndexStart);
  if (!expect(TokenKind::r_square, "expected ',' or ']' in subscript"))
    return nullptr;
  Expr *Index = SawComma
                    ? Ctx.create<TupleExpr>(IndexRange, copy<Expr *>(Items),
                                            ExprContext::Load)
                    : Items.front();
  return Ctx.create<SubscriptExpr>(rangeFrom(Value->getLoc()), Value, Index,
                                   ExprContext::Load);
}

Expr *Parser::parseStarOrTest(bool ForTargets) {
  if (!is(TokenKind::star))
    return ForTargets ? parseBinary(0) : parseTest();
  SMLoc Start = tok().getLoc();
  consume();
  Expr *V = parseBinary(0);
  if (!V)
    return nullptr;
  return Ctx.create<StarredExpr>(rangeFrom(Start), V, ExprContext::Load);
}

Expr *Parser::parseExprList(bool ForTargets) {
  SMLoc Start = tok().getLoc();
  Expr *First = parseStarOrTest(ForTargets);
  if (!First || !is(TokenKind::comma))
    return First;
  SmallVector<Expr *, 4> Elts{First};
  while (consumeIf(TokenKind::comma)) {
    if (!canStartExpr())
      break;
    Expr *E = parseStarOrTest(ForTargets);
    if (!E)
      return nullptr;
    Elts.push_back(E);
  }
  return Ctx.create<TupleExpr>(rangeFrom(Start), copy<Expr *>(Elts),
                               ExprContext::Load);
}
