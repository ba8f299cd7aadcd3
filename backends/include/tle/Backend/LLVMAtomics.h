//===- LLVMAtomics.h - AtomicKind as an LLVM dialect op ---------*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Backends that emit atomics as llvm.atomicrmw share the mapping from the
// core's AtomicKind to the LLVM dialect's binary operation.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_BACKEND_LLVMATOMICS_H
#define TLE_BACKEND_LLVMATOMICS_H

#include "tle/Backend/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/ErrorHandling.h"

namespace tle {
namespace backend {

/// The llvm.atomicrmw operation of Kind; compare-exchange is llvm.cmpxchg,
/// not a read-modify-write operation, and must not be asked for.
inline mlir::LLVM::AtomicBinOp getLLVMAtomicBinOp(AtomicKind Kind) {
  using mlir::LLVM::AtomicBinOp;
  switch (Kind) {
  case AtomicKind::Add:
    return AtomicBinOp::add;
  case AtomicKind::FAdd:
    return AtomicBinOp::fadd;
  case AtomicKind::Min:
    return AtomicBinOp::min;
  case AtomicKind::Max:
    return AtomicBinOp::max;
  case AtomicKind::UMin:
    return AtomicBinOp::umin;
  case AtomicKind::UMax:
    return AtomicBinOp::umax;
  case AtomicKind::And:
    return AtomicBinOp::_and;
  case AtomicKind::Or:
    return AtomicBinOp::_or;
  case AtomicKind::Xor:
    return AtomicBinOp::_xor;
  case AtomicKind::Exchange:
    return AtomicBinOp::xchg;
  case AtomicKind::CompareExchange:
    break;
  }
  llvm_unreachable("compare-exchange is not a read-modify-write op");
}

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_LLVMATOMICS_H
