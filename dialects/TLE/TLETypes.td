//===- TLETypes.td - Types of the tle dialect --------------*- tablegen -*-===//

#ifndef TLE_TYPES_TD
#define TLE_TYPES_TD

include "dialects/TLE/TLEDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

class TLE_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TLE_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TLE_PointerType : TLE_TypeDef<"Pointer", "ptr"> {
  let summary = "Pointer to a scalar in a named memory level";
  let description = [{
    `!tle.ptr<f32>` points into device (global) memory. A second parameter
    names another memory level, resolved against the hardware description:
    `!tle.ptr<i32, "block">` points into a block-level local buffer (shared
    memory on a GPU, a scratchpad on a DSA).
  }];
  let parameters = (ins "Type":$pointeeType,
                        DefaultValuedParameter<"StringAttr",
                          "StringAttr()">:$memoryLevel);
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType,
        CArg<"StringRef", "\"\"">:$memoryLevel), [{
      auto *ctx = pointeeType.getContext();
      return $_get(ctx, pointeeType,
                   memoryLevel.empty() ? StringAttr()
                                       : StringAttr::get(ctx, memoryLevel));
    }]>
  ];
  let extraClassDeclaration = [{
    /// True for pointers into device (global) memory.
    bool isGlobal() const { return !getMemoryLevel(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TLE_TensorDescType : TLE_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "Descriptor of a strided tensor in global memory";
  let description = [{
    Created by `tle.make_tensor_descriptor`; `blockType` is the shape and
    element type of the tiles that `tle.descriptor_load/store` move.
  }];
  let parameters = (ins "RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

def TLE_PipeType : TLE_TypeDef<"Pipe", "pipe"> {
  let summary = "Producer/consumer channel inside a block (TLE-Lite)";
  let description = [{
    A ring of `capacity` slots; each slot carries one value of every field
    type. Example: `!tle.pipe<2, [tensor<128xf32>, tensor<128xi32>]>`.
  }];
  let parameters = (ins "unsigned":$capacity,
                        ArrayRefParameter<"Type">:$fields);
  let assemblyFormat = "`<` $capacity `,` `[` $fields `]` `>`";
  let genVerifyDecl = 1;
}

def TLE_MeshType : TLE_TypeDef<"Mesh", "mesh"> {
  let summary = "Device mesh over named parallel levels (TLE-Lite)";
  let description = [{
    Levels are listed outermost first and drawn from node, device, chiplet,
    block_cluster, block. Example: `!tle.mesh<["node", "device"], [2, 8]>`.
  }];
  let parameters = (ins "ArrayAttr":$levels, ArrayRefParameter<"int64_t">:$shape);
  let assemblyFormat = "`<` $levels `,` `[` $shape `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Position of `level` in this mesh, or std::nullopt.
    std::optional<unsigned> getLevelIndex(StringRef level) const;
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TLE_Ptr : Type<CPred<"::llvm::isa<::mlir::tle::PointerType>($_self)">,
                   "tle pointer", "::mlir::tle::PointerType">;
def TLE_Float : AnyTypeOf<[F8E4M3FN, F8E5M2, F16, BF16, F32, F64]>;
def TLE_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def TLE_Scalar : AnyTypeOf<[TLE_Float, TLE_Int, TLE_Ptr]>;
def TLE_Tensor : RankedTensorOf<[TLE_Float, TLE_Int, TLE_Ptr]>;
def TLE_Value : AnyTypeOf<[TLE_Scalar, TLE_Tensor]>;
def TLE_PtrTensor : RankedTensorOf<[TLE_Ptr]>;
def TLE_PtrLike : AnyTypeOf<[TLE_Ptr, TLE_PtrTensor]>;
def TLE_IntTensor : RankedTensorOf<[TLE_Int]>;
def TLE_IntLike : AnyTypeOf<[TLE_Int, TLE_IntTensor]>;
def TLE_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def TLE_FloatLike : AnyTypeOf<[TLE_Float, RankedTensorOf<[TLE_Float]>]>;
def TLE_FpIntLike : AnyTypeOf<[TLE_Float, TLE_Int,
                               RankedTensorOf<[TLE_Float, TLE_Int]>]>;
def TLE_TensorDesc : Type<CPred<"::llvm::isa<::mlir::tle::TensorDescType>($_self)">,
                          "tensor descriptor", "::mlir::tle::TensorDescType">;
def TLE_Pipe : Type<CPred<"::llvm::isa<::mlir::tle::PipeType>($_self)">,
                    "pipe", "::mlir::tle::PipeType">;
def TLE_Mesh : Type<CPred<"::llvm::isa<::mlir::tle::MeshType>($_self)">,
                    "device mesh", "::mlir::tle::MeshType">;

#endif // TLE_TYPES_TD
