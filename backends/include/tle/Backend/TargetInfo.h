//===- TargetInfo.h - Hooks for distributing tiles to threads ---*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The core's distribution pass turns tile ops into per-thread code. Whatever
// differs between chips at that level -- how to read ids, synchronize, move
// values between lanes, address each memory level, and which atomics and
// matrix instructions exist -- is asked of the backend through this
// interface. Sizes and limits are not here: they come from the hardware
// description, which the TargetInfo was created for.
//
// Emitters return failure after emitting an error at Loc when the chip or the
// plugin cannot express the request; the pass then stops with that message.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_BACKEND_TARGETINFO_H
#define TLE_BACKEND_TARGETINFO_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>

namespace tle {
namespace hwdesc {
struct MatrixInstruction;
} // namespace hwdesc

namespace backend {

/// Which threads a barrier synchronizes.
enum class BarrierScope { Warp, Block, Cluster };

enum class ShuffleKind { Xor, Up, Down, Index };

enum class AtomicKind {
  Add,
  FAdd,
  Min,
  Max,
  UMin,
  UMax,
  And,
  Or,
  Xor,
  Exchange,
  CompareExchange
};

class TargetInfo {
public:
  virtual ~TargetInfo() = default;

  /// Lanes per warp (subgroup, wavefront) that distribution plans for.
  virtual unsigned getWarpSize() const = 0;

  /// The address space of the memory level named Level (a level or alias of
  /// the description: "global", "shared", "block"); std::nullopt if the chip
  /// has no such level.
  virtual std::optional<unsigned>
  getAddressSpace(llvm::StringRef Level) const = 0;

  /// The program (block) id along Axis (0..2) as an i32.
  virtual mlir::FailureOr<mlir::Value>
  getProgramId(mlir::OpBuilder &B, mlir::Location Loc, unsigned Axis) const = 0;
  /// The number of programs (blocks) in the grid along Axis (0..2) as an i32.
  virtual mlir::FailureOr<mlir::Value>
  getNumPrograms(mlir::OpBuilder &B, mlir::Location Loc,
                 unsigned Axis) const = 0;
  /// The thread id inside the block along Axis (0..2) as an i32.
  virtual mlir::FailureOr<mlir::Value>
  getThreadId(mlir::OpBuilder &B, mlir::Location Loc, unsigned Axis) const = 0;

  virtual mlir::LogicalResult emitBarrier(mlir::OpBuilder &B,
                                          mlir::Location Loc,
                                          BarrierScope Scope) const = 0;

  /// Exchanges Value between the lanes of a warp; Offset is the xor mask, the
  /// distance, or the source lane, depending on Kind.
  virtual mlir::FailureOr<mlir::Value>
  shuffle(mlir::OpBuilder &B, mlir::Location Loc, mlir::Value Value,
          mlir::Value Offset, ShuffleKind Kind) const = 0;

  virtual bool supportsAtomic(AtomicKind Kind, mlir::Type ElementType,
                              unsigned AddressSpace) const = 0;
  /// Performs Kind at Ptr with Operand (and Compare for CompareExchange) and
  /// returns the old value.
  virtual mlir::FailureOr<mlir::Value>
  emitAtomic(mlir::OpBuilder &B, mlir::Location Loc, AtomicKind Kind,
             mlir::Value Ptr, mlir::Value Operand,
             mlir::Value Compare = {}) const = 0;

  /// Emits one matrix instruction of the description on per-lane fragments;
  /// the fragment layout of A, B and C is the one the backend reported for
  /// Instr to layout assignment.
  virtual mlir::FailureOr<mlir::Value>
  emitMatrixMultiply(mlir::OpBuilder &B, mlir::Location Loc,
                     const hwdesc::MatrixInstruction &Instr, mlir::Value A,
                     mlir::Value BOperand, mlir::Value C) const = 0;
};

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_TARGETINFO_H
