//===- AST.cpp - Syntax tree of Triton-syntax kernels ---------------------===//

#include "core/frontend/AST.h"

using namespace llvm;
using namespace tle::frontend;

StringRef tle::frontend::getSpelling(BinaryOpKind Op) {
  switch (Op) {
  case BinaryOpKind::Add:
    return "+";
  case BinaryOpKind::Sub:
    return "-";
  case BinaryOpKind::Mult:
    return "*";
  case BinaryOpKind::MatMult:
    return "@";
  case BinaryOpKind::Div:
    return "/";
  case BinaryOpKind::FloorDiv:
    return "//";
  case BinaryOpKind::Mod:
    return "%";
  case BinaryOpKind::Pow:
    return "**";
  case BinaryOpKind::LShift:
    return "<<";
  case BinaryOpKind::RShift:
    return ">>";
  case BinaryOpKind::BitOr:
    return "|";
  case BinaryOpKind::BitXor:
    return "^";
  case BinaryOpKind::BitAnd:
    return "&";
  }
  llvm_unreachable("unknown binary operator");
}

StringRef tle::frontend::getName(BinaryOpKind Op) {
  switch (Op) {
  case BinaryOpKind::Add:
    return "Add";
  case BinaryOpKind::Sub:
    return "Sub";
  case BinaryOpKind::Mult:
    return "Mult";
  case BinaryOpKind::MatMult:
    return "MatMult";
  case BinaryOpKind::Div:
    return "Div";
  case BinaryOpKind::FloorDiv:
    return "FloorDiv";
  case BinaryOpKind::Mod:
    return "Mod";
  case BinaryOpKind::Pow:
    return "Pow";
  case BinaryOpKind::LShift:
    return "LShift";
  case BinaryOpKind::RShift:
    return "RShift";
  case BinaryOpKind::BitOr:
    return "BitOr";
  case BinaryOpKind::BitXor:
    return "BitXor";
  case BinaryOpKind::BitAnd:
    return "BitAnd";
  }
  llvm_unreachable("unknown binary operator");
}

StringRef tle::frontend::getSpelling(UnaryOpKind Op) {
  switch (Op) {
  case UnaryOpKind::Invert:
    return "~";
  case UnaryOpKind::Not:
    return "not";
  case UnaryOpKind::UAdd:
    return "+";
  case UnaryOpKind::USub:
    return "-";
  }
  llvm_unreachable("unknown unary operator");
}

StringRef tle::frontend::getName(UnaryOpKind Op) {
  switch (Op) {
  case UnaryOpKind::Invert:
    return "Invert";
  case UnaryOpKind::Not:
    return "Not";
  case UnaryOpKind::UAdd:
    return "UAdd";
  case UnaryOpKind::USub:
    return "USub";
  }
  llvm_unreachable("unknown unary operator");
}

StringRef tle::frontend::getSpelling(BoolOpKind Op) {
  return Op == BoolOpKind::And ? "and" : "or";
}

StringRef tle::frontend::getName(BoolOpKind Op) {
  return Op == BoolOpKind::And ? "And" : "Or";
}

StringRef tle::frontend::getSpelling(CmpOpKind Op) {
  switch (Op) {
  case CmpOpKind::Eq:
    return "==";
  case CmpOpKind::NotEq:
    return "!=";
  case CmpOpKind::Lt:
    return "<";
  case CmpOpKind::LtE:
    return "<=";
  case CmpOpKind::Gt:
    return ">";
  case CmpOpKind::GtE:
    return ">=";
  case CmpOpKind::Is:
    return "is";
  case CmpOpKind::IsNot:
    return "is not";
  case CmpOpKind::In:
    return "in";
  case CmpOpKind::NotIn:
    return "not in";
  }
  llvm_unreachable("unknown comparison operator");
}

