//===- BuiltinsTLEStruct.cpp - TLE-Struct: explicit levels ----------------===//
//
// tle.gpu.* and tle.dsa.*: local buffers at a named memory level, pointers
// into them, copies, barriers, warp specialization and parallel regions.
// Level names are kept as written (a string or a FlagTree constant such as
// tle.gpu.smem); the hardware description resolves them in a later pass.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/BuiltinsTLE.h"

#include "dialects/TLEStruct/TLEStructDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace ::tle::frontend;
namespace ts = mlir::tle_struct;

namespace {
const Node *sourceOf(const CallArg *A, const Node *Site) {
  return A && A->Source ? A->Source : Site;
}

bool isBuffer(const TValue &V) {
  return V.is(TValue::Kind::IR) && isa<ts::BufferType>(V.getType());
}

FailureOr<Value> requireBuffer(Emitter &E, const CallArg *A,
                               llvm::StringRef What, const Node *Site) {
  if (!A || !isBuffer(A->Value))
    return E.error(sourceOf(A, Site),
                   What + " must be a local buffer (from tle.gpu.alloc or "
                          "tle.dsa.alloc), got " +
                       (A ? A->Value.describe() : "nothing"));
  return A->Value.getValue();
}

/// A buffer shape: positive constexpr ints (not necessarily powers of 2:
/// a buffer of 100 counters is fine, unlike a tile).
FailureOr<SmallVector<int64_t>> requireBufferShape(Emitter &E,
                                                   const CallArg *A,
                                                   const Node *Site) {
  SmallVector<int64_t> Shape;
  std::vector<TValue> Dims;
  if (A && A->Value.is(TValue::Kind::Tuple))
    Dims = A->Value.getElements();
  else if (A)
    Dims.push_back(A->Value);
  for (const TValue &D : Dims) {
    if (!D.is(TValue::Kind::Int) || D.getInt() <= 0)
      return E.error(sourceOf(A, Site),
                     "shape must be a tuple of positive constexpr ints, got " +
                         D.describe() + " in it");
    Shape.push_back(D.getInt());
  }
  if (Shape.empty())
    return E.error(sourceOf(A, Site), "shape must have at least one "
                                      "dimension");
  return Shape;
}

/// The element type of a buffer: an integer or floating-point dtype.
FailureOr<DType> requireBufferElement(Emitter &E, const CallArg *A,
                                      const Node *Site) {
  auto T = E.requireDType(A, "dtype", Site);
  if (failed(T))
    return failure();
  if (!T->Type.isIntOrFloat())
    return E.error(sourceOf(A, Site),
                   "local buffers hold integers or floats, got dtype " +
                       getDTypeName(T->Type));
  return *T;
}

/// The level of a buffer (`scope=`, `mem_addr_space=`); absent means
/// "block", the level a hardware description maps to shared memory, LDS or
/// a scratchpad.
FailureOr<std::string> levelOrBlock(Emitter &E, const CallArg *A,
                                    llvm::StringRef What, const Node *Site) {
  if (!A || A->Value.is(TValue::Kind::None))
    return std::string("block");
  auto L = requireLevelName(E, A, What, Site);
  if (succeeded(L) && L->empty())
    return E.error(sourceOf(A, Site), What + " must not be empty");
  return L;
}

/// Builds tle_struct.alloc; `Layout` and `Init` may be absent. The buffer's
/// value carries the elements' signedness, as a pointer does.
Result createAlloc(Emitter &E, ArrayRef<int64_t> Shape, DType ElemType,
                   llvm::StringRef Level, const CallArg *Layout,
                   const CallArg *Init, const Node *Site) {
  Type Elem = ElemType.Type;
  ts::LayoutAttr LayoutAttr;
  if (Layout && !Layout->Value.is(TValue::Kind::None)) {
    if (!Layout->Value.is(TValue::Kind::Attr) ||
        !isa<ts::LayoutAttr>(Layout->Value.getAttr()))
      return E.error(sourceOf(Layout, Site),
                     "layout must be None or a tle.gpu.padded_layout(...), "
                     "got " +
                         Layout->Value.describe());
    LayoutAttr = cast<ts::LayoutAttr>(Layout->Value.getAttr());
    if (LayoutAttr.getOrder().size() != Shape.size())
      return E.error(sourceOf(Layout, Site),
                     "layout order has " +
                         llvm::Twine(LayoutAttr.getOrder().size()) +
                         " entries for a buffer of rank " +
                         llvm::Twine(Shape.size()));
  }
  TypedAttr InitAttr;
  if (Init && !Init->Value.is(TValue::Kind::None)) {
    const TValue &V = Init->Value;
    if (!V.isNumber())
      return E.error(sourceOf(Init, Site),
                     "init_value must be a constexpr number, got " +
                         V.describe());
    if (isa<FloatType>(Elem))
      InitAttr = FloatAttr::get(Elem, V.getNumber());
    else if (V.is(TValue::Kind::Float) ||
             !holdsInteger(ElemType, V.getWideInt()))
      return E.error(sourceOf(Init, Site),
                     "init_value " + V.describe() +
                         " does not fit an integer buffer of dtype " +
                         getDTypeName(Elem, ElemType.IsUnsigned));
    else
      InitAttr = IntegerAttr::get(
          Elem, V.is(TValue::Kind::Bool) ? V.getBool() : V.getInt());
  }
  auto BufTy = ts::BufferType::get(E.getContext(), Shape, Elem,
                                   StringAttr::get(E.getContext(), Level),
                                   LayoutAttr);
  return TValue::ir(
      ts::AllocOp::create(E.getBuilder(), E.loc(Site), BufTy, InitAttr),
      ElemType.IsUnsigned);
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// tle.gpu.alloc(shape, dtype, layout=None, scope=tle.gpu.smem,
/// init_value=None, alias=None, nv_mma_shared_layout=True).
Result builtinGpuAlloc(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args,
                  {"shape", "dtype", "layout", "scope", "init_value", "alias",
                   "nv_mma_shared_layout"},
                  2, "tle.gpu.alloc", Site);
  if (failed(A))
    return failure();
  // Sharing storage between buffers needs lifetime analysis the tile IR
  // does not model yet.
  if (A->has("alias"))
    return E.error(sourceOf(A->get("alias"), Site),
                   "alias= is not supported yet (issue 3); allocate a "
                   "separate buffer");
  auto Shape = requireBufferShape(E, A->get("shape"), Site);
  auto Elem = requireBufferElement(E, A->get("dtype"), Site);
  auto Level = levelOrBlock(E, A->get("scope"), "scope", Site);
  if (failed(Shape) || failed(Elem) || failed(Level))
    return failure();
  // nv_mma_shared_layout picks FlagTree's default NVIDIA layout; here the
  // layout pass chooses one from the hardware description, so the flag is
  // accepted for compatibility and has no effect.
  return createAlloc(E, *Shape, *Elem, *Level, A->get("layout"),
                     A->get("init_value"), Site);
}

/// tle.dsa.alloc(shape, dtype, mem_addr_space="block", layout=None,
/// init_value=None).
Result builtinDsaAlloc(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args,
                  {"shape", "dtype", "mem_addr_space", "layout", "init_value"},
                  2, "tle.dsa.alloc", Site);
  if (failed(A))
    return failure();
  auto Shape = requireBufferShape(E, A->get("shape"), Site);
  auto Elem = requireBufferElement(E, A->get("dtype"), Site);
  auto Level = levelOrBlock(E, A->get("mem_addr_space"), "mem_addr_space",
                            Site);
  if (failed(Shape) || failed(Elem) || failed(Level))
    return failure();
  return createAlloc(E, *Shape, *Elem, *Level, A->get("layout"),
                     A->get("init_value"), Site);
}

