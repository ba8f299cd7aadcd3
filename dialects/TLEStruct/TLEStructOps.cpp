//===- TLEStructOps.cpp - Verifiers of tle_struct ops ---------------------===//

#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tle_struct;

#define GET_OP_CLASSES
#include "dialects/TLEStruct/TLEStructOps.cpp.inc"

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getShape();
  if (auto buffer = dyn_cast<BufferType>(type))
    return buffer.getShape();
  return {};
}

LogicalResult AllocOp::verify() {
  auto init = getInitAttr();
  if (init && init.getType() != getBuffer().getType().getElementType())
    return emitOpError() << "init value type " << init.getType()
                         << " does not match the element type "
                         << getBuffer().getType().getElementType();
  return success();
}

LogicalResult LocalPtrOp::verify() {
  BufferType bufferType = getBuffer().getType();
  Type resultType = getResult().getType();
  auto ptrType = cast<tle::PointerType>(getElementTypeOrSelf(resultType));
  if (ptrType.getPointeeType() != bufferType.getElementType())
    return emitOpError() << "pointee type " << ptrType.getPointeeType()
                         << " does not match the buffer element type "
                         << bufferType.getElementType();
  if (ptrType.getMemoryLevel() != bufferType.getMemoryLevel())
    return emitOpError() << "pointers into a buffer at level "
                         << bufferType.getMemoryLevel()
                         << " must carry that level";
  if (getIndices().empty()) {
    if (shapeOf(resultType) != bufferType.getShape())
      return emitOpError() << "without indices the result must have the "
                              "buffer's shape";
    return success();
  }
  if (getIndices().size() != bufferType.getShape().size())
    return emitOpError() << "expected " << bufferType.getShape().size()
                         << " index operands (one per buffer dimension), got "
                         << getIndices().size();
  ArrayRef<int64_t> indexShape = shapeOf(getIndices().front().getType());
  for (Value index : getIndices())
    if (shapeOf(index.getType()) != indexShape)
      return emitOpError() << "index operands must all have one shape";
  if (shapeOf(resultType) != indexShape ||
      isa<RankedTensorType>(resultType) !=
          isa<RankedTensorType>(getIndices().front().getType()))
    return emitOpError() << "result must have the shape of the indices";
  return success();
}

/// Shape and element type of a copy endpoint: a buffer or pointers.
static FailureOr<std::pair<ArrayRef<int64_t>, Type>>
getCopyEndpoint(Operation *op, Type type, StringRef what) {
  if (auto buffer = dyn_cast<BufferType>(type))
    return std::make_pair(buffer.getShape(), buffer.getElementType());
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    if (auto ptr = dyn_cast<tle::PointerType>(tensor.getElementType()))
      return std::make_pair(tensor.getShape(), ptr.getPointeeType());
  return op->emitOpError() << what
                           << " must be a local buffer or a tensor of "
                              "pointers, got "
                           << type;
}

LogicalResult CopyOp::verify() {
  auto src = getCopyEndpoint(*this, getSrc().getType(), "source");
  if (failed(src))
    return failure();
  auto dst = getCopyEndpoint(*this, getDst().getType(), "destination");
  if (failed(dst))
    return failure();
  if (src->first != dst->first)
    return emitOpError() << "source and destination shapes differ";
  if (src->second != dst->second)
    return emitOpError() << "source element type " << src->second
                         << " differs from destination element type "
                         << dst->second;
  if (getMask() && shapeOf(getMask().getType()) != src->first)
    return emitOpError() << "mask shape must match the copied shape";
  if (getAsync() && !getBarrier())
    return emitOpError() << "an async copy needs a barrier to complete on";
  return success();
}

/// The shape of one slot of a buffer whose leading dimension indexes slots.
static FailureOr<ArrayRef<int64_t>> slotShape(Operation *op, BufferType type) {
  if (type.getShape().size() < 2)
    return op->emitOpError()
           << "buffer " << type << " needs a leading slot dimension";
  return type.getShape().drop_front();
}

LogicalResult AsyncCopyOp::verify() {
  BufferType buffer = getBuffer().getType();
  FailureOr<ArrayRef<int64_t>> slot = slotShape(*this, buffer);
  if (failed(slot))
    return failure();
  auto ptrType =
      cast<tle::PointerType>(getElementTypeOrSelf(getPtr().getType()));
  if (ptrType.getPointeeType() != buffer.getElementType())
    return emitOpError() << "copies " << ptrType.getPointeeType()
                         << " into a buffer of " << buffer.getElementType();
  if (shapeOf(getPtr().getType()) != *slot)
    return emitOpError() << "pointer shape does not match a slot of " << buffer;
  if (getMask() && shapeOf(getMask().getType()) != *slot)
    return emitOpError() << "mask shape does not match the pointers";
  return success();
}

LogicalResult BarrierInvalOp::verify() {
  // The lowering invalidates as many barriers as the allocation made.
  for (Value barrier : getBarriers())
    if (!barrier.getDefiningOp<BarrierAllocOp>())
      return emitOpError("needs barriers from tle_struct.barrier_alloc");
  return success();
}

