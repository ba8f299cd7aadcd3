//===- KernelParams.cpp - A kernel's runtime parameters -------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/KernelParams.h"

#include "dialects/TLE/TLEDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace llvm;
using namespace tle;
using namespace tle::driver;

/// The --signature spelling of a scalar type: fp32, bf16, i32, ...
static std::string getScalarName(mlir::Type T) {
  if (T.isBF16())
    return "bf16";
  if (auto F = dyn_cast<mlir::FloatType>(T))
    return "fp" + std::to_string(F.getWidth());
  if (auto I = dyn_cast<mlir::IntegerType>(T))
    return (I.isUnsigned() ? "u" : "i") + std::to_string(I.getWidth());
  std::string Text;
  raw_string_ostream OS(Text);
  T.print(OS);
  return Text;
}

Expected<std::vector<KernelParam>>
tle::driver::getKernelParams(mlir::ModuleOp TileIR, StringRef Kernel) {
  auto Fn = TileIR.lookupSymbol<mlir::FunctionOpInterface>(Kernel);
  if (!Fn)
    return createStringError("the tile IR has no function '" + Kernel + "'");
  std::vector<KernelParam> Params;
  for (auto [I, T] : enumerate(Fn.getArgumentTypes())) {
    KernelParam P;
    if (auto Name = Fn.getArgAttrOfType<mlir::StringAttr>(I, "tle.name"))
      P.Name = Name.str();
    else
      P.Name = "arg" + std::to_string(I);
    if (auto Ptr = dyn_cast<mlir::tle::PointerType>(T))
      P.Type = "*" + getScalarName(Ptr.getPointeeType());
    else
      P.Type = getScalarName(T);
    Params.push_back(std::move(P));
  }
  return Params;
}