/// tle.gpu.padded_layout(order, pad_interval=0, pad_amount=0): an explicit
/// buffer layout (a TLE extension; FlagTree's NVIDIA layout classes are
/// chosen by the layout pass instead).
Result builtinPaddedLayout(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"order", "pad_interval", "pad_amount"}, 1,
                  "tle.gpu.padded_layout", Site);
  if (failed(A))
    return failure();
  const CallArg *O = A->get("order");
  std::vector<TValue> Dims = O->Value.is(TValue::Kind::Tuple)
                                 ? O->Value.getElements()
                                 : std::vector<TValue>{O->Value};
  SmallVector<int64_t> Order;
  SmallVector<bool> Seen(Dims.size(), false);
  for (const TValue &D : Dims) {
    if (!D.is(TValue::Kind::Int) || D.getInt() < 0 ||
        D.getInt() >= static_cast<int64_t>(Dims.size()) || Seen[D.getInt()])
      return E.error(sourceOf(O, Site),
                     "order must be a permutation of 0.." +
                         llvm::Twine(Dims.size() - 1) + ", got " +
                         D.describe() + " in it");
    Seen[D.getInt()] = true;
    Order.push_back(D.getInt());
  }
  int64_t Interval = 0, Amount = 0;
  if (A->has("pad_interval")) {
    auto I = E.requireInt(A->get("pad_interval"), "pad_interval", Site);
    if (failed(I))
      return failure();
    Interval = *I;
  }
  if (A->has("pad_amount")) {
    auto N = E.requireInt(A->get("pad_amount"), "pad_amount", Site);
    if (failed(N))
      return failure();
    Amount = *N;
  }
  if (Interval < 0 || Amount < 0 || (Interval == 0) != (Amount == 0))
    return E.error(Site, "padding needs a positive pad_interval and a "
                         "positive pad_amount, got " +
                             llvm::Twine(Interval) + " and " +
                             llvm::Twine(Amount));
  return TValue::attr(
      ts::LayoutAttr::get(E.getContext(), Order, Interval, Amount));
}

