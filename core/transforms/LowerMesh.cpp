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
//   remote(p, s, space)       p: the only shard of every level is this one
//   distributed_barrier(m, L) a block barrier (the other shards of L are
//                             this device itself)
//   signal(p, v, add|set)     block barrier (the block's stores come first),
//                             then one atomic add|xchg, release, device
//                             scope (every reader of the word is on it)
//   signal_wait(p, v, cmp)    atomic reads (add 0, acquire, device scope)
//                             until `observed cmp v` holds
//
// The atomics on a scalar pointer are performed by one thread of the block,
// which shares the value read (distribution does that), so every thread
// leaves the wait loop in the same iteration. Nothing here names a target.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"

#include "dialects/TLE/TLEDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
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
  MeshType Type = Mesh.getType();
  for (auto [Level, Size] : llvm::zip(Type.getLevels(), Type.getShape())) {
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

arith::CmpIPredicate getPredicate(WaitCmp Cmp) {
  switch (Cmp) {
  case WaitCmp::EQ:
    return arith::CmpIPredicate::eq;
  case WaitCmp::NE:
    return arith::CmpIPredicate::ne;
  case WaitCmp::GE:
    return arith::CmpIPredicate::sge;
  case WaitCmp::GT:
    return arith::CmpIPredicate::sgt;
  case WaitCmp::LE:
    return arith::CmpIPredicate::sle;
  case WaitCmp::LT:
    return arith::CmpIPredicate::slt;
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
        Value Done = arith::CmpIOp::create(B, L, getPredicate(Op.getCmp()),
                                           Args[0], Op.getValue());
        Value Again = arith::XOrIOp::create(
            B, L, Done, arith::ConstantIntOp::create(B, L, 1, 1));
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
    if (Module
            .walk([](DeviceMeshOp Mesh) {
              return failed(checkOneDevice(Mesh)) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
            })
            .wasInterrupted())
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
