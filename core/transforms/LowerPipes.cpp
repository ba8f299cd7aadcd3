//===- LowerPipes.cpp - TLE-Lite pipes as rings in block-level memory -----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tle.pipe of capacity D becomes, per field, a ring of D slots in the
// block-level memory the pipe's scope names (resolved against the hardware
// description like any tle_struct.alloc: shared memory, LDS, Workgroup
// storage, a DSA scratchpad), plus two slot counters: `written` (slots
// committed) and `read` (slots waited on). The counters are uniform across
// the block and are kept in SSA values, carried through scf.for and scf.if,
// so no thread ever reads them from memory.
//
// One role: producer and consumer are the same threads (the whole block,
// or one tle.gpu.warp_specialize partition), running the program in order.
// Then
//   writer_acquire      nothing: the static check below proves a free slot
//   writer_commit v...  store each field into slot written % D; barrier
//                       (readers may hold the value in another layout)
//   reader_wait         valid = read < written; load slot read % D; read +=
//                       valid
//   reader_release      barrier (the next commit may overwrite the slot)
//   writer_close        nothing (valid already turns false once drained)
// The barrier is tle.debug_barrier, which every target lowers to its block
// barrier (a partition's group barrier inside one); nothing here names a
// target.
//
// Two roles: a pipe whose writer methods are all in one warp_specialize
// partition and whose reader methods are all in another connects the two
// groups of warps, which run at the same time. Each slot then also has a
// `full` and an `empty` barrier object (tle_struct.barrier_alloc with num =
// D) and an i32 flag (1: data, 0: closed); each role keeps its counters in
// its partition (the writer `written`, the reader `read` and `released`):
//   writer_acquire      wait on empty[w % D] for the phase before this use
//                       (parity (w / D + 1) & 1; the first use passes)
//   writer_commit v...  the same wait (a commit needs a free slot whether
//                       or not it was acquired; a second wait on a
//                       completed phase returns at once), store each field
//                       and flag 1 into slot w % D, arrive on full[w % D];
//                       w += 1
//   writer_close        the same, with flag 0 and no fields
//   reader_wait         wait on full[r % D] (parity (r / D) & 1); valid =
//                       the slot's flag; load the fields; r += valid
//   reader_release      arrive on empty[released % D]; released += 1 (the
//                       oldest slot held, first in first out)
// A closed slot is never read past: later waits see it again (valid false).
// The arrivals come after a barrier of the arriving partition, so every
// thread's stores (or reads) of the slot are ordered before them. The
// barriers are set up where the pipe is created, so the warp_specialize
// that uses it must be in the same block as its creation (not in a loop
// around which the counters would restart).
//
// Because there is no second role to drain a full ring or fill an empty
// one, misuse that would hang a real producer/consumer pair is an error at
// the kernel line, found by counting slots through the structured control
// flow (intervals of "held" = committed - released and "unread" = committed
// - waited on): a writer_acquire with all D slots held; a loop that commits
// more slots than it releases per iteration (unless a constant trip count
// keeps it within D); a reader_wait with nothing committed on a pipe that
// is not closed; a loop that waits on more slots than it commits. A
// two-role pipe must have a commit (or close) in its writer partition and
// a wait in its reader partition; a reader without a writer would wait
// forever.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"
#include "core/transforms/PipeRings.h"
#include "core/transforms/TileBroadcast.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <algorithm>
#include <limits>

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERPIPES
#include "core/transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;
using mlir::tle_struct::WarpSpecializeOp;

FailureOr<SmallVector<tle_struct::BufferType>>
mlir::tle::getPipeRingTypes(PipeCreateOp Pipe) {
  PipeType PipeTy = Pipe.getType();
  MLIRContext *Ctx = Pipe.getContext();
  StringAttr Level = StringAttr::get(Ctx, Pipe.getScope());
  SmallVector<tle_struct::BufferType> Rings;
  for (auto [I, Field] : llvm::enumerate(PipeTy.getFields())) {
    SmallVector<int64_t> Shape{int64_t(PipeTy.getCapacity())};
    Type Elem = Field;
    if (auto Tensor = dyn_cast<RankedTensorType>(Field)) {
      if (!Tensor.hasStaticShape())
        return Pipe.emitError() << "pipe '" << Pipe.getName() << "': field "
                                << I << " (" << Field
                                << ") needs a static shape";
      llvm::append_range(Shape, Tensor.getShape());
      Elem = Tensor.getElementType();
    }
    if (!Elem.isIntOrFloat())
      return Pipe.emitError()
             << "pipe '" << Pipe.getName() << "': field " << I << " ("
             << Field
             << ") cannot be kept in local memory; pipes carry integers and "
                "floats (pass pointers as offsets)";
    Rings.push_back(
        tle_struct::BufferType::get(Ctx, Shape, Elem, Level, nullptr));
  }
  return Rings;
}