/// tle.gpu.local_ptr(buffer, indices=None): pointers to the indexed
/// elements (one index per buffer dimension), or to every element.
Result builtinLocalPtr(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"buffer", "indices"}, 1, "local_ptr", Site);
  if (failed(A))
    return failure();
  auto Buf = requireBuffer(E, A->get("buffer"), "buffer", Site);
  if (failed(Buf))
    return failure();
  auto BufTy = cast<ts::BufferType>(Buf->getType());
  auto PtrTy = mlir::tle::PointerType::get(
      E.getContext(), BufTy.getElementType(), BufTy.getMemoryLevel());
  bool IsUnsigned = A->get("buffer")->Value.isUnsigned();
  if (!A->has("indices"))
    return TValue::ir(
        ts::LocalPtrOp::create(E.getBuilder(), E.loc(Site),
                               RankedTensorType::get(BufTy.getShape(), PtrTy),
                               *Buf, ValueRange()),
        IsUnsigned);
  const CallArg *I = A->get("indices");
  const Node *ISrc = sourceOf(I, Site);
  std::vector<TValue> Indices = I->Value.is(TValue::Kind::Tuple)
                                    ? I->Value.getElements()
                                    : std::vector<TValue>{I->Value};
  if (Indices.size() != BufTy.getShape().size())
    return E.error(ISrc, "local_ptr needs one index per buffer dimension: " +
                             llvm::Twine(BufTy.getShape().size()) +
                             " expected, " + llvm::Twine(Indices.size()) +
                             " given");
  // Scalar indices broadcast against tensor indices; all tensors must
  // already agree in shape.
  SmallVector<int64_t> Shape;
  for (const TValue &V : Indices) {
    bool IsInt = V.is(TValue::Kind::Int) ||
                 (V.is(TValue::Kind::IR) && isIntType(getScalarType(V.getType())) &&
                  !isBoolType(getScalarType(V.getType())));
    if (!IsInt)
      return E.error(ISrc, "local_ptr indices must be integers, got " +
                               V.describe());
    if (!V.is(TValue::Kind::IR) || !isa<RankedTensorType>(V.getType()))
      continue;
    ArrayRef<int64_t> S = getShape(V.getType());
    if (!Shape.empty() && ArrayRef<int64_t>(Shape) != S)
      return E.error(ISrc, "local_ptr index tensors must have one shape, got " +
                               getTypeName(V.getType()) + " and " +
                               getTypeName(RankedTensorType::get(
                                   Shape, getScalarType(V.getType()))));
    Shape.assign(S.begin(), S.end());
  }
  SmallVector<Value> Values;
  for (const TValue &V : Indices) {
    auto IR = E.toIR(V, ISrc);
    if (failed(IR))
      return failure();
    TValue X = *IR;
    if (!Shape.empty()) {
      auto B = E.broadcastTo(X, Shape, ISrc);
      if (failed(B))
        return failure();
      X = *B;
    }
    Values.push_back(X.getValue());
  }
  Type Result = Shape.empty() ? Type(PtrTy) : RankedTensorType::get(Shape, PtrTy);
  return TValue::ir(
      ts::LocalPtrOp::create(E.getBuilder(), E.loc(Site), Result, *Buf, Values),
      IsUnsigned);
}

/// tle.dsa.to_tensor(buffer): the whole buffer as a tile.
Result builtinToTensor(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"buffer"}, 1, "tle.dsa.to_tensor", Site);
  if (failed(A))
    return failure();
  auto Buf = requireBuffer(E, A->get("buffer"), "buffer", Site);
  if (failed(Buf))
    return failure();
  auto BufTy = cast<ts::BufferType>(Buf->getType());
  return TValue::ir(
      ts::ToTensorOp::create(
          E.getBuilder(), E.loc(Site),
          RankedTensorType::get(BufTy.getShape(), BufTy.getElementType()),
          *Buf),
      A->get("buffer")->Value.isUnsigned());
}

