//===- ModuleScanner.cpp - Top level of a kernel file ---------------------===//
//
// A kernel file is any valid Python file. The scanner walks its top-level
// logical lines and keeps only what the compiler needs:
//   - `import`/`from` statements, recorded as aliases;
//   - functions decorated with a jit decorator (possibly under autotune and
//     heuristics) or a TLE-Raw `@dialect(...)`;
//   - simple constant assignments (`X = 4`, `X: tl.constexpr = 4`).
// The blocks of module-level `try` / `except` and `if` / `elif` / `else`
// statements are scanned as top-level code: their conditions and probes run
// only in Python, so closeModuleIf and the handler rule decide which
// bindings stand. Everything else is skipped by token structure: the rest of
// the logical line and, when an indented block follows, the whole block.
// Because the lexer is exact, this skips classes and host functions without
// parsing them.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/Lexer.h"
#include "core/frontend/Parser.h"
#include "core/frontend/ParserImpl.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

using namespace llvm;
using namespace tle::frontend;

std::unique_ptr<Module> tle::frontend::parseModule(SourceMgr &SrcMgr,
                                                   unsigned BufferID,
                                                   DiagnosticEngine &Diags) {
  std::vector<Token> Tokens = Lexer(SrcMgr, BufferID, Diags).lexAll();
  auto M = std::make_unique<Module>();
  Parser(Tokens, Diags, *M).parseModule();
  return M;
}

//===----------------------------------------------------------------------===//
// Diagnostics and skipping
//===----------------------------------------------------------------------===//

bool Parser::error(const Twine &Msg) {
  // Tokens synthesized at the end of the file (after an unclosed bracket,
  // say) only ever repeat an error that was already reported.
  if (tok().getLoc() == Tokens.back().getLoc() && Diags.hasErrors())
    return false;
  return errorAt(tok().getLoc(), Msg, tok().getRange());
}

bool Parser::errorAt(SMLoc Loc, const Twine &Msg, SMRange Range) {
  if (Quiet) {
    QuietFailed = true;
    return false;
  }
  // Error tokens were diagnosed by the lexer; a second message about the
  // same spot would only be noise.
  if (!tok().is(TokenKind::error) || Loc != tok().getLoc())
    Diags.error(Loc, Msg, Range);
  return false;
}

bool Parser::expect(TokenKind K, const Twine &Msg) {
  if (consumeIf(K))
    return true;
  return error(Msg);
}

void Parser::unsupported(SMRange Range, const Twine &What) {
  errorAt(Range.Start, "unsupported syntax in a jit function: " + What, Range);
}

unsigned Parser::getLine(SMLoc Loc) const {
  return Diags.getSourceMgr().getLineAndColumn(Loc).first;
}

void Parser::skipStatement(bool OnlyCompoundBlock) {
  bool EndsWithColon = false;
  while (!is(TokenKind::newline) && !is(TokenKind::eof)) {
    // A dedent can end the line's enclosing block when the lexer recovered
    // from an error.
    if (is(TokenKind::dedent))
      return;
    EndsWithColon = is(TokenKind::colon);
    consume();
  }
  consumeIf(TokenKind::newline);
  if ((EndsWithColon || !OnlyCompoundBlock) && is(TokenKind::indent))
    skipBlock();
}

void Parser::skipBlock() {
  unsigned Depth = 0;
  do {
    if (is(TokenKind::indent))
      ++Depth;
    else if (is(TokenKind::dedent))
      --Depth;
    else if (is(TokenKind::eof))
      return;
    consume();
  } while (Depth != 0);
}

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

