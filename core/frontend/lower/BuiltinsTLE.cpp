//===- BuiltinsTLE.cpp - TLE-Lite: portable hints (tle.*) -----------------===//
//
// Sub-tile views, async-load hints, exclusive cumsum, producer/consumer
// pipes and the device mesh, spelled as FlagTree's triton.experimental.tle
// so FlagTree kernels compile unchanged. TLE-Struct and TLE-Raw live in
// BuiltinsTLEStruct.cpp and BuiltinsTLERaw.cpp.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/BuiltinsTLE.h"

#include "dialects/TLE/TLEDialect.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace ::tle::frontend;

namespace tle::frontend {
FailureOr<std::string> requireLevelName(Emitter &E, const CallArg *A,
                                        llvm::StringRef What,
                                        const Node *Site) {
  if (A && A->Value.is(TValue::Kind::Str))
    return A->Value.getStr().str();
  // FlagTree's constants (tle.gpu.smem, tle.dsa.ascend.UB) are builtins
  // here; their last component is the alias a hardware description defines.
  if (A && A->Value.is(TValue::Kind::Builtin))
    return A->Value.getName().rsplit('.').second.str();
  return E.error(A && A->Source ? A->Source : Site,
                 What + " must be a level name such as \"block\" or a "
                        "constant such as tle.gpu.smem, got " +
                     (A ? A->Value.describe() : "nothing"));
}
} // namespace tle::frontend

namespace {
const Node *sourceOf(const CallArg *A, const Node *Site) {
  return A && A->Source ? A->Source : Site;
}

/// A constexpr bool flag (None and absent mean false).
FailureOr<bool> requireFlag(Emitter &E, const CallArg *A, llvm::StringRef What,
                            const Node *Site) {
  if (!A || A->Value.is(TValue::Kind::None))
    return false;
  if (A->Value.is(TValue::Kind::Bool) || A->Value.is(TValue::Kind::Int))
    return A->Value.isTruthy();
  return E.error(sourceOf(A, Site), What + " must be a constexpr bool, got " +
                                        A->Value.describe());
}

//===----------------------------------------------------------------------===//
// Sub-tiles, loads, cumsum
//===----------------------------------------------------------------------===//

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
  auto Index = E.convert(A->get("index")->Value,
                         DType{E.getBuilder().getI32Type()}, Site);
  if (failed(Index))
    return failure();
  auto T = cast<RankedTensorType>(X->getType());
  if (Shape->size() != static_cast<size_t>(T.getRank()))
    return E.error(Site, "tile_shape has " + llvm::Twine(Shape->size()) +
                             " dimensions for a tensor of rank " +
                             llvm::Twine(T.getRank()));
  return TValue::ir(mlir::tle::ExtractTileOp::create(
                        E.getBuilder(), E.loc(Site), T.clone(*Shape),
                        X->getValue(), Index->getValue()),
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
                        DType{getScalarType(X->getType()), X->isUnsigned()},
                        Site);
  auto Index = E.convert(A->get("index")->Value,
                         DType{E.getBuilder().getI32Type()}, Site);
  if (failed(Tile) || failed(Index))
    return failure();
  if (!isa<RankedTensorType>(Tile->getType()))
    return E.error(Site, "tile must be a tensor, got " + Tile->describe());
  return TValue::ir(mlir::tle::InsertTileOp::create(
                        E.getBuilder(), E.loc(Site), X->getValue(),
                        Tile->getValue(), Index->getValue()),
                    X->isUnsigned());
}

/// tle.load(..., is_async=): tl.load plus a hint that the load may be
/// issued asynchronously; the hint is an attribute on the tle.load op.
Result builtinLoad(Emitter &E, CallArgs &Args, const Node *Site) {
  static const llvm::StringRef LoadParams[] = {
      "pointer",        "mask",           "other",
      "boundary_check", "padding_option", "cache_modifier",
      "eviction_policy", "volatile"};
  SmallVector<llvm::StringRef> Params(std::begin(LoadParams),
                                      std::end(LoadParams));
  Params.push_back("is_async");
  auto A = E.bind(Args, Params, 1, "tle.load", Site);
  if (failed(A))
    return failure();
  auto Async = requireFlag(E, A->get("is_async"), "is_async", Site);
  if (failed(Async))
    return failure();
  CallArgs Forwarded;
  for (llvm::StringRef Name : LoadParams)
    if (const CallArg *P = A->get(Name))
      Forwarded.Keywords.push_back({Name.str(), *P});
  auto Loaded = E.callBuiltin("tl.load", Forwarded, Site);
  if (failed(Loaded))
    return failure();
  if (*Async)
    Loaded->getValue().getDefiningOp()->setAttr(
        "tle.async", UnitAttr::get(E.getContext()));
  return Loaded;
}