/// tle.dsa.to_buffer(tensor, mem_addr_space="block"): a tile in a new
/// local buffer.
Result builtinToBuffer(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"tensor", "mem_addr_space"}, 1, "tle.dsa.to_buffer",
                  Site);
  if (failed(A))
    return failure();
  auto T = E.requireTensor(A->get("tensor"), "tensor", Site);
  auto Level = levelOrBlock(E, A->get("mem_addr_space"), "mem_addr_space",
                            Site);
  if (failed(T) || failed(Level))
    return failure();
  auto TT = cast<RankedTensorType>(T->getType());
  if (!TT.getElementType().isIntOrFloat())
    return E.error(sourceOf(A->get("tensor"), Site),
                   "local buffers hold integers or floats, got " +
                       T->describe());
  auto BufTy = ts::BufferType::get(E.getContext(), TT.getShape(),
                                   TT.getElementType(),
                                   StringAttr::get(E.getContext(), *Level),
                                   ts::LayoutAttr());
  return TValue::ir(
      ts::ToBufferOp::create(E.getBuilder(), E.loc(Site), BufTy, T->getValue()),
      T->isUnsigned());
}

//===----------------------------------------------------------------------===//
// Copies and barriers
//===----------------------------------------------------------------------===//

/// Shape and element type of a copy endpoint: a buffer or pointer tile.
std::optional<std::pair<SmallVector<int64_t>, Type>>
copyEndpoint(const TValue &V) {
  if (isBuffer(V)) {
    auto B = cast<ts::BufferType>(V.getType());
    return std::make_pair(SmallVector<int64_t>(B.getShape()),
                          B.getElementType());
  }
  if (V.is(TValue::Kind::IR))
    if (auto T = dyn_cast<RankedTensorType>(V.getType()))
      if (auto P = dyn_cast<mlir::tle::PointerType>(T.getElementType()))
        return std::make_pair(SmallVector<int64_t>(T.getShape()),
                              P.getPointeeType());
  return std::nullopt;
}

/// "[16, 4]" for diagnostics.
std::string shapeString(ArrayRef<int64_t> Shape) {
  std::string S = "[";
  for (auto [I, D] : llvm::enumerate(Shape))
    S += (I ? ", " : "") + std::to_string(D);
  return S + "]";
}

FailureOr<Value> requireBarrier(Emitter &E, const CallArg *A,
                                const Node *Site) {
  if (!A || !A->Value.is(TValue::Kind::IR) ||
      !isa<ts::BarrierType>(A->Value.getType()))
    return E.error(sourceOf(A, Site),
                   "barrier must be a barrier from tle.gpu.alloc_barrier, "
                   "got " +
                       (A ? A->Value.describe() : "nothing"));
  return A->Value.getValue();
}

/// tle.gpu.copy(src, dst, shape=None, offsets=None, barrier=None,
/// mask=None) and tle.dsa.copy: between a buffer and a pointer tile (or two
/// buffers). With a barrier the copy is asynchronous and completes when
/// the barrier is waited on.
Result copy(Emitter &E, CallArgs &Args, const Node *Site, llvm::StringRef Fn) {
  auto A = E.bind(Args, {"src", "dst", "shape", "offsets", "barrier", "mask"},
                  2, Fn, Site);
  if (failed(A))
    return failure();
  const CallArg *Src = A->get("src"), *Dst = A->get("dst");
  auto SrcEnd = copyEndpoint(Src->Value), DstEnd = copyEndpoint(Dst->Value);
  const char *Kinds = " must be a local buffer or a tensor of pointers, got ";
  if (!SrcEnd)
    return E.error(sourceOf(Src, Site), "src" + llvm::Twine(Kinds) +
                                            Src->Value.describe());
  if (!DstEnd)
    return E.error(sourceOf(Dst, Site), "dst" + llvm::Twine(Kinds) +
                                            Dst->Value.describe());
  if (A->has("offsets"))
    return E.error(sourceOf(A->get("offsets"), Site),
                   "offsets= addresses a tensor descriptor (TMA copy), which " +
                       Fn + "() does not support yet (issue 3); pass a tensor "
                            "of pointers");
  if (SrcEnd->first != DstEnd->first)
    return E.error(Site, Fn + "() copies between different shapes: src is " +
                             shapeString(SrcEnd->first) + ", dst is " +
                             shapeString(DstEnd->first));
  if (SrcEnd->second != DstEnd->second)
    return E.error(Site, Fn + "() copies between element types " +
                             getDTypeName(SrcEnd->second) + " and " +
                             getDTypeName(DstEnd->second));
  if (A->has("shape")) {
    auto Shape = requireBufferShape(E, A->get("shape"), Site);
    if (failed(Shape))
      return failure();
    if (*Shape != SrcEnd->first)
      return E.error(sourceOf(A->get("shape"), Site),
                     "shape " + shapeString(*Shape) +
                         " does not match the copied shape " +
                         shapeString(SrcEnd->first));
  }
  Value Mask, Barrier;
  if (A->has("mask")) {
    const Node *MSrc = sourceOf(A->get("mask"), Site);
    auto M = E.convert(A->get("mask")->Value, DType{E.getBuilder().getI1Type()},
                       MSrc);
    if (failed(M))
      return failure();
    auto B = E.broadcastTo(*M, SrcEnd->first, MSrc);
    if (failed(B))
      return failure();
    Mask = B->getValue();
  }
  if (A->has("barrier")) {
    auto B = requireBarrier(E, A->get("barrier"), Site);
    if (failed(B))
      return failure();
    Barrier = *B;
  }
  ts::CopyOp::create(E.getBuilder(), E.loc(Site), Src->Value.getValue(),
                     Dst->Value.getValue(), Mask, Barrier,
                     /*async=*/static_cast<bool>(Barrier));
  return TValue::none();
}

