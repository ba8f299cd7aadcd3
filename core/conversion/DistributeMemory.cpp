//===- DistributeMemory.cpp - addptr, vectorized loads and stores ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"

#include "core/analysis/AxisInfo.h"
#include "core/conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;

namespace tle::conversion::distribute {
VectorPlan planVectorAccess(DistributeState &st, Value ptr, Value mask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return {};
  auto layout = getDistributedLayout(type);
  unsigned dim = layout.getRegisterOrder()[0];
  unsigned vec = ::tle::conversion::getVectorWidthAlong(st.axis, ptr, Value(),
                                                        dim, st.vectorBytes);
  unsigned n = layout.getTotalElemsPerThread(type.getShape());
  auto fits = [&](unsigned v) {
    if (n % v != 0)
      return false;
    for (unsigned warp = 0; warp < layout.getNumWarps(); ++warp)
      for (unsigned lane = 0; lane < layout.getWarpSize(); ++lane)
        for (unsigned g = 0; g < n; g += v) {
          SmallVector<int64_t> first =
              layout.getTensorIndex(type.getShape(), lane, warp, g);
          if (first[dim] % v != 0)
            return false;
          for (unsigned i = 1; i < v; ++i) {
            SmallVector<int64_t> next =
                layout.getTensorIndex(type.getShape(), lane, warp, g + i);
            SmallVector<int64_t> expect(first);
            expect[dim] += i;
            if (next != expect)
              return false;
          }
        }
    return true;
  };
  while (vec > 1 && !fits(vec))
    vec /= 2;
  VectorPlan plan;
  plan.vec = vec;
  if (mask && vec > 1)
    plan.maskUniform = ::tle::conversion::getVectorWidthAlong(
                           st.axis, ptr, mask, dim, st.vectorBytes) >= vec;
  return plan;
}
} // namespace tle::conversion::distribute

namespace {

struct AddPtrConversion : DistPattern<AddPtrOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ptrType = cast<PointerType>(getElementTypeOrSelf(op.getType()));
    Type pointee = getTypeConverter()->convertType(ptrType.getPointeeType());
    Type resultType = getTypeConverter()->convertType(ptrType);
    SmallVector<Value> values;
    for (auto [ptr, offset] : llvm::zip(adaptor.getPtr(), adaptor.getOffset()))
      values.push_back(LLVM::GEPOp::create(rewriter, op.getLoc(), resultType,
                                           pointee, ptr,
                                           ArrayRef<LLVM::GEPArg>{offset}));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

Value allTrue(OpBuilder &b, Location loc, ValueRange masks) {
  Value all = masks[0];
  for (Value m : masks.drop_front())
    all = arith::AndIOp::create(b, loc, all, m);
  return all;
}

/// Loads: one access of `vec` registers per group. A mask uniform over the
/// group guards the access (scf.if, i.e. a predicated vector load); a mask
/// that may differ between lanes takes the vector access when all lanes are
/// on and falls back to per-element accesses otherwise, so the common
/// in-bounds case stays one wide load (ld.global.v4 on NVPTX).
struct LoadConversion : DistPattern<LoadOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getResult().getType()));
    VectorPlan plan = planVectorAccess(st, op.getPtr(), op.getMask());
    unsigned vec = plan.vec;
    ValueRange ptrs = adaptor.getPtr();
    ValueRange masks = op.getMask() ? adaptor.getMask() : ValueRange();
    ValueRange others = op.getOther() ? adaptor.getOther() : ValueRange();
    Type accessType = vec == 1 ? elem : Type(VectorType::get(vec, elem));
    unsigned alignment = vec * typeBytes(elem);
    bool isVolatile = op.getIsVolatile();
    auto otherOf = [&](OpBuilder &b, unsigned first, unsigned count,
                       Type type) -> Value {
      if (!others.empty())
        return packVector(b, loc, others.slice(first, count));
      return LLVM::ZeroOp::create(b, loc, type);
    };
    auto guarded = [&](OpBuilder &b, Value cond, Type type,
                       function_ref<Value(OpBuilder &)> then,
                       function_ref<Value(OpBuilder &)> otherwise) -> Value {
      return scf::IfOp::create(
                 b, loc, cond,
                 [&](OpBuilder &tb, Location l) {
                   scf::YieldOp::create(tb, l, then(tb));
                 },
                 [&](OpBuilder &eb, Location l) {
                   scf::YieldOp::create(eb, l, otherwise(eb));
                 })
          .getResult(0);
    };
    SmallVector<Value> values;
    for (unsigned g = 0; g < ptrs.size(); g += vec) {
      auto wide = [&](OpBuilder &b) -> Value {
        return LLVM::LoadOp::create(b, loc, accessType, ptrs[g], alignment,
                                    isVolatile);
      };
      Value loaded;
      if (masks.empty()) {
        loaded = wide(rewriter);
      } else if (plan.maskUniform) {
        loaded =
            guarded(rewriter, masks[g], accessType, wide, [&](OpBuilder &b) {
              return otherOf(b, g, vec, accessType);
            });
      } else {
        Value all = allTrue(rewriter, loc, masks.slice(g, vec));
        loaded = guarded(rewriter, all, accessType, wide, [&](OpBuilder &b) {
          SmallVector<Value> lanes;
          for (unsigned i = 0; i < vec; ++i)
            lanes.push_back(guarded(
                b, masks[g + i], elem,
                [&](OpBuilder &ib) -> Value {
                  return LLVM::LoadOp::create(ib, loc, elem, ptrs[g + i],
                                              typeBytes(elem), isVolatile);
                },
                [&](OpBuilder &ib) { return otherOf(ib, g + i, 1, elem); }));
          return packVector(b, loc, lanes);
        });
      }
      if (vec == 1) {
        values.push_back(loaded);
        continue;
      }
      for (unsigned i = 0; i < vec; ++i)
        values.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, loaded, i32Const(rewriter, loc, i)));
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// Per register of a store's pointer operand, whether this thread stores
/// it (null: always). A layout that replicates elements over threads (a
/// scalar, a row's sum held by every warp) would otherwise store every copy
/// to global memory: the same bytes, but one transaction per warp or more.
/// Only the owner stores there, as in Triton; thread 0 stores a scalar.
/// Block-level stores keep every copy: a thread that loads the element back
/// without a barrier then reads its own write.
FailureOr<SmallVector<Value>> storeOwners(OpBuilder &b, Location loc,
                                          DistributeState &st, Type ptrType,
                                          ValueRange ptrs) {
  auto ptr = dyn_cast<LLVM::LLVMPointerType>(ptrs[0].getType());
  auto tensor = dyn_cast<RankedTensorType>(ptrType);
  if (!ptr || ptr.getAddressSpace() != st.target.getAddressSpace("global") ||
      (tensor && !knowsOwners(tensor.getEncoding())))
    return SmallVector<Value>(ptrs.size(), Value());
  return emitValueOwners(b, loc, st.target, ptrType);
}

