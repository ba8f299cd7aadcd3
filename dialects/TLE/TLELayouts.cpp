//===- TLELayouts.cpp - Layout encodings of tle tensors -------------------===//
//
// Verifiers and the (lane, warp, register) -> tensor index mapping of the
// blocked, slice and linear layouts, the shared layout's verifier, and
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

int64_t mlir::tle::getRowMajorOffset(ArrayRef<int64_t> index,
                                     ArrayRef<int64_t> shape) {
  int64_t offset = 0;
  for (auto [i, size] : llvm::zip_equal(index, shape))
    offset = offset * size + i;
  return offset;
}

SmallVector<int64_t> mlir::tle::getRowMajorIndex(int64_t offset,
                                                 ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    index[d] = offset % shape[d];
    offset /= shape[d];
  }
  return index;
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

BlockedLayoutAttr
BlockedLayoutAttr::getTransposed(ArrayRef<int32_t> order) const {
  unsigned rank = getRank();
  SmallVector<unsigned> spt(rank), tpw(rank), wpc(rank), position(rank);
  for (unsigned k = 0; k < rank; ++k) {
    spt[k] = getSizePerThread()[order[k]];
    tpw[k] = getThreadsPerWarp()[order[k]];
    wpc[k] = getWarpsPerCTA()[order[k]];
    position[order[k]] = k;
  }
  // The same dimensions fastest first, by their new positions.
  SmallVector<unsigned> fastest;
  for (unsigned d : getOrder())
    fastest.push_back(position[d]);
  return BlockedLayoutAttr::get(getContext(), spt, tpw, wpc, fastest);
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
// LinearLayoutAttr
//===----------------------------------------------------------------------===//

/// Parses `[[a, b], [c, d]]` into a flat list; every inner list must have
/// `rank` entries.
static ParseResult parseBases(AsmParser &parser, unsigned rank,
                              SmallVectorImpl<int64_t> &flat) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SMLoc loc = parser.getCurrentLocation();
        size_t before = flat.size();
        if (parser.parseCommaSeparatedList(
                AsmParser::Delimiter::Square, [&]() -> ParseResult {
                  return parser.parseInteger(flat.emplace_back());
                }))
          return failure();
        if (flat.size() - before != rank)
          return parser.emitError(loc) << "basis must have " << rank
                                       << " entries, one per dimension";
        return success();
      });
}

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> shape, regs, lanes, warps;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword("shape") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        return parser.parseInteger(shape.emplace_back());
      }))
    return {};
  unsigned rank = shape.size();
  for (auto [keyword, bases] :
       {std::pair<StringRef, SmallVector<int64_t> *>{"regs", &regs},
        {"lanes", &lanes},
        {"warps", &warps}})
    if (parser.parseComma() || parser.parseKeyword(keyword) ||
        parser.parseEqual() || parseBases(parser, rank, *bases))
      return {};
  if (parser.parseGreater())
    return {};
  return LinearLayoutAttr::getChecked(
      [&] { return parser.emitError(loc); }, parser.getContext(),
      ArrayRef<int64_t>(shape), ArrayRef<int64_t>(regs),
      ArrayRef<int64_t>(lanes), ArrayRef<int64_t>(warps));
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  unsigned rank = getShape().size();
  auto printBases = [&](ArrayRef<int64_t> flat) {
    printer << '[';
    for (unsigned i = 0, e = flat.size() / rank; i < e; ++i) {
      if (i)
        printer << ", ";
      printer << '[';
      llvm::interleaveComma(getBasis(flat, i), printer);
      printer << ']';
    }
    printer << ']';
  };
  printer << "<shape = [";
  llvm::interleaveComma(getShape(), printer);
  printer << "], regs = ";
  printBases(getRegBases());
  printer << ", lanes = ";
  printBases(getLaneBases());
  printer << ", warps = ";
  printBases(getWarpBases());
  printer << '>';
}

/// The dimension a register basis moves along; -1 if it is zero or moves
/// along several.
static int basisDim(ArrayRef<int64_t> basis) {
  int dim = -1;
  for (auto [d, v] : llvm::enumerate(basis)) {
    if (v == 0)
      continue;
    if (dim >= 0)
      return -1;
    dim = d;
  }
  return dim;
}