StringRef tle::frontend::getName(CmpOpKind Op) {
  switch (Op) {
  case CmpOpKind::Eq:
    return "Eq";
  case CmpOpKind::NotEq:
    return "NotEq";
  case CmpOpKind::Lt:
    return "Lt";
  case CmpOpKind::LtE:
    return "LtE";
  case CmpOpKind::Gt:
    return "Gt";
  case CmpOpKind::GtE:
    return "GtE";
  case CmpOpKind::Is:
    return "Is";
  case CmpOpKind::IsNot:
    return "IsNot";
  case CmpOpKind::In:
    return "In";
  case CmpOpKind::NotIn:
    return "NotIn";
  }
  llvm_unreachable("unknown comparison operator");
}

StringRef tle::frontend::getNodeKindName(NodeKind Kind) {
  switch (Kind) {
  case NodeKind::Name:
    return "Name";
  case NodeKind::Constant:
    return "Constant";
  case NodeKind::BinOp:
    return "BinOp";
  case NodeKind::UnaryOp:
    return "UnaryOp";
  case NodeKind::BoolOp:
    return "BoolOp";
  case NodeKind::Compare:
    return "Compare";
  case NodeKind::IfExp:
    return "IfExp";
  case NodeKind::Call:
    return "Call";
  case NodeKind::Attribute:
    return "Attribute";
  case NodeKind::Subscript:
    return "Subscript";
  case NodeKind::Slice:
    return "Slice";
  case NodeKind::Tuple:
    return "Tuple";
  case NodeKind::List:
    return "List";
  case NodeKind::Set:
    return "Set";
  case NodeKind::Dict:
    return "Dict";
  case NodeKind::Comprehension:
    return "Comprehension";
  case NodeKind::Lambda:
    return "Lambda";
  case NodeKind::Starred:
    return "Starred";
  case NodeKind::NamedExpr:
    return "NamedExpr";
  case NodeKind::JoinedStr:
    return "JoinedStr";
  case NodeKind::FormattedValue:
    return "FormattedValue";
  case NodeKind::Assign:
    return "Assign";
  case NodeKind::AnnAssign:
    return "AnnAssign";
  case NodeKind::AugAssign:
    return "AugAssign";
  case NodeKind::If:
    return "If";
  case NodeKind::For:
    return "For";
  case NodeKind::While:
    return "While";
  case NodeKind::Return:
    return "Return";
  case NodeKind::Pass:
    return "Pass";
  case NodeKind::Break:
    return "Break";
  case NodeKind::Continue:
    return "Continue";
  case NodeKind::Assert:
    return "Assert";
  case NodeKind::Raise:
    return "Raise";
  case NodeKind::ExprStmt:
    return "Expr";
  }
  llvm_unreachable("unknown node kind");
}

APInt ConstantExpr::getAPInt() const {
  if (!IntOverflow)
    return APInt(64, Int);
  APInt Result;
  // The lexer validated the digits, so this cannot fail.
  [[maybe_unused]] bool Failed = IntDigits.getAsInteger(IntRadix, Result);
  assert(!Failed && "integer digits were validated by the lexer");
  return Result;
}

const Keyword *CallExpr::getKeyword(StringRef Name) const {
  for (const Keyword &K : Keywords)
    if (K.Arg == Name)
      return &K;
  return nullptr;
}

Expr *DictExpr::lookup(StringRef Key) const {
  for (auto [K, V] : llvm::zip(Keys, Values))
    if (auto *C = dyn_cast_or_null<ConstantExpr>(K);
        C && C->isString() && C->Str == Key)
      return V;
  return nullptr;
}

const Decorator *FunctionDef::getDecorator(DecoratorKind Kind) const {
  for (const Decorator &D : Decorators)
    if (D.Kind == Kind)
      return &D;
  return nullptr;
}

const Param *FunctionDef::getParam(StringRef Name) const {
  for (const Param &P : Params)
    if (P.Name == Name)
      return &P;
  return nullptr;
}