/// tle.cumsum(input, axis=0) -> (exclusive prefix sums, total).
Result builtinCumsum(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"input", "axis"}, 1, "tle.cumsum", Site);
  if (failed(A))
    return failure();
  auto X = E.requireTensor(A->get("input"), "input", Site);
  if (failed(X))
    return failure();
  auto T = cast<RankedTensorType>(X->getType());
  int64_t Axis = 0;
  if (A->has("axis")) {
    auto I = E.requireInt(A->get("axis"), "axis", Site);
    if (failed(I))
      return failure();
    Axis = *I < 0 ? *I + T.getRank() : *I;
    if (Axis < 0 || Axis >= T.getRank())
      return E.error(sourceOf(A->get("axis"), Site),
                     "axis " + llvm::Twine(*I) +
                         " is out of range for a tensor of rank " +
                         llvm::Twine(T.getRank()));
  }
  // As tl.cumsum: narrow integers accumulate in int32.
  TValue Src = *X;
  Type Elem = T.getElementType();
  if (isPointerType(Elem))
    return E.error(Site, "tle.cumsum needs a tensor of numbers, got " +
                             X->describe());
  if (isIntType(Elem) && Elem.getIntOrFloatBitWidth() < 32) {
    auto C = E.convert(Src, DType{E.getBuilder().getI32Type(), X->isUnsigned()},
                       Site);
    if (failed(C))
      return failure();
    Src = *C;
    T = cast<RankedTensorType>(Src.getType());
  }
  SmallVector<int64_t> TotalShape(T.getShape());
  TotalShape.erase(TotalShape.begin() + Axis);
  Type TotalType = TotalShape.empty()
                       ? T.getElementType()
                       : Type(RankedTensorType::get(TotalShape,
                                                    T.getElementType()));
  auto Op = mlir::tle::ExclusiveCumsumOp::create(
      E.getBuilder(), E.loc(Site), T, TotalType, Src.getValue(),
      static_cast<uint32_t>(Axis));
  return TValue::tuple({TValue::ir(Op.getExclusive(), Src.isUnsigned()),
                        TValue::ir(Op.getTotal(), Src.isUnsigned())});
}

//===----------------------------------------------------------------------===//
// Pipes
//===----------------------------------------------------------------------===//

/// The type one pipe field carries: a dtype (scalar), a (dtype, shape) pair
/// in either order, or an example value whose type is taken.
FailureOr<DType> pipeFieldType(Emitter &E, llvm::StringRef Name,
                               const CallArg &A, const Node *Site) {
  const TValue &V = A.Value;
  if (V.is(TValue::Kind::IR) || V.is(TValue::Kind::DType))
    return DType{V.getType(), V.isUnsigned()};
  if (V.is(TValue::Kind::Tuple) && V.getElements().size() == 2) {
    const TValue *DT = &V.getElements()[0], *Shape = &V.getElements()[1];
    if (!DT->is(TValue::Kind::DType))
      std::swap(DT, Shape);
    if (DT->is(TValue::Kind::DType)) {
      CallArg ShapeArg{*Shape, A.Source};
      std::string What = ("shape of pipe field '" + Name + "'").str();
      auto S = E.requireShape(&ShapeArg, What, Site);
      if (failed(S))
        return failure();
      return DType{RankedTensorType::get(*S, DT->getType()), DT->isUnsigned()};
    }
  }
  return E.error(sourceOf(&A, Site),
                 "pipe field '" + Name +
                     "' must be a dtype, a (dtype, shape) pair or an example "
                     "tensor, got " +
                     V.describe());
}

