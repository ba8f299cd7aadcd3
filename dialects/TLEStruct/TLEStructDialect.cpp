//===- TLEStructDialect.cpp - tle_struct dialect, types, attributes -------===//

#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tle_struct;

#include "dialects/TLEStruct/TLEStructDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/TLEStruct/TLEStructAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/TLEStruct/TLEStructTypes.cpp.inc"

void TLEStructDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/TLEStruct/TLEStructOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/TLEStruct/TLEStructTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/TLEStruct/TLEStructAttrs.cpp.inc"
      >();
}

Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> order;
  int64_t padInterval = 0, padAmount = 0, swizzle = 0;
  llvm::StringSet<> seen;
  if (parser.parseLess() || parser.parseKeyword("order") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(order.emplace_back());
      }))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef name;
    SMLoc nameLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return {};
    int64_t *value = llvm::StringSwitch<int64_t *>(name)
                         .Case("pad_interval", &padInterval)
                         .Case("pad_amount", &padAmount)
                         .Case("swizzle", &swizzle)
                         .Default(nullptr);
    if (!value) {
      parser.emitError(nameLoc)
          << "expected pad_interval, pad_amount or swizzle, got '" << name
          << "'";
      return {};
    }
    if (!seen.insert(name).second) {
      parser.emitError(nameLoc) << "'" << name << "' given twice";
      return {};
    }
    if (parser.parseEqual() || parser.parseInteger(*value))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return LayoutAttr::getChecked([&] { return parser.emitError(loc); },
                                parser.getContext(), ArrayRef<int64_t>(order),
                                padInterval, padAmount, swizzle);
}

void LayoutAttr::print(AsmPrinter &printer) const {
  printer << "<order = [";
  llvm::interleaveComma(getOrder(), printer);
  printer << ']';
  if (getPadInterval())
    printer << ", pad_interval = " << getPadInterval();
  if (getPadAmount())
    printer << ", pad_amount = " << getPadAmount();
  if (getSwizzle())
    printer << ", swizzle = " << getSwizzle();
  printer << '>';
}

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> order, int64_t padInterval,
                                 int64_t padAmount, int64_t swizzle) {
  llvm::SmallBitVector seen(order.size());
  for (int64_t dim : order) {
    if (dim < 0 || dim >= static_cast<int64_t>(order.size()) || seen.test(dim))
      return emitError() << "layout order must be a permutation of [0, "
                         << order.size() << ")";
    seen.set(dim);
  }
  if (padInterval < 0 || padAmount < 0)
    return emitError() << "layout padding must be non-negative";
  if ((padInterval == 0) != (padAmount == 0))
    return emitError() << "layout padding needs both pad_interval and "
                          "pad_amount";
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "layout swizzle must be 32, 64 or 128 bytes, got "
                       << swizzle;
  if (swizzle != 0 && (padInterval != 0 || order.size() != 3 ||
                       order.back() != 0))
    return emitError() << "a swizzled layout has no padding and orders "
                          "[slot, rows, columns] buffers with the slot "
                          "dimension slowest";
  return success();
}

//===----------------------------------------------------------------------===//
// BufferType: !tle_struct.buffer<64x4xi32, "block"[, #layout]>
//===----------------------------------------------------------------------===//

Type BufferType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  std::string level;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseString(&level))
    return Type();
  LayoutAttr layout;
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(layout))
    return Type();
  if (parser.parseGreater())
    return Type();
  return parser.getChecked<BufferType>(parser.getContext(), shape, elementType,
                                       StringAttr::get(parser.getContext(),
                                                       level),
                                       layout);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", \"" << getMemoryLevel().getValue() << "\"";
  if (getLayout())
    printer << ", " << getLayout();
  printer << ">";
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType,
                                 StringAttr memoryLevel, LayoutAttr layout) {
  if (shape.empty())
    return emitError() << "local buffer must have at least one dimension";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "local buffer dimensions must be positive";
  if (!elementType.isIntOrFloat())
    return emitError() << "local buffer elements must be integers or floats, "
                          "got "
                       << elementType;
  if (!memoryLevel || memoryLevel.getValue().empty())
    return emitError() << "local buffer needs a memory level name";
  if (layout && layout.getOrder().size() != shape.size())
    return emitError() << "layout order has " << layout.getOrder().size()
                       << " entries for a buffer of rank " << shape.size();
  if (layout && layout.getSwizzle() > 0) {
    int64_t bytes = std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
    int64_t rowBytes = shape[layout.getOrder()[0]] * bytes;
    if (rowBytes % layout.getSwizzle() != 0 ||
        shape[1] * shape[2] * bytes % 1024 != 0)
      return emitError() << "a " << layout.getSwizzle()
                         << "-byte swizzled layout needs rows of a multiple "
                            "of that many bytes and slots of a multiple of "
                            "1024 bytes";
  }
  return success();
}