Result builtinGpuCopy(Emitter &E, CallArgs &Args, const Node *Site) {
  return copy(E, Args, Site, "tle.gpu.copy");
}

Result builtinDsaCopy(Emitter &E, CallArgs &Args, const Node *Site) {
  return copy(E, Args, Site, "tle.dsa.copy");
}

FailureOr<int64_t> requirePositive(Emitter &E, const CallArg *A,
                                   llvm::StringRef What, int64_t Default,
                                   const Node *Site) {
  if (!A || A->Value.is(TValue::Kind::None))
    return Default;
  auto N = E.requireInt(A, What, Site);
  if (failed(N))
    return failure();
  if (*N < 1 || *N > std::numeric_limits<int32_t>::max())
    return E.error(sourceOf(A, Site),
                   What + " must be positive, got " + llvm::Twine(*N));
  return *N;
}

Value createBarrier(Emitter &E, int64_t Count, llvm::StringRef Scope,
                    const Node *Site) {
  auto Ty = ts::BarrierType::get(E.getContext(),
                                 StringAttr::get(E.getContext(), Scope));
  return ts::BarrierAllocOp::create(E.getBuilder(), E.loc(Site), Ty,
                                    static_cast<uint32_t>(Count),
                                    /*num=*/1u);
}

/// tle.gpu.alloc_barrier(count=1, scope="block"): a barrier expecting
/// `count` arrivals per phase.
Result builtinAllocBarrier(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"count", "scope"}, 0, "tle.gpu.alloc_barrier", Site);
  if (failed(A))
    return failure();
  auto Count = requirePositive(E, A->get("count"), "count", 1, Site);
  auto Scope = levelOrBlock(E, A->get("scope"), "scope", Site);
  if (failed(Count) || failed(Scope))
    return failure();
  return TValue::ir(createBarrier(E, *Count, *Scope, Site));
}

/// tle.gpu.alloc_barriers(num, count=1, scope="block"): a tuple of barriers.
Result builtinAllocBarriers(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"num", "count", "scope"}, 1,
                  "tle.gpu.alloc_barriers", Site);
  if (failed(A))
    return failure();
  auto Num = requirePositive(E, A->get("num"), "num", 1, Site);
  auto Count = requirePositive(E, A->get("count"), "count", 1, Site);
  auto Scope = levelOrBlock(E, A->get("scope"), "scope", Site);
  if (failed(Num) || failed(Count) || failed(Scope))
    return failure();
  std::vector<TValue> Barriers;
  for (int64_t I = 0; I < *Num; ++I)
    Barriers.push_back(TValue::ir(createBarrier(E, *Count, *Scope, Site)));
  return TValue::tuple(std::move(Barriers));
}

Result builtinBarrierArrive(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"barrier", "count"}, 1, "tle.gpu.barrier_arrive",
                  Site);
  if (failed(A))
    return failure();
  auto B = requireBarrier(E, A->get("barrier"), Site);
  auto Count = requirePositive(E, A->get("count"), "count", 1, Site);
  if (failed(B) || failed(Count))
    return failure();
  ts::BarrierArriveOp::create(E.getBuilder(), E.loc(Site), *B,
                              /*index=*/Value(),
                              static_cast<uint32_t>(*Count));
  return TValue::none();
}

