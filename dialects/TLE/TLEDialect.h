//===- TLEDialect.h - The tle dialect ---------------------------*- C++ -*-===//
//
// Declares the tle dialect, its types, attributes and operations.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_DIALECTS_TLE_TLEDIALECT_H
#define TLE_DIALECTS_TLE_TLEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/TLE/TLEDialect.h.inc"
#include "dialects/TLE/TLEEnums.h.inc"
#include "dialects/TLE/TLELayoutInterfaces.h.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/TLE/TLEAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/TLE/TLETypes.h.inc"

namespace mlir::tle {
/// For `!tle.ptr<T>` returns T; for `tensor<S x !tle.ptr<T>>` returns
/// `tensor<S x T>`. Returns a null type for anything else.
Type getPointeeTypeLike(Type ptrLike);
/// i1 for a scalar, `tensor<S x i1>` for a tensor of shape S.
Type getI1TypeLike(Type like);
/// Coordinates of `linear` in a box of `sizes`, dimension order[0] fastest.
SmallVector<unsigned> delinearize(unsigned linear, ArrayRef<unsigned> sizes,
                                  ArrayRef<unsigned> order);
/// Inverse of delinearize.
unsigned linearize(ArrayRef<unsigned> coords, ArrayRef<unsigned> sizes,
                   ArrayRef<unsigned> order);
/// Row-major offset of `index` in a tensor of `shape` (the last dimension
/// fastest, as a reshape reads elements), and back.
int64_t getRowMajorOffset(ArrayRef<int64_t> index, ArrayRef<int64_t> shape);
SmallVector<int64_t> getRowMajorIndex(int64_t offset, ArrayRef<int64_t> shape);
/// The distributed layout encoding of a tensor type, or null.
DistributedLayoutAttrInterface getDistributedLayout(Type type);
/// True when every thread holds the same elements of a tensor of `shape` in
/// the same registers under `a` and `b` (a conversion between them moves
/// nothing).
bool haveSameMapping(DistributedLayoutAttrInterface a,
                     DistributedLayoutAttrInterface b, ArrayRef<int64_t> shape);
/// The operand and the register of it that one result register of a shape
/// op is.
using RegisterSource = std::pair<unsigned, unsigned>;
/// For each result of tle.trans, tle.reshape, tle.join or tle.split, in the
/// layouts of its operands and results: the source of each of its
/// registers, when every thread already holds the elements its result
/// registers need (the op moves nothing). std::nullopt when elements move
/// between threads, or for any other op.
std::optional<SmallVector<SmallVector<RegisterSource>>>
getShapeOpRegisterSources(Operation *op);
/// The bits of the lane and warp ids that move a thread's elements along
/// one dimension (and only along it): a reduction over that dimension
/// combines each thread with the threads these bits flip.
struct AxisBits {
  SmallVector<unsigned> Lanes, Warps;
};
/// The AxisBits of `layout` on `shape` for dimension `axis`; fails when a
/// bit moves elements along `axis` and another dimension at once.
FailureOr<AxisBits> getAxisBits(DistributedLayoutAttrInterface layout,
                                ArrayRef<int64_t> shape, unsigned axis);
/// The level names a device mesh may use, outermost first.
ArrayRef<StringRef> getMeshLevelNames();
} // namespace mlir::tle

#define GET_OP_CLASSES
#include "dialects/TLE/TLEOps.h.inc"

#endif // TLE_DIALECTS_TLE_TLEDIALECT_H