LogicalResult
LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, ArrayRef<int64_t> regBases,
                         ArrayRef<int64_t> laneBases,
                         ArrayRef<int64_t> warpBases) {
  size_t rank = shape.size();
  if (rank == 0)
    return emitError() << "linear layout must have rank at least 1";
  for (int64_t d : shape)
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return emitError() << "linear layout shape entries must be powers of "
                            "two, got "
                         << d;
  for (ArrayRef<int64_t> bases : {regBases, laneBases, warpBases}) {
    if (bases.size() % rank)
      return emitError() << "bases must have " << rank << " entries each";
    for (size_t i = 0; i < bases.size(); ++i) {
      int64_t v = bases[i];
      if (v < 0 || v >= shape[i % rank] || (v && !llvm::isPowerOf2_64(v)))
        return emitError() << "basis entries must be zero or powers of two "
                              "inside the shape, got "
                           << v;
    }
  }
  // Registers form a grid: each basis along one dimension, grouped.
  SmallVector<bool> done(rank, false);
  int current = -1;
  for (size_t i = 0; i < regBases.size() / rank; ++i) {
    int dim = basisDim(regBases.slice(i * rank, rank));
    if (dim < 0)
      return emitError() << "register basis " << i
                         << " must move along exactly one dimension";
    if (dim != current) {
      if (done[dim])
        return emitError() << "register bases of dimension " << dim
                           << " must be adjacent";
      if (current >= 0)
        done[current] = true;
      current = dim;
    }
  }
  return success();
}

bool LinearLayoutAttr::appliesTo(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return false;
  for (auto [mine, theirs] : llvm::zip(getShape(), shape))
    if (theirs != mine && theirs != 1)
      return false;
  return true;
}

LinearLayoutAttr LinearLayoutAttr::getForShape(ArrayRef<int64_t> shape) const {
  if (shape == getShape())
    return *this;
  assert(appliesTo(shape) && "linear layout does not apply to this shape");
  unsigned rank = getRank();
  SmallVector<int64_t> regs;
  for (unsigned i = 0, e = getRegBases().size() / rank; i < e; ++i) {
    ArrayRef<int64_t> basis = getBasis(getRegBases(), i);
    if (shape[basisDim(basis)] != 1)
      llvm::append_range(regs, basis);
  }
  auto withoutCollapsed = [&](ArrayRef<int64_t> bases) {
    SmallVector<int64_t> kept(bases);
    for (size_t i = 0; i < kept.size(); ++i)
      if (shape[i % rank] == 1)
        kept[i] = 0;
    return kept;
  };
  return LinearLayoutAttr::get(getContext(), shape, regs,
                               withoutCollapsed(getLaneBases()),
                               withoutCollapsed(getWarpBases()));
}

/// The bases of `layout`'s list `flat`, each through `move`.
static SmallVector<SmallVector<int64_t>>
mapBases(LinearLayoutAttr layout, ArrayRef<int64_t> flat,
         function_ref<SmallVector<int64_t>(ArrayRef<int64_t>)> move) {
  SmallVector<SmallVector<int64_t>> out;
  for (unsigned i = 0, e = flat.size() / layout.getRank(); i < e; ++i)
    out.push_back(move(layout.getBasis(flat, i)));
  return out;
}

/// A layout of `shape` from lists of bases; the register bases regrouped by
/// dimension (in the order the dimensions first appear), as the verifier
/// wants them.
static LinearLayoutAttr makeLinearLayout(MLIRContext *ctx,
                                         ArrayRef<int64_t> shape,
                                         ArrayRef<SmallVector<int64_t>> regs,
                                         ArrayRef<SmallVector<int64_t>> lanes,
                                         ArrayRef<SmallVector<int64_t>> warps) {
  SmallVector<int> dims;
  for (const auto &basis : regs) {
    int dim = basisDim(basis);
    if (dim < 0)
      return {};
    if (!llvm::is_contained(dims, dim))
      dims.push_back(dim);
  }
  SmallVector<int64_t> flatRegs, flatLanes, flatWarps;
  for (int dim : dims)
    for (const auto &basis : regs)
      if (basisDim(basis) == dim)
        llvm::append_range(flatRegs, basis);
  for (const auto &basis : lanes)
    llvm::append_range(flatLanes, basis);
  for (const auto &basis : warps)
    llvm::append_range(flatWarps, basis);
  return LinearLayoutAttr::get(ctx, shape, flatRegs, flatLanes, flatWarps);
}