void Parser::parseModule() {
  while (!is(TokenKind::eof) && !Diags.hasReachedErrorLimit()) {
    // An `if` whose last block ended is complete unless a branch follows.
    if (!ModuleIfs.empty() && ModuleIfs.back().BranchEnded &&
        !tok().isAny(TokenKind::kw_elif, TokenKind::kw_else,
                     TokenKind::newline)) {
      closeModuleIf();
      continue;
    }
    switch (tok().getKind()) {
    case TokenKind::newline:
      consume();
      break;
    case TokenKind::dedent:
      consume();
      if (ModuleBlockDepth > 0)
        --ModuleBlockDepth;
      while (!HandlerDepths.empty() &&
             HandlerDepths.back() > ModuleBlockDepth) {
        HandlerDepths.pop_back();
        HandlerIfCounts.pop_back();
      }
      if (!ModuleIfs.empty() && ModuleIfs.back().Depth == ModuleBlockDepth)
        ModuleIfs.back().BranchEnded = true;
      break;
    case TokenKind::kw_if:
      // `if __name__ == "__main__":` is the file run as a script, never
      // the module a launcher imports.
      if (peekTok().is(TokenKind::identifier) &&
          peekTok().getSpelling() == "__name__") {
        skipStatement(/*OnlyCompoundBlock=*/true);
        break;
      }
      ModuleIfs.push_back({ModuleBlockDepth, tok().getRange(), {}});
      enterModuleIfBranch();
      break;
    case TokenKind::kw_elif:
    case TokenKind::kw_else:
      // The `else` of a try or a loop is not scanned; what it binds is
      // noted.
      if (!ModuleIfs.empty() && ModuleIfs.back().BranchEnded &&
          ModuleIfs.back().Depth == ModuleBlockDepth) {
        enterModuleIfBranch();
        break;
      }
      noteUnrecordedBindings();
      skipStatement(/*OnlyCompoundBlock=*/true);
      break;
    case TokenKind::indent:
      errorAt(peekTok().getLoc(), "unexpected indent", peekTok().getRange());
      skipBlock();
      break;
    case TokenKind::kw_import:
    case TokenKind::kw_from:
      parseImport();
      break;
    case TokenKind::at:
      parseDecorated();
      break;
    case TokenKind::kw_def:
      parsePlainDef();
      break;
    case TokenKind::kw_try:
      // A top-level `try:` body runs at import time as the top level does
      // (FlagGems binds helpers there): its statements are scanned as
      // top-level ones.
      if (peekTok().is(TokenKind::colon)) {
        consume();
        consume();
        if (consumeIf(TokenKind::newline) && consumeIf(TokenKind::indent)) {
          ++ModuleBlockDepth;
          break;
        }
      }
      skipStatement(/*OnlyCompoundBlock=*/true);
      break;
    case TokenKind::kw_except: {
      // A handler binds the fallback of a name whose value the try body
      // computes at run time (FlagGems picks its math library by probing
      // the device, else `triton.language.extra.libdevice`): a compiler
      // cannot run the probe, so it takes the portable fallback.
      while (!tok().isAny(TokenKind::colon, TokenKind::newline, TokenKind::eof))
        consume();
      if (consumeIf(TokenKind::colon) && consumeIf(TokenKind::newline) &&
          consumeIf(TokenKind::indent)) {
        HandlerDepths.push_back(++ModuleBlockDepth);
        HandlerIfCounts.push_back(ModuleIfs.size());
        break;
      }
      skipStatement(/*OnlyCompoundBlock=*/true);
      break;
    }
    case TokenKind::identifier:
      if (peekTok().isAny(TokenKind::equal, TokenKind::colon)) {
        parseModuleConstant();
        break;
      }
      noteUnrecordedBindings();
      skipStatement(/*OnlyCompoundBlock=*/true);
      break;
    case TokenKind::kw_class:
    case TokenKind::kw_del:
    case TokenKind::kw_for:
    case TokenKind::kw_with:
    case TokenKind::kw_while:
    case TokenKind::kw_finally:
      noteUnrecordedBindings();
      skipStatement(/*OnlyCompoundBlock=*/true);
      break;
    default:
      skipStatement(/*OnlyCompoundBlock=*/true);
      break;
    }
  }
  while (!ModuleIfs.empty())
    closeModuleIf();
}

Parser::ScanMark Parser::mark() const {
  return {M.Functions.size(), M.Constants.size(), M.Imports.size(),
          M.ConditionalNames.size(), M.HostBindings.size()};
}

Parser::ScanMark Parser::scopeStart() const {
  return ModuleIfs.empty() ? ScanMark{} : ModuleIfs.back().BranchStarts.back();
}

void Parser::rebind(StringRef Name) {
  ScanMark Start = scopeStart();
  auto drop = [&](auto &Vector, size_t From, auto NameOf) {
    Vector.erase(
        std::remove_if(Vector.begin() + From, Vector.end(),
                       [&](const auto &E) { return NameOf(E) == Name; }),
        Vector.end());
  };
  drop(M.Functions, Start[0], [](const FunctionDef *F) { return F->Name; });
  drop(M.Constants, Start[1], [](const ModuleConstant &C) { return C.Name; });
  drop(M.Imports, Start[2], [](const ImportAlias &I) { return I.LocalName; });
  drop(M.HostBindings, Start[4], [](StringRef B) { return B; });
}

/// Whether the token ends an assignment's targets (`=`, `+=`, ...).
static bool isAssignment(TokenKind K) {
  BinaryOpKind Op;
  return K == TokenKind::equal || getAugAssignOp(K, Op);
}

StringRef Parser::bindingName(unsigned List, size_t Index) const {
  switch (List) {
  case 0:
    return M.Functions[Index]->Name;
  case 1:
    return M.Constants[Index].Name;
  case 2:
    return M.Imports[Index].LocalName;
  case 3:
    return M.ConditionalNames[Index].Name;
  default:
    return M.HostBindings[Index];
  }
}

void Parser::noteHostBindingAt(size_t I) {
  if (I < Tokens.size() && Tokens[I].is(TokenKind::identifier))
    noteHostBinding(Tokens[I].getSpelling());
}

