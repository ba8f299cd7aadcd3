//===- TileBroadcast.cpp - Spread a 1-D tile over a shape ---------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/TileBroadcast.h"

#include "dialects/TLE/TLEDialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

Value mlir::tle::broadcastAlongDim(OpBuilder &B, Location Loc, Value Tile1D,
                                   unsigned Dim, ArrayRef<int64_t> Shape,
                                   Attribute Layout) {
  if (Shape.size() == 1)
    return Tile1D;
  Type Elem = cast<RankedTensorType>(Tile1D.getType()).getElementType();
  if (Layout) {
    assert(Shape.size() == 2 && "layouts given for 2-D shapes only");
    SmallVector<int64_t> Column{1, 1};
    Column[Dim] = Shape[Dim];
    Value Expanded = ExpandDimsOp::create(
        B, Loc, RankedTensorType::get(Column, Elem, Layout), Tile1D,
        B.getI32IntegerAttr(1 - Dim));
    return BroadcastOp::create(
        B, Loc, RankedTensorType::get(Shape, Elem, Layout), Expanded);
  }
  SmallVector<int64_t> Cur{Shape[Dim]};
  Value Result = Tile1D;
  for (unsigned E = 0; E < Shape.size(); ++E) {
    if (E == Dim)
      continue;
    // Every dimension before E is present by now, so E is also its position
    // in the growing tensor.
    SmallVector<int64_t> Next = Cur;
    Next.insert(Next.begin() + E, 1);
    Result = ExpandDimsOp::create(B, Loc, RankedTensorType::get(Next, Elem),
                                  Result, B.getI32IntegerAttr(E));
    Cur = Next;
  }
  return BroadcastOp::create(B, Loc, RankedTensorType::get(Shape, Elem),
                             Result);
}