/// tle.pipe(capacity=1, scope="block", name="pipe", readers=1,
/// one_shot=False, **fields).
Result builtinPipe(Emitter &E, CallArgs &Args, const Node *Site) {
  static const llvm::StringRef Options[] = {"capacity", "scope", "name",
                                            "readers", "one_shot"};
  CallArgs OptionArgs;
  OptionArgs.Positional = Args.Positional;
  SmallVector<std::pair<std::string, CallArg>> Fields;
  for (const auto &KV : Args.Keywords) {
    if (llvm::is_contained(Options, KV.first))
      OptionArgs.Keywords.push_back(KV);
    else
      Fields.push_back(KV);
  }
  auto A = E.bind(OptionArgs, Options, 0, "tle.pipe", Site);
  if (failed(A))
    return failure();
  if (Fields.empty())
    return E.error(Site, "tle.pipe() needs at least one field, e.g. "
                         "x=(tl.float32, (128,))");
  int64_t Capacity = 1, Readers = 1;
  if (A->has("capacity")) {
    auto C = E.requireInt(A->get("capacity"), "capacity", Site);
    if (failed(C))
      return failure();
    Capacity = *C;
  }
  if (A->has("readers")) {
    auto R = E.requireInt(A->get("readers"), "readers", Site);
    if (failed(R))
      return failure();
    Readers = *R;
  }
  if (Capacity < 1 || Capacity > std::numeric_limits<int32_t>::max())
    return E.error(sourceOf(A->get("capacity"), Site),
                   "pipe capacity must be at least 1, got " +
                       llvm::Twine(Capacity));
  if (Readers < 1 || Readers > std::numeric_limits<int32_t>::max())
    return E.error(sourceOf(A->get("readers"), Site),
                   "pipe readers must be at least 1, got " +
                       llvm::Twine(Readers));
  std::string Scope = "block", Name = "pipe";
  if (A->has("scope")) {
    auto S = requireLevelName(E, A->get("scope"), "scope", Site);
    if (failed(S))
      return failure();
    Scope = *S;
  }
  if (A->has("name")) {
    auto N = E.requireStr(A->get("name"), "name", Site);
    if (failed(N))
      return failure();
    Name = *N;
  }
  auto OneShot = requireFlag(E, A->get("one_shot"), "one_shot", Site);
  if (failed(OneShot))
    return failure();
  SmallVector<Type> FieldTypes;
  SmallVector<bool> FieldsUnsigned;
  for (const auto &[FieldName, Arg] : Fields) {
    auto T = pipeFieldType(E, FieldName, Arg, Site);
    if (failed(T))
      return failure();
    FieldTypes.push_back(T->Type);
    FieldsUnsigned.push_back(T->IsUnsigned);
  }
  auto PipeTy = mlir::tle::PipeType::get(E.getContext(), Capacity, FieldTypes);
  Value Pipe = mlir::tle::PipeCreateOp::create(
      E.getBuilder(), E.loc(Site), PipeTy, Name, Scope, Readers, *OneShot);
  E.setPipeFieldsUnsigned(Pipe, std::move(FieldsUnsigned));
  return TValue::ir(Pipe);
}

/// Binds a pipe method that takes only the pipe; returns the pipe value.
FailureOr<Value> bindPipeSelf(Emitter &E, CallArgs &Args, llvm::StringRef Fn,
                              const Node *Site) {
  auto A = E.bind(Args, {"self"}, 1, Fn, Site);
  if (failed(A))
    return failure();
  return A->get("self")->Value.getValue();
}

Result builtinPipeWriterAcquire(Emitter &E, CallArgs &Args, const Node *Site) {
  auto P = bindPipeSelf(E, Args, "writer_acquire", Site);
  if (failed(P))
    return failure();
  mlir::tle::PipeWriterAcquireOp::create(E.getBuilder(), E.loc(Site), *P);
  return TValue::none();
}