LinearLayoutAttr LinearLayoutAttr::getReshaped(ArrayRef<int64_t> shape) const {
  ArrayRef<int64_t> from = getShape();
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return {};
    count *= d;
  }
  int64_t fromCount = 1;
  for (int64_t d : from)
    fromCount *= d;
  if (count != fromCount)
    return {};
  // Powers of two: a row-major offset is the dimensions' bits side by side,
  // so a basis (one bit) stays one bit and xors of bases are kept.
  auto move = [&](ArrayRef<int64_t> basis) {
    return getRowMajorIndex(getRowMajorOffset(basis, from), shape);
  };
  return makeLinearLayout(getContext(), shape,
                          mapBases(*this, getRegBases(), move),
                          mapBases(*this, getLaneBases(), move),
                          mapBases(*this, getWarpBases(), move));
}

LinearLayoutAttr
LinearLayoutAttr::getTransposed(ArrayRef<int32_t> order) const {
  auto move = [&](ArrayRef<int64_t> basis) {
    SmallVector<int64_t> out;
    for (int32_t d : order)
      out.push_back(basis[d]);
    return out;
  };
  return makeLinearLayout(getContext(), move(getShape()),
                          mapBases(*this, getRegBases(), move),
                          mapBases(*this, getLaneBases(), move),
                          mapBases(*this, getWarpBases(), move));
}

LinearLayoutAttr LinearLayoutAttr::getSplit() const {
  unsigned rank = getRank();
  if (rank < 2 || getShape().back() != 2)
    return {};
  auto drop = [](ArrayRef<int64_t> basis) {
    return SmallVector<int64_t>(basis.drop_back());
  };
  SmallVector<SmallVector<int64_t>> regs;
  for (unsigned i = 0, e = getRegBases().size() / rank; i < e; ++i) {
    ArrayRef<int64_t> basis = getBasis(getRegBases(), i);
    if (basis.back() == 0)
      regs.push_back(drop(basis));
  }
  // A lane or warp bit that selects the half would move elements between
  // threads.
  for (ArrayRef<int64_t> bases : {getLaneBases(), getWarpBases()})
    for (unsigned i = 0, e = bases.size() / rank; i < e; ++i)
      if (getBasis(bases, i).back() != 0)
        return {};
  return makeLinearLayout(getContext(), drop(getShape()), regs,
                          mapBases(*this, getLaneBases(), drop),
                          mapBases(*this, getWarpBases(), drop));
}

LinearLayoutAttr LinearLayoutAttr::getJoined() const {
  auto extend = [](ArrayRef<int64_t> basis) {
    SmallVector<int64_t> out(basis);
    out.push_back(0);
    return out;
  };
  SmallVector<int64_t> shape = extend(getShape());
  shape.back() = 2;
  SmallVector<SmallVector<int64_t>> regs{SmallVector<int64_t>(shape.size())};
  regs.front().back() = 1;
  llvm::append_range(regs, mapBases(*this, getRegBases(), extend));
  return makeLinearLayout(getContext(), shape, regs,
                          mapBases(*this, getLaneBases(), extend),
                          mapBases(*this, getWarpBases(), extend));
}

LogicalResult LinearLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (!appliesTo(shape))
    return emitError() << "linear layout for a tensor of shape [" << getShape()
                       << "] (or 1 in any dimension) on a "
                       << "tensor of shape [" << shape << "]";
  return success();
}

unsigned LinearLayoutAttr::getRank() const { return getShape().size(); }
unsigned LinearLayoutAttr::getWarpSize() const {
  return 1u << (getLaneBases().size() / getRank());
}
unsigned LinearLayoutAttr::getNumWarps() const {
  return 1u << (getWarpBases().size() / getRank());
}

SmallVector<unsigned> LinearLayoutAttr::getRegisterOrder() const {
  unsigned rank = getRank();
  SmallVector<unsigned> order;
  for (unsigned i = 0, e = getRegBases().size() / rank; i < e; ++i) {
    unsigned dim = basisDim(getBasis(getRegBases(), i));
    if (!llvm::is_contained(order, dim))
      order.push_back(dim);
  }
  for (unsigned d = rank; d > 0; --d)
    if (!llvm::is_contained(order, d - 1))
      order.push_back(d - 1);
  return order;
}

SmallVector<unsigned>
LinearLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  unsigned rank = getRank();
  SmallVector<unsigned> elems(rank, 1);
  for (unsigned i = 0, e = getRegBases().size() / rank; i < e; ++i) {
    unsigned dim = basisDim(getBasis(getRegBases(), i));
    if (shape[dim] != 1)
      elems[dim] *= 2;
  }
  return elems;
}

