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
#include "llvm/Support/MathExtras.h"

namespace tle::conversion::distribute {

/// Element offsets of a buffer: strides by its dimension order (fastest
/// first; row-major without a layout) and the padding after every
/// `padInterval` elements, or the swizzled panels of a `swizzle` layout
/// (see #tle_struct.layout).
struct BufferAddressing {
  llvm::SmallVector<int64_t> strides;
  /// Dimensions from fastest- to slowest-varying.
  llvm::SmallVector<int64_t> order;
  int64_t padInterval = 0, padAmount = 0;
  /// Swizzled layouts: the swizzle width in bytes, the elements of a panel
  /// row, log2 of the element size.
  int64_t swizzle = 0, panelColumns = 0, rows = 0;
  unsigned logElementBytes = 0;

  explicit BufferAddressing(mlir::tle_struct::BufferType type) {
    llvm::ArrayRef<int64_t> shape = type.getShape();
    if (auto layout = type.getLayout()) {
      order.assign(layout.getOrder().begin(), layout.getOrder().end());
      padInterval = layout.getPadInterval();
      padAmount = layout.getPadAmount();
      swizzle = layout.getSwizzle();
    }
    unsigned elementBytes =
        std::max(1u, type.getElementType().getIntOrFloatBitWidth() / 8);
    logElementBytes = llvm::Log2_32(elementBytes);
    if (swizzle > 0) {
      panelColumns = swizzle / elementBytes;
      rows = shape[order[1]];
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
    if (swizzle > 0) {
      // Slots are whole swizzle periods: the xor needs only the offset
      // inside the slot, which stays the same from slot to slot.
      llvm::SmallVector<mlir::Value> inSlot(index.begin(), index.end());
      inSlot[0] = i32Const(b, loc, 0);
      mlir::Value slotBase = mlir::arith::MulIOp::create(
          b, loc, index[0], i32Const(b, loc, strides[0]));
      return mlir::arith::AddIOp::create(
          b, loc, slotBase,
          applySwizzle(b, loc, unswizzledOffset(b, loc, inSlot)));
    }
    mlir::Value linear = i32Const(b, loc, 0);
    for (auto [v, stride] : llvm::zip(index, strides))
      linear = mlir::arith::AddIOp::create(
          b, loc, linear,
          stride == 1 ? v
                      : mlir::Value(mlir::arith::MulIOp::create(
                            b, loc, v, i32Const(b, loc, stride))));
    return pad(b, loc, linear);
  }
  /// The element offset from `index` to `index + delta` (delta has no slot
  /// dimension) where it is the same for every `index`: whole swizzle
  /// periods of a swizzled layout ([slot, rows, cols]), whole padding
  /// intervals of a padded one.
  std::optional<int64_t> constantDelta(llvm::ArrayRef<int64_t> delta) const {
    if (swizzle > 0) {
      if (delta.size() != 2)
        return std::nullopt;
      int64_t col = delta[order[0] - 1], row = delta[order[1] - 1];
      if (col % panelColumns != 0)
        return std::nullopt;
      int64_t linear =
          col / panelColumns * rows * panelColumns + row * panelColumns;
      // The xor reads byte-offset bits 4 to 7 + log2(swizzle / 16): a
      // multiple of 8 * swizzle bytes leaves them as they were.
      if ((linear << logElementBytes) % (8 * swizzle) != 0)
        return std::nullopt;
      return linear;
    }
    int64_t linear = 0;
    for (auto [d, v] : llvm::enumerate(delta))
      linear += v * strides[d + 1];
    if (padInterval > 0 && linear % padInterval != 0)
      return std::nullopt;
    return pad(linear);
  }

  /// The dimension that is contiguous in memory.
  unsigned fastest() const { return order.front(); }

  /// A swizzled layout's element offset of `index` before the xor: where a
  /// matrix unit's descriptor points for a sub-tile starting there.
  mlir::Value unswizzledOffset(mlir::OpBuilder &b, mlir::Location loc,
                               llvm::ArrayRef<mlir::Value> index) const {
    using namespace mlir::arith;
    mlir::Value col = index[order[0]], row = index[order[1]];
    mlir::Value slotBase =
        MulIOp::create(b, loc, index[0], i32Const(b, loc, strides[0]));
    mlir::Value panel =
        MulIOp::create(b, loc, DivUIOp::create(b, loc, col, i32Const(b, loc, panelColumns)),
                       i32Const(b, loc, rows * panelColumns));
    mlir::Value inPanel = AddIOp::create(
        b, loc, MulIOp::create(b, loc, row, i32Const(b, loc, panelColumns)),
        RemUIOp::create(b, loc, col, i32Const(b, loc, panelColumns)));
    return AddIOp::create(b, loc, slotBase,
                          AddIOp::create(b, loc, panel, inPanel));
  }
  /// unswizzledOffset(index + delta) - unswizzledOffset(index) for a
  /// swizzled layout (delta = [rows, cols] of the tile, no slot), when
  /// index's contiguous coordinate is a multiple of a panel row; nullopt
  /// for a negative delta.
  std::optional<int64_t>
  unswizzledDelta(llvm::ArrayRef<int64_t> delta) const {
    if (swizzle <= 0 || delta.size() != 2)
      return std::nullopt;
    int64_t col = delta[order[0] - 1], row = delta[order[1] - 1];
    if (col < 0 || row < 0)
      return std::nullopt;
    return col / panelColumns * rows * panelColumns + row * panelColumns +
           col % panelColumns;
  }
  /// Byte offset bits 4.. xor-ed with bits 7.. (log2(swizzle / 16) of them),
  /// on element offsets.
  mlir::Value applySwizzle(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value linear) const {
    using namespace mlir::arith;
    int64_t mask = swizzle / 16 - 1;
    mlir::Value phase = AndIOp::create(
        b, loc,
        ShRUIOp::create(b, loc, linear, i32Const(b, loc, 7 - logElementBytes)),
        i32Const(b, loc, mask));
    return XOrIOp::create(
        b, loc, linear,
        ShLIOp::create(b, loc, phase, i32Const(b, loc, 4 - logElementBytes)));
  }
};

} // namespace tle::conversion::distribute

#endif // TLE_CORE_CONVERSION_BUFFERADDRESSING_H
