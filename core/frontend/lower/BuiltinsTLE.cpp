//===- BuiltinsTLE.cpp - The TLE surface API (tle.*, tle.gpu.*, ...) ------===//
//
// TLE-Lite, TLE-Struct and TLE-Raw calls, spelled as FlagTree's
// triton.experimental.tle so FlagTree kernels compile unchanged.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Builtins.h"
#include "core/frontend/lower/Emitter.h"

#include "dialects/TLE/TLEDialect.h"

using namespace mlir;
using namespace ::tle::frontend;

namespace {
/// tle.extract_tile(x, index, tile_shape): one sub-tile, tiles row-major.
Result builtinExtractTile(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x", "index", "tile_shape"}, 3, "tle.extract_tile",
                  Site);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("x"), "x", Site);
  auto Shape = E.requireShape(A->get("tile_shape"), "tile_shape", Site);
  if (failed(X) || failed(Shape))
    return failure();
  auto Index =
      E.convert(A->get("index")->Value, DType{E.getBuilder().getI32Type()}, Site);
  if (failed(Index))
    return failure();
  auto T = cast<RankedTensorType>(X->getType());
  if (Shape->size() != static_cast<size_t>(T.getRank()))
    return (E.error(Site, "tile_shape has " +
                                     llvm::Twine(Shape->size()) +
                                     " dimensions for a tensor of rank " +
                                     llvm::Twine(T.getRank())));
  return TValue::ir(mlir::tle::ExtractTileOp::create(E.getBuilder(), E.loc(Site),
                                               T.clone(*Shape), X->getValue(),
                                               Index->getValue()),
                    X->isUnsigned());
}

/// tle.insert_tile(x, tile, index): `x` with one sub-tile replaced.
Result builtinInsertTile(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"x", "tile", "index"}, 3, "tle.insert_tile", Site);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("x"), "x", Site);
  if (failed(X))
    return failure();
  auto Tile = E.convert(A->get("tile")->Value,
                     DType{getScalarType(X->getType()), X->isUnsigned()}, Site);
  auto Index =
      E.convert(A->get("index")->Value, DType{E.getBuilder().getI32Type()}, Site);
  if (failed(Tile) || failed(Index))
    return failure();
  if (!isa<RankedTensorType>(Tile->getType()))
    return (E.error(Site, "tile must be a tensor, got " +
                                     Tile->describe()));
  return TValue::ir(mlir::tle::InsertTileOp::create(E.getBuilder(), E.loc(Site),
                                              X->getValue(), Tile->getValue(),
                                              Index->getValue()),
                    X->isUnsigned());
}
} // namespace

void ::tle::frontend::registerTLEBuiltins(llvm::StringMap<BuiltinFn> &Table) {
  Table["tle.extract_tile"] = builtinExtractTile;
  Table["tle.insert_tile"] = builtinInsertTile;
}