struct StoreConversion : DistPattern<StoreOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorPlan plan = planVectorAccess(st, op.getPtr(), op.getMask());
    unsigned vec = plan.vec;
    ValueRange ptrs = adaptor.getPtr();
    ValueRange vals = adaptor.getValue();
    ValueRange masks = op.getMask() ? adaptor.getMask() : ValueRange();
    unsigned elemBytes = typeBytes(vals[0].getType());
    auto owners = storeOwners(rewriter, loc, st, op.getPtr().getType(), ptrs);
    if (failed(owners))
      return failure();
    auto guarded = [&](OpBuilder &b, Value cond,
                       function_ref<void(OpBuilder &)> then,
                       function_ref<void(OpBuilder &)> otherwise) {
      if (!otherwise) {
        scf::IfOp::create(b, loc, cond, [&](OpBuilder &tb, Location l) {
          then(tb);
          scf::YieldOp::create(tb, l);
        });
        return;
      }
      scf::IfOp::create(
          b, loc, cond,
          [&](OpBuilder &tb, Location l) {
            then(tb);
            scf::YieldOp::create(tb, l);
          },
          [&](OpBuilder &eb, Location l) {
            otherwise(eb);
            scf::YieldOp::create(eb, l);
          });
    };
    for (unsigned g = 0; g < ptrs.size(); g += vec) {
      Value value = packVector(rewriter, loc, vals.slice(g, vec));
      auto wide = [&](OpBuilder &b) {
        LLVM::StoreOp::create(b, loc, value, ptrs[g], vec * elemBytes);
      };
      auto masked = [&](OpBuilder &b) {
        if (masks.empty()) {
          wide(b);
        } else if (plan.maskUniform) {
          guarded(b, masks[g], wide, nullptr);
        } else {
          guarded(b, allTrue(b, loc, masks.slice(g, vec)), wide,
                  [&](OpBuilder &ob) {
                    for (unsigned i = 0; i < vec; ++i)
                      guarded(
                          ob, masks[g + i],
                          [&](OpBuilder &ib) {
                            LLVM::StoreOp::create(ib, loc, vals[g + i],
                                                  ptrs[g + i], elemBytes);
                          },
                          nullptr);
                  });
        }
      };
      // The group is stored where this thread owns any of its registers
      // (storing a copy twice is harmless; skipping an owned one is not).
      Value owner;
      for (Value o : ArrayRef<Value>(*owners).slice(g, vec)) {
        if (!o) {
          owner = Value();
          break;
        }
        owner = owner ? arith::OrIOp::create(rewriter, loc, owner, o) : o;
      }
      if (owner)
        guarded(rewriter, owner, masked, nullptr);
      else
        masked(rewriter);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void ::tle::conversion::distribute::populateMemoryPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<AddPtrConversion, LoadConversion, StoreConversion>(
      tc, patterns.getContext(), st);
}
