//===- LowerParallel.cpp - tle_struct.parallel and buffer tiles -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// TLE-Struct's DSA-style forms, rewritten into tile ops every backend
// distributes:
//   tle_struct.parallel "L" x N { body }   (tle.dsa.parallel)
//     -> scf.for %u = 0 to N { body with tle_struct.unit_id = %u; block
//        barrier }. The units run one after another on all of the block's
//        threads: units of a parallel region are independent by
//        definition, so any order is a valid schedule. They share the
//        body's buffers (one allocation each), so a barrier ends every unit
//        before the next one writes them; the last one also orders the
//        region before what follows. The level was resolved against the
//        description before (tle-check-hwdesc).
//   tle_struct.to_tensor %buf              (tle.dsa.to_tensor)
//     -> tle.load of tle_struct.local_ptr %buf (every element)
//   tle_struct.to_buffer %tile             (tle.dsa.to_buffer)
//     -> tle_struct.alloc, tle.store of the tile through local_ptr, a block
//        barrier (other threads may read the buffer in another layout).
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"

#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERPARALLEL
#include "core/transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

/// Pointers to every element of `buffer`, in its shape.
Value wholeBufferPointers(OpBuilder &B, Location Loc, Value Buffer) {
  auto Type = cast<tle_struct::BufferType>(Buffer.getType());
  auto Ptr = PointerType::get(Type.getElementType(),
                              Type.getMemoryLevel().getValue());
  return tle_struct::LocalPtrOp::create(
      B, Loc, RankedTensorType::get(Type.getShape(), Ptr), Buffer,
      ValueRange());
}

void lowerParallel(IRRewriter &Rewriter, tle_struct::ParallelOp Op) {
  Location Loc = Op.getLoc();
  Rewriter.setInsertionPoint(Op);
  Value Zero = arith::ConstantIntOp::create(Rewriter, Loc, 0, 32);
  Value Num = arith::ConstantIntOp::create(Rewriter, Loc, Op.getNum(), 32);
  Value One = arith::ConstantIntOp::create(Rewriter, Loc, 1, 32);
  auto For = scf::ForOp::create(Rewriter, Loc, Zero, Num, One);
  Block &Body = Op.getBody().front();
  // This region's unit ids (a nested parallel region has its own).
  SmallVector<tle_struct::UnitIdOp> Ids;
  Body.walk([&](tle_struct::UnitIdOp Id) {
    if (Id->getParentOfType<tle_struct::ParallelOp>() == Op)
      Ids.push_back(Id);
  });
  for (tle_struct::UnitIdOp Id : Ids)
    Rewriter.replaceOp(Id, For.getInductionVar());
  Rewriter.eraseOp(Body.getTerminator());
  Block *ForBody = For.getBody();
  Rewriter.inlineBlockBefore(&Body, ForBody->getTerminator());
  Rewriter.setInsertionPoint(ForBody->getTerminator());
  DebugBarrierOp::create(Rewriter, Loc);
  Rewriter.eraseOp(Op);
}

struct LowerParallelPass
    : public mlir::tle::impl::TLELowerParallelBase<LowerParallelPass> {
  using TLELowerParallelBase::TLELowerParallelBase;

  void runOnOperation() override {
    IRRewriter Rewriter(&getContext());
    // Outermost first: a nested region moves with its parent's body.
    SmallVector<tle_struct::ParallelOp> Regions;
    getOperation()->walk<WalkOrder::PreOrder>(
        [&](tle_struct::ParallelOp Op) { Regions.push_back(Op); });
    for (tle_struct::ParallelOp Op : Regions)
      lowerParallel(Rewriter, Op);

    SmallVector<Operation *> Views;
    getOperation()->walk([&](Operation *Op) {
      if (isa<tle_struct::ToTensorOp, tle_struct::ToBufferOp>(Op))
        Views.push_back(Op);
    });
    for (Operation *Op : Views) {
      Location Loc = Op->getLoc();
      Rewriter.setInsertionPoint(Op);
      if (auto ToTensor = dyn_cast<tle_struct::ToTensorOp>(Op)) {
        Value Ptrs = wholeBufferPointers(Rewriter, Loc, ToTensor.getBuffer());
        Rewriter.replaceOp(
            Op, LoadOp::create(Rewriter, Loc, Ptrs, Value(), Value(),
                               CacheModifier::None, EvictionPolicy::Normal,
                               false));
        continue;
      }
      auto ToBuffer = cast<tle_struct::ToBufferOp>(Op);
      Value Buffer = tle_struct::AllocOp::create(
          Rewriter, Loc, ToBuffer.getBuffer().getType(), TypedAttr());
      StoreOp::create(Rewriter, Loc,
                      wholeBufferPointers(Rewriter, Loc, Buffer),
                      ToBuffer.getSrc(), Value(), CacheModifier::None,
                      EvictionPolicy::Normal);
      DebugBarrierOp::create(Rewriter, Loc);
      Rewriter.replaceOp(Op, Buffer);
    }
  }
};

} // namespace
