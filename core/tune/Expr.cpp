//===- Expr.cpp - Integer expressions over shape and config names ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/Expr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace tle {
namespace tune {
namespace {

/// Recursive descent over: sum := prod (('+'|'-') prod)*;
/// prod := unary (('*'|'/'|'%') unary)*; unary := '-' unary | atom;
/// atom := INT | NAME | NAME '(' sum (',' sum)* ')' | '(' sum ')'.
class Evaluator {
public:
  Evaluator(StringRef Text, const NameLookup &Lookup)
      : Text(Text), Lookup(Lookup) {}

  Expected<int64_t> run() {
    Expected<int64_t> V = sum();
    if (!V)
      return V.takeError();
    skipSpace();
    if (Pos != Text.size())
      return fail("unexpected '" + Text.substr(Pos, 1).str() + "'");
    return *V;
  }

private:
  Error fail(const Twine &Msg) {
    return createStringError(
        formatv("in expression '{0}' at column {1}: {2}", Text, Pos + 1,
                Msg.str())
            .str());
  }
  void skipSpace() {
    while (Pos < Text.size() && isSpace(Text[Pos]))
      ++Pos;
  }
  bool eat(char C) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return false;
  }

  Expected<int64_t> sum() {
    Expected<int64_t> L = prod();
    if (!L)
      return L;
    int64_t V = *L;
    while (true) {
      if (eat('+')) {
        Expected<int64_t> R = prod();
        if (!R)
          return R;
        V += *R;
      } else if (eat('-')) {
        Expected<int64_t> R = prod();
        if (!R)
          return R;
        V -= *R;
      } else {
        return V;
      }
    }
  }

  Expected<int64_t> prod() {
    Expected<int64_t> L = unary();
    if (!L)
      return L;
    int64_t V = *L;
    while (true) {
      char Op = 0;
      if (eat('*'))
        Op = '*';
      else if (eat('/'))
        Op = '/';
      else if (eat('%'))
        Op = '%';
      else
        return V;
      Expected<int64_t> R = unary();
      if (!R)
        return R;
      if (Op == '*') {
        V *= *R;
        continue;
      }
      if (*R == 0)
        return fail("division by zero");
      V = Op == '/' ? V / *R : V % *R;
    }
  }

  Expected<int64_t> unary() {
    if (eat('-')) {
      Expected<int64_t> V = unary();
      if (!V)
        return V;
      return -*V;
    }
    return atom();
  }

  Expected<int64_t> atom() {
    skipSpace();
    if (eat('(')) {
      Expected<int64_t> V = sum();
      if (!V)
        return V;
      if (!eat(')'))
        return fail("expected ')'");
      return V;
    }
    size_t Start = Pos;
    if (Pos < Text.size() && isDigit(Text[Pos])) {
      while (Pos < Text.size() && isDigit(Text[Pos]))
        ++Pos;
      int64_t V = 0;
      if (Text.slice(Start, Pos).getAsInteger(10, V))
        return fail("integer out of range");
      return V;
    }
    while (Pos < Text.size() && (isAlnum(Text[Pos]) || Text[Pos] == '_'))
      ++Pos;
    StringRef Name = Text.slice(Start, Pos);
    if (Name.empty())
      return fail(Pos < Text.size() ? "unexpected '" +
                                          Text.substr(Pos, 1).str() + "'"
                                    : std::string("unexpected end"));
    if (!eat('(')) {
      if (std::optional<int64_t> V = Lookup(Name))
        return *V;
      Pos = Start;
      return fail("unknown name '" + Name.str() + "'");
    }
    SmallVector<int64_t, 2> Args;
    do {
      Expected<int64_t> V = sum();
      if (!V)
        return V;
      Args.push_back(*V);
    } while (eat(','));
    if (!eat(')'))
      return fail("expected ')'");
    if (Name == "cdiv" && Args.size() == 2) {
      if (Args[1] == 0)
        return fail("cdiv by zero");
      return (Args[0] + Args[1] - 1) / Args[1];
    }
    if ((Name == "min" || Name == "max") && Args.size() == 2)
      return Name == "min" ? std::min(Args[0], Args[1])
                           : std::max(Args[0], Args[1]);
    Pos = Start;
    return fail("unknown function '" + Name.str() + "' with " +
                Twine(Args.size()).str() +
                " arguments (cdiv, min, max take 2)");
  }

  StringRef Text;
  const NameLookup &Lookup;
  size_t Pos = 0;
};

} // namespace

Expected<int64_t> evalExpr(StringRef Text, const NameLookup &Lookup) {
  return Evaluator(Text, Lookup).run();
}

} // namespace tune
} // namespace tle
