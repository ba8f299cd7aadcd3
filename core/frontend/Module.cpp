//===- Module.cpp - A parsed kernel file ----------------------------------===//

#include "core/frontend/Module.h"

using namespace llvm;
using namespace tle::frontend;

const FunctionDef *Module::lookupFunction(StringRef Name) const {
  for (const FunctionDef *F : llvm::reverse(Functions))
    if (F->Name == Name)
      return F;
  return nullptr;
}

const ModuleConstant *Module::lookupConstant(StringRef Name) const {
  for (const ModuleConstant &C : llvm::reverse(Constants))
    if (C.Name == Name)
      return &C;
  return nullptr;
}

const ImportAlias *Module::lookupImport(StringRef LocalName) const {
  for (const ImportAlias &I : llvm::reverse(Imports))
    if (I.LocalName == LocalName)
      return &I;
  return nullptr;
}

const Module::ConditionalName *Module::lookupConditional(StringRef Name) const {
  for (const ConditionalName &C : llvm::reverse(ConditionalNames))
    if (C.Name == Name)
      return &C;
  return nullptr;
}

StringRef Module::lookupHostBinding(StringRef Name) const {
  for (StringRef B : llvm::reverse(HostBindings))
    if (B == Name)
      return B;
  return {};
}

std::string Module::resolveDottedName(StringRef Dotted) const {
  if (Dotted.empty())
    return {};
  auto [Head, Tail] = Dotted.split('.');
  const ImportAlias *Import = lookupImport(Head);
  std::string Result = Import ? Import->Path : Head.str();
  if (!Tail.empty())
    Result += "." + Tail.str();
  return Result;
}

std::string Module::getDottedName(const Expr *E) {
  if (const auto *N = dyn_cast<NameExpr>(E))
    return N->Id.str();
  if (const auto *A = dyn_cast<AttributeExpr>(E)) {
    std::string Base = getDottedName(A->Value);
    if (Base.empty())
      return {};
    return Base + "." + A->Attr.str();
  }
  return {};
}

std::string Module::getCanonicalName(const Expr *E) const {
  return resolveDottedName(getDottedName(E));
}
