//===- OpenClBuiltins.cpp - Calls to OpenCL C built-in functions ----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "OpenClBuiltins.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace tle {
namespace spirv {

FailureOr<Value> callBuiltin(OpBuilder &B, Location Loc, llvm::StringRef Name,
                             Type ResultType, ValueRange Args) {
  Block *Insertion = B.getInsertionBlock();
  Operation *Parent = Insertion ? Insertion->getParentOp() : nullptr;
  auto Module = dyn_cast_or_null<ModuleOp>(Parent);
  if (Parent && !Module)
    Module = Parent->getParentOfType<ModuleOp>();
  if (!Module)
    return emitError(Loc) << "spirv plugin: cannot call the OpenCL built-in "
                          << Name << " outside a module";
  MLIRContext *Ctx = B.getContext();
  Type Result = ResultType ? ResultType : LLVM::LLVMVoidType::get(Ctx);
  auto Callee = Module.lookupSymbol<LLVM::LLVMFuncOp>(Name);
  if (!Callee) {
    OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPointToStart(Module.getBody());
    SmallVector<Type> Params(Args.getTypes());
    Callee = LLVM::LLVMFuncOp::create(
        B, Loc, Name, LLVM::LLVMFunctionType::get(Result, Params));
    Callee.setCConv(LLVM::CConv::SPIR_FUNC);
  }
  auto Call = LLVM::CallOp::create(B, Loc, Callee, Args);
  Call.setCConv(LLVM::CConv::SPIR_FUNC);
  if (!ResultType)
    return Value();
  return Call.getResult();
}

std::string mangleScalarType(Type Ty) {
  if (Ty.isInteger(8))
    return "c";
  if (Ty.isInteger(16))
    return "s";
  if (Ty.isInteger(32))
    return "i";
  if (Ty.isInteger(64))
    return "l";
  if (Ty.isF16())
    return "Dh";
  if (Ty.isF32())
    return "f";
  if (Ty.isF64())
    return "d";
  return "";
}

bool isConvergentBuiltin(llvm::StringRef Name) {
  return Name == "_Z7barrierj" || Name.starts_with("_Z17sub_group_barrier") ||
         Name.contains("sub_group_shuffle");
}

bool isWorkItemQuery(llvm::StringRef Name) {
  return Name == "_Z12get_local_idj" || Name == "_Z12get_group_idj" ||
         Name == "_Z14get_num_groupsj" || Name == "_Z22get_sub_group_local_idv";
}

} // namespace spirv
} // namespace tle
