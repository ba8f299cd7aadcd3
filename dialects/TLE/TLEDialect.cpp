//===- TLEDialect.cpp - The tle dialect and its types ---------------------===//

#include "dialects/TLE/TLEDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tle;

#include "dialects/TLE/TLEDialect.cpp.inc"
#include "dialects/TLE/TLEEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/TLE/TLEAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/TLE/TLETypes.cpp.inc"

namespace {
/// Every tle op may be inlined: kernels are built from nested jit calls that
/// the front end emits as tle.call and the tile passes inline.
struct TLEInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto returnOp = cast<ReturnOp>(op);
    for (auto [from, to] : llvm::zip(valuesToRepl, returnOp.getOperands()))
      from.replaceAllUsesWith(to);
  }
};

/// Prints layout encodings as aliases (#blocked, #slice, #linear, #shared) so
/// tensor types stay readable.
struct TLEOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceLayoutAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<LinearLayoutAttr>(attr)) {
      os << "linear";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedLayoutAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

Operation *TLEDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

void TLEDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/TLE/TLEOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/TLE/TLETypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/TLE/TLEAttrs.cpp.inc"
      >();
  addInterfaces<TLEInlinerInterface, TLEOpAsmInterface>();
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

Type mlir::tle::getPointeeTypeLike(Type ptrLike) {
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
  return Type();
}

Type mlir::tle::getI1TypeLike(Type like) {
  auto i1 = IntegerType::get(like.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return tensor.clone(i1);
  return i1;
}

ArrayRef<StringRef> mlir::tle::getMeshLevelNames() {
  static const StringRef names[] = {"node", "device", "chiplet",
                                    "block_cluster", "block"};
  return names;
}

//===----------------------------------------------------------------------===//
// PointerType
//===----------------------------------------------------------------------===//

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  if (parser.parseLess() || parser.parseType(pointee))
    return Type();
  StringAttr level;
  if (succeeded(parser.parseOptionalComma())) {
    std::string name;
    if (parser.parseString(&name))
      return Type();
    level = StringAttr::get(parser.getContext(), name);
  }
  if (parser.parseGreater())
    return Type();
  return parser.getChecked<PointerType>(parser.getContext(), pointee, level);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getMemoryLevel())
    printer << ", \"" << getMemoryLevel().getValue() << "\"";
  printer << ">";
}

LogicalResult
PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                    Type pointeeType, StringAttr memoryLevel) {
  if (!isa<IntegerType, FloatType, PointerType>(pointeeType))
    return emitError() << "pointee must be an integer, float or pointer type, "
                          "got "
                       << pointeeType;
  if (memoryLevel && memoryLevel.getValue().empty())
    return emitError() << "memory level name must not be empty";
  return success();
}

//===----------------------------------------------------------------------===//
// PipeType and MeshType
//===----------------------------------------------------------------------===//

LogicalResult PipeType::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned capacity, ArrayRef<Type> fields) {
  if (capacity == 0)
    return emitError() << "pipe capacity must be at least 1";
  if (fields.empty())
    return emitError() << "pipe must carry at least one field";
  return success();
}

LogicalResult MeshType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayAttr levels, ArrayRef<int64_t> shape) {
  if (levels.empty())
    return emitError() << "device mesh must have at least one level";
  if (levels.size() != shape.size())
    return emitError() << "device mesh has " << levels.size()
                       << " levels but " << shape.size() << " sizes";
  ArrayRef<StringRef> known = getMeshLevelNames();
  int64_t previous = -1;
  for (auto [attr, size] : llvm::zip(levels, shape)) {
    auto name = dyn_cast<StringAttr>(attr);
    if (!name)
      return emitError() << "device mesh level names must be strings";
    const auto *it = llvm::find(known, name.getValue());
    if (it == known.end())
      return emitError() << "unknown device mesh level '" << name.getValue()
                         << "' (expected one of node, device, chiplet, "
                            "block_cluster, block)";
    int64_t position = it - known.begin();
    if (position <= previous)
      return emitError() << "device mesh levels must be distinct and listed "
                            "outermost first; '"
                         << name.getValue() << "' is out of order";
    previous = position;
    if (size <= 0)
      return emitError() << "device mesh level '" << name.getValue()
                         << "' must have a positive size, got " << size;
  }
  return success();
}

std::optional<unsigned> MeshType::getLevelIndex(StringRef level) const {
  for (auto [index, attr] : llvm::enumerate(getLevels()))
    if (cast<StringAttr>(attr).getValue() == level)
      return index;
  return std::nullopt;
}
