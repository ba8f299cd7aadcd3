//===- TLERawDialect.cpp - The tle_raw dialect ----------------------------===//

#include "dialects/TLERaw/TLERawDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tle_raw;

#include "dialects/TLERaw/TLERawDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/TLERaw/TLERawAttrs.cpp.inc"
#define GET_OP_CLASSES
#include "dialects/TLERaw/TLERawOps.cpp.inc"

void TLERawDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/TLERaw/TLERawOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/TLERaw/TLERawAttrs.cpp.inc"
      >();
}

ArrayRef<StringRef> mlir::tle_raw::getKnownLanguages() {
  static const StringRef languages[] = {"ptx",   "cuda",   "hip",  "amdgcn",
                                        "spirv", "opencl", "llvm", "mlir"};
  return languages;
}

LogicalResult VariantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  StringAttr language, StringAttr code,
                                  StringAttr entry, StringAttr constraints,
                                  StringAttr file, unsigned line,
                                  unsigned column) {
  if (!llvm::is_contained(getKnownLanguages(), language.getValue()))
    return emitError() << "unknown native language '" << language.getValue()
                       << "' (expected one of ptx, cuda, hip, amdgcn, spirv, "
                          "opencl, llvm, mlir)";
  if (code.getValue().empty())
    return emitError() << "native code for '" << language.getValue()
                       << "' is empty";
  bool isInlineAsm =
      language.getValue() == "ptx" || language.getValue() == "amdgcn";
  if (constraints && !isInlineAsm)
    return emitError() << "constraints apply to inline assembly (ptx, "
                          "amdgcn), not to '"
                       << language.getValue() << "'";
  return success();
}

LogicalResult CallOp::verify() {
  if (getVariants().empty())
    return emitOpError() << "needs at least one native variant";
  llvm::StringSet<> seen;
  for (Attribute attr : getVariants()) {
    auto variant = dyn_cast<VariantAttr>(attr);
    if (!variant)
      return emitOpError() << "variants must be #tle_raw.variant attributes, "
                              "got "
                           << attr;
    if (!seen.insert(variant.getLanguage().getValue()).second)
      return emitOpError() << "has two variants in '"
                           << variant.getLanguage().getValue() << "'";
    if (getPack() != 1 && !variant.getConstraints())
      return emitOpError() << "packs " << getPack()
                           << " elements per call, which only inline "
                              "assembly (a variant with constraints) can";
  }
  if (Type type = getPackedBoolType())
    return emitOpError() << "packs " << getPack() << " elements per call, "
                         << "but " << type
                         << " holds i1 values, which do not pack into "
                            "registers; use pack = 1 or i8";
  // Narrow values travel in 32-bit registers of min(32 / width, pack)
  // elements: those must divide the pack.
  if (Type type = getTypeSplittingPack())
    return emitOpError() << "packs " << getPack() << " elements per call, "
                         << "which 32-bit registers of "
                         << getElementsPerRegister(type) << " "
                         << getElementTypeOrSelf(type) << " do not divide";
  Region &fallback = getFallback();
  if (fallback.empty())
    return success();
  if (!fallback.hasOneBlock() || fallback.front().getNumArguments() != 0)
    return emitOpError() << "fallback must be one block without arguments "
                            "(it uses the operands directly)";
  Block &body = fallback.front();
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError() << "fallback must end in tle_raw.yield";
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError()
           << "yields " << yield.getValues().getTypes()
           << " but the call returns " << getResultTypes();
  return success();
}

unsigned CallOp::getElementsPerRegister(Type type) {
  Type element = getElementTypeOrSelf(type);
  unsigned width =
      element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  return width < 32 ? std::min(32 / width, getPack()) : 1;
}

Type CallOp::getTypeSplittingPack() {
  for (Type type :
       llvm::concat<const Type>(getArgs().getTypes(), getResultTypes()))
    if (getPack() % getElementsPerRegister(type) != 0)
      return type;
  return Type();
}

Type CallOp::getPackedBoolType() {
  if (getPack() == 1)
    return Type();
  for (Type type :
       llvm::concat<const Type>(getArgs().getTypes(), getResultTypes()))
    if (getElementTypeOrSelf(type).isInteger(1))
      return type;
  return Type();
}

VariantAttr CallOp::getVariant(StringRef language) {
  for (Attribute attr : getVariants())
    if (auto variant = dyn_cast<VariantAttr>(attr);
        variant && variant.getLanguage().getValue() == language)
      return variant;
  return {};
}
