//===- LowerMesh.cpp - TLE-Lite device meshes run on one device -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A kernel compiled for one target runs on one device in one process, so a
// mesh level above the block (node, device, chiplet, block_cluster) has one
// shard here: this device, or this block's cluster of one. A mesh naming
// more shards at such a level is refused at its line, since the kernel would
// wait for peers that never start. The block level is the grid: its shards
// are the programs (the launch must have as many as the level names).
//
//   shard_id(m, "block")      the linear program id (x fastest)
//   shard_id(m, other level)  0
//   remote(p, s, space)       p: every level of a remote space (cluster,
//                             device, node) has the one shard 0; a constant
//                             other shard is refused
//   distributed_barrier(m, L) a block barrier when L has one shard; across
//                             several programs (the block level) refused
//   signal(p, v, add|set)     block barrier (the block's stores come first),
//                             then one atomic add|xchg at device scope
//                             (every reader of the word is on this device)
//   signal_wait(p, v, cmp)    atomic reads (add 0, device scope) until
//                             `observed cmp v` holds
//
// The atomics ask for release (signal) and acquire (wait); the targets
// emit acq_rel. On a scalar pointer one thread of the block performs them
// and shares the value read (distribution does that), so every thread leaves
// the wait loop in the same iteration. Nothing here names a target.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"

#include "dialects/TLE/TLEDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERMESH
#include "core/transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

constexpr StringLiteral kBlockLevel = "block";

/// Refuses a mesh with more than one shard at a level above the block.
LogicalResult checkOneDevice(DeviceMeshOp Mesh) {
  MeshType Shape = Mesh.getType();
  for (auto [Level, Size] : llvm::zip(Shape.getLevels(), Shape.getShape())) {
    StringRef Name = cast<StringAttr>(Level).getValue();
    if (Name != kBlockLevel && Size != 1)
      return Mesh.emitError()
             << "mesh level '" << Name << "' has " << Size
             << " shards, but a kernel runs on one device for now: levels "
                "above 'block' must have one shard (multi-device meshes: "
                "issue 15)";
  }
  return success();
}

/// A barrier across several programs would need all of them resident at
/// once, which a launch does not promise.
LogicalResult checkBarrier(DistributedBarrierOp Barrier) {
  MeshType Shape = Barrier.getMesh().getType();
  int64_t Size = Shape.getShape()[*Shape.getLevelIndex(Barrier.getLevel())];
  // Levels above the block are refused at the mesh when larger.
  if (Barrier.getLevel() != kBlockLevel || Size == 1)
    return success();
  return Barrier.emitError()
         << "a distributed barrier across the " << Size
         << " programs of level '" << Barrier.getLevel()
         << "' is not supported: the programs of a grid are not all resident "
            "at once";
}

/// Every level of a remote space has one shard here, shard 0.
LogicalResult checkRemote(RemotePtrOp Remote) {
  APInt Shard;
  if (matchPattern(Remote.getShard(), m_ConstantInt(&Shard)) && !Shard.isZero())
    return Remote.emitError()
           << "tle.remote to shard " << Shard.getSExtValue()
           << ", but a kernel runs on one device for now: shard 0 is the only "
              "one (multi-device meshes: issue 15)";
  return success();
}

/// pid(0) + num(0) * (pid(1) + num(1) * pid(2)).
Value linearProgramId(OpBuilder &B, Location Loc) {
  Value Id = GetProgramIdOp::create(B, Loc, B.getI32Type(), 2);
  for (int Axis : {1, 0}) {
    Value Num = GetNumProgramsOp::create(B, Loc, B.getI32Type(), Axis);
    Value Pid = GetProgramIdOp::create(B, Loc, B.getI32Type(), Axis);
    Id = arith::AddIOp::create(B, Loc, Pid,
                               arith::MulIOp::create(B, Loc, Num, Id));
  }
  return Id;
}

arith::CmpIPredicate getPredicate(WaitCmp Cmp, bool Unsigned) {
  using P = arith::CmpIPredicate;
  switch (Cmp) {
  case WaitCmp::EQ:
    return P::eq;
  case WaitCmp::NE:
    return P::ne;
  case WaitCmp::GE:
    return Unsigned ? P::uge : P::sge;
  case WaitCmp::GT:
    return Unsigned ? P::ugt : P::sgt;
  case WaitCmp::LE:
    return Unsigned ? P::ule : P::sle;
  case WaitCmp::LT:
    return Unsigned ? P::ult : P::slt;
  }
  llvm_unreachable("unknown signal_wait comparison");
}

