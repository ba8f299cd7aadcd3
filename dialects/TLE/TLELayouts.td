//===- TLELayouts.td - Layout encodings of tle tensors -----*- tablegen -*-===//
//
// Layout encodings say which thread of a program holds which element of a
// tensor. They are attached as the encoding of a RankedTensorType by
// `tle-assign-layouts` and consumed by `tle-distribute`:
//
//   #tle.blocked<...>  each thread holds a small block of contiguous elements;
//                      lanes and warps tile the tensor (Triton's blocked).
//   #tle.slice<...>    the layout of a tensor with one dimension of `parent`
//                      removed (reduction results, operands of expand_dims).
//   #tle.linear<...>   one tensor offset per bit of the register, lane and
//                      warp index; matrix-unit fragments tiled over warps.
//   #tle.shared<...>   placement of a tile in block-level memory (with an
//                      xor swizzle), used by layout conversions.
//
// Distributed layouts implement TLE_DistributedLayoutAttrInterface; plugins
// add matrix-unit layouts by implementing it for their own attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_LAYOUTS_TD
#define TLE_LAYOUTS_TD

include "dialects/TLE/TLEDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

//===----------------------------------------------------------------------===//
// The extension point
//===----------------------------------------------------------------------===//

def TLE_DistributedLayoutAttrInterface
    : AttrInterface<"DistributedLayoutAttrInterface"> {
  let cppNamespace = "::mlir::tle";
  let description = [{
    A layout that distributes the elements of a tensor over the registers of
    the threads of a program. Thread `t` of the program is lane `t % W` of
    warp `t / W` (W the warp size the layout was built for). Each thread holds
    `getTotalElemsPerThread(shape)` registers; register `r` of lane `l` in
    warp `w` holds element `getTensorIndex(shape, l, w, r)`. Several threads
    (or registers) may hold the same element when the layout covers more than
    the tensor (replication).
  }];
  let methods = [
    InterfaceMethod<"Rank of the tensors this layout applies to.",
      "unsigned", "getRank">,
    InterfaceMethod<"Lanes per warp this layout assumes.",
      "unsigned", "getWarpSize">,
    InterfaceMethod<"Warps per program this layout assumes.",
      "unsigned", "getNumWarps">,
    InterfaceMethod<"Registers per thread along each dimension for a tensor "
                    "of the given shape.",
      "::llvm::SmallVector<unsigned>", "getElemsPerThread",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<"Dimensions fastest first in which registers are "
                    "numbered: register r has per-dimension coordinates "
                    "delinearized from r in this order.",
      "::llvm::SmallVector<unsigned>", "getRegisterOrder">,
    InterfaceMethod<"Registers per thread for a tensor of the given shape.",
      "unsigned", "getTotalElemsPerThread",
      (ins "::llvm::ArrayRef<int64_t>":$shape), [{}], [{
        unsigned total = 1;
        for (unsigned n : $_attr.getElemsPerThread(shape))
          total *= n;
        return total;
      }]>,
    InterfaceMethod<"The tensor index held by register `reg` of lane `lane` "
                    "in warp `warp`.",
      "::llvm::SmallVector<int64_t>", "getTensorIndex",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "unsigned":$lane,
           "unsigned":$warp, "unsigned":$reg)>,
  ];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class TLE_LayoutAttr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TLE_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TLE_BlockedLayoutAttr : TLE_LayoutAttr<"BlockedLayout", "blocked",
    [DeclareAttrInterfaceMethods<TLE_DistributedLayoutAttrInterface>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Each thread holds blocks of sizePerThread contiguous elements";
  let description = [{
    Along dimension d, a block of `sizePerThread[d]` elements belongs to one
    thread, `threadsPerWarp[d]` consecutive blocks to the lanes of a warp and
    `warpsPerCTA[d]` such groups to the warps; the resulting tile of
    `sizePerThread[d] * threadsPerWarp[d] * warpsPerCTA[d]` elements repeats
    over larger tensors (more registers) and wraps over smaller ones
    (replication). `order` lists the dimensions fastest first: it orders the
    lanes, the warps and the registers.

    `#tle.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>`
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,` `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Elements covered by one repetition of the layout along each dimension.
    ::llvm::SmallVector<int64_t> getShapePerTile() const;
    /// The layout of tl.trans(x, order) that leaves every element of x in
    /// the thread and register holding it: result dimension k takes the
    /// parameters of dimension order[k].
    BlockedLayoutAttr getTransposed(::llvm::ArrayRef<int32_t> order) const;
  }];
}