/// pipe.writer_commit(*values): one value per field, converted to the
/// field's element type and broadcast to its shape.
Result builtinPipeWriterCommit(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"self", "*values"}, 1, "writer_commit", Site);
  if (failed(A))
    return failure();
  Value Pipe = A->get("self")->Value.getValue();
  auto PipeTy = cast<mlir::tle::PipeType>(Pipe.getType());
  ArrayRef<Type> Fields = PipeTy.getFields();
  if (A->Rest.size() != Fields.size())
    return E.error(Site, "writer_commit() takes one value per pipe field: " +
                             llvm::Twine(Fields.size()) + " expected, " +
                             llvm::Twine(A->Rest.size()) + " given");
  SmallVector<Value> Values;
  for (auto [Index, Field, Arg] : llvm::enumerate(Fields, A->Rest)) {
    const Node *Src = sourceOf(&Arg, Site);
    if (!isa<RankedTensorType>(Field) && !isIntType(Field) &&
        !isFloatType(Field) && !isPointerType(Field)) {
      if (!Arg.Value.is(TValue::Kind::IR) || Arg.Value.getType() != Field)
        return E.error(Src, "pipe field of type " + getTypeName(Field) +
                                " cannot take " + Arg.Value.describe());
      Values.push_back(Arg.Value.getValue());
      continue;
    }
    auto C = E.convert(
        Arg.Value,
        DType{getScalarType(Field), E.isPipeFieldUnsigned(Pipe, Index)}, Src);
    if (failed(C))
      return failure();
    auto B = E.broadcastTo(*C, getShape(Field), Src);
    if (failed(B))
      return failure();
    if (B->getType() != Field)
      return E.error(Src, "pipe field of type " + getTypeName(Field) +
                              " cannot take " + Arg.Value.describe());
    Values.push_back(B->getValue());
  }
  E.notePipeWrite(Pipe);
  mlir::tle::PipeWriterCommitOp::create(E.getBuilder(), E.loc(Site), Pipe,
                                        Values);
  return TValue::none();
}

Result builtinPipeWriterClose(Emitter &E, CallArgs &Args, const Node *Site) {
  auto P = bindPipeSelf(E, Args, "writer_close", Site);
  if (failed(P))
    return failure();
  mlir::tle::PipeWriterCloseOp::create(E.getBuilder(), E.loc(Site), *P);
  return TValue::none();
}

/// pipe.reader_wait() -> (valid, field values...).
Result builtinPipeReaderWait(Emitter &E, CallArgs &Args, const Node *Site) {
  auto P = bindPipeSelf(E, Args, "reader_wait", Site);
  if (failed(P))
    return failure();
  auto PipeTy = cast<mlir::tle::PipeType>(P->getType());
  E.notePipeRead(*P, Site);
  auto Op = mlir::tle::PipeReaderWaitOp::create(
      E.getBuilder(), E.loc(Site), E.getBuilder().getI1Type(),
      PipeTy.getFields(), *P);
  std::vector<TValue> Results{TValue::ir(Op.getValid())};
  for (auto [Index, V] : llvm::enumerate(Op.getValues()))
    Results.push_back(TValue::ir(V, E.isPipeFieldUnsigned(*P, Index)));
  return TValue::tuple(std::move(Results));
}

Result builtinPipeReaderRelease(Emitter &E, CallArgs &Args, const Node *Site) {
  auto P = bindPipeSelf(E, Args, "reader_release", Site);
  if (failed(P))
    return failure();
  mlir::tle::PipeReaderReleaseOp::create(E.getBuilder(), E.loc(Site), *P);
  return TValue::none();
}

/// FlagTree's writer()/reader() handle objects (acquire(k), slot.x) are a
/// richer interface than the tle.pipe ops; point to the methods we lower.
Result builtinPipeHandle(Emitter &E, CallArgs &, const Node *Site) {
  return E.error(Site, "pipe.writer()/pipe.reader() handles are not "
                       "supported yet (issue 3); use pipe.writer_acquire(), "
                       "writer_commit(...), writer_close(), reader_wait() "
                       "and reader_release()");
}

//===----------------------------------------------------------------------===//
// Device mesh and remote access
//===----------------------------------------------------------------------===//

