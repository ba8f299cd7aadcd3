//===- DistributeRaw.cpp - tle_raw.call as inline assembly ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A tle_raw.call sees tiles per thread: every thread runs the native code
// once per element it holds, with scalars passed to every call. The first
// variant (in the kernel's order) whose language the chip's description
// accepts is used:
//  - inline assembly (a language with constraints: ptx, amdgcn) becomes one
//    `llvm.inline_asm` (with side effects, as the op's are unknown) per
//    element, located at the call and at the native code (a FusedLoc tagged
//    "tle_raw"), so that a plugin can map its assembler's errors back;
//  - any other language is a function: one `llvm.func` declaration per
//    variant, carrying it as `tle_raw.variant`, called once per element.
//    The plugin compiles the code with its vendor's toolchain and links it
//    in before optimization (tle/Backend/RawCode.h), so the call inlines.
//
//===----------------------------------------------------------------------===//

#include "core/conversion/DistributeCommon.h"
#include "dialects/TLERaw/TLERawDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tle/Backend/RawCode.h"

using namespace mlir;
using namespace mlir::tle;
using namespace ::tle::conversion::distribute;

namespace {

/// How many outputs (`=...`) and inputs an inline-assembly constraint string
/// lists; clobbers (`~{...}`) are neither.
std::pair<unsigned, unsigned> countOperands(StringRef constraints) {
  unsigned outputs = 0, inputs = 0;
  SmallVector<StringRef> entries;
  constraints.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    entry = entry.trim();
    if (entry.starts_with("="))
      ++outputs;
    else if (!entry.starts_with("~"))
      ++inputs;
  }
  return {outputs, inputs};
}