def TLE_SliceLayoutAttr : TLE_LayoutAttr<"SliceLayout", "slice",
    [DeclareAttrInterfaceMethods<TLE_DistributedLayoutAttrInterface>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "The layout of `parent` with dimension `dim` removed";
  let description = [{
    A tensor of rank R-1 laid out as a tensor of rank R in `parent` whose
    dimension `dim` has size 1. Reductions along `dim` produce it; expanding
    it at `dim` gives back `parent`.

    `#tle.slice<dim = 1, parent = #tle.blocked<...>>`
  }];
  let parameters = (ins "unsigned":$dim,
                        "::mlir::tle::DistributedLayoutAttrInterface":$parent);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// `shape` with a 1 inserted at `dim`: the shape in the parent layout.
    ::llvm::SmallVector<int64_t> getParentShape(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TLE_LinearLayoutAttr : TLE_LayoutAttr<"LinearLayout", "linear",
    [DeclareAttrInterfaceMethods<TLE_DistributedLayoutAttrInterface>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "A layout given by one tensor offset per bit of the register, "
                "lane and warp index";
  let description = [{
    The element held by register `r` of lane `l` in warp `w` is the xor of
    the bases of the set bits of `r`, `l` and `w` (Triton's linear layouts).
    Matrix units use it: the plugin describes which lane holds which element
    of one instruction's fragment, the core tiles that over warps and
    repetitions. A zero lane or warp basis replicates the data.

    A layout applies to tensors of `shape` and to tensors that have size 1
    where `shape` does not (a row statistic expanded back for a broadcast
    into the layout): there the register bases along such a dimension are
    dropped and the lane and warp bases lose their component along it, so
    the threads that held a row of the full tensor hold its one element.
    Each register basis moves along one dimension only and the register
    bases are grouped by dimension (fastest first), so that registers form a
    grid as for blocked layouts.

    `#tle.linear<shape = [16, 8], regs = [[0, 1], [8, 0]],
                 lanes = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warps = []>`
  }];
  // Bases are stored flattened, `rank` entries per basis.
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$regBases,
                        ArrayRefParameter<"int64_t">:$laneBases,
                        ArrayRefParameter<"int64_t">:$warpBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The tensor offset of each register at lane 0 of warp 0.
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getRegisterOffsets() const;
    /// Whether the layout applies to `shape`: each dimension of `shape` is
    /// the layout's or 1.
    bool appliesTo(::llvm::ArrayRef<int64_t> shape) const;
    /// The layout as it applies to `shape` (appliesTo(shape)), with `shape`
    /// as its own: register bases along the size-1 dimensions dropped, lane
    /// and warp components along them zeroed.
    LinearLayoutAttr getForShape(::llvm::ArrayRef<int64_t> shape) const;
    /// The same elements viewed in `shape` (tle.reshape: row-major, as many
    /// elements, every size a power of two): each basis goes where its
    /// row-major offset lies in `shape`. Null when the sizes do not allow
    /// it. Register bases are regrouped by dimension, so registers may be
    /// numbered differently.
    LinearLayoutAttr getReshaped(::llvm::ArrayRef<int64_t> shape) const;
    /// Result dimension k is dimension order[k] (tle.trans).
    LinearLayoutAttr getTransposed(::llvm::ArrayRef<int32_t> order) const;
    /// Either half of tle.split (the last dimension, of size 2, dropped)
    /// when a register bit selects the half; null when a lane or warp does.
    LinearLayoutAttr getSplit() const;
    /// tle.join of two tensors in this layout: a new last dimension of size
    /// 2, selected by the lowest register bit.
    LinearLayoutAttr getJoined() const;
    /// Basis `i` of a flattened list.
    ::llvm::ArrayRef<int64_t> getBasis(::llvm::ArrayRef<int64_t> bases,
                                       unsigned i) const {
      return bases.slice(i * getShape().size(), getShape().size());
    }
  }];
}

def TLE_SharedLayoutAttr : TLE_LayoutAttr<"SharedLayout", "shared"> {
  let summary = "Placement of a tile in block-level memory with an xor swizzle";
  let description = [{
    Rows (along `order[1]`) are stored one after the other, dimension
    `order[0]` fastest. Row `r` has phase `(r / perPhase) % maxPhase` and its
    groups of `vec` elements are xor-ed with the phase, spreading column
    accesses over the banks. `vec = 1, perPhase = 1, maxPhase = 1` is the
    plain row-major placement.

    `#tle.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>`
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,` `maxPhase` `=` $maxPhase `,`
        `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
}

#endif // TLE_LAYOUTS_TD