/// tle.device_mesh(node=2, device=8, block=132): sizes per level, given as
/// keywords in any order (a dict literal is not a kernel value).
Result builtinDeviceMesh(Emitter &E, CallArgs &Args, const Node *Site) {
  if (!Args.Positional.empty())
    return E.error(sourceOf(&Args.Positional.front(), Site),
                   "tle.device_mesh() takes the topology as keywords, e.g. "
                   "tle.device_mesh(node=2, device=8)");
  if (Args.Keywords.empty())
    return E.error(Site, "tle.device_mesh() needs at least one level, e.g. "
                         "tle.device_mesh(device=8)");
  ArrayRef<llvm::StringRef> Known = mlir::tle::getMeshLevelNames();
  SmallVector<int64_t> Sizes(Known.size(), 0);
  for (const auto &[Level, Arg] : Args.Keywords) {
    const auto *It = llvm::find(Known, Level);
    if (It == Known.end())
      return E.error(sourceOf(&Arg, Site),
                     "unknown device mesh level '" + Level +
                         "' (expected node, device, chiplet, block_cluster "
                         "or block)");
    auto N = E.requireInt(&Arg, "size of mesh level '" + Level + "'", Site);
    if (failed(N))
      return failure();
    if (*N <= 0)
      return E.error(sourceOf(&Arg, Site),
                     "size of mesh level '" + Level +
                         "' must be positive, got " + llvm::Twine(*N));
    Sizes[It - Known.begin()] = *N;
  }
  // The mesh type lists levels outermost first, whatever the keyword order.
  SmallVector<Attribute> Levels;
  SmallVector<int64_t> Shape;
  for (auto [Name, Size] : llvm::zip(Known, Sizes)) {
    if (!Size)
      continue;
    Levels.push_back(StringAttr::get(E.getContext(), Name));
    Shape.push_back(Size);
  }
  auto MeshTy = mlir::tle::MeshType::get(
      E.getContext(), ArrayAttr::get(E.getContext(), Levels), Shape);
  return TValue::ir(
      mlir::tle::DeviceMeshOp::create(E.getBuilder(), E.loc(Site), MeshTy));
}

FailureOr<Value> requireMesh(Emitter &E, const CallArg *A, const Node *Site) {
  if (!A || !A->Value.is(TValue::Kind::IR) ||
      !isa<mlir::tle::MeshType>(A->Value.getType()))
    return E.error(sourceOf(A, Site),
                   "mesh must be a tle.device_mesh, got " +
                       (A ? A->Value.describe() : "nothing"));
  return A->Value.getValue();
}

/// A level of `Mesh`; absent means the outermost one.
FailureOr<std::string> requireMeshLevel(Emitter &E, Value Mesh,
                                        const CallArg *A, const Node *Site) {
  auto MeshTy = cast<mlir::tle::MeshType>(Mesh.getType());
  if (!A || A->Value.is(TValue::Kind::None))
    return cast<StringAttr>(MeshTy.getLevels()[0]).getValue().str();
  auto L = E.requireStr(A, "level", Site);
  if (failed(L))
    return failure();
  if (!MeshTy.getLevelIndex(*L)) {
    std::string Names;
    for (Attribute Level : MeshTy.getLevels())
      Names += (Names.empty() ? "" : ", ") +
               cast<StringAttr>(Level).getValue().str();
    return E.error(sourceOf(A, Site), "the mesh has no level '" + *L +
                                          "' (its levels: " + Names + ")");
  }
  return *L;
}

Result builtinShardId(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"mesh", "level"}, 2, "tle.shard_id", Site);
  if (failed(A))
    return failure();
  auto Mesh = requireMesh(E, A->get("mesh"), Site);
  if (failed(Mesh))
    return failure();
  auto Level = requireMeshLevel(E, *Mesh, A->get("level"), Site);
  if (failed(Level))
    return failure();
  return TValue::ir(mlir::tle::ShardIdOp::create(
      E.getBuilder(), E.loc(Site), *Mesh,
      StringAttr::get(E.getContext(), *Level)));
}

Result builtinDistributedBarrier(Emitter &E, CallArgs &Args,
                                 const Node *Site) {
  auto A = E.bind(Args, {"mesh", "level"}, 1, "tle.distributed_barrier",
                  Site);
  if (failed(A))
    return failure();
  auto Mesh = requireMesh(E, A->get("mesh"), Site);
  if (failed(Mesh))
    return failure();
  auto Level = requireMeshLevel(E, *Mesh, A->get("level"), Site);
  if (failed(Level))
    return failure();
  mlir::tle::DistributedBarrierOp::create(E.getBuilder(), E.loc(Site), *Mesh,
                                          *Level);
  return TValue::none();
}

