//===- TLEOps.cpp - Verifiers, folders and builders of tle ops ------------===//

#include "dialects/TLE/TLEDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::tle;

/// Shape-changing ops may change the layout encoding (expand_dims takes a
/// slice layout to its parent, reduce the other way); their verifiers compare
/// shapes and element types only.
static bool sameIgnoringLayout(Type a, Type b) {
  auto strip = [](Type t) -> Type {
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
    return t;
  };
  return strip(a) == strip(b);
}

#define GET_OP_CLASSES
#include "dialects/TLE/TLEOps.cpp.inc"

/// Shape of a tensor type, or an empty shape for a scalar.
static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return result;
}

static bool isPowerOf2(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

/// Checks that `value` and `ptr` have the same shape (both scalars or both
/// tensors of one shape) and that value's element type is ptr's pointee.
static LogicalResult verifyValueMatchesPointer(Operation *op, Type ptrType,
                                               Type valueType,
                                               StringRef valueName) {
  if (shapeOf(ptrType) != shapeOf(valueType) ||
      isa<RankedTensorType>(ptrType) != isa<RankedTensorType>(valueType))
    return op->emitOpError()
           << valueName << " shape " << shapeString(shapeOf(valueType))
           << " does not match pointer shape " << shapeString(shapeOf(ptrType));
  Type pointee =
      cast<PointerType>(getElementTypeOrSelf(ptrType)).getPointeeType();
  if (getElementTypeOrSelf(valueType) != pointee)
    return op->emitOpError()
           << valueName << " element type " << getElementTypeOrSelf(valueType)
           << " does not match pointee type " << pointee;
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor construction and shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  // The attributes are signless; read them as signed 32-bit values.
  int64_t start = static_cast<int32_t>(getStart());
  int64_t end = static_cast<int32_t>(getEnd());
  if (start < 0)
    return emitOpError() << "start must be non-negative, got " << start;
  if (end <= start)
    return emitOpError() << "end (" << end << ") must be greater than start ("
                         << start << ")";
  auto type = getResult().getType();
  if (type.getRank() != 1 || type.getDimSize(0) != end - start)
    return emitOpError() << "result must be a 1-D tensor of " << end - start
                         << " elements, got " << type;
  if (!isPowerOf2(end - start))
    return emitOpError() << "range size " << end - start
                         << " must be a power of 2";
  return success();
}

LogicalResult SplatOp::verify() {
  if (getResult().getType().getElementType() != getSrc().getType())
    return emitOpError() << "result element type "
                         << getResult().getType().getElementType()
                         << " does not match the splatted type "
                         << getSrc().getType();
  return success();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  if (auto scalar = dyn_cast_or_null<TypedAttr>(adaptor.getSrc()))
    if (!isa<PointerType>(scalar.getType()))
      return SplatElementsAttr::get(getResult().getType(), scalar);
  return {};
}

LogicalResult BroadcastOp::verify() {
  auto srcType = getSrc().getType();
  auto resultType = getResult().getType();
  if (srcType.getElementType() != resultType.getElementType())
    return emitOpError() << "element type changes from "
                         << srcType.getElementType() << " to "
                         << resultType.getElementType();
  if (srcType.getRank() != resultType.getRank())
    return emitOpError() << "rank changes from " << srcType.getRank() << " to "
                         << resultType.getRank()
                         << "; insert dimensions with tle.expand_dims first";
  for (auto [i, dims] : llvm::enumerate(
           llvm::zip(srcType.getShape(), resultType.getShape()))) {
    auto [from, to] = dims;
    if (from != to && from != 1)
      return emitOpError() << "cannot broadcast dimension " << i << " of size "
                           << from << " to " << to;
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getResult().getType(),
                                  splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  auto srcType = getSrc().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a tensor "
                         << "of rank " << srcType.getRank();
  SmallVector<int64_t> expected(srcType.getShape());
  expected.insert(expected.begin() + axis, 1);
  auto expectedType = srcType.clone(expected);
  if (!sameIgnoringLayout(getResult().getType(), expectedType))
    return emitOpError() << "result type must be " << expectedType << ", got "
                         << getResult().getType();
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto srcType = getSrc().getType();
  auto resultType = getResult().getType();
  if (srcType.getElementType() != resultType.getElementType())
    return emitOpError() << "element type changes from "
                         << srcType.getElementType() << " to "
                         << resultType.getElementType();
  if (srcType.getNumElements() != resultType.getNumElements())
    return emitOpError() << "cannot reshape " << srcType.getNumElements()
                         << " elements into " << resultType.getNumElements();
  return success();
}

LogicalResult TransOp::verify() {
  auto srcType = getSrc().getType();
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != srcType.getRank())
    return emitOpError() << "order has " << order.size()
                         << " entries for a tensor of rank "
                         << srcType.getRank();
  llvm::SmallBitVector seen(order.size());
  SmallVector<int64_t> expected;
  for (int32_t dim : order) {
    if (dim < 0 || dim >= srcType.getRank() || seen.test(dim))
      return emitOpError() << "order must be a permutation of [0, "
                           << srcType.getRank() << ")";
    seen.set(dim);
    expected.push_back(srcType.getDimSize(dim));
  }
  auto expectedType = srcType.clone(expected);
  if (!sameIgnoringLayout(getResult().getType(), expectedType))
    return emitOpError() << "result type must be " << expectedType << ", got "
                         << getResult().getType();
  return success();
}

LogicalResult JoinOp::verify() {
  auto lhsType = getLhs().getType();
  SmallVector<int64_t> expected(lhsType.getShape());
  expected.push_back(2);
  if (!sameIgnoringLayout(getResult().getType(), lhsType.clone(expected)))
    return emitOpError() << "result type must be " << lhsType.clone(expected)
                         << ", got " << getResult().getType();
  return success();
}

LogicalResult SplitOp::verify() {
  auto srcType = getSrc().getType();
  if (srcType.getRank() == 0 || srcType.getShape().back() != 2)
    return emitOpError() << "the last dimension of the operand must be 2, got "
                         << srcType;
  auto expected = srcType.clone(srcType.getShape().drop_back());
  if (!sameIgnoringLayout(getLhs().getType(), expected) ||
      !sameIgnoringLayout(getRhs().getType(), expected))
    return emitOpError() << "results must have type " << expected;
  return success();
}

LogicalResult CatOp::verify() {
  auto lhsType = getLhs().getType(), rhsType = getRhs().getType();
  if (lhsType.getElementType() != rhsType.getElementType() ||
      lhsType.getRank() != rhsType.getRank() ||
      lhsType.getShape().drop_front() != rhsType.getShape().drop_front())
    return emitOpError() << "operands " << lhsType << " and " << rhsType
                         << " differ in more than dimension 0";
  SmallVector<int64_t> expected(lhsType.getShape());
  expected[0] += rhsType.getDimSize(0);
  if (!sameIgnoringLayout(getResult().getType(), lhsType.clone(expected)))
    return emitOpError() << "result type must be " << lhsType.clone(expected)
                         << ", got " << getResult().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers and casts
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type ptrType = getPtr().getType(), offsetType = getOffset().getType();
  if (isa<RankedTensorType>(ptrType) != isa<RankedTensorType>(offsetType) ||
      shapeOf(ptrType) != shapeOf(offsetType))
    return emitOpError() << "offset shape " << shapeString(shapeOf(offsetType))
                         << " does not match pointer shape "
                         << shapeString(shapeOf(ptrType));
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(adaptor.getOffset(), m_Zero()))
    return getPtr();
  return {};
}

