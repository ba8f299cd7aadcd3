//===- TLELayouts.cpp - Layout encodings of tle tensors -------------------===//
//
// Verifiers and the (lane, warp, register) -> tensor index mapping of the
// blocked and slice layouts, the shared layout's verifier, and
// tle.convert_layout.
//
//===----------------------------------------------------------------------===//

#include "dialects/TLE/TLEDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tle;

#include "dialects/TLE/TLELayoutInterfaces.cpp.inc"

SmallVector<unsigned> mlir::tle::delinearize(unsigned linear,
                                             ArrayRef<unsigned> sizes,
                                             ArrayRef<unsigned> order) {
  SmallVector<unsigned> coords(sizes.size(), 0);
  for (unsigned dim : order) {
    coords[dim] = linear % sizes[dim];
    linear /= sizes[dim];
  }
  return coords;
}

unsigned mlir::tle::linearize(ArrayRef<unsigned> coords,
                              ArrayRef<unsigned> sizes,
                              ArrayRef<unsigned> order) {
  unsigned linear = 0;
  for (unsigned dim : llvm::reverse(order))
    linear = linear * sizes[dim] + coords[dim];
  return linear;
}

DistributedLayoutAttrInterface mlir::tle::getDistributedLayout(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<DistributedLayoutAttrInterface>(
        tensor.getEncoding());
  return {};
}

static LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<unsigned> order, size_t rank) {
  if (order.size() != rank)
    return emitError() << "order has " << order.size()
                       << " entries, expected " << rank;
  SmallVector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[dim] = true;
  }
  return success();
}

static unsigned product(ArrayRef<unsigned> values) {
  unsigned result = 1;
  for (unsigned v : values)
    result *= v;
  return result;
}

//===----------------------------------------------------------------------===//
// BlockedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<unsigned> sizePerThread,
                          ArrayRef<unsigned> threadsPerWarp,
                          ArrayRef<unsigned> warpsPerCTA,
                          ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank == 0)
    return emitError() << "blocked layout must have rank at least 1";
  if (threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp and warpsPerCTA "
                          "must have the same number of entries";
  for (auto [name, values] :
       {std::pair<StringRef, ArrayRef<unsigned>>{"sizePerThread",
                                                 sizePerThread},
        {"threadsPerWarp", threadsPerWarp},
        {"warpsPerCTA", warpsPerCTA}})
    for (unsigned v : values)
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << name << " entries must be powers of two, got "
                           << v;
  return verifyOrder(emitError, order, rank);
}

LogicalResult BlockedLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getRank())
    return emitError() << "blocked layout of rank " << getRank()
                       << " on a tensor of rank " << shape.size();
  return success();
}

unsigned BlockedLayoutAttr::getRank() const {
  return getSizePerThread().size();
}
unsigned BlockedLayoutAttr::getWarpSize() const {
  return product(getThreadsPerWarp());
}
unsigned BlockedLayoutAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}
SmallVector<unsigned> BlockedLayoutAttr::getRegisterOrder() const {
  return SmallVector<unsigned>(getOrder());
}

SmallVector<int64_t> BlockedLayoutAttr::getShapePerTile() const {
  SmallVector<int64_t> tile;
  for (unsigned d = 0, e = getRank(); d < e; ++d)
    tile.push_back(int64_t(getSizePerThread()[d]) * getThreadsPerWarp()[d] *
                   getWarpsPerCTA()[d]);
  return tile;
}

SmallVector<unsigned>
BlockedLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> tile = getShapePerTile();
  SmallVector<unsigned> elems;
  for (unsigned d = 0, e = getRank(); d < e; ++d)
    elems.push_back(getSizePerThread()[d] *
                    std::max<int64_t>(1, llvm::divideCeil(shape[d], tile[d])));
  return elems;
}