void Parser::noteHostBinding(StringRef Spelling) {
  // Recorded bindings before it stay: a constant derived from the name's
  // earlier value (`HALF = BLOCK // 2` before `BLOCK = int(env)`) is
  // evaluated when used, against the bindings the scan recorded. Inside an
  // `if`, it still counts as a run's binding (closeModuleIf).
  M.HostBindings.push_back(Spelling);
}

bool Parser::boundInScope(StringRef Name) const {
  // Inside a handler, the try body's scope: an `if` within the handler is
  // part of the fallback.
  ScanMark Start = scopeStart();
  if (!HandlerIfCounts.empty() && HandlerIfCounts.back() < ModuleIfs.size())
    Start = HandlerIfCounts.back() == 0
                ? ScanMark{}
                : ModuleIfs[HandlerIfCounts.back() - 1].BranchStarts.back();
  // Recorded bindings, and names an inner `if` left conditional (bound, if
  // not knowably); host bindings are what a handler falls back from.
  ScanMark End = mark();
  for (unsigned List = 0; List < 4; ++List)
    for (size_t I = Start[List]; I < End[List]; ++I)
      if (bindingName(List, I) == Name)
        return true;
  return false;
}

void Parser::noteUnrecordedBindings() {
  size_t I = Pos, End = Pos;
  while (End < Tokens.size() &&
         !Tokens[End].isAny(TokenKind::newline, TokenKind::eof))
    ++End;
  switch (Tokens[I].getKind()) {
  case TokenKind::kw_class:
    return noteHostBindingAt(I + 1);
  case TokenKind::kw_del:
    for (++I; I < End; ++I)
      noteHostBindingAt(I);
    return;
  case TokenKind::kw_for:
    // Every name up to `in`; a subscript or an attribute among them
    // rebinds nothing, and noting it is only cautious.
    for (++I; I < End && !Tokens[I].is(TokenKind::kw_in); ++I)
      noteHostBindingAt(I);
    return noteBlockBindings(End);
  case TokenKind::kw_with:
    for (; I + 1 < End; ++I)
      if (Tokens[I].is(TokenKind::kw_as))
        noteHostBindingAt(I + 1);
    return noteBlockBindings(End);
  case TokenKind::kw_while:
  case TokenKind::kw_else:
  case TokenKind::kw_finally:
    return noteBlockBindings(End);
  default:
    break;
  }
  // Assignment targets: the names before each `=` (or an augmented
  // assignment) of the line outside brackets, when only names, commas,
  // stars and brackets precede it.
  size_t TargetStart = I;
  unsigned Brackets = 0;
  bool OnlyNames = true;
  for (; I < End; ++I) {
    const Token &T = Tokens[I];
    if (T.isAny(TokenKind::l_paren, TokenKind::l_square, TokenKind::l_brace)) {
      ++Brackets;
      continue;
    }
    if (T.isAny(TokenKind::r_paren, TokenKind::r_square, TokenKind::r_brace)) {
      Brackets -= Brackets > 0;
      continue;
    }
    if (Brackets)
      continue;
    if (T.is(TokenKind::semi)) {
      TargetStart = I + 1;
      OnlyNames = true;
      continue;
    }
    if (isAssignment(T.getKind())) {
      if (OnlyNames)
        for (size_t J = TargetStart; J < I; ++J)
          noteHostBindingAt(J);
      TargetStart = I + 1;
      OnlyNames = true;
    } else if (!T.isAny(TokenKind::identifier, TokenKind::comma,
                        TokenKind::star)) {
      OnlyNames = false;
    }
  }
}

void Parser::noteBlockBindings(size_t LineEnd) {
  // The block the line opens, if any: each statement's leading assignment
  // targets, `for` targets and `as` names are noted; a nested def's or
  // class's name is, its body is not (its names are its own).
  if (LineEnd + 1 >= Tokens.size() || !Tokens[LineEnd].is(TokenKind::newline) ||
      !Tokens[LineEnd + 1].is(TokenKind::indent))
    return;
  unsigned Depth = 1, SkipBelow = 0;
  bool StatementStart = true;
  for (size_t I = LineEnd + 2; I < Tokens.size() && Depth; ++I) {
    const Token &T = Tokens[I];
    if (T.is(TokenKind::eof))
      return;
    if (T.is(TokenKind::indent)) {
      ++Depth;
      StatementStart = true;
      continue;
    }
    if (T.is(TokenKind::dedent)) {
      --Depth;
      if (SkipBelow && Depth < SkipBelow)
        SkipBelow = 0;
      StatementStart = true;
      continue;
    }
    if (T.isAny(TokenKind::newline, TokenKind::semi)) {
      StatementStart = true;
      continue;
    }
    bool Start = StatementStart;
    StatementStart = false;
    if (SkipBelow)
      continue;
    if (Start && T.isAny(TokenKind::kw_def, TokenKind::kw_class)) {
      noteHostBindingAt(I + 1);
      SkipBelow = Depth + 1; // Its body, one block deeper.
      continue;
    }
    if (Start && T.is(TokenKind::identifier) && I + 1 < Tokens.size() &&
        (isAssignment(Tokens[I + 1].getKind()) ||
         Tokens[I + 1].is(TokenKind::colon)))
      noteHostBindingAt(I);
    else if (Start && T.is(TokenKind::kw_for))
      for (size_t J = I + 1;
           J < Tokens.size() &&
           !Tokens[J].isAny(TokenKind::kw_in, TokenKind::newline);
           ++J)
        noteHostBindingAt(J);
    else if (T.isAny(TokenKind::kw_as, TokenKind::colonequal))
      noteHostBindingAt(T.is(TokenKind::kw_as) ? I + 1 : I - 1);
  }
}