LogicalResult IntToPtrOp::verify() {
  if (shapeOf(getSrc().getType()) != shapeOf(getResult().getType()))
    return emitOpError() << "operand and result shapes differ";
  return success();
}

LogicalResult PtrToIntOp::verify() {
  if (shapeOf(getSrc().getType()) != shapeOf(getResult().getType()))
    return emitOpError() << "operand and result shapes differ";
  return success();
}

/// Bit width of a scalar type; pointers count as 64 bits.
static unsigned bitWidthOf(Type type) {
  if (isa<PointerType>(type))
    return 64;
  return type.getIntOrFloatBitWidth();
}

LogicalResult BitcastOp::verify() {
  Type srcType = getSrc().getType(), resultType = getResult().getType();
  if (isa<RankedTensorType>(srcType) != isa<RankedTensorType>(resultType) ||
      shapeOf(srcType) != shapeOf(resultType))
    return emitOpError() << "operand and result shapes differ";
  unsigned from = bitWidthOf(getElementTypeOrSelf(srcType));
  unsigned to = bitWidthOf(getElementTypeOrSelf(resultType));
  if (from != to)
    return emitOpError() << "cannot bitcast a " << from << "-bit type to a "
                         << to << "-bit type";
  return success();
}

LogicalResult FpToFpOp::verify() {
  // Shapes are the Elementwise trait's to check.
  Type srcType = getSrc().getType(), resultType = getResult().getType();
  unsigned from = getElementTypeOrSelf(srcType).getIntOrFloatBitWidth();
  unsigned to = getElementTypeOrSelf(resultType).getIntOrFloatBitWidth();
  if (to < from && !getRounding())
    return emitOpError() << "narrowing conversion from "
                         << getElementTypeOrSelf(srcType) << " to "
                         << getElementTypeOrSelf(resultType)
                         << " requires a rounding mode";
  if (to >= from && getRounding())
    return emitOpError() << "rounding mode is only meaningful for narrowing "
                            "conversions";
  return success();
}

