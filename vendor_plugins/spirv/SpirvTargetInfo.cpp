//===- SpirvTargetInfo.cpp - Distribution hooks for SPIR-V ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvTargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace tle;
using namespace tle::spirv;
using backend::AtomicKind;

SpirvTargetInfo::SpirvTargetInfo(const hwdesc::HwDesc &Desc)
    : WarpSize(Desc.getWarpSize()),
      HasFloatAtomics(Desc.hasFeature("atomics_fp32")) {
  for (const hwdesc::MemoryLevel &Level : Desc.MemoryLevels)
    if (Level.AddressSpace >= 0)
      AddressSpaces[Level.Name] = Level.AddressSpace;
  for (const auto &Alias : Desc.MemoryAliases)
    if (const hwdesc::MemoryLevel *Level = Desc.getMemoryLevel(Alias.getKey()))
      if (Level->AddressSpace >= 0)
        AddressSpaces[Alias.getKey()] = Level->AddressSpace;
}

std::optional<unsigned>
SpirvTargetInfo::getAddressSpace(llvm::StringRef Level) const {
  auto It = AddressSpaces.find(Level);
  if (It == AddressSpaces.end())
    return std::nullopt;
  return It->second;
}

static FailureOr<gpu::Dimension> getDimension(Location Loc, unsigned Axis) {
  if (Axis > 2)
    return emitError(Loc) << "spirv plugin: axis " << Axis
                          << " is out of range (0..2)";
  return static_cast<gpu::Dimension>(Axis);
}

FailureOr<Value> SpirvTargetInfo::getProgramId(OpBuilder &B, Location Loc,
                                               unsigned Axis) const {
  FailureOr<gpu::Dimension> Dim = getDimension(Loc, Axis);
  if (failed(Dim))
    return failure();
  Value Id = gpu::BlockIdOp::create(B, Loc, *Dim);
  return Value(arith::IndexCastOp::create(B, Loc, B.getI32Type(), Id));
}

FailureOr<Value> SpirvTargetInfo::getNumPrograms(OpBuilder &B, Location Loc,
                                                 unsigned Axis) const {
  FailureOr<gpu::Dimension> Dim = getDimension(Loc, Axis);
  if (failed(Dim))
    return failure();
  Value Count = gpu::GridDimOp::create(B, Loc, *Dim);
  return Value(arith::IndexCastOp::create(B, Loc, B.getI32Type(), Count));
}

FailureOr<Value> SpirvTargetInfo::getThreadId(OpBuilder &B, Location Loc,
                                              unsigned Axis) const {
  FailureOr<gpu::Dimension> Dim = getDimension(Loc, Axis);
  if (failed(Dim))
    return failure();
  Value Id = gpu::ThreadIdOp::create(B, Loc, *Dim);
  return Value(arith::IndexCastOp::create(B, Loc, B.getI32Type(), Id));
}

LogicalResult SpirvTargetInfo::emitBarrier(OpBuilder &B, Location Loc,
                                           backend::BarrierScope Scope) const {
  if (Scope != backend::BarrierScope::Block)
    return emitError(Loc) << "spirv plugin: only work-group barriers are "
                             "implemented yet (issue 8)";
  gpu::BarrierOp::create(B, Loc);
  return success();
}

FailureOr<Value> SpirvTargetInfo::shuffle(OpBuilder &B, Location Loc,
                                          Value Value, mlir::Value Offset,
                                          backend::ShuffleKind Kind) const {
  gpu::ShuffleMode Mode;
  switch (Kind) {
  case backend::ShuffleKind::Xor:
    Mode = gpu::ShuffleMode::XOR;
    break;
  case backend::ShuffleKind::Up:
    Mode = gpu::ShuffleMode::UP;
    break;
  case backend::ShuffleKind::Down:
    Mode = gpu::ShuffleMode::DOWN;
    break;
  case backend::ShuffleKind::Index:
    Mode = gpu::ShuffleMode::IDX;
    break;
  }
  mlir::Value Width = arith::ConstantIntOp::create(B, Loc, WarpSize, 32);
  return mlir::Value(gpu::ShuffleOp::create(B, Loc, Value, Offset, Width, Mode)
                         .getShuffleResult());
}

bool SpirvTargetInfo::supportsAtomic(AtomicKind Kind, Type ElementType,
                                     unsigned AddressSpace) const {
  // SPIR-V's core atomics are integer ones; float add needs an extension
  // that the description lists as a feature.
  if (Kind == AtomicKind::FAdd)
    return ElementType.isF32() && HasFloatAtomics;
  return ElementType.isInteger(32) || ElementType.isInteger(64);
}

FailureOr<Value> SpirvTargetInfo::emitAtomic(OpBuilder &B, Location Loc,
                                             AtomicKind Kind, Value Ptr,
                                             Value Operand,
                                             Value Compare) const {
  return emitError(Loc)
         << "spirv plugin: atomics are not implemented yet (issue 8)";
}

FailureOr<SmallVector<Value>>
SpirvTargetInfo::emitMatrixMultiply(OpBuilder &B, Location Loc,
                                    const hwdesc::MatrixInstruction &Instr,
                                    ValueRange A, ValueRange BOperand,
                                    ValueRange C) const {
  return emitError(Loc) << "spirv plugin: matrix instruction '" << Instr.Name
                        << "' is not implemented yet (issue 8)";
}