/// tle.gpu.barrier_wait(barrier, phase): phase is a scalar integer.
Result builtinBarrierWait(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"barrier", "phase"}, 2, "tle.gpu.barrier_wait",
                  Site);
  if (failed(A))
    return failure();
  auto B = requireBarrier(E, A->get("barrier"), Site);
  if (failed(B))
    return failure();
  const CallArg *P = A->get("phase");
  const Node *PSrc = sourceOf(P, Site);
  bool IsScalarInt =
      P->Value.is(TValue::Kind::Int) || P->Value.is(TValue::Kind::Bool) ||
      (P->Value.is(TValue::Kind::IR) && isIntType(P->Value.getType()));
  if (!IsScalarInt)
    return E.error(PSrc, "phase must be a scalar integer, got " +
                             P->Value.describe());
  auto Phase = E.convert(P->Value, DType{E.getBuilder().getI32Type()}, PSrc);
  if (failed(Phase))
    return failure();
  ts::BarrierWaitOp::create(E.getBuilder(), E.loc(Site), *B,
                            /*index=*/Value(), Phase->getValue());
  return TValue::none();
}

//===----------------------------------------------------------------------===//
// Parallel structure
//===----------------------------------------------------------------------===//

/// tle.gpu.warp_specialize([(fn, args), ...], worker_num_warps,
/// worker_num_regs=None, num_warps=4): the first function is the default
/// partition (running on `num_warps` warps), each further one a worker on
/// its entry of worker_num_warps. Each partition is a jit call inlined into
/// its own region.
Result builtinWarpSpecialize(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args,
                  {"functions_and_args", "worker_num_warps", "worker_num_regs",
                   "num_warps"},
                  2, "tle.gpu.warp_specialize", Site);
  if (failed(A))
    return failure();
  const CallArg *FA = A->get("functions_and_args");
  const Node *FSrc = sourceOf(FA, Site);
  if (!FA->Value.is(TValue::Kind::Tuple) || FA->Value.getElements().empty())
    return E.error(FSrc, "functions_and_args must be a list of (function, "
                         "args) pairs, got " +
                             FA->Value.describe());
  const std::vector<TValue> &Parts = FA->Value.getElements();
  for (const TValue &P : Parts)
    if (!P.is(TValue::Kind::Tuple) || P.getElements().size() != 2 ||
        !P.getElements()[0].is(TValue::Kind::Function) ||
        !P.getElements()[1].is(TValue::Kind::Tuple))
      return E.error(FSrc, "each partition must be a (jit function, args "
                           "tuple) pair, got " +
                               P.describe());
  const CallArg *WA = A->get("worker_num_warps");
  std::vector<TValue> Workers = WA->Value.is(TValue::Kind::Tuple)
                                    ? WA->Value.getElements()
                                    : std::vector<TValue>{WA->Value};
  if (Workers.size() != Parts.size() - 1)
    return E.error(sourceOf(WA, Site),
                   "worker_num_warps needs one entry per worker partition: " +
                       llvm::Twine(Parts.size() - 1) + " expected, " +
                       llvm::Twine(Workers.size()) + " given");
  auto Default = requirePositive(E, A->get("num_warps"), "num_warps", 4, Site);
  if (failed(Default))
    return failure();
  SmallVector<int32_t> NumWarps{static_cast<int32_t>(*Default)};
  for (const TValue &W : Workers) {
    CallArg WArg{W, WA->Source};
    auto N = requirePositive(E, &WArg, "worker_num_warps entry", 1, Site);
    if (failed(N))
      return failure();
    NumWarps.push_back(static_cast<int32_t>(*N));
  }
  // Register budgets are a backend decision; worker_num_regs is accepted as
  // a hint and recorded on the op.
  OpBuilder &B = E.getBuilder();
  auto Op = ts::WarpSpecializeOp::create(B, E.loc(Site), NumWarps,
                                         static_cast<unsigned>(Parts.size()));
  if (A->has("worker_num_regs")) {
    auto Regs = requireBufferShape(E, A->get("worker_num_regs"), Site);
    if (failed(Regs))
      return failure();
    SmallVector<int32_t> Regs32(Regs->begin(), Regs->end());
    Op->setAttr("worker_num_regs", B.getDenseI32ArrayAttr(Regs32));
  }
  for (auto [Region, P] : llvm::zip(Op.getPartitions(), Parts)) {
    OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPointToStart(&Region.emplaceBlock());
    CallArgs PartArgs;
    for (const TValue &V : P.getElements()[1].getElements())
      PartArgs.Positional.push_back({V, FA->Source});
    auto R = E.callJit(*P.getElements()[0].getFunction(), PartArgs, Site);
    if (failed(R))
      return failure();
    if (!R->is(TValue::Kind::None))
      return E.error(Site, "warp_specialize partitions cannot return values "
                           "yet; store results to memory");
    ts::YieldOp::create(B, E.loc(Site));
  }
  return TValue::none();
}

