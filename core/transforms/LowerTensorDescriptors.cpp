//===- LowerTensorDescriptors.cpp - Descriptor tiles as masked pointers ---===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tl.make_tensor_descriptor describes a strided tensor in global memory;
// desc.load / desc.store move one block_shape tile at element offsets, and
// the elements outside the tensor (any coordinate below 0 or at least the
// dimension's size) read as the padding and are not written; an access with
// a boundary_check (a block pointer's) checks only the dimensions it lists. The
// pointers and the mask are built dimension by dimension on 1-D ranges and then
// broadcast, the form a kernel author writes by hand (offs_m[:, None] *
// stride + offs_n[None, :]), so that the axis analysis finds the unit stride
// and the alignment as it does for pointer kernels.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/AxisInfo.h"
#include "core/transforms/Passes.h"
#include "core/transforms/TensorDescriptors.h"
#include "core/transforms/TileBroadcast.h"

#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include "llvm/ADT/APFloat.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERTENSORDESCRIPTORS
#include "core/transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

struct TileAccess {
  Value Pointers;
  Value Mask;
};

/// Which dimensions of an access's block its mask checks: those its
/// boundary_check lists, else all.
template <typename AccessOp> SmallVector<bool> getCheckedDims(AccessOp Access) {
  int64_t Rank = Access.getDesc().getType().getBlockType().getRank();
  std::optional<ArrayRef<int32_t>> Dims = Access.getBoundaryCheck();
  SmallVector<bool> Checked(Rank, !Dims);
  if (Dims)
    for (int32_t D : *Dims)
      Checked[D] = true;
  return Checked;
}

/// The pointers of the tile at Offsets and the mask of its elements inside
/// the described tensor along the Checked dimensions (null when none is);
/// with a Layout (2-D tiles), in that layout. The pointers are the tile's
/// first element (scalar arithmetic) plus offsets within the tile that do
/// not depend on Offsets: in a loop they are computed once (loop-invariant
/// code motion) and each iteration adds a scalar, not a 64-bit product per
/// element.
TileAccess buildTileAccess(OpBuilder &B, Location Loc, MakeTensorDescOp Desc,
                           ValueRange Offsets, ArrayRef<bool> Checked,
                           Attribute Layout = {}) {
  RankedTensorType Block = Desc.getResult().getType().getBlockType();
  ArrayRef<int64_t> Shape = Block.getShape();
  Type I32 = B.getI32Type(), I64 = B.getI64Type();
  Value Start, TileOffsets, Mask;
  for (unsigned D = 0; D < Shape.size(); ++D) {
    Attribute Slice;
    if (Layout)
      Slice = SliceLayoutAttr::get(
          B.getContext(), 1 - D, cast<DistributedLayoutAttrInterface>(Layout));
    auto Range1D = RankedTensorType::get({Shape[D]}, I32, Slice);
    Value Range = MakeRangeOp::create(B, Loc, Range1D, B.getI32IntegerAttr(0),
                                      B.getI32IntegerAttr(int32_t(Shape[D])));
    Value Coords = arith::AddIOp::create(
        B, Loc, SplatOp::create(B, Loc, Range1D, Offsets[D]), Range);
    Value Zero = arith::ConstantOp::create(
        B, Loc, DenseElementsAttr::get(Range1D, B.getI32IntegerAttr(0)));
    Value Size = SplatOp::create(B, Loc, Range1D, Desc.getShape()[D]);
    Value Inside = arith::AndIOp::create(
        B, Loc,
        arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::sge, Coords, Zero),
        arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::slt, Coords, Size));
    Value Stride = Desc.getStrides()[D];
    Value Scalar = arith::MulIOp::create(
        B, Loc, arith::ExtSIOp::create(B, Loc, I64, Offsets[D]), Stride);
    Start = Start ? arith::AddIOp::create(B, Loc, Start, Scalar).getResult()
                  : Scalar;
    auto Wide1D = RankedTensorType::get({Shape[D]}, I64, Slice);
    Value Scaled = arith::MulIOp::create(
        B, Loc, arith::ExtSIOp::create(B, Loc, Wide1D, Range),
        SplatOp::create(B, Loc, Wide1D, Stride));
    Scaled = broadcastAlongDim(B, Loc, Scaled, D, Shape, Layout);
    Inside = broadcastAlongDim(B, Loc, Inside, D, Shape, Layout);
    TileOffsets =
        TileOffsets
            ? arith::AddIOp::create(B, Loc, TileOffsets, Scaled).getResult()
            : Scaled;
    if (Checked[D])
      Mask = Mask ? arith::AndIOp::create(B, Loc, Mask, Inside).getResult()
                  : Inside;
  }
  Type PtrType = Desc.getBase().getType();
  Value First = AddPtrOp::create(B, Loc, PtrType, Desc.getBase(), Start);
  auto PtrTile = RankedTensorType::get(Shape, PtrType, Layout);
  Value Pointers = AddPtrOp::create(
      B, Loc, PtrTile, SplatOp::create(B, Loc, PtrTile, First), TileOffsets);
  return {Pointers, Mask};
}