namespace {

//===----------------------------------------------------------------------===//
// Static check: slot counts through structured control flow
//===----------------------------------------------------------------------===//

constexpr int64_t Unbounded = std::numeric_limits<int64_t>::max() / 4;

/// Possible values of a slot count.
struct Range {
  int64_t Lo = 0, Hi = 0;
  bool operator==(const Range &O) const { return Lo == O.Lo && Hi == O.Hi; }
  Range join(const Range &O) const {
    return {std::min(Lo, O.Lo), std::max(Hi, O.Hi)};
  }
  Range plus(int64_t N) const {
    return {std::min(Lo + N, Unbounded), std::min(Hi + N, Unbounded)};
  }
  /// One less, not below zero (a wait on a closed, drained pipe or a
  /// release after it takes nothing).
  Range minusOne() const {
    return {std::max<int64_t>(Lo - 1, 0), std::max<int64_t>(Hi - 1, 0)};
  }
};

struct PipeFacts {
  Range Held;   // committed, not yet released: occupied slots
  Range Unread; // committed, not yet waited on
  bool Closed = false;
  bool operator==(const PipeFacts &O) const {
    return Held == O.Held && Unread == O.Unread && Closed == O.Closed;
  }
  PipeFacts join(const PipeFacts &O) const {
    return {Held.join(O.Held), Unread.join(O.Unread), Closed && O.Closed};
  }
};

using Facts = llvm::MapVector<Value, PipeFacts>;

Facts join(const Facts &A, const Facts &B) {
  Facts R = A;
  for (auto &[Pipe, F] : R)
    F = F.join(B.lookup(Pipe));
  return R;
}

bool isPipeOp(Operation *Op) {
  return isa<PipeWriterAcquireOp, PipeWriterCommitOp, PipeWriterCloseOp,
             PipeReaderWaitOp, PipeReaderReleaseOp>(Op);
}

Value pipeOf(Operation *Op) { return Op->getOperand(0); }

bool isWriterOp(Operation *Op) {
  return isa<PipeWriterAcquireOp, PipeWriterCommitOp, PipeWriterCloseOp>(Op);
}


/// The pipes created outside `Op` whose ops `Op`'s regions contain (a pipe
/// created inside starts afresh there).
llvm::SetVector<Value> pipesUsedIn(Operation *Op) {
  llvm::SetVector<Value> Pipes;
  for (Region &R : Op->getRegions())
    R.walk([&](Operation *Inner) {
      if (!isPipeOp(Inner))
        return;
      Value Pipe = pipeOf(Inner);
      if (Operation *Def = Pipe.getDefiningOp(); Def && Op->isAncestor(Def))
        return;
      Pipes.insert(Pipe);
    });
  return Pipes;
}

bool containsPipeOps(Operation *Op) {
  bool Found = false;
  for (Region &R : Op->getRegions())
    R.walk([&](Operation *Inner) {
      Found = Found || isPipeOp(Inner) || isa<PipeCreateOp>(Inner);
    });
  return Found;
}

class SlotChecker {
public:
  SlotChecker(StringRef Kernel, const llvm::DenseSet<Value> &RolePipes)
      : Kernel(Kernel), RolePipes(RolePipes) {}

  LogicalResult checkBlock(Block &B, Facts &State) {
    for (Operation &Op : B)
      if (failed(checkOp(&Op, State)))
        return failure();
    return success();
  }

private:
  StringRef Kernel;
  /// Pipes between two partitions: their roles run at the same time, so
  /// slot counts in program order say nothing about them.
  const llvm::DenseSet<Value> &RolePipes;

  static PipeCreateOp creator(Value Pipe) {
    return Pipe.getDefiningOp<PipeCreateOp>();
  }
  static std::string describe(Value Pipe) {
    PipeCreateOp Create = creator(Pipe);
    return ("pipe '" + Create.getName() + "' (capacity " +
            Twine(Create.getType().getCapacity()) + ")")
        .str();
  }