/// tle.gpu.memory_space(x, space) and tle.dsa.hint(x, **hints) attach
/// metadata to the op that defines `x` and return `x`.
Result builtinMemorySpace(Emitter &E, CallArgs &Args, const Node *Site) {
  auto A = E.bind(Args, {"input", "space"}, 2, "tle.gpu.memory_space", Site);
  if (failed(A))
    return failure();
  const CallArg *In = A->get("input");
  if (!In->Value.is(TValue::Kind::IR) || !In->Value.getValue().getDefiningOp())
    return E.error(sourceOf(In, Site),
                   "input must be a value computed in the kernel, got " +
                       In->Value.describe());
  auto Space = requireLevelName(E, A->get("space"), "space", Site);
  if (failed(Space))
    return failure();
  In->Value.getValue().getDefiningOp()->setAttr(
      "tle.memory_space", StringAttr::get(E.getContext(), *Space));
  return In->Value;
}

Result builtinHint(Emitter &E, CallArgs &Args, const Node *Site) {
  // Every keyword is a hint; only the input is bound by position.
  CallArgs Input;
  Input.Positional = Args.Positional;
  auto A = E.bind(Input, {"input"}, 1, "tle.dsa.hint", Site);
  if (failed(A))
    return failure();
  const CallArg *In = A->get("input");
  if (!In->Value.is(TValue::Kind::IR) || !In->Value.getValue().getDefiningOp())
    return E.error(sourceOf(In, Site),
                   "input must be a value computed in the kernel, got " +
                       In->Value.describe());
  if (Args.Keywords.empty())
    return E.error(Site, "tle.dsa.hint() needs at least one hint, e.g. "
                         "tle.dsa.hint(x, vectorize=4)");
  Operation *Def = In->Value.getValue().getDefiningOp();
  for (const auto &[Name, Arg] : Args.Keywords) {
    const TValue &V = Arg.Value;
    Attribute Attr;
    if (V.is(TValue::Kind::Int))
      Attr = E.getBuilder().getI64IntegerAttr(V.getInt());
    else if (V.is(TValue::Kind::Bool))
      Attr = E.getBuilder().getBoolAttr(V.getBool());
    else if (V.is(TValue::Kind::Str))
      Attr = E.getBuilder().getStringAttr(V.getStr());
    else
      return E.error(sourceOf(&Arg, Site),
                     "hint '" + Name +
                         "' must be a constexpr int, bool or string, got " +
                         V.describe());
    Def->setAttr("tle.hint." + Name, Attr);
  }
  return In->Value;
}

/// Layouts of tiles are chosen by the layout pass from the hardware
/// description; pinning one by hand is not expressible yet.
Result builtinSetLayout(Emitter &E, CallArgs &, const Node *Site) {
  return E.error(Site, "tle.gpu.set_layout is not supported yet (issue 3): "
                       "tile layouts are assigned by the compiler; give "
                       "buffers an explicit layout with "
                       "tle.gpu.padded_layout instead");
}
} // namespace