void lowerSignal(IRRewriter &Rewriter, SignalOp Op) {
  Location Loc = Op.getLoc();
  Rewriter.setInsertionPoint(Op);
  DebugBarrierOp::create(Rewriter, Loc);
  RMWKind Kind = Op.getKind() == SignalKind::Add ? RMWKind::Add : RMWKind::Xchg;
  AtomicRMWOp::create(Rewriter, Loc, Op.getValue().getType(), Kind, Op.getPtr(),
                      Op.getValue(), /*mask=*/Value(), MemSemantic::Release,
                      MemScope::Device);
  Rewriter.eraseOp(Op);
}

/// seen = read; while (seen fails cmp) seen = read. The first read comes
/// before the loop so that the loop's test is never known: with a first
/// test known to pass, LLVM threads the entry into the body's one-thread
/// branch, which gives the loop two entries (PoCL's kernel compiler then
/// recurses until its stack overflows).
void lowerSignalWait(IRRewriter &Rewriter, SignalWaitOp Op) {
  Location Loc = Op.getLoc();
  Type Word = Op.getValue().getType();
  auto Read = [&](OpBuilder &B, Location L) -> Value {
    Value Zero = arith::ConstantIntOp::create(B, L, Word, 0);
    return AtomicRMWOp::create(B, L, Word, RMWKind::Add, Op.getPtr(), Zero,
                               /*mask=*/Value(), MemSemantic::Acquire,
                               MemScope::Device);
  };
  Rewriter.setInsertionPoint(Op);
  Value First = Read(Rewriter, Loc);
  auto Loop = scf::WhileOp::create(
      Rewriter, Loc, TypeRange{Word}, ValueRange{First},
      [&](OpBuilder &B, Location L, ValueRange Args) {
        // Loop while the comparison fails.
        Value Again =
            arith::CmpIOp::create(B, L,
                                  arith::invertPredicate(getPredicate(
                                      Op.getCmp(), Op.getUnsignedCmp())),
                                  Args[0], Op.getValue());
        scf::ConditionOp::create(B, L, Again, Args);
      },
      [&](OpBuilder &B, Location L, ValueRange) {
        scf::YieldOp::create(B, L, Read(B, L));
      });
  Rewriter.replaceOp(Op, Loop.getResult(0));
}

class LowerMeshPass : public mlir::tle::impl::TLELowerMeshBase<LowerMeshPass> {
public:
  using TLELowerMeshBase::TLELowerMeshBase;

  void runOnOperation() override {
    ModuleOp Module = getOperation();
    bool Ok = true;
    Module.walk([&](Operation *Op) {
      if (auto Mesh = dyn_cast<DeviceMeshOp>(Op))
        Ok &= succeeded(checkOneDevice(Mesh));
      else if (auto Barrier = dyn_cast<DistributedBarrierOp>(Op))
        Ok &= succeeded(checkBarrier(Barrier));
      else if (auto Remote = dyn_cast<RemotePtrOp>(Op))
        Ok &= succeeded(checkRemote(Remote));
    });
    if (!Ok)
      return signalPassFailure();

    IRRewriter Rewriter(&getContext());
    Module.walk([&](Operation *Op) {
      Location Loc = Op->getLoc();
      if (auto Shard = dyn_cast<ShardIdOp>(Op)) {
        Rewriter.setInsertionPoint(Shard);
        Rewriter.replaceOp(Shard, Shard.getLevel() == kBlockLevel
                                      ? linearProgramId(Rewriter, Loc)
                                      : Value(arith::ConstantIntOp::create(
                                            Rewriter, Loc, 0, 32)));
      } else if (auto Remote = dyn_cast<RemotePtrOp>(Op)) {
        Rewriter.replaceOp(Remote, Remote.getPtr());
      } else if (auto Barrier = dyn_cast<DistributedBarrierOp>(Op)) {
        Rewriter.setInsertionPoint(Barrier);
        DebugBarrierOp::create(Rewriter, Loc);
        Rewriter.eraseOp(Barrier);
      } else if (auto Signal = dyn_cast<SignalOp>(Op)) {
        lowerSignal(Rewriter, Signal);
      } else if (auto Wait = dyn_cast<SignalWaitOp>(Op)) {
        lowerSignalWait(Rewriter, Wait);
      }
    });
    // Meshes are only read by the ops above.
    Module.walk([&](DeviceMeshOp Mesh) {
      if (Mesh->use_empty())
        Rewriter.eraseOp(Mesh);
    });
  }
};

} // namespace