/// A pointer or pointer tile argument.
Result requirePointer(Emitter &E, const CallArg *A, const Node *Site) {
  if (!A || !A->Value.is(TValue::Kind::IR) ||
      !isPointerType(getScalarType(A->Value.getType())))
    return E.error(sourceOf(A, Site),
                   "pointer must be a pointer or a tensor of pointers, got " +
                       (A ? A->Value.describe() : "nothing"));
  return A->Value;
}

/// A scalar int32 argument (constexpr ints are materialized).
FailureOr<Value> requireI32Scalar(Emitter &E, const CallArg *A,
                                  llvm::StringRef What, const Node *Site) {
  const Node *Src = sourceOf(A, Site);
  bool IsScalarInt =
      A && (A->Value.is(TValue::Kind::Int) ||
            (A->Value.is(TValue::Kind::IR) && isIntType(A->Value.getType())));
  if (!IsScalarInt)
    return E.error(Src, What + " must be a scalar integer, got " +
                            (A ? A->Value.describe() : "nothing"));
  auto C = E.convert(A->Value, DType{E.getBuilder().getI32Type()}, Src);
  if (failed(C))
    return failure();
  return C->getValue();
}

/// tle.remote(pointer, shard_id, space="device"): the same address on
/// another shard of the cluster, device set or node set.
Result builtinRemote(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A =
      E.bind(Args, {"pointer", "shard_id", "space"}, 2, "tle.remote", Site);
  if (failed(A))
    return failure();
  auto Ptr = requirePointer(E, A->get("pointer"), Site);
  auto Shard = requireI32Scalar(E, A->get("shard_id"), "shard_id", Site);
  if (failed(Ptr) || failed(Shard))
    return failure();
  mlir::tle::RemoteSpace Space = mlir::tle::RemoteSpace::Device;
  if (A->has("space")) {
    auto S = E.requireStr(A->get("space"), "space", Site);
    if (failed(S))
      return failure();
    auto R = mlir::tle::symbolizeRemoteSpace(*S);
    if (!R)
      return E.error(sourceOf(A->get("space"), Site),
                     "unknown remote space '" + *S +
                         "' (expected cluster, device or node)");
    Space = *R;
  }
  return TValue::ir(mlir::tle::RemotePtrOp::create(
                        E.getBuilder(), E.loc(Site), Ptr->getValue(), *Shard,
                        mlir::tle::RemoteSpaceAttr::get(E.getContext(), Space)),
                    Ptr->isUnsigned());
}

/// A scalar pointer to an int32/int64 signal word and a value of its type.
FailureOr<std::pair<Value, Value>>
requireSignal(Emitter &E, const BoundArgs &A, const Node *Site) {
  const CallArg *P = A.get("pointer");
  auto Ptr = requirePointer(E, P, Site);
  if (failed(Ptr))
    return failure();
  auto PtrTy = dyn_cast<mlir::tle::PointerType>(Ptr->getType());
  Type Word = PtrTy ? PtrTy.getPointeeType() : Type();
  if (!PtrTy || !(Word.isInteger(32) || Word.isInteger(64)))
    return E.error(sourceOf(P, Site),
                   "a signal must be a scalar pointer to int32 or int64, "
                   "got " +
                       Ptr->describe());
  TValue V = TValue::integer(1);
  const CallArg *VA = A.get("value");
  if (VA && !VA->Value.is(TValue::Kind::None))
    V = VA->Value;
  if (V.is(TValue::Kind::IR) && isa<RankedTensorType>(V.getType()))
    return E.error(sourceOf(VA, Site),
                   "a signal value must be a scalar, got " + V.describe());
  DType WordType{Word, Ptr->isUnsigned()};
  if (V.is(TValue::Kind::Int) && !holdsInteger(WordType, V.getWideInt()))
    return E.error(sourceOf(VA, Site),
                   "signal value " + V.describe() + " does not fit the " +
                       getDTypeName(Word, WordType.IsUnsigned) +
                       " signal word");
  auto C = E.convert(V, WordType, sourceOf(VA, Site));
  if (failed(C))
    return failure();
  return std::make_pair(Ptr->getValue(), C->getValue());
}