namespace tle::frontend {
LogicalResult lowerParallelFor(Emitter &E, const ForStmt *S,
                               const CallExpr *Call) {
  auto Callee = E.lowerExpr(Call->Func);
  if (failed(Callee))
    return failure();
  CallArgs Args;
  for (const Expr *Arg : Call->Args) {
    auto V = E.lowerExpr(Arg);
    if (failed(V))
      return failure();
    Args.Positional.push_back({*V, Arg});
  }
  for (const Keyword &K : Call->Keywords) {
    auto V = E.lowerExpr(K.Value);
    if (failed(V))
      return failure();
    Args.Keywords.push_back({K.Arg.str(), CallArg{*V, K.Value}});
  }
  // parallel(end) / parallel(start, end, step=1, level="core"): one unit of
  // `level` per iteration; the loop variable is start + unit_id * step.
  auto A = E.bind(Args, {"arg1", "arg2", "step", "level"}, 1,
                  "tle.dsa.parallel", Call);
  if (failed(A))
    return failure();
  int64_t Start = 0, End, Step = 1;
  auto First = E.requireInt(A->get("arg1"), "tle.dsa.parallel bound", Call);
  if (failed(First))
    return failure();
  End = *First;
  if (A->has("arg2")) {
    auto Second = E.requireInt(A->get("arg2"), "tle.dsa.parallel bound", Call);
    if (failed(Second))
      return failure();
    Start = *First;
    End = *Second;
  }
  if (A->has("step")) {
    auto St = E.requireInt(A->get("step"), "step", Call);
    if (failed(St))
      return failure();
    Step = *St;
  }
  if (Step <= 0)
    return E.error(Call, "tle.dsa.parallel step must be positive, got " +
                             llvm::Twine(Step));
  int64_t Num = End > Start ? (End - Start + Step - 1) / Step : 0;
  if (Num < 1 || Num > std::numeric_limits<int32_t>::max())
    return E.error(Call, "tle.dsa.parallel needs at least one unit, got the "
                         "empty range [" +
                             llvm::Twine(Start) + ", " + llvm::Twine(End) +
                             ")");
  std::string Level = "core";
  if (A->has("level")) {
    auto L = requireLevelName(E, A->get("level"), "level", Call);
    if (failed(L))
      return failure();
    Level = *L;
  }
  OpBuilder &B = E.getBuilder();
  Location L = E.loc(Call);
  auto Par = ts::ParallelOp::create(B, L, Level, static_cast<uint32_t>(Num));
  OpBuilder::InsertionGuard Guard(B);
  B.setInsertionPointToStart(&Par.getBody().emplaceBlock());
  Value Index = ts::UnitIdOp::create(B, L, B.getI32Type());
  if (Step != 1)
    Index = arith::MulIOp::create(
        B, L, Index, arith::ConstantIntOp::create(B, L, Step, 32));
  if (Start != 0)
    Index = arith::AddIOp::create(
        B, L, Index, arith::ConstantIntOp::create(B, L, Start, 32));
  // The region has no results: names bound inside stay inside, and
  // rebinding an outer name there is an error rather than a silent no-op.
  llvm::StringMap<TValue> Outer = E.saveLocals();
  if (failed(E.assign(S->Target, TValue::ir(Index))) ||
      failed(E.lowerLoopBody(S->Body)))
    return failure();
  llvm::StringMap<TValue> Inner = E.saveLocals();
  for (const auto &KV : Outer) {
    auto It = Inner.find(KV.getKey());
    if (It != Inner.end() && !It->second.isSameValue(KV.getValue()))
      return E.error(S, "'" + KV.getKey() +
                            "' is reassigned inside a tle.dsa.parallel loop; "
                            "values cannot flow out of a parallel region "
                            "(store them to memory instead)");
  }
  E.restoreLocals(std::move(Outer));
  ts::YieldOp::create(B, L);
  return success();
}
} // namespace tle::frontend

void ::tle::frontend::registerTLEStructBuiltins(
    llvm::StringMap<BuiltinFn> &Table) {
  Table["tle.gpu.alloc"] = builtinGpuAlloc;
  Table["tle.gpu.padded_layout"] = builtinPaddedLayout;
  Table["tle.gpu.local_ptr"] = builtinLocalPtr;
  Table["tle.gpu.copy"] = builtinGpuCopy;
  Table["tle.gpu.alloc_barrier"] = builtinAllocBarrier;
  Table["tle.gpu.alloc_barriers"] = builtinAllocBarriers;
  Table["tle.gpu.barrier_arrive"] = builtinBarrierArrive;
  Table["tle.gpu.barrier_wait"] = builtinBarrierWait;
  Table["tle.gpu.warp_specialize"] = builtinWarpSpecialize;
  Table["tle.gpu.memory_space"] = builtinMemorySpace;
  Table["tle.gpu.storage_kind"] = builtinMemorySpace;
  Table["tle.gpu.set_layout"] = builtinSetLayout;
  Table["tle.dsa.alloc"] = builtinDsaAlloc;
  Table["tle.dsa.padded_layout"] = builtinPaddedLayout;
  Table["tle.dsa.local_ptr"] = builtinLocalPtr;
  Table["tle.dsa.copy"] = builtinDsaCopy;
  Table["tle.dsa.to_tensor"] = builtinToTensor;
  Table["tle.dsa.to_buffer"] = builtinToBuffer;
  Table["tle.dsa.hint"] = builtinHint;
}
