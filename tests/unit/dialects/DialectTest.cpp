//===- DialectTest.cpp - Building tile IR through the C++ API -------------===//
//
// The front end builds tile IR through these builders; these tests pin down
// the C++-side behaviour the textual lit tests cannot reach (type helpers,
// builders with inferred types, folders).
//
//===----------------------------------------------------------------------===//

#include "dialects/Registration.h"
#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLERaw/TLERawDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {
class DialectTest : public ::testing::Test {
protected:
  DialectTest() {
    DialectRegistry registry;
    tle::registerTLEDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  MLIRContext context;
  OpBuilder builder{&context};
  Location loc = UnknownLoc::get(&context);
};

TEST_F(DialectTest, PointeeTypeOfPointerTensor) {
  auto f32 = builder.getF32Type();
  auto ptr = tle::PointerType::get(f32);
  auto tensor = RankedTensorType::get({128}, ptr);
  EXPECT_EQ(tle::getPointeeTypeLike(ptr), f32);
  EXPECT_EQ(tle::getPointeeTypeLike(tensor), RankedTensorType::get({128}, f32));
  EXPECT_FALSE(tle::getPointeeTypeLike(f32));
  EXPECT_EQ(tle::getI1TypeLike(tensor),
            RankedTensorType::get({128}, builder.getI1Type()));
}

TEST_F(DialectTest, PointerMemoryLevel) {
  auto global = tle::PointerType::get(builder.getI32Type());
  auto local = tle::PointerType::get(builder.getI32Type(), "block");
  EXPECT_TRUE(global.isGlobal());
  EXPECT_FALSE(local.isGlobal());
  EXPECT_EQ(local.getMemoryLevel().getValue(), "block");
  EXPECT_NE(global, local);
}

TEST_F(DialectTest, LoadBuilderInfersResultType) {
  auto module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto ptrTensor =
      RankedTensorType::get({64}, tle::PointerType::get(builder.getF16Type()));
  auto fn = tle::FuncOp::create(builder, loc, "k",
                                builder.getFunctionType({ptrTensor}, {}));
  Block *entry = fn.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  auto load = tle::LoadOp::create(builder, loc, entry->getArgument(0),
                                  /*mask=*/Value(), /*other=*/Value());
  tle::ReturnOp::create(builder, loc);
  EXPECT_EQ(load.getType(), RankedTensorType::get({64}, builder.getF16Type()));
  EXPECT_TRUE(succeeded(verify(module)));
  module->destroy();
}

TEST_F(DialectTest, MeshLevelIndex) {
  auto mesh = tle::MeshType::get(
      &context, builder.getStrArrayAttr({"node", "device"}), {2, 8});
  EXPECT_EQ(mesh.getLevelIndex("device"), 1u);
  EXPECT_FALSE(mesh.getLevelIndex("block").has_value());
}

// Empty pipes and meshes cannot be written in the textual form; the C++ API
// must still reject them.
TEST_F(DialectTest, EmptyPipeAndMeshAreRejected) {
  std::string message;
  auto emitError = [&]() {
    return mlir::emitError(loc);
  };
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_FALSE(tle::PipeType::getChecked(emitError, &context, 2, {}));
  EXPECT_EQ(message, "pipe must carry at least one field");
  EXPECT_FALSE(tle::MeshType::getChecked(emitError, &context,
                                         builder.getStrArrayAttr({}), {}));
  EXPECT_EQ(message, "device mesh must have at least one level");
}

TEST_F(DialectTest, RawCallFindsVariantByLanguage) {
  auto module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto ptx = tle_raw::VariantAttr::get(&context, builder.getStringAttr("ptx"),
                                       builder.getStringAttr("mov.b32 $0, $1;"),
                                       StringAttr(),
                                       builder.getStringAttr("=r,r"),
                                       StringAttr(), 0, 0);
  auto one = arith::ConstantIntOp::create(builder, loc, 1, 32);
  auto call = tle_raw::CallOp::create(
      builder, loc, TypeRange{builder.getI32Type()}, builder.getStringAttr("f"),
      builder.getArrayAttr({ptx}), ValueRange{one});
  EXPECT_EQ(call.getVariant("ptx"), ptx);
  EXPECT_FALSE(call.getVariant("spirv"));
  EXPECT_TRUE(succeeded(call.verify()));
  module->destroy();
}
} // namespace