void Parser::enterModuleIfBranch() {
  ModuleIf &If = ModuleIfs.back();
  If.BranchEnded = false;
  If.HasElse |= is(TokenKind::kw_else);
  If.BranchStarts.push_back(mark());
  // The condition is not evaluated: Python alone could (a device probe, a
  // version test). Its colons inside brackets (slices, lambdas) are not the
  // branch's.
  unsigned Brackets = 0;
  while (!is(TokenKind::newline) && !is(TokenKind::eof) &&
         !(Brackets == 0 && is(TokenKind::colon))) {
    if (tok().isAny(TokenKind::l_paren, TokenKind::l_square,
                    TokenKind::l_brace))
      ++Brackets;
    else if (Brackets && tok().isAny(TokenKind::r_paren, TokenKind::r_square,
                                     TokenKind::r_brace))
      --Brackets;
    else if (is(TokenKind::colonequal) && Pos > 0)
      noteHostBindingAt(Pos - 1);
    consume();
  }
  if (consumeIf(TokenKind::colon) && consumeIf(TokenKind::newline) &&
      consumeIf(TokenKind::indent)) {
    ++ModuleBlockDepth;
    return;
  }
  // A one-line branch (`if c: x = 1`) is not scanned, but its targets are
  // noted, and it may rebind any name the other branches bind.
  noteUnrecordedBindings();
  skipStatement(/*OnlyCompoundBlock=*/true);
  If.HasOpaqueBranch = true;
  If.BranchEnded = true;
}

