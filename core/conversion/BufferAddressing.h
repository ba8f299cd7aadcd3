//===- BufferAddressing.h - Element offsets of local buffers ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Where each element of a tle_struct buffer lives in block-level memory:
// shared by local pointers (DistributeLocal.cpp) and the asynchronous copies
// and slot reads of pipelined loops (DistributeAsyncCopy.cpp), which must
// agree on it. Private to core/conversion.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_CORE_CONVERSION_BUFFERADDRESSING_H
#define TLE_CORE_CONVERSION_BUFFERADDRESSING_H

#include "core/conversion/DistributeCommon.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tle::conversion::distribute {

/// Element offsets of a buffer: strides by its dimension order (fastest
/// first; row-major without a layout) and the padding after every
/// `padInterval` elements.
struct BufferAddressing {
  llvm::SmallVector<int64_t> strides;
  /// Dimensions from fastest- to slowest-varying.
  llvm::SmallVector<int64_t> order;
  int64_t padInterval = 0, padAmount = 0;

  explicit BufferAddressing(mlir::tle_struct::BufferType type) {
    llvm::ArrayRef<int64_t> shape = type.getShape();
    if (auto layout = type.getLayout()) {
      order.assign(layout.getOrder().begin(), layout.getOrder().end());
      padInterval = layout.getPadInterval();
      padAmount = layout.getPadAmount();
    }
    if (order.size() != shape.size()) {
      order.clear();
      for (int64_t d = shape.size() - 1; d >= 0; --d)
        order.push_back(d);
    }
    strides.assign(shape.size(), 1);
    int64_t stride = 1;
    for (int64_t d : order) {
      strides[d] = stride;
      stride *= shape[d];
    }
  }

  /// Elements the buffer spans, padding included.
  int64_t span(mlir::tle_struct::BufferType type) const {
    int64_t count = 1;
    for (int64_t s : type.getShape())
      count *= s;
    if (count == 0 || padInterval <= 0)
      return count;
    return pad(count - 1) + 1;
  }
  int64_t pad(int64_t linear) const {
    return padInterval > 0 ? linear + linear / padInterval * padAmount : linear;
  }
  mlir::Value pad(mlir::OpBuilder &b, mlir::Location loc,
                  mlir::Value linear) const {
    if (padInterval <= 0 || padAmount == 0)
      return linear;
    mlir::Value groups = mlir::arith::DivUIOp::create(
        b, loc, linear, i32Const(b, loc, padInterval));
    return mlir::arith::AddIOp::create(
        b, loc, linear,
        mlir::arith::MulIOp::create(b, loc, groups,
                                    i32Const(b, loc, padAmount)));
  }
  /// Element offset (i32) of `index` (one i32 per buffer dimension).
  mlir::Value offset(mlir::OpBuilder &b, mlir::Location loc,
                     llvm::ArrayRef<mlir::Value> index) const {
    mlir::Value linear = i32Const(b, loc, 0);
    for (auto [v, stride] : llvm::zip(index, strides))
      linear = mlir::arith::AddIOp::create(
          b, loc, linear,
          stride == 1 ? v
                      : mlir::Value(mlir::arith::MulIOp::create(
                            b, loc, v, i32Const(b, loc, stride))));
    return pad(b, loc, linear);
  }
  /// The dimension that is contiguous in memory.
  unsigned fastest() const { return order.front(); }
};

} // namespace tle::conversion::distribute

#endif // TLE_CORE_CONVERSION_BUFFERADDRESSING_H
