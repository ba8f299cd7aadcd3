//===- TLEStructDialect.cpp - tle_struct dialect, types, attributes -------===//

#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallBitVector.h"
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

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> order, int64_t padInterval,
                                 int64_t padAmount) {
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
  return success();
}