/// Decides which bindings of a module-level `if` stand, as if each branch,
/// and the code before the `if` when there is no `else`, were one possible
/// run. A name keeps its binding from the one run that binds it, or from
/// the one that binds it to something other than None (the feature probe
/// `if has_x(): import x` / `else: x = None`, as FlagGems binds FlagTree's
/// TLE modules). A name the runs bind otherwise differently is recorded as
/// conditional: its uses are errors that say so, rather than a silent
/// choice of branch. Bindings the scan does not record (`x = make()`), a
/// name an inner `if` left conditional and a one-line branch all count as
/// bindings that differ from every other.
void Parser::closeModuleIf() {
  ModuleIf If = ModuleIfs.pop_back_val();
  const ScanMark &Begin = If.BranchStarts.front();
  ScanMark End = mark();
  // Entries before Scope belong to an enclosing `if`'s earlier branches or
  // to the code before it: they are that `if`'s to decide, and stay.
  ScanMark Scope = scopeStart();
  // The run that skips every branch (with the scope's earlier bindings),
  // and the value the scope inherits from outside it.
  unsigned Before = If.BranchStarts.size(), Outside = Before + 1;
  auto branchOf = [&](unsigned List, size_t Index) {
    if (Index < Scope[List])
      return Outside;
    if (Index < Begin[List])
      return Before;
    unsigned Branch = 0;
    while (Branch + 1 < If.BranchStarts.size() &&
           If.BranchStarts[Branch + 1][List] <= Index)
      ++Branch;
    return Branch;
  };
  // Where an entry binds its name: the lists interleave in the source.
  auto posOf = [&](unsigned List, size_t Index) -> const char * {
    switch (List) {
    case 0:
      return M.Functions[Index]->NameLoc.getPointer();
    case 1:
      return M.Constants[Index].Range.Start.getPointer();
    case 2:
      return M.Imports[Index].Range.Start.getPointer();
    case 3:
      return M.ConditionalNames[Index].At.getPointer();
    default:
      return M.HostBindings[Index].data();
    }
  };
  auto isNone = [&](unsigned List, size_t Index) {
    if (List != 1)
      return false;
    const auto *Value = dyn_cast<ConstantExpr>(M.Constants[Index].Value);
    return Value && Value->isNone();
  };
  // An entry in an enclosing `if`'s earlier branch never reaches this one.
  auto visible = [&](unsigned List, size_t Index) {
    return llvm::none_of(ModuleIfs, [&](const ModuleIf &Outer) {
      return Outer.BranchStarts.front()[List] <= Index &&
             Index < Outer.BranchStarts.back()[List];
    });
  };
  // Per name bound in the `if`: the runs binding it, and those binding it
  // to something other than None.
  struct Runs {
    llvm::SmallSet<unsigned, 4> Any, Real;
  };
  llvm::MapVector<StringRef, Runs> Names;
  for (unsigned List = 0; List < 5; ++List)
    for (size_t I = Begin[List]; I < End[List]; ++I) {
      Runs &R = Names[bindingName(List, I)];
      R.Any.insert(branchOf(List, I));
      if (!isNone(List, I))
        R.Real.insert(branchOf(List, I));
    }
  // A run that does not bind a name keeps its last binding before the `if`
  // (which, outside the scope, an enclosing `if` may still settle).
  llvm::StringMap<std::pair<unsigned, size_t>> Last;
  for (unsigned List = 0; List < 5; ++List)
    for (size_t I = 0; I < Begin[List]; ++I) {
      StringRef Name = bindingName(List, I);
      if (!Names.count(Name) || !visible(List, I))
        continue;
      auto [It, New] = Last.try_emplace(Name, List, I);
      if (!New && posOf(It->second.first, It->second.second) < posOf(List, I))
        It->second = {List, I};
    }
  for (auto &[Name, R] : Names) {
    auto It = Last.find(Name);
    if (It == Last.end() ||
        (If.HasElse && R.Any.size() == If.BranchStarts.size()))
      continue;
    auto [List, Index] = It->second;
    R.Any.insert(branchOf(List, Index));
    if (!isNone(List, Index))
      R.Real.insert(branchOf(List, Index));
  }
  // The run whose bindings of a name stand; none for a conditional name.
  llvm::StringMap<std::optional<unsigned>> Kept;
  for (auto &[Name, R] : Names) {
    std::optional<unsigned> Run;
    if (If.HasOpaqueBranch)
      Run = std::nullopt;
    else if (R.Any.size() == 1)
      Run = *R.Any.begin();
    else if (R.Real.size() == 1)
      Run = *R.Real.begin();
    else if (R.Real.empty())
      Run = *R.Any.begin(); // None in every run.
    if (!Run)
      M.ConditionalNames.push_back({Name, If.IfRange, tok().getLoc()});
    Kept[Name] = Run;
  }
  // In the scope, an entry stands when it is of its name's run, or precedes
  // the `if` and its name is not bound there.
  auto stands = [&](unsigned List, size_t Index) {
    if (Index < Scope[List])
      return true;
    auto It = Kept.find(bindingName(List, Index));
    if (It == Kept.end())
      return Index < Begin[List];
    return It->second && *It->second == branchOf(List, Index);
  };
  auto filter = [&](auto &Vector, unsigned List) {
    size_t Out = 0;
    for (size_t I = 0; I < Vector.size(); ++I) {
      if (!stands(List, I))
        continue;
      if (Out != I)
        Vector[Out] = std::move(Vector[I]);
      ++Out;
    }
    Vector.erase(Vector.begin() + Out, Vector.end());
  };
  filter(M.Functions, 0);
  filter(M.Constants, 1);
  filter(M.Imports, 2);
  filter(M.HostBindings, 4);
}

bool Parser::parseDottedName(std::string &Name) {
  if (!is(TokenKind::identifier))
    return false;
  Name = tok().getSpelling().str();
  consume();
  while (is(TokenKind::period) && peekTok().is(TokenKind::identifier)) {
    consume();
    Name += "." + tok().getSpelling().str();
    consume();
  }
  return true;
}

/// Records the names an import binds. Malformed imports are host code's
/// problem (Python would reject the file anyway): they are skipped silently.
void Parser::parseImport() {
  SMLoc Start = tok().getLoc();
  auto Bind = [&](StringRef Local, std::string Path) {
    if (HandlerDepths.empty() || !boundInScope(Local)) {
      rebind(Local);
      M.Imports.push_back({Local, std::move(Path), rangeFrom(Start)});
    }
  };
  if (consumeIf(TokenKind::kw_import)) {
    do {
      std::string Path;
      if (!parseDottedName(Path))
        return skipStatement(/*OnlyCompoundBlock=*/true);
      if (consumeIf(TokenKind::kw_as)) {
        if (!is(TokenKind::identifier))
          return skipStatement(/*OnlyCompoundBlock=*/true);
        Bind(tok().getSpelling(), Path);
        consume();
      } else {
        // `import a.b.c` binds only `a`.
        StringRef Head = StringRef(Path).split('.').first;
        Bind(Ctx.copyString(Head), Head.str());
      }
    } while (consumeIf(TokenKind::comma));
  } else {
    consume(); // from
    std::string Base;
    while (is(TokenKind::period) || is(TokenKind::ellipsis)) {
      Base += is(TokenKind::period) ? "." : "...";
      consume();
    }
    std::string Path;
    if (parseDottedName(Path))
      Base += Path;
    if (Base.empty() || !consumeIf(TokenKind::kw_import))
      return skipStatement(/*OnlyCompoundBlock=*/true);
    std::string Prefix = Base.back() == '.' ? Base : Base + ".";
    if (consumeIf(TokenKind::star))
      return skipStatement(/*OnlyCompoundBlock=*/true);
    bool Parens = consumeIf(TokenKind::l_paren);
    while (is(TokenKind::identifier)) {
      StringRef Name = tok().getSpelling();
      consume();
      StringRef Local = Name;
      if (consumeIf(TokenKind::kw_as)) {
        if (!is(TokenKind::identifier))
          return skipStatement(/*OnlyCompoundBlock=*/true);
        Local = tok().getSpelling();
        consume();
      }
      Bind(Local, Prefix + Name.str());
      if (!consumeIf(TokenKind::comma))
        break;
    }
    if (Parens && !consumeIf(TokenKind::r_paren))
      return skipStatement(/*OnlyCompoundBlock=*/true);
  }
  if (consumeIf(TokenKind::semi) && !is(TokenKind::newline))
    return; // The next statement on this line is scanned on its own.
  skipStatement(/*OnlyCompoundBlock=*/true);
}