//===----------------------------------------------------------------------===//
// Memory access
//===----------------------------------------------------------------------===//

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
  // A volatile load must neither be removed nor reordered with other
  // accesses, which a write effect guarantees.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyValueMatchesPointer(*this, getPtr().getType(),
                                       getValue().getType(), "value")))
    return failure();
  Type elementType = getElementTypeOrSelf(getValue().getType());
  switch (getKind()) {
  case RMWKind::FAdd:
    if (!isa<FloatType>(elementType))
      return emitOpError() << "fadd needs a floating-point value, got "
                           << elementType;
    break;
  case RMWKind::Add:
  case RMWKind::Max:
  case RMWKind::Min:
  case RMWKind::Xchg:
    break;
  case RMWKind::UMax:
  case RMWKind::UMin:
  case RMWKind::And:
  case RMWKind::Or:
  case RMWKind::Xor:
    if (!isa<IntegerType>(elementType))
      return emitOpError() << stringifyRMWKind(getKind())
                           << " needs an integer value, got " << elementType;
    break;
  }
  return success();
}

LogicalResult AtomicCASOp::verify() {
  return verifyValueMatchesPointer(*this, getPtr().getType(),
                                   getValue().getType(), "value");
}

LogicalResult MakeTensorDescOp::verify() {
  auto blockType = getResult().getType().getBlockType();
  if (static_cast<int64_t>(getShape().size()) != blockType.getRank())
    return emitOpError() << "descriptor of rank " << getShape().size()
                         << " cannot move blocks of rank "
                         << blockType.getRank();
  Type pointee = getBase().getType().getPointeeType();
  if (pointee != blockType.getElementType())
    return emitOpError() << "block element type " << blockType.getElementType()
                         << " does not match pointee type " << pointee;
  return success();
}

/// A boundary_check attribute lists distinct dimensions of the block.
static LogicalResult verifyBoundaryCheck(Operation *op,
                                         std::optional<ArrayRef<int32_t>> dims,
                                         int64_t rank) {
  if (!dims)
    return success();
  llvm::SmallBitVector seen(rank);
  for (int32_t dim : *dims) {
    if (dim < 0 || dim >= rank || seen.test(dim))
      return op->emitOpError()
             << "boundary_check must list distinct dimensions below " << rank;
    seen.set(dim);
  }
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  auto blockType = getDesc().getType().getBlockType();
  if (static_cast<int64_t>(getIndices().size()) != blockType.getRank())
    return emitOpError() << "expected " << blockType.getRank()
                         << " indices, got " << getIndices().size();
  if (failed(
          verifyBoundaryCheck(*this, getBoundaryCheck(), blockType.getRank())))
    return failure();
  // Layout assignment may give the tile a layout.
  auto result = getResult().getType();
  if (result.getShape() != blockType.getShape() ||
      result.getElementType() != blockType.getElementType())
    return emitOpError() << "result type must be the descriptor's block type "
                         << blockType;
  return success();
}