  LogicalResult checkOp(Operation *Op, Facts &State) {
    if (auto Create = dyn_cast<PipeCreateOp>(Op)) {
      State[Create.getPipe()] = PipeFacts();
      return success();
    }
    if (isPipeOp(Op))
      return RolePipes.contains(pipeOf(Op)) ? success()
                                             : checkPipeOp(Op, State);
    if (auto Ws = dyn_cast<tle_struct::WarpSpecializeOp>(Op)) {
      // Each partition runs the one-role pipes it uses in program order.
      for (Region &Partition : Ws.getPartitions()) {
        Facts Inner = State;
        if (failed(checkBlock(Partition.front(), Inner)))
          return failure();
      }
      return success();
    }
    if (auto For = dyn_cast<scf::ForOp>(Op))
      return checkFor(For, State);
    if (auto If = dyn_cast<scf::IfOp>(Op)) {
      if (!containsPipeOps(Op))
        return success();
      Facts Then = State, Else = State;
      if (failed(checkBlock(If.getThenRegion().front(), Then)))
        return failure();
      if (!If.getElseRegion().empty() &&
          failed(checkBlock(If.getElseRegion().front(), Else)))
        return failure();
      State = join(Then, Else);
      return success();
    }
    Operation *First = nullptr;
    if (Op->getNumRegions())
      Op->walk([&](Operation *Inner) {
        if (!First && isPipeOp(Inner))
          First = Inner;
      });
    if (First)
      return First->emitError()
             << describe(pipeOf(First)) << " is used inside '"
             << Op->getName()
             << "'; pipes are lowered through for loops, if statements and "
                "warp_specialize partitions, not parallel regions or while "
                "loops";
    return success();
  }

  LogicalResult checkPipeOp(Operation *Op, Facts &State) {
    Value Pipe = pipeOf(Op);
    PipeCreateOp Create = creator(Pipe);
    if (!Create)
      return Op->emitError()
             << "this pipe does not come from a tle.pipe() in kernel '"
             << Kernel << "'; pipes must be created in the kernel that uses "
             << "them";
    int64_t Capacity = Create.getType().getCapacity();
    PipeFacts &F = State[Pipe];
    if (isa<PipeWriterAcquireOp>(Op)) {
      if (F.Held.Lo >= Capacity)
        return Op->emitError()
               << describe(Pipe) << ": writer_acquire() would wait forever in "
               << "kernel '" << Kernel << "': all " << Capacity
               << " slots are committed and not released, and producer and "
               << "consumer are one role; read and release a slot first "
               << "(reader_wait()/reader_release()), or raise the capacity";
      return success();
    }
    if (isa<PipeWriterCommitOp>(Op)) {
      if (F.Held.Lo >= Capacity)
        return Op->emitError()
               << describe(Pipe) << ": writer_commit() into a full pipe in "
               << "kernel '" << Kernel << "': all " << Capacity
               << " slots are committed and not released";
      F.Held = F.Held.plus(1);
      F.Unread = F.Unread.plus(1);
      return success();
    }
    if (isa<PipeWriterCloseOp>(Op)) {
      F.Closed = true;
      return success();
    }
    if (isa<PipeReaderWaitOp>(Op)) {
      if (F.Unread.Hi <= 0 && !F.Closed)
        return Op->emitError()
               << describe(Pipe) << ": reader_wait() would wait forever in "
               << "kernel '" << Kernel << "': no slot is committed and not yet "
               << "read here, the pipe is not closed, and producer and "
               << "consumer are one role; commit before reading, or "
               << "writer_close() the pipe";
      F.Unread = F.Unread.minusOne();
      return success();
    }
    // reader_release
    F.Held = F.Held.minusOne();
    return success();
  }

  static std::optional<int64_t> constantTripCount(scf::ForOp For) {
    auto Lb = getConstantIntValue(For.getLowerBound());
    auto Ub = getConstantIntValue(For.getUpperBound());
    auto Step = getConstantIntValue(For.getStep());
    if (!Lb || !Ub || !Step || *Step <= 0)
      return std::nullopt;
    return *Ub <= *Lb ? 0 : (*Ub - *Lb + *Step - 1) / *Step;
  }