/// The value masked-off elements of a load read as.
FailureOr<Value> buildPadding(OpBuilder &B, Location Loc, MakeTensorDescOp Desc,
                              Operation *User, Attribute Layout = {}) {
  RankedTensorType Block = Desc.getResult().getType().getBlockType();
  Type Elem = Block.getElementType();
  Block = RankedTensorType::get(Block.getShape(), Elem, Layout);
  if (Desc.getPadding() == PaddingOption::NaN) {
    auto Float = dyn_cast<FloatType>(Elem);
    if (!Float)
      return User->emitError()
             << "padding_option 'nan' needs a floating-point descriptor, not "
             << Elem;
    return Value(arith::ConstantOp::create(
        B, Loc,
        DenseElementsAttr::get(
            Block, FloatAttr::get(
                       Float, APFloat::getQNaN(Float.getFloatSemantics())))));
  }
  return Value(arith::ConstantOp::create(
      B, Loc, DenseElementsAttr::get(Block, B.getZeroAttr(Elem))));
}

FailureOr<MakeTensorDescOp> getDescriptor(Operation *User, Value Desc) {
  if (auto Make = Desc.getDefiningOp<MakeTensorDescOp>())
    return Make;
  return User->emitError(
      "this tensor descriptor must come from tl.make_tensor_descriptor in "
      "the same kernel: descriptors passed as arguments or carried through "
      "loops and branches are not supported");
}

/// Whether a tensor copy may stage `Load` for a matrix unit (see the pass
/// description): the conditions the copy's hardware sets (alignment, a
/// contiguous last dimension, rows whole panels of a swizzle and slots of
/// whole swizzle periods) where the tile IR proves them, and a tile that
/// software pipelining stages for a tl.dot.
bool isTensorCopyCandidate(DescriptorLoadOp Load, MakeTensorDescOp Desc,
                           const AxisInfoResult &Axis) {
  RankedTensorType Block = Desc.getResult().getType().getBlockType();
  Type Elem = Block.getElementType();
  unsigned ElemBits = Elem.isIntOrFloat() ? Elem.getIntOrFloatBitWidth() : 0;
  if (Block.getRank() != 2 ||
      (ElemBits != 8 && ElemBits != 16 && ElemBits != 32) ||
      Desc.getPadding() != PaddingOption::Zero ||
      llvm::is_contained(getCheckedDims(Load), false))
    return false;
  // Rows of whole swizzle panels in slots of whole swizzle periods (the
  // ring's slots stay aligned to them), rows a box may have.
  if (getOperandSwizzle(Block, 1) == 0 || Block.getDimSize(0) % 8 != 0 ||
      Block.getDimSize(0) > 256)
    return false;
  // The maps live in a kernel's scratch, written once where the descriptor
  // is made: outside every loop around the load (a persistent kernel's tile
  // loop included, whose inner loops set their slots' barriers up again per
  // tile); the block's first thread, which wrote them, issues the copies
  // (not a warp_specialize partition's).
  auto Loop = dyn_cast<scf::ForOp>(Load->getParentOp());
  auto Func = Load->getParentOfType<FunctionOpInterface>();
  if (!Loop || !Func || Func.isPrivate() ||
      Load->getParentOfType<tle_struct::WarpSpecializeOp>())
    return false;
  for (Operation *Outer = Loop; Outer && Outer != Func;
       Outer = Outer->getParentOp())
    if (isa<LoopLikeOpInterface>(Outer) && Outer->isAncestor(Desc))
      return false;
  if (!matchPattern(Desc.getStrides()[1], m_One()))
    return false;
  AxisInfo Base = Axis.lookup(Desc.getBase());
  AxisInfo Stride = Axis.lookup(Desc.getStrides()[0]);
  if (!Base.isInitialized() || Base.getDivisibility(0) % 16 != 0 ||
      !Stride.isInitialized() ||
      Stride.getDivisibility(0) * (ElemBits / 8) % 16 != 0)
    return false;
  return getDotOperandUse(Load).has_value();
}