LogicalResult DescriptorStoreOp::verify() {
  auto blockType = getDesc().getType().getBlockType();
  if (static_cast<int64_t>(getIndices().size()) != blockType.getRank())
    return emitOpError() << "expected " << blockType.getRank()
                         << " indices, got " << getIndices().size();
  if (failed(
          verifyBoundaryCheck(*this, getBoundaryCheck(), blockType.getRank())))
    return failure();
  if (getSrc().getType() != blockType)
    return emitOpError() << "stored type must be the descriptor's block type "
                         << blockType;
  return success();
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto aType = getA().getType(), bType = getB().getType();
  auto cType = getC().getType();
  int64_t rank = aType.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError() << "operands must be 2-D (or 3-D with a batch "
                            "dimension), got rank "
                         << rank;
  if (bType.getRank() != rank || cType.getRank() != rank)
    return emitOpError() << "operands must all have rank " << rank;
  ArrayRef<int64_t> a = aType.getShape(), b = bType.getShape(),
                    c = cType.getShape();
  if (rank == 3 && (a[0] != b[0] || a[0] != c[0]))
    return emitOpError() << "batch dimensions differ: " << a[0] << ", " << b[0]
                         << ", " << c[0];
  int64_t m = a[rank - 2], k = a[rank - 1], kb = b[rank - 2], n = b[rank - 1];
  if (k != kb)
    return emitOpError() << "reduction dimensions differ: a is " << m << "x"
                         << k << " but b is " << kb << "x" << n;
  if (c[rank - 2] != m || c[rank - 1] != n)
    return emitOpError() << "accumulator must be " << m << "x" << n << ", got "
                         << c[rank - 2] << "x" << c[rank - 1];
  Type aElem = aType.getElementType(), bElem = bType.getElementType();
  bool bothFp8 = aElem.isIntOrFloat() && bElem.isIntOrFloat() &&
                 isa<FloatType>(aElem) && isa<FloatType>(bElem) &&
                 aElem.getIntOrFloatBitWidth() == 8 &&
                 bElem.getIntOrFloatBitWidth() == 8;
  if (aElem != bElem && !bothFp8)
    return emitOpError() << "operand element types differ: " << aElem << " and "
                         << bElem;
  if (isa<PointerType>(aElem) || isa<PointerType>(cType.getElementType()))
    return emitOpError() << "cannot multiply pointers";
  return success();
}

/// Shared checks of reduce and scan: operands have one shape; the axis is in
/// range.
static LogicalResult verifyReduceLikeOperands(Operation *op, ValueRange srcs,
                                              int64_t axis) {
  if (srcs.empty())
    return op->emitOpError() << "needs at least one operand";
  auto firstType = cast<RankedTensorType>(srcs.front().getType());
  for (Value src : srcs.drop_front())
    if (cast<RankedTensorType>(src.getType()).getShape() !=
        firstType.getShape())
      return op->emitOpError() << "operands must all have shape "
                               << shapeString(firstType.getShape());
  if (axis < 0 || axis >= firstType.getRank())
    return op->emitOpError() << "axis " << axis
                             << " is out of range for a tensor of rank "
                             << firstType.getRank();
  return success();
}