/// tle.signal(pointer, value=1, kind="add"|"set").
Result builtinSignal(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"pointer", "value", "kind"}, 1, "tle.signal", Site);
  if (failed(A))
    return failure();
  auto S = requireSignal(E, *A, Site);
  if (failed(S))
    return failure();
  mlir::tle::SignalKind Kind = mlir::tle::SignalKind::Add;
  if (A->has("kind")) {
    auto K = E.requireStr(A->get("kind"), "kind", Site);
    if (failed(K))
      return failure();
    auto R = mlir::tle::symbolizeSignalKind(*K);
    if (!R)
      return E.error(sourceOf(A->get("kind"), Site),
                     "unknown signal kind '" + *K + "' (expected add or set)");
    Kind = *R;
  }
  mlir::tle::SignalOp::create(E.getBuilder(), E.loc(Site), S->first, S->second,
                              Kind);
  return TValue::none();
}

/// tle.signal_wait(pointer, value, cmp="ge") -> the value observed.
Result builtinSignalWait(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"pointer", "value", "cmp"}, 2, "tle.signal_wait",
                  Site);
  if (failed(A))
    return failure();
  auto S = requireSignal(E, *A, Site);
  if (failed(S))
    return failure();
  mlir::tle::WaitCmp Cmp = mlir::tle::WaitCmp::GE;
  if (A->has("cmp")) {
    auto C = E.requireStr(A->get("cmp"), "cmp", Site);
    if (failed(C))
      return failure();
    auto R = mlir::tle::symbolizeWaitCmp(*C);
    if (!R)
      return E.error(sourceOf(A->get("cmp"), Site),
                     "unknown comparison '" + *C +
                         "' (expected eq, ne, ge, gt, le or lt)");
    Cmp = *R;
  }
  // A pointer to uint32 or uint64 waits on an unsigned comparison.
  bool Unsigned = A->get("pointer")->Value.isUnsigned();
  return TValue::ir(mlir::tle::SignalWaitOp::create(
                        E.getBuilder(), E.loc(Site), S->first, S->second,
                        mlir::tle::WaitCmpAttr::get(E.getContext(), Cmp),
                        Unsigned ? E.getBuilder().getUnitAttr() : UnitAttr()),
                    Unsigned);
}

/// Sharding specs describe how host tensors are split over a mesh; the tile
/// IR has no representation for them yet, so they are rejected clearly.
Result builtinSharding(Emitter &E, CallArgs &, const Node *Site) {
  return E.error(Site, "sharding specs (tle.sharding, make_sharded_tensor, "
                       "reshard, distributed_dot) are not supported yet "
                       "(issue 3); index shards with tle.shard_id and "
                       "tle.remote instead");
}
} // namespace

void ::tle::frontend::registerTLEBuiltins(llvm::StringMap<BuiltinFn> &Table) {
  static const std::pair<llvm::StringRef, BuiltinFn> Lite[] = {
      {"extract_tile", builtinExtractTile},
      {"insert_tile", builtinInsertTile},
      {"load", builtinLoad},
      {"cumsum", builtinCumsum},
      {"pipe", builtinPipe},
      {"device_mesh", builtinDeviceMesh},
      {"shard_id", builtinShardId},
      {"distributed_barrier", builtinDistributedBarrier},
      {"remote", builtinRemote},
      {"signal", builtinSignal},
      {"signal_wait", builtinSignalWait},
      {"sharding", builtinSharding},
      {"make_sharded_tensor", builtinSharding},
      {"reshard", builtinSharding},
      {"distributed_dot", builtinSharding},
  };
  // `import triton.experimental.tle.language.gpu as tle` spells these
  // tle.gpu.X; both spellings name one builtin.
  for (auto [Name, Fn] : Lite) {
    Table[("tle." + Name).str()] = Fn;
    Table[("tle.gpu." + Name).str()] = Fn;
  }
  Table["tle.pipe.writer_acquire"] = builtinPipeWriterAcquire;
  Table["tle.pipe.writer_commit"] = builtinPipeWriterCommit;
  Table["tle.pipe.writer_close"] = builtinPipeWriterClose;
  Table["tle.pipe.reader_wait"] = builtinPipeReaderWait;
  Table["tle.pipe.reader_release"] = builtinPipeReaderRelease;
  Table["tle.pipe.writer"] = builtinPipeHandle;
  Table["tle.pipe.reader"] = builtinPipeHandle;
  registerTLEStructBuiltins(Table);
  registerTLERawBuiltins(Table);
}