DecoratorKind Parser::classifyDecorator(StringRef Canonical) const {
  if (!Canonical.starts_with("triton."))
    return DecoratorKind::Other;
  if (llvm::is_contained({"triton.language.constexpr",
                          "triton.language.core.constexpr",
                          "triton.constexpr_function",
                          "triton.language.core.constexpr_function"},
                         Canonical))
    return DecoratorKind::ConstexprFunction;
  StringRef Last = Canonical.rsplit('.').second;
  if (Last == "jit")
    return DecoratorKind::Jit;
  if (Last == "autotune")
    return DecoratorKind::Autotune;
  if (Last == "heuristics")
    return DecoratorKind::Heuristics;
  if (Last == "dialect")
    return DecoratorKind::Dialect;
  return DecoratorKind::Other;
}

void Parser::parseDecorated() {
  SMLoc Start = tok().getLoc();
  // First pass over the decorator lines: classify each by its dotted name,
  // without parsing, so host-code decorators are never parsed at all.
  SmallVector<size_t, 4> DecoratorPos;
  bool IsJit = false, IsDialect = false, IsCompileTime = false;
  while (is(TokenKind::at)) {
    DecoratorPos.push_back(Pos);
    consume();
    std::string Dotted;
    if (parseDottedName(Dotted)) {
      DecoratorKind Kind = classifyDecorator(M.resolveDottedName(Dotted));
      IsJit |= Kind == DecoratorKind::Jit;
      IsDialect |= Kind == DecoratorKind::Dialect;
      IsCompileTime |= Kind == DecoratorKind::ConstexprFunction;
    }
    while (!is(TokenKind::newline) && !is(TokenKind::eof))
      consume();
    consume();
  }
  IsCompileTime &= !IsJit && !IsDialect;
  IsJit |= IsCompileTime;
  if (!IsJit && !IsDialect) {
    // A host def or class (`@functools.cache def x`) still binds its name.
    if (tok().isAny(TokenKind::kw_def, TokenKind::kw_class) &&
        peekTok().is(TokenKind::identifier))
      noteHostBinding(peekTok().getSpelling());
    return skipStatement(/*OnlyCompoundBlock=*/true);
  }
  if (is(TokenKind::kw_async)) {
    unsupported(tok().getRange(), "'async' function");
    return skipStatement();
  }
  if (!is(TokenKind::kw_def)) {
    // Python only allows def and class after decorators.
    return skipStatement(/*OnlyCompoundBlock=*/true);
  }
  size_t DefPos = Pos;

  SmallVector<Decorator, 4> Decorators;
  for (size_t DP : DecoratorPos) {
    Pos = DP + 1;
    Expr *E = parseNamedExprTest();
    if (!E)
      continue;
    if (!is(TokenKind::newline)) {
      error("expected newline after decorator");
      continue;
    }
    Expr *Callee = E;
    if (auto *Call = dyn_cast<CallExpr>(E))
      Callee = Call->Func;
    std::string Canonical = M.getCanonicalName(Callee);
    Decorators.push_back(
        {classifyDecorator(Canonical), E, Ctx.copyString(Canonical)});
  }
  Pos = DefPos;
  if (FunctionDef *F = parseFunctionDef(Decorators, Start, IsJit)) {
    F->IsCompileTime = IsCompileTime;
    // A handler's def is a fallback too (FlagGems' random_utils: the try
    // body binds `uniform` to a triton.language function).
    if (HandlerDepths.empty() || !boundInScope(F->Name)) {
      rebind(F->Name);
      M.Functions.push_back(F);
    }
  }
}