/// The combiner of reduce and scan takes (acc..., new...) scalars of the
/// operand element types and yields one scalar per operand.
static LogicalResult verifyCombiner(Operation *op, Region &region,
                                    ValueRange srcs) {
  Block &block = region.front();
  SmallVector<Type> elementTypes;
  for (Value src : srcs)
    elementTypes.push_back(getElementTypeOrSelf(src.getType()));
  SmallVector<Type> expectedArgs(elementTypes);
  expectedArgs.append(elementTypes);
  if (block.getArgumentTypes() != ArrayRef<Type>(expectedArgs))
    return op->emitOpError()
           << "combiner must take " << expectedArgs.size()
           << " scalar arguments (the accumulated values, then the new "
              "ones) of the operand element types";
  Operation *terminator = block.getTerminator();
  if (terminator->getOperandTypes() != ArrayRef<Type>(elementTypes))
    return op->emitOpError() << "combiner must yield " << elementTypes.size()
                             << " scalars of the operand element types";
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyReduceLikeOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError() << "needs one result per operand";
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    auto srcType = cast<RankedTensorType>(src.getType());
    SmallVector<int64_t> shape(srcType.getShape());
    shape.erase(shape.begin() + getAxis());
    Type expected = shape.empty() ? srcType.getElementType()
                                  : Type(srcType.clone(shape));
    if (!sameIgnoringLayout(result.getType(), expected))
      return emitOpError() << "result type must be " << expected << ", got "
                           << result.getType();
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyReduceLikeOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getResultTypes() != getSrcs().getTypes())
    return emitOpError() << "results must have the operand types";
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

LogicalResult HistogramOp::verify() {
  if (getSrc().getType().getRank() != 1 || getResult().getType().getRank() != 1)
    return emitOpError() << "operand and result must be 1-D";
  return success();
}

LogicalResult GatherOp::verify() {
  RankedTensorType src = getSrc().getType(), indices = getIndices().getType();
  int64_t rank = src.getRank();
  if (indices.getRank() != rank)
    return emitOpError() << "indices must have the source's rank " << rank
                         << ", got " << indices.getRank();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << rank;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices.getDimSize(d) != src.getDimSize(d))
      return emitOpError() << "indices must match the source along axis " << d
                           << " (" << indices.getDimSize(d) << " vs "
                           << src.getDimSize(d) << ")";
  RankedTensorType result = getResult().getType();
  if (result.getShape() != indices.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError() << "the result must have the indices' shape and the "
                            "source's element type";
  return success();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, ArrayRef<NamedAttribute> attrs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.attributes.append(attrs.begin(), attrs.end());
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "'" << getCallee()
                         << "' does not reference a tle.func";
  FunctionType type = fn.getFunctionType();
  if (!llvm::equal(type.getInputs(), getOperandTypes()))
    return emitOpError() << "operand types do not match the signature of '"
                         << getCallee() << "': " << type;
  if (!llvm::equal(type.getResults(), getResultTypes()))
    return emitOpError() << "result types do not match the signature of '"
                         << getCallee() << "': " << type;
  return success();
}