  LogicalResult checkFor(scf::ForOp For, Facts &State) {
    if (!containsPipeOps(For))
      return success();
    llvm::SetVector<Value> Pipes = pipesUsedIn(For);
    Block &Body = *For.getBody();
    // A short loop of known length: follow every iteration.
    if (std::optional<int64_t> Trips = constantTripCount(For);
        Trips && *Trips <= 256) {
      for (int64_t I = 0; I < *Trips; ++I)
        if (failed(checkBlock(Body, State)))
          return failure();
      return success();
    }
    // Otherwise one iteration from the entry state: a loop that leaves more
    // slots held, or fewer unread, than it found does so again on every
    // further iteration, until the ring is full or empty.
    Facts Entry = State, Exit = State;
    if (failed(checkBlock(Body, Exit)))
      return failure();
    for (Value Pipe : Pipes) {
      const PipeFacts &Before = Entry.lookup(Pipe), &After = Exit.lookup(Pipe);
      if (After.Held.Lo > Before.Held.Lo) {
        Operation *Commit = nullptr;
        Body.walk([&](PipeWriterCommitOp C) {
          if (!Commit && C.getPipe() == Pipe)
            Commit = C;
        });
        return (Commit ? Commit : For.getOperation())->emitError()
               << describe(Pipe) << ": each iteration of this loop in kernel '"
               << Kernel << "' commits more slots than it releases, so after "
               << creator(Pipe).getType().getCapacity()
               << " slots writer_acquire() would wait forever (producer and "
               << "consumer are one role); read and release in the same loop, "
               << "or loop a constant number of times that fits the capacity";
      }
      if (After.Unread.Hi < Before.Unread.Hi && !After.Closed) {
        Operation *Wait = nullptr;
        Body.walk([&](PipeReaderWaitOp W) {
          if (!Wait && W.getPipe() == Pipe)
            Wait = W;
        });
        return (Wait ? Wait : For.getOperation())->emitError()
               << describe(Pipe) << ": each iteration of this loop in kernel '"
               << Kernel << "' waits on more slots than it commits, so "
               << "reader_wait() would wait forever once the committed slots "
               << "are read (producer and consumer are one role); commit in "
               << "the same loop, or writer_close() the pipe first";
      }
    }
    // The loop may run any number of times, including none: what it leaves
    // lies between the entry state and wherever the iterations drift to.
    State = join(Entry, Exit);
    for (Value Pipe : Pipes) {
      PipeFacts &F = State[Pipe];
      const PipeFacts &Before = Entry.lookup(Pipe), &After = Exit.lookup(Pipe);
      if (After.Held.Hi > Before.Held.Hi)
        F.Held.Hi = Unbounded;
      if (After.Unread.Hi > Before.Unread.Hi)
        F.Unread.Hi = Unbounded;
      if (After.Held.Lo < Before.Held.Lo)
        F.Held.Lo = 0;
      if (After.Unread.Lo < Before.Unread.Lo)
        F.Unread.Lo = 0;
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

struct Ring {
  SmallVector<Value> Buffers; // one per field
  unsigned Capacity = 1;
  /// Two roles (see the file comment): the flag ring and the per-slot
  /// barrier arrays.
  bool TwoRoles = false;
  Value Flags, Full, Empty;
};

/// The slot counters of a pipe at one program point; a two-role pipe's
/// reader also counts the slots it released.
struct Counters {
  Value Written, Read, Released;
};

class PipeLowering {
public:
  PipeLowering(IRRewriter &Rewriter, const llvm::DenseSet<Value> &RolePipes)
      : Rewriter(Rewriter), RolePipes(RolePipes) {}

  LogicalResult lowerBlock(Block &B, llvm::MapVector<Value, Counters> &State) {
    for (Operation &Op : llvm::make_early_inc_range(B))
      if (failed(lowerOp(&Op, State)))
        return failure();
    return success();
  }

  llvm::MapVector<Value, Ring> Rings;

private:
  IRRewriter &Rewriter;
  const llvm::DenseSet<Value> &RolePipes;

  Value i32(Location Loc, int64_t V) {
    return arith::ConstantIntOp::create(Rewriter, Loc, V, 32);
  }

  /// The counters carried through control flow for `Pipe`, in order.
  SmallVector<Value> counterValues(Value Pipe, const Counters &C) const {
    if (RolePipes.contains(Pipe))
      return {C.Written, C.Read, C.Released};
    return {C.Written, C.Read};
  }
  unsigned numCounters(Value Pipe) const {
    return RolePipes.contains(Pipe) ? 3 : 2;
  }
  static Counters toCounters(ValueRange Values) {
    Counters C{Values[0], Values[1], Value()};
    if (Values.size() > 2)
      C.Released = Values[2];
    return C;
  }

  /// The use of a two-role slot counter: (slot, phase parity).
  std::pair<Value, Value> slotAndParity(Location Loc, Value Count,
                                        unsigned Capacity) {
    Value Slot = slotOf(Loc, Count, Capacity);
    Value Round =
        Capacity == 1
            ? Count
            : llvm::isPowerOf2_32(Capacity)
                  ? Value(arith::ShRUIOp::create(
                        Rewriter, Loc, Count,
                        i32(Loc, llvm::Log2_32(Capacity))))
                  : Value(arith::DivUIOp::create(Rewriter, Loc, Count,
                                                 i32(Loc, Capacity)));
    return {Slot, arith::AndIOp::create(Rewriter, Loc, Round, i32(Loc, 1))};
  }

  /// writer_acquire of a two-role pipe: waits until slot w % D was released
  /// by the reader (or never used). Returns the slot.
  Value acquireSlot(Location Loc, const Ring &R, Value Written) {
    auto [Slot, Parity] = slotAndParity(Loc, Written, R.Capacity);
    Value Before = arith::XOrIOp::create(Rewriter, Loc, Parity, i32(Loc, 1));
    tle_struct::BarrierWaitOp::create(Rewriter, Loc, R.Empty, Slot, Before);
    return Slot;
  }

  /// The i32 flag of slot `Slot`.
  Value flagPointer(Location Loc, const Ring &R, Value Slot) {
    return slotPointers(Loc, R.Flags, Slot, Rewriter.getI32Type());
  }

  /// Stores `Flag` into slot `Slot`, then arrives on its `full` barrier.
  void publishSlot(Location Loc, const Ring &R, Value Slot, int64_t Flag) {
    StoreOp::create(Rewriter, Loc, flagPointer(Loc, R, Slot), i32(Loc, Flag),
                    mlir::Value(), CacheModifier::None, EvictionPolicy::Normal);
    tle_struct::BarrierArriveOp::create(Rewriter, Loc, R.Full, Slot,
                                        /*count=*/1u);
  }

  Value slotOf(Location Loc, Value Count, unsigned Capacity) {
    if (Capacity == 1)
      return i32(Loc, 0);
    if (llvm::isPowerOf2_32(Capacity))
      return arith::AndIOp::create(Rewriter, Loc, Count,
                                   i32(Loc, Capacity - 1));
    return arith::RemUIOp::create(Rewriter, Loc, Count, i32(Loc, Capacity));
  }

  /// Pointers to every element of slot `Slot` of `Buffer`, in the field's
  /// shape (a scalar pointer for a scalar field).
  Value slotPointers(Location Loc, Value Buffer, Value Slot, Type Field) {
    auto BufTy = cast<tle_struct::BufferType>(Buffer.getType());
    auto PtrTy = PointerType::get(BufTy.getElementType(),
                                  BufTy.getMemoryLevel().getValue());
    auto Tensor = dyn_cast<RankedTensorType>(Field);
    if (!Tensor)
      return tle_struct::LocalPtrOp::create(Rewriter, Loc, PtrTy, Buffer,
                                            ValueRange{Slot});
    ArrayRef<int64_t> Shape = Tensor.getShape();
    Type I32 = Rewriter.getI32Type();
    auto IndexTy = RankedTensorType::get(Shape, I32);
    SmallVector<Value> Indices{SplatOp::create(Rewriter, Loc, IndexTy, Slot)};
    for (unsigned D = 0; D < Shape.size(); ++D) {
      // Dimension D's range, spread over the field's shape.
      Value Range = MakeRangeOp::create(
          Rewriter, Loc, RankedTensorType::get({Shape[D]}, I32),
          Rewriter.getI32IntegerAttr(0),
          Rewriter.getI32IntegerAttr(int32_t(Shape[D])));
      Indices.push_back(broadcastAlongDim(Rewriter, Loc, Range, D, Shape));
    }
    return tle_struct::LocalPtrOp::create(
        Rewriter, Loc, RankedTensorType::get(Shape, PtrTy), Buffer, Indices);
  }

  LogicalResult lowerOp(Operation *Op, llvm::MapVector<Value, Counters> &State) {
    Location Loc = Op->getLoc();
    if (auto Create = dyn_cast<PipeCreateOp>(Op)) {
      auto Types = getPipeRingTypes(Create);
      if (failed(Types))
        return failure();
      Rewriter.setInsertionPoint(Op);
      Ring &R = Rings[Create.getPipe()];
      R.Capacity = Create.getType().getCapacity();
      for (tle_struct::BufferType T : *Types)
        R.Buffers.push_back(
            tle_struct::AllocOp::create(Rewriter, Loc, T, TypedAttr()));
      State[Create.getPipe()] = {i32(Loc, 0), i32(Loc, 0), i32(Loc, 0)};
      if (RolePipes.contains(Create.getPipe())) {
        MLIRContext *Ctx = Rewriter.getContext();
        R.TwoRoles = true;
        R.Flags = tle_struct::AllocOp::create(
            Rewriter, Loc,
            tle_struct::BufferType::get(
                Ctx, {int64_t(R.Capacity)}, Rewriter.getI32Type(),
                StringAttr::get(Ctx, Create.getScope()), nullptr),
            TypedAttr());
        auto BarrierTy =
            tle_struct::BarrierType::get(Ctx, StringAttr::get(Ctx, "block"));
        R.Full = tle_struct::BarrierAllocOp::create(Rewriter, Loc, BarrierTy,
                                                    1u, R.Capacity);
        R.Empty = tle_struct::BarrierAllocOp::create(Rewriter, Loc, BarrierTy,
                                                     1u, R.Capacity);
      }
      return success();
    }
    if (isa<PipeWriterAcquireOp, PipeWriterCloseOp>(Op)) {
      Value Pipe = pipeOf(Op);
      Ring &R = Rings[Pipe];
      if (R.TwoRoles) {
        Counters &C = State[Pipe];
        Rewriter.setInsertionPoint(Op);
        Value Slot = acquireSlot(Loc, R, C.Written);
        if (isa<PipeWriterCloseOp>(Op)) {
          publishSlot(Loc, R, Slot, /*Flag=*/0);
          C.Written =
              arith::AddIOp::create(Rewriter, Loc, C.Written, i32(Loc, 1));
        }
      }
      Rewriter.eraseOp(Op);
      return success();
    }
    if (auto Commit = dyn_cast<PipeWriterCommitOp>(Op)) {
      Ring &R = Rings[Commit.getPipe()];
      Counters &C = State[Commit.getPipe()];
      Rewriter.setInsertionPoint(Op);
      Value Slot = R.TwoRoles ? acquireSlot(Loc, R, C.Written)
                              : slotOf(Loc, C.Written, R.Capacity);
      ArrayRef<Type> Fields = Commit.getPipe().getType().getFields();
      for (auto [Buffer, Value, Field] :
           llvm::zip(R.Buffers, Commit.getValues(), Fields))
        StoreOp::create(Rewriter, Loc, slotPointers(Loc, Buffer, Slot, Field),
                        Value, mlir::Value(), CacheModifier::None,
                        EvictionPolicy::Normal);
      if (R.TwoRoles) {
        publishSlot(Loc, R, Slot, /*Flag=*/1);
      } else {
        // Readers may hold the slot in another layout: every thread's
        // stores land before any thread reads.
        DebugBarrierOp::create(Rewriter, Loc);
      }
      C.Written = arith::AddIOp::create(Rewriter, Loc, C.Written, i32(Loc, 1));
      Rewriter.eraseOp(Op);
      return success();
    }
    if (auto Wait = dyn_cast<PipeReaderWaitOp>(Op)) {
      Ring &R = Rings[Wait.getPipe()];
      Counters &C = State[Wait.getPipe()];
      Rewriter.setInsertionPoint(Op);
      Value Valid, Slot;
      if (R.TwoRoles) {
        Value Parity;
        std::tie(Slot, Parity) = slotAndParity(Loc, C.Read, R.Capacity);
        tle_struct::BarrierWaitOp::create(Rewriter, Loc, R.Full, Slot, Parity);
        Value Flag = LoadOp::create(Rewriter, Loc, flagPointer(Loc, R, Slot),
                                    mlir::Value(), mlir::Value(),
                                    CacheModifier::None,
                                    EvictionPolicy::Normal, false);
        Valid = arith::CmpIOp::create(Rewriter, Loc, arith::CmpIPredicate::ne,
                                      Flag, i32(Loc, 0));
      } else {
        Valid = arith::CmpIOp::create(Rewriter, Loc, arith::CmpIPredicate::ult,
                                      C.Read, C.Written);
        Slot = slotOf(Loc, C.Read, R.Capacity);
      }
      SmallVector<Value> Results{Valid};
      ArrayRef<Type> Fields = Wait.getPipe().getType().getFields();
      for (auto [Buffer, Field] : llvm::zip(R.Buffers, Fields))
        Results.push_back(LoadOp::create(
            Rewriter, Loc, slotPointers(Loc, Buffer, Slot, Field),
            mlir::Value(), mlir::Value(), CacheModifier::None,
            EvictionPolicy::Normal, false));
      C.Read = arith::AddIOp::create(
          Rewriter, Loc, C.Read,
          arith::ExtUIOp::create(Rewriter, Loc, Rewriter.getI32Type(), Valid));
      Rewriter.replaceOp(Op, Results);
      return success();
    }
    if (isa<PipeReaderReleaseOp>(Op)) {
      Ring &R = Rings[pipeOf(Op)];
      Rewriter.setInsertionPoint(Op);
      if (R.TwoRoles) {
        // The arrival follows a barrier of the reader's warps: their reads
        // of the slot are done before the writer may overwrite it.
        Counters &C = State[pipeOf(Op)];
        tle_struct::BarrierArriveOp::create(
            Rewriter, Loc, R.Empty, slotOf(Loc, C.Released, R.Capacity),
            /*count=*/1u);
        C.Released =
            arith::AddIOp::create(Rewriter, Loc, C.Released, i32(Loc, 1));
      } else {
        // The next commit may overwrite the slot: every thread's reads of
        // it are done first.
        DebugBarrierOp::create(Rewriter, Loc);
      }
      Rewriter.eraseOp(Op);
      return success();
    }
    if (auto Ws = dyn_cast<tle_struct::WarpSpecializeOp>(Op)) {
      // Each partition counts its own uses from the counters before it.
      for (Region &Partition : Ws.getPartitions()) {
        llvm::MapVector<Value, Counters> Inner = State;
        if (failed(lowerBlock(Partition.front(), Inner)))
          return failure();
      }
      return success();
    }
    if (auto For = dyn_cast<scf::ForOp>(Op))
      return lowerFor(For, State);
    if (auto If = dyn_cast<scf::IfOp>(Op))
      return lowerIf(If, State);
    return success();
  }

  /// Loop-carried counters: the loop gets two iteration arguments and two
  /// results per pipe it uses.
  LogicalResult lowerFor(scf::ForOp For,
                         llvm::MapVector<Value, Counters> &State) {
    llvm::SetVector<Value> Pipes = pipesUsedIn(For);
    if (Pipes.empty()) {
      // Only pipes that live within one iteration, if any.
      llvm::MapVector<Value, Counters> Inner = State;
      return lowerBlock(*For.getBody(), Inner);
    }
    SmallVector<Value> Inits;
    for (Value Pipe : Pipes)
      llvm::append_range(Inits, counterValues(Pipe, State[Pipe]));
    unsigned First = For.getNumRegionIterArgs();
    Rewriter.setInsertionPoint(For);
    FailureOr<LoopLikeOpInterface> NewLoop =
        cast<LoopLikeOpInterface>(For.getOperation())
            .replaceWithAdditionalYields(
                Rewriter, Inits, /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument> Args) {
                  return SmallVector<Value>(Args.begin(), Args.end());
                });
    if (failed(NewLoop))
      return For.emitError("cannot carry pipe counters through this loop");
    auto NewFor = cast<scf::ForOp>(NewLoop->getOperation());
    llvm::MapVector<Value, Counters> Inner = State;
    unsigned At = First;
    for (Value Pipe : Pipes) {
      unsigned N = numCounters(Pipe);
      Inner[Pipe] = toCounters(NewFor.getRegionIterArgs().slice(At, N));
      At += N;
    }
    if (failed(lowerBlock(*NewFor.getBody(), Inner)))
      return failure();
    Operation *Yield = NewFor.getBody()->getTerminator();
    At = First;
    for (Value Pipe : Pipes) {
      SmallVector<Value> Values = counterValues(Pipe, Inner[Pipe]);
      for (auto [I, V] : llvm::enumerate(Values))
        Yield->setOperand(At + I, V);
      State[Pipe] = toCounters(NewFor.getResults().slice(At, Values.size()));
      At += Values.size();
    }
    return success();
  }

  /// Both branches yield the counters they end with; the if's new results
  /// are the counters after it.
  LogicalResult lowerIf(scf::IfOp If, llvm::MapVector<Value, Counters> &State) {
    llvm::SetVector<Value> Pipes = pipesUsedIn(If);
    Location Loc = If.getLoc();
    llvm::MapVector<Value, Counters> Then = State, Else = State;
    if (failed(lowerBlock(If.getThenRegion().front(), Then)))
      return failure();
    if (!If.getElseRegion().empty() &&
        failed(lowerBlock(If.getElseRegion().front(), Else)))
      return failure();
    if (Pipes.empty())
      return success();
    SmallVector<Type> Types(If.getResultTypes());
    for (Value Pipe : Pipes)
      Types.append(numCounters(Pipe), Rewriter.getI32Type());
    Rewriter.setInsertionPoint(If);
    auto NewIf = scf::IfOp::create(Rewriter, Loc, Types, If.getCondition(),
                                   /*withElseRegion=*/true);
    auto Move = [&](Region &From, Region &To,
                    llvm::MapVector<Value, Counters> &Counts) {
      SmallVector<Value> Yielded;
      if (From.empty()) {
        // The builder's own (empty) block takes the new yield.
        if (To.empty())
          To.emplaceBlock();
        for (Operation &Op : llvm::make_early_inc_range(To.front()))
          Rewriter.eraseOp(&Op);
      } else {
        To.getBlocks().clear();
        To.takeBody(From);
        Operation *Yield = To.front().getTerminator();
        Yielded.assign(Yield->operand_begin(), Yield->operand_end());
        Rewriter.eraseOp(Yield);
      }
      for (Value Pipe : Pipes)
        llvm::append_range(Yielded, counterValues(Pipe, Counts[Pipe]));
      Rewriter.setInsertionPointToEnd(&To.front());
      scf::YieldOp::create(Rewriter, Loc, Yielded);
    };
    Move(If.getThenRegion(), NewIf.getThenRegion(), Then);
    Move(If.getElseRegion(), NewIf.getElseRegion(), Else);
    unsigned N = If.getNumResults();
    Rewriter.replaceOp(If, NewIf.getResults().take_front(N));
    unsigned At = N;
    for (Value Pipe : Pipes) {
      State[Pipe] =
          toCounters(NewIf.getResults().slice(At, numCounters(Pipe)));
      At += numCounters(Pipe);
    }
    return success();
  }
};

class LowerPipesPass
    : public mlir::tle::impl::TLELowerPipesBase<LowerPipesPass> {
public:
  using TLELowerPipesBase::TLELowerPipesBase;

  void runOnOperation() override {
    bool Ok = true;
    getOperation()->walk([&](FuncOp Fn) {
      if (!Fn.isExternal() && failed(lowerFunction(Fn)))
        Ok = false;
    });
    if (!Ok)
      signalPassFailure();
  }

private:
  LogicalResult lowerFunction(FuncOp Fn) {
    SmallVector<PipeCreateOp> Creates;
    bool UsesPipes = false;
    Fn.walk([&](Operation *Op) {
      if (auto Create = dyn_cast<PipeCreateOp>(Op))
        Creates.push_back(Create);
      UsesPipes = UsesPipes || isPipeOp(Op);
    });
    if (Creates.empty() && !UsesPipes)
      return success();
    for (auto Arg : Fn.getArguments())
      if (isa<PipeType>(Arg.getType()))
        return Fn.emitError() << "function '" << Fn.getName()
                              << "' takes a pipe argument; pipes are lowered "
                                 "once device functions are inlined";
    for (PipeCreateOp Create : Creates)
      if (Create.getReaders() != 1)
        return Create.emitError()
               << "pipe '" << Create.getName() << "' has "
               << Create.getReaders()
               << " readers; pipes with more than one reader role are not "
                  "lowered yet";
    // A pipe that escapes into anything but its own ops (a call, a loop's
    // iteration arguments) is not followed.
    for (PipeCreateOp Create : Creates)
      for (Operation *User : Create.getPipe().getUsers())
        if (!isPipeOp(User))
          return User->emitError()
                 << "pipe '" << Create.getName()
                 << "' is passed to '" << User->getName()
                 << "'; a pipe can only be used by its own methods";
    llvm::DenseSet<Value> RolePipes;
    for (PipeCreateOp Create : Creates)
      if (failed(classify(Create, RolePipes)))
        return failure();
    Block &Body = Fn.getBody().front();
    Facts State;
    SlotChecker Checker(Fn.getName(), RolePipes);
    if (failed(Checker.checkBlock(Body, State)))
      return failure();
    IRRewriter Rewriter(&getContext());
    PipeLowering Lowering(Rewriter, RolePipes);
    llvm::MapVector<Value, Counters> Counts;
    if (failed(Lowering.lowerBlock(Body, Counts)))
      return failure();
    for (PipeCreateOp Create : Creates)
      Rewriter.eraseOp(Create);
    return success();
  }

  /// A pipe whose methods are in warp_specialize partitions: one partition
  /// (one role), or the writer's in one and the reader's in another (two
  /// roles, added to RolePipes). Anything else is an error.
  static LogicalResult classify(PipeCreateOp Create,
                                llvm::DenseSet<Value> &RolePipes) {
    Region *Home = WarpSpecializeOp::getPartitionOf(Create);
    Region *Writer = nullptr, *Reader = nullptr;
    bool HasWriter = false, HasReader = false, Commits = false;
    // In program order, so that a split role is reported at its later use.
    SmallVector<Operation *> Users;
    Create->getParentOfType<FuncOp>().walk([&](Operation *Op) {
      if (isPipeOp(Op) && pipeOf(Op) == Create.getPipe())
        Users.push_back(Op);
    });
    for (Operation *User : Users) {
      Region *Part = WarpSpecializeOp::getPartitionOf(User);
      if (Part == Home)
        Part = nullptr;
      bool Writes = isWriterOp(User);
      Region *&Side = Writes ? Writer : Reader;
      bool &Seen = Writes ? HasWriter : HasReader;
      if (Seen && Side != Part)
        return User->emitError()
               << "pipe '" << Create.getName() << "': its "
               << (Writes ? "writer" : "reader")
               << " methods are in different warp_specialize partitions (or "
                  "inside and outside one); each role is one partition";
      Side = Part;
      Seen = true;
      Commits = Commits || isa<PipeWriterCommitOp, PipeWriterCloseOp>(User);
    }
    if (!HasWriter || !HasReader || Writer == Reader)
      return success();
    if (!Writer || !Reader || Writer->getParentOp() != Reader->getParentOp())
      return Create.emitError()
             << "pipe '" << Create.getName()
             << "': its writer and reader run in different places; between "
                "two roles, both must be partitions of the same "
                "warp_specialize";
    if (!Commits)
      return Create.emitError()
             << "pipe '" << Create.getName()
             << "': the reader partition waits, but the writer partition "
                "never commits or closes it; the reader would wait forever";
    // Its barriers start at phase 0 where it is created; a warp_specialize
    // in a loop around which the roles' counters restart would wait on
    // phases that already passed.
    Operation *Ws = Writer->getParentOp();
    if (Ws->getBlock() != Create->getBlock())
      return Ws->emitError()
             << "pipe '" << Create.getName()
             << "' connects two partitions of this warp_specialize, which "
                "must then be in the same block as the pipe's creation (not "
                "inside a loop or if that the creation is outside of)";
    RolePipes.insert(Create.getPipe());
    return success();
  }
};
} // namespace