/// Xor of the bases selected by the set bits of `bits`.
static void xorBases(LinearLayoutAttr layout, ArrayRef<int64_t> bases,
                     unsigned bits, SmallVectorImpl<int64_t> &index) {
  for (unsigned i = 0, e = bases.size() / layout.getRank(); i < e; ++i)
    if (bits & (1u << i))
      for (auto [d, v] : llvm::enumerate(layout.getBasis(bases, i)))
        index[d] ^= v;
}

SmallVector<int64_t> LinearLayoutAttr::getTensorIndex(ArrayRef<int64_t> shape,
                                                      unsigned lane,
                                                      unsigned warp,
                                                      unsigned reg) const {
  SmallVector<int64_t> index(getRank(), 0);
  if (shape == getShape()) {
    xorBases(*this, getRegBases(), reg, index);
  } else {
    // As getForShape(shape) would, without making that attribute (this
    // runs per lane, warp and register): register bits number the bases of
    // the dimensions `shape` keeps, and size-1 dimensions stay at 0.
    unsigned bit = 0;
    for (unsigned i = 0, e = getRegBases().size() / getRank(); i < e; ++i) {
      ArrayRef<int64_t> basis = getBasis(getRegBases(), i);
      if (shape[basisDim(basis)] == 1)
        continue;
      if (reg & (1u << bit))
        for (auto [d, v] : llvm::enumerate(basis))
          index[d] ^= v;
      ++bit;
    }
  }
  xorBases(*this, getLaneBases(), lane, index);
  xorBases(*this, getWarpBases(), warp, index);
  for (auto [i, size] : llvm::zip(index, shape))
    if (size == 1)
      i = 0;
  return index;
}

SmallVector<SmallVector<int64_t>> LinearLayoutAttr::getRegisterOffsets() const {
  SmallVector<SmallVector<int64_t>> offsets;
  unsigned count = 1u << (getRegBases().size() / getRank());
  for (unsigned reg = 0; reg < count; ++reg)
    offsets.push_back(getTensorIndex(getShape(), 0, 0, reg));
  return offsets;
}

bool mlir::tle::haveSameMapping(DistributedLayoutAttrInterface a,
                                DistributedLayoutAttrInterface b,
                                ArrayRef<int64_t> shape) {
  unsigned n = a.getTotalElemsPerThread(shape);
  if (n != b.getTotalElemsPerThread(shape) ||
      a.getWarpSize() != b.getWarpSize() || a.getNumWarps() != b.getNumWarps())
    return false;
  for (unsigned warp = 0; warp < a.getNumWarps(); ++warp)
    for (unsigned lane = 0; lane < a.getWarpSize(); ++lane)
      for (unsigned reg = 0; reg < n; ++reg)
        if (a.getTensorIndex(shape, lane, warp, reg) !=
            b.getTensorIndex(shape, lane, warp, reg))
          return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Reduction partners
//===----------------------------------------------------------------------===//

// Layouts are linear over the bits of the ids (tensor shapes are powers of
// two), so where one bit moves lane 0 of warp 0 tells for every thread.
FailureOr<AxisBits>
mlir::tle::getAxisBits(DistributedLayoutAttrInterface layout,
                       ArrayRef<int64_t> shape, unsigned axis) {
  if (!layout)
    return failure();
  SmallVector<int64_t> origin = layout.getTensorIndex(shape, 0, 0, 0);
  AxisBits bits;
  auto classify = [&](unsigned count, auto indexOfBit,
                      SmallVectorImpl<unsigned> &out) -> LogicalResult {
    for (unsigned bit = 0; (1u << bit) < count; ++bit) {
      SmallVector<int64_t> index = indexOfBit(1u << bit);
      bool alongAxis = index[axis] != origin[axis], elsewhere = false;
      for (unsigned d = 0; d < index.size(); ++d)
        elsewhere |= d != axis && index[d] != origin[d];
      if (alongAxis && elsewhere)
        return failure();
      if (alongAxis)
        out.push_back(bit);
    }
    return success();
  };
  if (failed(classify(
          layout.getWarpSize(),
          [&](unsigned lane) {
            return layout.getTensorIndex(shape, lane, 0, 0);
          },
          bits.Lanes)) ||
      failed(classify(
          layout.getNumWarps(),
          [&](unsigned warp) {
            return layout.getTensorIndex(shape, 0, warp, 0);
          },
          bits.Warps)))
    return failure();
  return bits;
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
