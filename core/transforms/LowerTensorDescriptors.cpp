//===- LowerTensorDescriptors.cpp - Descriptor tiles as masked pointers ---===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tl.make_tensor_descriptor describes a strided tensor in global memory;
// desc.load / desc.store move one block_shape tile at element offsets, and
// the elements outside the tensor (any coordinate below 0 or at least the
// dimension's size) read as the padding and are not written. The pointers
// and the mask are built dimension by dimension on 1-D ranges and then
// broadcast, the form a kernel author writes by hand (offs_m[:, None] *
// stride + offs_n[None, :]), so that the axis analysis finds the unit stride
// and the alignment as it does for pointer kernels.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"
#include "core/transforms/TileBroadcast.h"

#include "dialects/TLE/TLEDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

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

/// The pointers of the tile at Offsets and the mask of its elements inside
/// the described tensor.
TileAccess buildTileAccess(OpBuilder &B, Location Loc, MakeTensorDescOp Desc,
                           ValueRange Offsets) {
  RankedTensorType Block = Desc.getResult().getType().getBlockType();
  ArrayRef<int64_t> Shape = Block.getShape();
  Type I32 = B.getI32Type(), I64 = B.getI64Type();
  Value ElementOffsets, Mask;
  for (unsigned D = 0; D < Shape.size(); ++D) {
    auto Range1D = RankedTensorType::get({Shape[D]}, I32);
    Value Coords = arith::AddIOp::create(
        B, Loc, SplatOp::create(B, Loc, Range1D, Offsets[D]),
        MakeRangeOp::create(B, Loc, Range1D, B.getI32IntegerAttr(0),
                            B.getI32IntegerAttr(int32_t(Shape[D]))));
    Value Zero = arith::ConstantOp::create(
        B, Loc, DenseElementsAttr::get(Range1D, B.getI32IntegerAttr(0)));
    Value Size = SplatOp::create(B, Loc, Range1D, Desc.getShape()[D]);
    Value Inside = arith::AndIOp::create(
        B, Loc,
        arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::sge, Coords, Zero),
        arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::slt, Coords, Size));
    auto Wide1D = RankedTensorType::get({Shape[D]}, I64);
    Value Scaled = arith::MulIOp::create(
        B, Loc, arith::ExtSIOp::create(B, Loc, Wide1D, Coords),
        SplatOp::create(B, Loc, Wide1D, Desc.getStrides()[D]));
    Scaled = broadcastAlongDim(B, Loc, Scaled, D, Shape);
    Inside = broadcastAlongDim(B, Loc, Inside, D, Shape);
    ElementOffsets =
        ElementOffsets
            ? arith::AddIOp::create(B, Loc, ElementOffsets, Scaled).getResult()
            : Scaled;
    Mask =
        Mask ? arith::AndIOp::create(B, Loc, Mask, Inside).getResult() : Inside;
  }
  auto PtrTile = RankedTensorType::get(Shape, Desc.getBase().getType());
  Value Pointers = AddPtrOp::create(
      B, Loc, PtrTile, SplatOp::create(B, Loc, PtrTile, Desc.getBase()),
      ElementOffsets);
  return {Pointers, Mask};
}

/// The value masked-off elements of a load read as.
FailureOr<Value> buildPadding(OpBuilder &B, Location Loc, MakeTensorDescOp Desc,
                              Operation *User) {
  RankedTensorType Block = Desc.getResult().getType().getBlockType();
  Type Elem = Block.getElementType();
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
    IRRewriter Rewriter(&getContext());
    for (Operation *Op : Accesses) {
      Location Loc = Op->getLoc();
      Rewriter.setInsertionPoint(Op);
      if (auto Load = dyn_cast<DescriptorLoadOp>(Op)) {
        FailureOr<MakeTensorDescOp> Desc = getDescriptor(Op, Load.getDesc());
        if (failed(Desc))
          return signalPassFailure();
        FailureOr<Value> Padding = buildPadding(Rewriter, Loc, *Desc, Op);
        if (failed(Padding))
          return signalPassFailure();
        TileAccess Tile =
            buildTileAccess(Rewriter, Loc, *Desc, Load.getIndices());
        Rewriter.replaceOp(Op, LoadOp::create(Rewriter, Loc, Tile.Pointers,
                                              Tile.Mask, *Padding,
                                              CacheModifier::None,
                                              EvictionPolicy::Normal, false));
        continue;
      }
      auto Store = cast<DescriptorStoreOp>(Op);
      FailureOr<MakeTensorDescOp> Desc = getDescriptor(Op, Store.getDesc());
      if (failed(Desc))
        return signalPassFailure();
      TileAccess Tile =
          buildTileAccess(Rewriter, Loc, *Desc, Store.getIndices());
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