LogicalResult TensorMapOp::verify() {
  ArrayRef<int64_t> box = getBox();
  if (box.empty() || box.size() != getShape().size())
    return emitOpError() << "box of rank " << box.size()
                         << " for a tensor of rank " << getShape().size();
  if (llvm::any_of(box, [](int64_t size) { return size < 1; }))
    return emitOpError("box sizes must be positive");
  if (!llvm::is_contained({0, 32, 64, 128}, getSwizzle()))
    return emitOpError() << "swizzle of " << getSwizzle()
                         << " bytes (0, 32, 64 or 128)";
  auto map = cast<tle::PointerType>(getMap().getType());
  if (!map.isGlobal() || !map.getPointeeType().isInteger(8))
    return emitOpError("the map is a global !tle.ptr<i8>");
  return success();
}

LogicalResult AsyncTensorCopyOp::verify() {
  BufferType buffer = getBuffer().getType();
  FailureOr<ArrayRef<int64_t>> slot = slotShape(*this, buffer);
  if (failed(slot))
    return failure();
  if (getIndices().size() != slot->size())
    return emitOpError() << getIndices().size()
                         << " indices for a slot of rank " << slot->size();
  if (getTransposed() && slot->size() != 2)
    return emitOpError("only a 2-D tile lands transposed");
  LayoutAttr layout = buffer.getLayout();
  if (!layout || layout.getSwizzle() == 0 || layout.getPadInterval() != 0)
    return emitOpError("copies into swizzled buffers without padding only");
  return success();
}

/// `tile` (the op's `role`: its result or stored value) must be one slot of
/// `buffer`: the slot's shape and the buffer's element type.
static LogicalResult verifyTileIsSlot(Operation *op, StringRef role, Type tile,
                                      BufferType buffer) {
  FailureOr<ArrayRef<int64_t>> slot = slotShape(op, buffer);
  if (failed(slot))
    return failure();
  auto tensor = cast<RankedTensorType>(tile);
  if (tensor.getShape() != *slot ||
      tensor.getElementType() != buffer.getElementType())
    return op->emitOpError()
           << role << " " << tensor << " is not a slot of " << buffer;
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifyTileIsSlot(*this, "result", getResult().getType(),
                          getBuffer().getType());
}

LogicalResult LocalStoreOp::verify() {
  return verifyTileIsSlot(*this, "value", getValue().getType(),
                          getBuffer().getType());
}

LogicalResult LocalDotOp::verify() {
  FailureOr<ArrayRef<int64_t>> a;
  if (auto buffer = dyn_cast<BufferType>(getA().getType())) {
    if (!getASlot())
      return emitOpError("an operand A in a buffer needs a slot");
    a = slotShape(*this, buffer);
  } else {
    if (getASlot())
      return emitOpError("an operand A in registers takes no slot");
    a = cast<RankedTensorType>(getA().getType()).getShape();
  }
  FailureOr<ArrayRef<int64_t>> b = slotShape(*this, getB().getType());
  if (failed(a) || failed(b))
    return failure();
  auto c = cast<RankedTensorType>(getC().getType());
  if (a->size() != 2 || b->size() != 2 || c.getRank() != 2 ||
      (*a)[1] != (*b)[0] || (*a)[0] != c.getDimSize(0) ||
      (*b)[1] != c.getDimSize(1))
    return emitOpError() << "slots " << getA().getType() << " and "
                         << getB().getType() << " do not multiply into " << c;
  if (getD().getType() != c)
    return emitOpError() << "result type must be the accumulator's, " << c;
  return success();
}

LogicalResult ToTensorOp::verify() {
  BufferType bufferType = getBuffer().getType();
  auto resultType = getResult().getType();
  if (resultType.getShape() != bufferType.getShape() ||
      resultType.getElementType() != bufferType.getElementType())
    return emitOpError() << "result must have the buffer's shape and element "
                            "type";
  return success();
}

LogicalResult ToBufferOp::verify() {
  BufferType bufferType = getBuffer().getType();
  auto srcType = getSrc().getType();
  if (srcType.getShape() != bufferType.getShape() ||
      srcType.getElementType() != bufferType.getElementType())
    return emitOpError() << "buffer must have the tile's shape and element "
                            "type";
  return success();
}

LogicalResult UnitIdOp::verify() {
  if (!(*this)->getParentOfType<ParallelOp>())
    return emitOpError() << "must be nested in a tle_struct.parallel region";
  return success();
}

Region *WarpSpecializeOp::getPartitionOf(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentRegion())
    if (isa_and_nonnull<WarpSpecializeOp>(region->getParentOp()))
      return region;
  return nullptr;
}

LogicalResult WarpSpecializeOp::verify() {
  ArrayRef<int32_t> numWarps = getPartitionNumWarps();
  if (numWarps.size() != getPartitions().size())
    return emitOpError() << "has " << getPartitions().size()
                         << " partitions but " << numWarps.size()
                         << " warp counts";
  if (numWarps.empty())
    return emitOpError() << "needs at least one partition";
  for (int32_t n : numWarps)
    if (n <= 0)
      return emitOpError() << "warp counts must be positive";
  return success();
}