LogicalResult ReturnOp::verify() {
  auto fn = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> expected = fn.getResultTypes();
  if (getSrcs().getTypes() != expected)
    return emitOpError() << "returns (" << getSrcs().getTypes()
                         << ") but the enclosing function returns ("
                         << expected << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// TLE-Lite: sub-tiles
//===----------------------------------------------------------------------===//

/// Checks that `tile` can partition `full` and, for a constant index, that
/// the index names an existing tile.
static LogicalResult verifySubTile(Operation *op, RankedTensorType full,
                                   RankedTensorType tile, Value index) {
  if (full.getElementType() != tile.getElementType())
    return op->emitOpError() << "tile element type " << tile.getElementType()
                             << " differs from " << full.getElementType();
  if (full.getRank() != tile.getRank())
    return op->emitOpError() << "tile rank " << tile.getRank()
                             << " differs from rank " << full.getRank();
  int64_t numTiles = 1;
  for (auto [i, dims] :
       llvm::enumerate(llvm::zip(full.getShape(), tile.getShape()))) {
    auto [fullDim, tileDim] = dims;
    if (tileDim > fullDim)
      return op->emitOpError()
             << "tile dimension " << i << " (" << tileDim
             << ") is larger than the tile it is taken from (" << fullDim
             << ")";
    numTiles *= llvm::divideCeil(fullDim, tileDim);
  }
  APInt constIndex;
  if (matchPattern(index, m_ConstantInt(&constIndex)) &&
      (constIndex.isNegative() || constIndex.getSExtValue() >= numTiles))
    return op->emitOpError() << "tile index " << constIndex.getSExtValue()
                             << " is out of range [0, " << numTiles << ")";
  return success();
}

LogicalResult ExtractTileOp::verify() {
  return verifySubTile(*this, getSrc().getType(), getResult().getType(),
                       getIndex());
}

LogicalResult InsertTileOp::verify() {
  return verifySubTile(*this, getDest().getType(), getTile().getType(),
                       getIndex());
}

LogicalResult ExclusiveCumsumOp::verify() {
  auto srcType = getSrc().getType();
  if (getAxis() < 0 || getAxis() >= srcType.getRank())
    return emitOpError() << "axis " << getAxis()
                         << " is out of range for a tensor of rank "
                         << srcType.getRank();
  if (getExclusive().getType() != srcType)
    return emitOpError() << "exclusive result must have the operand type";
  SmallVector<int64_t> shape(srcType.getShape());
  shape.erase(shape.begin() + getAxis());
  Type expected = shape.empty() ? srcType.getElementType()
                                : Type(srcType.clone(shape));
  if (!sameIgnoringLayout(getTotal().getType(), expected))
    return emitOpError() << "total must have type " << expected << ", got "
                         << getTotal().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// TLE-Lite: pipes
//===----------------------------------------------------------------------===//

LogicalResult PipeCreateOp::verify() {
  if (getName().empty())
    return emitOpError() << "pipe needs a name";
  if (getReaders() < 1)
    return emitOpError() << "pipe needs at least one reader, got "
                         << getReaders();
  return success();
}

/// A value matches a pipe field when shape and element type agree. The
/// field types are written once, at pipe.create, without a layout; layout
/// assignment later gives the committed and read tensors an encoding (each
/// its own: the writer's and the reader's layouts may differ, the slot in
/// block-level memory is what they share), so encodings are not compared.
static bool matchesPipeFields(TypeRange values, ArrayRef<Type> fields) {
  if (values.size() != fields.size())
    return false;
  for (auto [value, field] : llvm::zip(values, fields)) {
    auto valueTensor = dyn_cast<RankedTensorType>(value);
    auto fieldTensor = dyn_cast<RankedTensorType>(field);
    if (!valueTensor || !fieldTensor) {
      if (value != field)
        return false;
      continue;
    }
    if (valueTensor.getShape() != fieldTensor.getShape() ||
        valueTensor.getElementType() != fieldTensor.getElementType())
      return false;
  }
  return true;
}

LogicalResult PipeWriterCommitOp::verify() {
  ArrayRef<Type> fields = getPipe().getType().getFields();
  if (!matchesPipeFields(getValues().getTypes(), fields))
    return emitOpError() << "committed values must match the pipe fields ("
                         << fields << ")";
  return success();
}

LogicalResult PipeReaderWaitOp::verify() {
  ArrayRef<Type> fields = getPipe().getType().getFields();
  if (!matchesPipeFields(getValues().getTypes(), fields))
    return emitOpError() << "results must match the pipe fields (" << fields
                         << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// TLE-Lite: device mesh
//===----------------------------------------------------------------------===//

static LogicalResult verifyMeshLevel(Operation *op, MeshType mesh,
                                     StringRef level) {
  if (!mesh.getLevelIndex(level))
    return op->emitOpError() << "level '" << level
                             << "' is not a level of the mesh " << mesh;
  return success();
}

LogicalResult ShardIdOp::verify() {
  return verifyMeshLevel(*this, getMesh().getType(), getLevel());
}

LogicalResult DistributedBarrierOp::verify() {
  return verifyMeshLevel(*this, getMesh().getType(), getLevel());
}