struct LowerTensorDescriptorsPass
    : public mlir::tle::impl::TLELowerTensorDescriptorsBase<
          LowerTensorDescriptorsPass> {
  using TLELowerTensorDescriptorsBase::TLELowerTensorDescriptorsBase;

  void runOnOperation() override {
    SmallVector<Operation *> Accesses;
    getOperation()->walk([&](Operation *Op) {
      if (isa<DescriptorLoadOp, DescriptorStoreOp>(Op))
        Accesses.push_back(Op);
    });
    std::optional<AxisInfoResult> Axis;
    if (tensorCopies)
      Axis.emplace(getOperation());
    IRRewriter Rewriter(&getContext());
    for (Operation *Op : Accesses) {
      Location Loc = Op->getLoc();
      Rewriter.setInsertionPoint(Op);
      if (auto Load = dyn_cast<DescriptorLoadOp>(Op)) {
        FailureOr<MakeTensorDescOp> Desc = getDescriptor(Op, Load.getDesc());
        if (failed(Desc))
          return signalPassFailure();
        if (Axis && isTensorCopyCandidate(Load, *Desc, *Axis))
          continue;
        if (failed(lowerDescriptorLoad(Rewriter, Load)))
          return signalPassFailure();
        continue;
      }
      auto Store = cast<DescriptorStoreOp>(Op);
      FailureOr<MakeTensorDescOp> Desc = getDescriptor(Op, Store.getDesc());
      if (failed(Desc))
        return signalPassFailure();
      TileAccess Tile = buildTileAccess(
          Rewriter, Loc, *Desc, Store.getIndices(), getCheckedDims(Store));
      StoreOp::create(Rewriter, Loc, Tile.Pointers, Store.getSrc(), Tile.Mask,
                      CacheModifier::None, EvictionPolicy::Normal);
      Rewriter.eraseOp(Op);
    }
    // The descriptors themselves are pure; with their accesses gone nothing
    // reads them.
    SmallVector<MakeTensorDescOp> Makes;
    getOperation()->walk([&](MakeTensorDescOp Make) { Makes.push_back(Make); });
    for (MakeTensorDescOp Make : Makes)
      if (Make->use_empty())
        Rewriter.eraseOp(Make);
  }
};

} // namespace

std::optional<DotOperandUse>
mlir::tle::getDotOperandUse(DescriptorLoadOp Load) {
  if (!Load->hasOneUse())
    return std::nullopt;
  DotOperandUse Result;
  OpOperand *Use = &*Load->getUses().begin();
  if (auto Trans = dyn_cast<TransOp>(Use->getOwner())) {
    if (!Trans->hasOneUse())
      return std::nullopt;
    Result.Trans = Trans;
    Use = &*Trans->getUses().begin();
  }
  Result.Dot = dyn_cast<DotOp>(Use->getOwner());
  if (!Result.Dot || Use->getOperandNumber() >= 2 ||
      Result.Dot->getBlock() != Load->getBlock())
    return std::nullopt;
  return Result;
}

LogicalResult mlir::tle::lowerDescriptorLoad(RewriterBase &Rewriter,
                                             DescriptorLoadOp Load) {
  FailureOr<MakeTensorDescOp> Desc = getDescriptor(Load, Load.getDesc());
  if (failed(Desc))
    return failure();
  Location Loc = Load.getLoc();
  Attribute Layout = Load.getType().getEncoding();
  OpBuilder::InsertionGuard Guard(Rewriter);
  Rewriter.setInsertionPoint(Load);
  FailureOr<Value> Padding = buildPadding(Rewriter, Loc, *Desc, Load, Layout);
  if (failed(Padding))
    return failure();
  TileAccess Tile = buildTileAccess(Rewriter, Loc, *Desc, Load.getIndices(),
                                    getCheckedDims(Load), Layout);
  // Nothing checked, nothing padded.
  Value Other = Tile.Mask ? *Padding : Value();
  Rewriter.replaceOp(Load, LoadOp::create(Rewriter, Loc, Tile.Pointers,
                                          Tile.Mask, Other, CacheModifier::None,
                                          EvictionPolicy::Normal, false));
  return success();
}