void Parser::parsePlainDef() {
  // Host code mostly: parsed as jit code without a word, kept only when that
  // works (a helper jit code may call: FlagGems' _unwrap_if_constexpr).
  SMLoc Start = tok().getLoc();
  size_t StartPos = Pos;
  StringRef Name = StartPos + 1 < Tokens.size() &&
                           Tokens[StartPos + 1].is(TokenKind::identifier)
                       ? Tokens[StartPos + 1].getSpelling()
                       : StringRef();
  // A host wrapper named as the kernel it launches (FlagGems' `@triton.jit
  // def exp_` ... `def exp_(*args)`) leaves the kernel compilable: a plain
  // def does not supersede a binding in its scope.
  if (!Name.empty() && boundInScope(Name))
    return skipStatement(/*OnlyCompoundBlock=*/true);
  Quiet = true;
  QuietFailed = false;
  FunctionDef *F = parseFunctionDef({}, Start, /*IsJit=*/true);
  bool Ok = F && !QuietFailed;
  Quiet = false;
  if (!Ok) {
    // The name is still bound, to a function tlec cannot read.
    Pos = StartPos;
    if (!Name.empty())
      noteHostBinding(Name);
    return skipStatement(/*OnlyCompoundBlock=*/true);
  }
  F->IsCompileTime = true;
  rebind(F->Name);
  M.Functions.push_back(F);
}

FunctionDef *Parser::parseFunctionDef(ArrayRef<Decorator> Decorators,
                                      SMLoc Start, bool IsJit) {
  SMLoc DefLoc = tok().getLoc();
  consume(); // def
  auto *F = Ctx.create<FunctionDef>();
  F->IsJit = IsJit;
  F->Decorators = copy<Decorator>(Decorators);
  auto Fail = [&]() -> FunctionDef * {
    skipStatement();
    return nullptr;
  };
  if (!is(TokenKind::identifier))
    return error("expected function name after 'def'"), Fail();
  F->Name = tok().getSpelling();
  F->NameLoc = tok().getLoc();
  consume();
  if (!expect(TokenKind::l_paren, "expected '(' after function name"))
    return Fail();
  SmallVector<Param, 8> Params;
  if (!parseParams(TokenKind::r_paren, /*AllowAnnotations=*/true, Params))
    return Fail();
  if (!expect(TokenKind::r_paren, "expected ',' or ')' after parameter"))
    return Fail();
  F->Params = copy<Param>(Params);
  if (consumeIf(TokenKind::arrow) && !(F->Returns = parseTest()))
    return Fail();
  if (!expect(TokenKind::colon, "expected ':' after function signature"))
    return Fail();

  // Docstring: a string literal alone on the first line of the body.
  size_t BodyStart = Pos;
  if (is(TokenKind::newline) && peekTok().is(TokenKind::indent))
    BodyStart = Pos + 2;
  if (Tokens[BodyStart].is(TokenKind::string)) {
    size_t P = BodyStart;
    while (Tokens[P].is(TokenKind::string))
      ++P;
    if (Tokens[P].isAny(TokenKind::newline, TokenKind::semi)) {
      std::string Doc;
      for (size_t I = BodyStart; I < P; ++I) {
        bool IsBytes;
        decodeString(Tokens[I], Doc, IsBytes);
      }
      F->Docstring = Ctx.copyString(Doc);
      F->HasDocstring = true;
    }
  }

  if (!IsJit) {
    // TLE-Raw: the body is native code for another toolchain; keep its text.
    SMLoc TextStart = Tokens[BodyStart].getLoc();
    F->BodyLoc = TextStart;
    skipStatement();
    F->BodyText = StringRef(TextStart.getPointer(),
                            prevEnd().getPointer() - TextStart.getPointer())
                      .rtrim();
    F->Range = rangeFrom(Start);
    extractAutotune(*F);
    return F;
  }

  SmallVector<Stmt *, 16> Body;
  InJitBody = true;
  LoopDepth = 0;
  bool Ok = parseBlock(Body, "function definition", DefLoc);
  InJitBody = false;
  if (!Ok)
    return Fail();
  if (F->HasDocstring && !Body.empty() && isa<ExprStmt>(Body.front()))
    Body.erase(Body.begin());
  F->Body = copy<Stmt *>(Body);
  F->Range = rangeFrom(Start);
  extractAutotune(*F);
  return F;
}