struct RawCallConversion : DistPattern<tle_raw::CallOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(tle_raw::CallOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tle_raw::VariantAttr chosen;
    std::string offered;
    for (Attribute attr : op.getVariants()) {
      auto variant = dyn_cast<tle_raw::VariantAttr>(attr);
      if (!variant)
        continue;
      StringRef language = variant.getLanguage().getValue();
      offered += (offered.empty() ? "" : ", ") + language.str();
      if (!chosen && llvm::is_contained(st.rawLanguages, language))
        chosen = variant;
    }
    if (!chosen)
      return op.emitError()
             << "tle_raw.call \"" << op.getName()
             << "\" has no variant in a language this target accepts "
                "(offered: "
             << offered << ")";
    StringRef language = chosen.getLanguage().getValue();
    bool inlineAsm = language == "ptx" || language == "amdgcn";
    if (inlineAsm && !chosen.getConstraints())
      return op.emitError()
             << "the " << language << " variant of \"" << op.getName()
             << "\" is inline assembly and needs constraints, e.g. "
                "@dialect(name=\"ptx\", constraints=\"=r,r,r\")";
    if (chosen.getFile()) {
      Location code = FileLineColLoc::get(chosen.getFile(), chosen.getLine(),
                                          chosen.getColumn());
      loc = FusedLoc::get({loc, code}, rewriter.getStringAttr("tle_raw"),
                          rewriter.getContext());
    }

    // One call takes `pack` consecutive elements of the thread (1 but for
    // packed inline assembly); a value narrower than 32 bits travels as
    // vectors of getElementsPerRegister elements.
    unsigned pack = op.getPack();
    auto registerType = [&](Type type) {
      Type element =
          getTypeConverter()->convertType(getElementTypeOrSelf(type));
      unsigned perRegister = op.getElementsPerRegister(type);
      return perRegister > 1 ? VectorType::get(perRegister, element) : element;
    };
    SmallVector<Type> registerTypes;
    for (Type t : op.getResultTypes())
      registerTypes.append(pack / op.getElementsPerRegister(t),
                           registerType(t));
    Type asmResult;
    if (registerTypes.size() == 1)
      asmResult = registerTypes[0];
    else if (!registerTypes.empty())
      asmResult = LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                                   registerTypes);

    if (inlineAsm) {
      // LLVM aborts on a mismatch; say it in the kernel's terms instead.
      unsigned operandRegisters = 0;
      for (Value arg : op.getArgs())
        operandRegisters += pack / op.getElementsPerRegister(arg.getType());
      auto [outputs, inputs] =
          countOperands(chosen.getConstraints().getValue());
      if (outputs != registerTypes.size() || inputs != operandRegisters)
        return op.emitError()
               << "the constraints of \"" << op.getName() << "\" (\""
               << chosen.getConstraints().getValue() << "\") list " << outputs
               << " outputs and " << inputs << " inputs, but the call has "
               << registerTypes.size() << " result and " << operandRegisters
               << " operand registers"
               << (pack > 1 ? " (pack=" + std::to_string(pack) +
                                  ": values under 32 bits share registers)"
                            : std::string());
    }

    unsigned n = 1;
    for (ValueRange range : adaptor.getArgs())
      n = std::max<unsigned>(n, range.size());
    for (Type t : op.getResultTypes())
      if (auto layout = getDistributedLayout(t))
        n = std::max(n, layout.getTotalElemsPerThread(
                            cast<RankedTensorType>(t).getShape()));
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    LLVM::LLVMFuncOp callee;
    if (!inlineAsm) {
      SmallVector<Type> params;
      for (ValueRange range : adaptor.getArgs())
        params.push_back(range.front().getType());
      Type ret = asmResult ? asmResult
                           : LLVM::LLVMVoidType::get(rewriter.getContext());
      callee = getNativeFunction(
          chosen,
          chosen.getEntry() ? chosen.getEntry().getValue() : op.getName(),
          LLVM::LLVMFunctionType::get(ret, params), loc, rewriter);
    }
    // The last group of a thread's elements is padded with poison when the
    // pack does not divide them.
    for (unsigned base = 0; base < n; base += pack) {
      SmallVector<Value> operands;
      for (auto [arg, range] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
        unsigned perRegister = op.getElementsPerRegister(arg.getType());
        Type type = registerType(arg.getType());
        for (unsigned first = 0; first < pack; first += perRegister) {
          auto element = [&](unsigned i) -> Value {
            if (range.size() == 1)
              return range[0];
            if (base + i < range.size())
              return range[base + i];
            return LLVM::PoisonOp::create(rewriter, loc,
                                          range.front().getType());
          };
          if (perRegister == 1) {
            operands.push_back(element(first));
            continue;
          }
          Value vector = LLVM::PoisonOp::create(rewriter, loc, type);
          for (unsigned k = 0; k < perRegister; ++k)
            vector = LLVM::InsertElementOp::create(rewriter, loc, vector,
                                                   element(first + k),
                                                   i32Const(rewriter, loc, k));
          operands.push_back(vector);
        }
      }
      Operation *call;
      if (callee)
        call = LLVM::CallOp::create(rewriter, loc, callee, operands);
      else
        call = LLVM::InlineAsmOp::create(
            rewriter, loc, asmResult, operands, chosen.getCode(),
            chosen.getConstraints(), rewriter.getUnitAttr(), UnitAttr(),
            LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(), ArrayAttr());
      unsigned index = 0;
      for (auto [r, type] : llvm::enumerate(op.getResultTypes())) {
        unsigned perRegister = op.getElementsPerRegister(type);
        for (unsigned first = 0; first < pack; first += perRegister) {
          Value value = registerTypes.size() == 1
                            ? call->getResult(0)
                            : Value(LLVM::ExtractValueOp::create(
                                  rewriter, loc, call->getResult(0), index));
          ++index;
          for (unsigned k = 0; k < perRegister; ++k) {
            if (base + first + k >= n)
              break;
            results[r].push_back(
                perRegister == 1
                    ? value
                    : Value(LLVM::ExtractElementOp::create(
                          rewriter, loc, value, i32Const(rewriter, loc, k))));
          }
        }
      }
    }
    if (op.getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOpWithMultiple(op, results);
    return success();
  }

private:
  /// The declaration that stands for `variant` (one per variant and type;
  /// several calls of one native function share it).
  LLVM::LLVMFuncOp
  getNativeFunction(tle_raw::VariantAttr variant, StringRef name,
                    LLVM::LLVMFunctionType type, Location loc,
                    ConversionPatternRewriter &rewriter) const {
    ModuleOp module = st.module;
    StringAttr attrName =
        rewriter.getStringAttr(::tle::backend::RawVariantAttrName);
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (fn->getAttr(attrName) == variant && fn.getFunctionType() == type)
        return fn;
    std::string base = ("__tle_raw_" + name).str();
    std::string symbol = base;
    for (unsigned k = 1; module.lookupSymbol(symbol); ++k)
      symbol = base + "_" + std::to_string(k);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto fn = LLVM::LLVMFuncOp::create(rewriter, loc, symbol, type);
    fn->setAttr(attrName, variant);
    return fn;
  }
};

} // namespace

void ::tle::conversion::distribute::populateRawPatterns(
    const TypeConverter &tc, RewritePatternSet &patterns, DistributeState &st) {
  patterns.add<RawCallConversion>(tc, patterns.getContext(), st);
}