SmallVector<int64_t> BlockedLayoutAttr::getTensorIndex(ArrayRef<int64_t> shape,
                                                       unsigned lane,
                                                       unsigned warp,
                                                       unsigned reg) const {
  SmallVector<unsigned> laneCoords =
      delinearize(lane, getThreadsPerWarp(), getOrder());
  SmallVector<unsigned> warpCoords =
      delinearize(warp, getWarpsPerCTA(), getOrder());
  SmallVector<unsigned> regCoords =
      delinearize(reg, getElemsPerThread(shape), getOrder());
  SmallVector<int64_t> tile = getShapePerTile();
  SmallVector<int64_t> index;
  for (unsigned d = 0, e = getRank(); d < e; ++d) {
    unsigned spt = getSizePerThread()[d];
    int64_t i = int64_t(regCoords[d] / spt) * tile[d] +
                int64_t(warpCoords[d] * getThreadsPerWarp()[d] +
                        laneCoords[d]) *
                    spt +
                regCoords[d] % spt;
    index.push_back(i % shape[d]);
  }
  return index;
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, DistributedLayoutAttrInterface parent) {
  if (!parent)
    return emitError() << "slice parent must be a distributed layout";
  if (parent.getRank() < 2)
    return emitError() << "slice parent must have rank at least 2, got "
                       << parent.getRank();
  if (dim >= parent.getRank())
    return emitError() << "slice dimension " << dim
                       << " out of range for a parent of rank "
                       << parent.getRank();
  return success();
}

LogicalResult SliceLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getRank())
    return emitError() << "slice layout of rank " << getRank()
                       << " on a tensor of rank " << shape.size();
  return success();
}

unsigned SliceLayoutAttr::getRank() const { return getParent().getRank() - 1; }
unsigned SliceLayoutAttr::getWarpSize() const {
  return getParent().getWarpSize();
}
unsigned SliceLayoutAttr::getNumWarps() const {
  return getParent().getNumWarps();
}

SmallVector<int64_t>
SliceLayoutAttr::getParentShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + getDim(), 1);
  return parentShape;
}

SmallVector<unsigned> SliceLayoutAttr::getRegisterOrder() const {
  SmallVector<unsigned> order;
  for (unsigned d : getParent().getRegisterOrder())
    if (d != getDim())
      order.push_back(d > getDim() ? d - 1 : d);
  return order;
}

SmallVector<unsigned>
SliceLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  SmallVector<unsigned> elems =
      getParent().getElemsPerThread(getParentShape(shape));
  elems.erase(elems.begin() + getDim());
  return elems;
}

SmallVector<int64_t> SliceLayoutAttr::getTensorIndex(ArrayRef<int64_t> shape,
                                                     unsigned lane,
                                                     unsigned warp,
                                                     unsigned reg) const {
  SmallVector<int64_t> parentShape = getParentShape(shape);
  SmallVector<unsigned> coords =
      delinearize(reg, getElemsPerThread(shape), getRegisterOrder());
  coords.insert(coords.begin() + getDim(), 0);
  unsigned parentReg =
      linearize(coords, getParent().getElemsPerThread(parentShape),
                getParent().getRegisterOrder());
  SmallVector<int64_t> index =
      getParent().getTensorIndex(parentShape, lane, warp, parentReg);
  index.erase(index.begin() + getDim());
  return index;
}

//===----------------------------------------------------------------------===//
// SharedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         unsigned vec, unsigned perPhase, unsigned maxPhase,
                         ArrayRef<unsigned> order) {
  if (vec == 0 || perPhase == 0 || maxPhase == 0)
    return emitError() << "vec, perPhase and maxPhase must be at least 1";
  if (order.empty())
    return emitError() << "shared layout must have rank at least 1";
  return verifyOrder(emitError, order, order.size());
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (!getDistributedLayout(srcType) || !getDistributedLayout(resultType))
    return emitOpError("operand and result need distributed layout encodings");
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  if (auto producer = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (producer.getSrc().getType() == getResult().getType())
      return producer.getSrc();
    getSrcMutable().assign(producer.getSrc());
    return getResult();
  }
  return {};
}