/// Reads the configs of `@triton.autotune(configs=[triton.Config(...)],
/// key=[...])` into F.Autotune when they are written literally.
void Parser::extractAutotune(FunctionDef &F) {
  const Decorator *D = F.getDecorator(DecoratorKind::Autotune);
  auto *Call = D ? dyn_cast<CallExpr>(D->Value) : nullptr;
  if (!Call)
    return;
  auto *Info = Ctx.create<AutotuneInfo>();
  Info->Call = Call;
  const Keyword *ConfigsKw = Call->getKeyword("configs");
  Info->ConfigsExpr = ConfigsKw            ? ConfigsKw->Value
                      : Call->Args.empty() ? nullptr
                                           : Call->Args[0];
  const Keyword *KeyKw = Call->getKeyword("key");
  Info->Key = KeyKw                   ? KeyKw->Value
              : Call->Args.size() > 1 ? Call->Args[1]
                                      : nullptr;
  SmallVector<AutotuneConfig, 8> Configs;
  if (auto *List = dyn_cast_or_null<ListExpr>(Info->ConfigsExpr)) {
    for (Expr *E : List->Elts) {
      auto *ConfigCall = dyn_cast<CallExpr>(E);
      if (!ConfigCall ||
          !StringRef(M.getCanonicalName(ConfigCall->Func)).ends_with("Config"))
        continue;
      AutotuneConfig C{ConfigCall, nullptr, {}};
      SmallVector<Keyword, 4> Options;
      if (!ConfigCall->Args.empty())
        C.Kwargs = dyn_cast<DictExpr>(ConfigCall->Args[0]);
      for (const Keyword &K : ConfigCall->Keywords) {
        if (K.Arg == "kwargs")
          C.Kwargs = dyn_cast<DictExpr>(K.Value);
        else
          Options.push_back(K);
      }
      C.Options = copy<Keyword>(Options);
      Configs.push_back(C);
    }
  }
  Info->Configs = copy<AutotuneConfig>(Configs);
  F.Autotune = Info;
}

/// Whether a module-level right-hand side is a compile-time value worth
/// recording: literals, earlier constants, names from triton modules
/// (`tl.float16`), arithmetic on them and `constexpr(...)`. Host-side values
/// (tensors, calls into torch or the driver) are not.
static bool isConstantLike(const Module &M, const Expr *E) {
  switch (E->getKind()) {
  case NodeKind::Constant:
    return true;
  case NodeKind::Name:
    // An earlier constant, or an alias of a jit function (`f = f_fast`).
    if (M.lookupConstant(cast<NameExpr>(E)->Id) ||
        M.lookupFunction(cast<NameExpr>(E)->Id))
      return true;
    [[fallthrough]];
  case NodeKind::Attribute: {
    // A type limit (torch.finfo(torch.float32).min).
    if (const auto *Attr = dyn_cast<AttributeExpr>(E))
      if (const auto *Info = dyn_cast<CallExpr>(Attr->Value)) {
        std::string Fn = M.getCanonicalName(Info->Func);
        return Fn == "torch.finfo" || Fn == "torch.iinfo";
      }
    // A triton.language name, or a name from another module of the
    // package: the use resolves it (lookupImported).
    std::string Dotted = Module::getDottedName(E);
    return StringRef(M.resolveDottedName(Dotted)).starts_with("triton.") ||
           (!Dotted.empty() &&
            M.lookupImport(StringRef(Dotted).split('.').first));
  }
  case NodeKind::UnaryOp:
    return isConstantLike(M, cast<UnaryOpExpr>(E)->Operand);
  case NodeKind::BinOp:
    return isConstantLike(M, cast<BinOpExpr>(E)->Left) &&
           isConstantLike(M, cast<BinOpExpr>(E)->Right);
  case NodeKind::Tuple:
    return llvm::all_of(cast<TupleExpr>(E)->Elts, [&](const Expr *Elt) {
      return isConstantLike(M, Elt);
    });
  case NodeKind::Call: {
    const auto *Call = cast<CallExpr>(E);
    return StringRef(M.getCanonicalName(Call->Func)).ends_with("constexpr") &&
           Call->Keywords.empty() &&
           llvm::all_of(Call->Args,
                        [&](const Expr *A) { return isConstantLike(M, A); });
  }
  default:
    return false;
  }
}

void Parser::parseModuleConstant() {
  SMLoc Start = tok().getLoc();
  StringRef Name = tok().getSpelling();
  size_t StartPos = Pos;
  consume();
  Quiet = true;
  QuietFailed = false;
  Expr *Annotation = nullptr, *Value = nullptr;
  if (consumeIf(TokenKind::colon))
    Annotation = parseTest();
  if (!QuietFailed && consumeIf(TokenKind::equal))
    Value = parseExprList();
  bool Ok = !QuietFailed && Value &&
            tok().isAny(TokenKind::newline, TokenKind::semi) &&
            isConstantLike(M, Value) &&
            (HandlerDepths.empty() || !boundInScope(Name));
  Quiet = false;
  if (Ok) {
    rebind(Name);
    M.Constants.push_back({Name, rangeFrom(Start), Annotation, Value});
  } else if ((Value || QuietFailed) &&
             !(!HandlerDepths.empty() && boundInScope(Name))) {
    noteHostBinding(Name);
    // `x = y = v`: y is rebound too.
    size_t Here = Pos;
    Pos = StartPos;
    noteUnrecordedBindings();
    Pos = Here;
  }
  if (Pos == StartPos)
    consume();
  if (Ok && consumeIf(TokenKind::semi) && !is(TokenKind::newline))
    return; // The next statement on this line is scanned on its own.
  skipStatement(/*OnlyCompoundBlock=*/true);
}
