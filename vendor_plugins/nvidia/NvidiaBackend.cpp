//===- NvidiaBackend.cpp - The NVIDIA backend -----------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaBackend.h"
#include "CudaToolkit.h"
#include "NvidiaOccupancy.h"
#include "NvidiaRaw.h"
#include "NvidiaTargetInfo.h"
#include "NvidiaWideOffsets.h"

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/MathLibrary.h"
#include "tle/Backend/RawCode.h"

#include "tle/Backend/DistributedIR.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace llvm;
using namespace tle;
using namespace tle::nvidia;

/// The attributes of the distributed-IR contract (backends/README.md).
static constexpr StringLiteral SharedMemoryAttr = "tle.shared_memory";
static constexpr StringLiteral GlobalScratchAttr = "tle.global_scratch";
static constexpr StringLiteral LaunchTensorMapsAttr = "tle.launch_tensor_maps";
static constexpr StringLiteral LaunchTensorMapArgAttr = "tle.launch_tensor_map";

/// The launcher-built tensor maps the distributed IR describes; std::nullopt
/// if an entry is not what the core writes.
static std::optional<std::vector<backend::LaunchTensorMap>>
getLaunchTensorMaps(mlir::ArrayAttr Specs) {
  std::vector<backend::LaunchTensorMap> Maps;
  auto Indices = [](mlir::Attribute List, std::vector<unsigned> &Out) -> bool {
    auto Array = mlir::dyn_cast_or_null<mlir::ArrayAttr>(List);
    if (!Array)
      return false;
    for (mlir::Attribute I : Array) {
      auto Index = mlir::dyn_cast<mlir::IntegerAttr>(I);
      if (!Index || Index.getInt() < 0)
        return false;
      Out.push_back(unsigned(Index.getInt()));
    }
    return true;
  };
  for (mlir::Attribute Spec : Specs) {
    auto D = mlir::dyn_cast<mlir::DictionaryAttr>(Spec);
    auto Base = D ? D.getAs<mlir::IntegerAttr>("base") : nullptr;
    auto Box = D ? D.getAs<mlir::DenseI64ArrayAttr>("box") : nullptr;
    auto Element = D ? D.getAs<mlir::StringAttr>("element") : nullptr;
    auto Swizzle = D ? D.getAs<mlir::IntegerAttr>("swizzle") : nullptr;
    backend::LaunchTensorMap Map;
    if (!Base || !Box || !Element || !Swizzle ||
        !Indices(D.get("shape"), Map.ShapeArgs) ||
        !Indices(D.get("strides"), Map.StrideArgs))
      return std::nullopt;
    Map.BaseArg = unsigned(Base.getInt());
    llvm::append_range(Map.Box, Box.asArrayRef());
    Map.ElementType = Element.str();
    Map.SwizzleBytes = unsigned(Swizzle.getInt());
    Maps.push_back(std::move(Map));
  }
  return Maps;
}

static constexpr StringLiteral DefaultTriple = "nvptx64-nvidia-cuda";

static Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "nvidia plugin: " + Message);
}

void NvidiaBackend::registerDialects(mlir::DialectRegistry &Registry) const {
  // What NvidiaTargetInfo emits, and what compile() translates to LLVM IR.
  Registry.insert<mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>();
  mlir::registerBuiltinDialectTranslation(Registry);
  mlir::registerLLVMDialectTranslation(Registry);
  mlir::registerNVVMDialectTranslation(Registry);
}

std::unique_ptr<backend::TargetInfo>
NvidiaBackend::createTargetInfo(const hwdesc::HwDesc &Desc) const {
  return std::make_unique<NvidiaTargetInfo>(Desc);
}

/// "+ptx80" for the description's PTX ISA version "8.0".
static Expected<std::string> getPtxFeature(const hwdesc::HwDesc &Desc) {
  StringRef Major, Minor;
  std::tie(Major, Minor) = StringRef(Desc.Tools.IsaVersion).split('.');
  unsigned Ignored;
  if (Major.getAsInteger(10, Ignored) || Minor.getAsInteger(10, Ignored))
    return makeError(Desc.Name +
                     " needs toolchain.isa_version, the PTX ISA "
                     "version (e.g. \"8.0\"), not '" +
                     Desc.Tools.IsaVersion + "'");
  return ("ptx" + Major + Minor).str();
}

static void initializeNVPTX() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Block-level (shared), constant and local addresses in 32 bits, as
    // Triton compiles: address arithmetic and wgmma descriptors then take
    // half the registers and instructions. The option is NVPTX's own and
    // is read when a target machine computes its data layout.
    auto &Registered = cl::getRegisteredOptions();
    auto It = Registered.find("nvptx-short-ptr");
    if (It != Registered.end())
      static_cast<cl::opt<bool> *>(It->second)->setValue(true);
  });
}

/// Whether V is the f32 constant 1.0.
static bool isOne(mlir::Value V) {
  mlir::FloatAttr One;
  return mlir::matchPattern(V, mlir::m_Constant(&One)) &&
         One.getValue().isExactlyValue(1.0);
}

/// fp32 divisions the kernel allows to be approximate (`afn`: Triton's `/`)
/// become div.full.f32, as Triton emits them: at most 2 ulp over the whole
/// range, where LLVM would choose the IEEE division (div.rn, a dozen
/// instructions with a slow path) or, for afn, div.approx (wrong for
/// denominators beyond 2^126). 1 / sqrt(x) with both approximate (tl.rsqrt,
/// or 1 / tl.sqrt) is one rsqrt.approx.f32.
static void useFullRangeDivision(mlir::ModuleOp Module) {
  auto Approximate = [](mlir::LLVM::FastmathFlags Flags) {
    return mlir::LLVM::bitEnumContainsAll(Flags,
                                          mlir::LLVM::FastmathFlags::afn);
  };
  Module.walk([&](mlir::LLVM::FDivOp Div) {
    if (!Div.getType().isF32() || !Approximate(Div.getFastmathFlags()))
      return;
    mlir::OpBuilder B(Div);
    mlir::LLVM::CallIntrinsicOp Call;
    auto Sqrt = Div.getRhs().getDefiningOp<mlir::LLVM::SqrtOp>();
    if (Sqrt && Approximate(Sqrt.getFastmathFlags()) && isOne(Div.getLhs()))
      Call = mlir::LLVM::CallIntrinsicOp::create(
          B, Div.getLoc(), Div.getType(),
          B.getStringAttr("llvm.nvvm.rsqrt.approx.f"),
          mlir::ValueRange{Sqrt.getOperand()});
    else
      Call = mlir::LLVM::CallIntrinsicOp::create(
          B, Div.getLoc(), Div.getType(), B.getStringAttr("llvm.nvvm.div.full"),
          mlir::ValueRange{Div.getLhs(), Div.getRhs()});
    Div.replaceAllUsesWith(Call.getResult(0));
    Div.erase();
    if (Sqrt && Sqrt->use_empty())
      Sqrt.erase();
  });
}

/// fp32 exponentials the kernel allows to be approximate (`afn`: Triton's
/// tl.exp) become exp2(x * log2(e)), which NVPTX selects as ex2.approx.f32:
/// what Triton emits, in place of libdevice's exact __nv_expf.
static void useApproximateExp(mlir::ModuleOp Module) {
  Module.walk([](mlir::LLVM::ExpOp Exp) {
    mlir::Type ValueType = Exp.getType();
    if (!mlir::getElementTypeOrSelf(ValueType).isF32() ||
        !mlir::LLVM::bitEnumContainsAll(Exp.getFastmathFlags(),
                                        mlir::LLVM::FastmathFlags::afn))
      return;
    mlir::OpBuilder B(Exp);
    mlir::FloatAttr Log2E = B.getF32FloatAttr(1.4426950408889634);
    mlir::TypedAttr Scale = Log2E;
    if (auto Shaped = dyn_cast<mlir::ShapedType>(ValueType))
      Scale = mlir::SplatElementsAttr::get(Shaped, Log2E);
    mlir::Location Loc = Exp.getLoc();
    mlir::Value Scaled = mlir::LLVM::FMulOp::create(
        B, Loc, Exp.getOperand(),
        mlir::LLVM::ConstantOp::create(B, Loc, ValueType, Scale),
        Exp.getFastmathFlags());
    Exp.replaceAllUsesWith(mlir::LLVM::Exp2Op::create(B, Loc, ValueType, Scaled,
                                                      Exp.getFastmathFlags())
                               .getResult());
    Exp.erase();
  });
}

/// tlec's -O0..3 as LLVM's code generation level.
static CodeGenOptLevel getCodeGenOptLevel(unsigned OptLevel) {
  return CodeGenOpt::getLevel(std::min(OptLevel, 3u))
      .value_or(CodeGenOptLevel::Aggressive);
}

static Expected<std::unique_ptr<TargetMachine>>
createTargetMachine(const hwdesc::HwDesc &Desc, unsigned OptLevel,
                    bool FPFusion) {
  initializeNVPTX();
  Triple TT(Desc.Tools.Triple.empty() ? DefaultTriple.str()
                                      : Desc.Tools.Triple);
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T)
    return makeError(Error);
  Expected<std::string> Ptx = getPtxFeature(Desc);
  if (!Ptx)
    return Ptx.takeError();
  // Checked here because LLVM would only warn and fall back to a generic
  // processor.
  std::unique_ptr<MCSubtargetInfo> STI(T->createMCSubtargetInfo(TT, "", ""));
  if (!STI->isCPUStringValid(Desc.Arch))
    return makeError("LLVM's NVPTX backend does not know arch '" + Desc.Arch +
                     "' of " + Desc.Name);
  if (none_of(STI->getAllProcessorFeatures(),
              [&](const SubtargetFeatureKV &KV) { return KV.Key == *Ptx; }))
    return makeError("LLVM's NVPTX backend does not know PTX ISA " +
                     Desc.Tools.IsaVersion + " of " + Desc.Name);
  TargetOptions Opts;
  // As Triton's enable_fp_fusion: a multiply feeding an add may become one
  // fma (one rounding instead of two).
  Opts.AllowFPOpFusion = FPFusion ? FPOpFusion::Fast : FPOpFusion::Standard;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, Desc.Arch, "+" + *Ptx, Opts, /*RM=*/std::nullopt,
      /*CM=*/std::nullopt, getCodeGenOptLevel(OptLevel)));
  if (!TM)
    return makeError("cannot create a target machine for " + Desc.Arch);
  return std::move(TM);
}

/// When NVPTX selects a math intrinsic itself: never (libdevice), always
/// for f32, or for f32 when the call allows approximation (`afn`).
enum class NativeF32 { Never, Always, WhenApproximate };

/// Triton's tl.exp2 on fp32 is libdevice's __nv_exp2f with denormals
/// flushed (see linkLibDevice): ex2.approx.ftz.f32, one MUFU.EX2. NVPTX
/// selects llvm.exp2.f32 as ex2.approx.f32, which ptxas wraps in a range
/// check and two predicated multiplies to keep denormal results (attention's
/// softmax: four instructions per element instead of one). tl.exp (`afn`)
/// stays ex2.approx.f32 of x * log2(e), as Triton emits it.
static void flushExp2Denormals(llvm::Module &M) {
  SmallVector<IntrinsicInst *> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<IntrinsicInst>(&I);
          Call && Call->getIntrinsicID() == Intrinsic::exp2 &&
          Call->getType()->isFloatTy() && !Call->hasApproxFunc())
        Calls.push_back(Call);
  for (IntrinsicInst *Call : Calls) {
    CallInst *New = CallInst::Create(
        Intrinsic::getOrInsertDeclaration(&M, Intrinsic::nvvm_ex2_approx_ftz,
                                          {Call->getType()}),
        {Call->getArgOperand(0)}, "", Call->getIterator());
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
}

/// Rewrites calls to the math intrinsics NVPTX cannot select (llvm.exp,
/// llvm.log, llvm.sin, ..., and f64 exp2/log2) into calls to their libdevice
/// implementations, which linkLibDevice then pulls in. sqrt, fabs, floor and
/// fma have PTX instructions and are left alone; f32 exp2 is ex2.approx
/// (2 ulp; flushExp2Denormals took tl.exp2's) and f32 log2 is lg2.approx only
/// under `afn` (Triton's tl.log2 is libdevice's). Calls of C library names
/// (erff, cbrt, ...: the core's lowering of math without an intrinsic) go
/// to libdevice's function of the same name.
static void lowerMathToLibDevice(llvm::Module &M) {
  struct MathFunction {
    Intrinsic::ID ID;
    StringRef Name;
    NativeF32 Native;
  };
  static const MathFunction Functions[] = {
      {Intrinsic::exp, "exp", NativeF32::Never},
      {Intrinsic::exp10, "exp10", NativeF32::Never},
      {Intrinsic::exp2, "exp2", NativeF32::Always},
      {Intrinsic::log, "log", NativeF32::Never},
      {Intrinsic::log10, "log10", NativeF32::Never},
      {Intrinsic::log2, "log2", NativeF32::WhenApproximate},
      {Intrinsic::sin, "sin", NativeF32::Never},
      {Intrinsic::cos, "cos", NativeF32::Never},
      {Intrinsic::tan, "tan", NativeF32::Never},
      {Intrinsic::tanh, "tanh", NativeF32::Never},
      {Intrinsic::pow, "pow", NativeF32::Never},
  };
  SmallVector<CallInst *> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee->isIntrinsic())
          Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    Intrinsic::ID ID = Call->getCalledFunction()->getIntrinsicID();
    const auto *It =
        find_if(Functions, [&](const MathFunction &F) { return F.ID == ID; });
    Type *Ty = Call->getType();
    if (It == std::end(Functions) || !(Ty->isFloatTy() || Ty->isDoubleTy()))
      continue;
    if (Ty->isFloatTy() &&
        (It->Native == NativeF32::Always ||
         (It->Native == NativeF32::WhenApproximate && Call->hasApproxFunc())))
      continue;
    std::string Name =
        ("__nv_" + It->Name + (Ty->isFloatTy() ? "f" : "")).str();
    SmallVector<Type *> ArgTypes(Call->arg_size(), Ty);
    FunctionCallee Fn =
        M.getOrInsertFunction(Name, FunctionType::get(Ty, ArgTypes, false));
    SmallVector<Value *> Args(Call->args());
    CallInst *New = CallInst::Create(Fn, Args, "", Call->getIterator());
    New->setFastMathFlags(Call->getFastMathFlags());
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && !F.isIntrinsic() &&
        backend::isMathLibraryFunction(F.getName()))
      backend::renameDeclaration(F, ("__nv_" + F.getName()).str());
}

/// Links the libdevice functions M calls (__nv_expf, ...) into M.
static Error linkLibDevice(llvm::Module &M, StringRef LibDevicePath) {
  const Function *FirstCall = nullptr;
  for (const Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__nv_")) {
      FirstCall = &F;
      break;
    }
  if (!FirstCall)
    return Error::success();
  if (LibDevicePath.empty())
    return makeError("the kernel calls " + FirstCall->getName() +
                     ", but libdevice.10.bc was not found (set CUDA_HOME to "
                     "a CUDA toolkit)");
  SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> Lib =
      parseIRFile(LibDevicePath, Diag, M.getContext());
  if (!Lib)
    return makeError("cannot read " + LibDevicePath + ": " + Diag.getMessage());
  Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(M, std::move(Lib), Linker::LinkOnlyNeeded))
    return makeError("cannot link " + LibDevicePath);
  // Internal, so that O3 inlines them and drops the rest; libdevice asks
  // __nvvm_reflect whether to flush denormals, and Triton's answer is yes
  // (its NVIDIA option enable_reflect_ftz, on by default).
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with("__nv_"))
      F.setLinkage(GlobalValue::InternalLinkage);
  M.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(1));
  return Error::success();
}

static void optimize(llvm::Module &M, TargetMachine &TM, unsigned OptLevel) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  // Constructed with the target machine so that NVPTX adds its own passes
  // (NVVMReflect, address-space inference) to the pipeline.
  PassBuilder PB(&TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  static const OptimizationLevel Levels[] = {
      OptimizationLevel::O0, OptimizationLevel::O1, OptimizationLevel::O2,
      OptimizationLevel::O3};
  OptimizationLevel Level = Levels[std::min(OptLevel, 3u)];
  // The default pipeline refuses O0; O0 has its own (always-inline only).
  ModulePassManager MPM = Level == OptimizationLevel::O0
                              ? PB.buildO0DefaultPipeline(Level)
                              : PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(M, MAM);
}

static Expected<std::string> emitPtx(llvm::Module &M, TargetMachine &TM) {
  SmallString<0> Ptx;
  raw_svector_ostream OS(Ptx);
  legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::AssemblyFile))
    return makeError("the NVPTX backend cannot emit assembly");
  PM.run(M);
  return Ptx.str().str();
}

/// When registers alone keep blocks off an SM, asks ptxas again for one more
/// block, up to MaxBlocks (NvidiaOccupancy.h), and keeps that binary if it
/// gets the block with nothing spilled and wgmma left as it was.
static void raiseOccupancy(StringRef Ptxas, const hwdesc::HwDesc &Desc,
                           backend::CompiledKernel &Kernel, std::string &Cubin,
                           backend::ResourceUsage &Usage, StringRef PtxasLog,
                           unsigned MaxBlocks) {
  if (Usage.SpillStoreBytes > 0 || Usage.SpillLoadBytes > 0)
    return;
  uint64_t SharedBytes =
      Kernel.SharedMemoryBytes + Usage.StaticSharedMemoryBytes;
  std::optional<unsigned> Blocks = nvidia::getBlocksToRequest(
      Desc, Kernel.ThreadsPerBlock, Usage.Registers, SharedBytes, MaxBlocks);
  if (!Blocks)
    return;
  std::optional<std::string> Ptx =
      nvidia::requestResidentBlocks(Kernel.Assembly, *Blocks);
  if (!Ptx)
    return;
  backend::ResourceUsage Raised;
  std::string RaisedLog;
  Expected<std::string> RaisedCubin =
      runPtxas(Ptxas, *Ptx, Desc.Arch, Kernel.EntryName, Raised, &RaisedLog);
  if (!RaisedCubin) {
    // The first binary stands; this one was only an attempt.
    consumeError(RaisedCubin.takeError());
    return;
  }
  if (Raised.SpillStoreBytes > 0 || Raised.SpillLoadBytes > 0 ||
      Raised.Registers >= Usage.Registers ||
      uint64_t(Raised.Registers) * 8 < uint64_t(Usage.Registers) * 7 ||
      nvidia::getResidentBlocks(Desc, Kernel.ThreadsPerBlock, Raised.Registers,
                                SharedBytes) < *Blocks ||
      (nvidia::reportsSerializedWarpgroupMma(RaisedLog) &&
       !nvidia::reportsSerializedWarpgroupMma(PtxasLog)))
    return;
  Kernel.Assembly = std::move(*Ptx);
  Cubin = std::move(*RaisedCubin);
  Usage = Raised;
  Kernel.Properties.push_back(
      {"minnctapersm", std::to_string(*Blocks), "blocks"});
}

/// Where MaxBlocks + 1 of the kernel's blocks would reside on one SM,
/// launches it with enough block-level memory that only MaxBlocks do; the
/// manifest's shared_memory_bytes says how much, the residency_padding
/// property how much of it is for that.
static void holdResidentBlocks(const hwdesc::HwDesc &Desc,
                               backend::CompiledKernel &Kernel,
                               const backend::ResourceUsage &Usage,
                               unsigned MaxBlocks) {
  if (nvidia::getResidentBlocks(Desc, Kernel.ThreadsPerBlock, Usage.Registers,
                                Kernel.SharedMemoryBytes +
                                    Usage.StaticSharedMemoryBytes) !=
      MaxBlocks + 1)
    return;
  std::optional<uint64_t> Shared = nvidia::getSharedBytesHoldingBlocks(
      Desc, Kernel.ThreadsPerBlock, Usage.Registers, Kernel.SharedMemoryBytes,
      Usage.StaticSharedMemoryBytes, MaxBlocks);
  if (!Shared)
    return;
  Kernel.Properties.push_back(
      {"residency_padding", std::to_string(*Shared - Kernel.SharedMemoryBytes),
       "bytes"});
  Kernel.SharedMemoryBytes = *Shared;
}

Expected<backend::CompiledKernel>
NvidiaBackend::compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
                       const backend::CompileOptions &Options) {
  // MLIR reports verifier and translation failures as diagnostics; they
  // become the returned error.
  std::string Diagnostics;
  mlir::ScopedDiagnosticHandler Handler(
      Module.getContext(), [&](mlir::Diagnostic &D) {
        if (D.getSeverity() == mlir::DiagnosticSeverity::Error) {
          raw_string_ostream OS(Diagnostics);
          OS << "\n" << D.getLocation() << ": " << D.str();
        }
        return mlir::success();
      });
  if (mlir::failed(mlir::verify(Module)))
    return makeError("invalid distributed IR:" + Diagnostics);

  Expected<mlir::LLVM::LLVMFuncOp> Kernel =
      backend::findKernel(Module, "nvidia");
  if (!Kernel)
    return Kernel.takeError();
  Expected<unsigned> NumWarps =
      backend::getNumWarps(*Kernel, Module, Options, "nvidia");
  if (!NumWarps)
    return NumWarps.takeError();

  backend::CompiledKernel Result;
  Result.EntryName = Kernel->getSymName().str();
  Result.ThreadsPerBlock = *NumWarps * Desc.getWarpSize();
  if (const hwdesc::ParallelLevel *Block =
          Desc.getParallelLevel(hwdesc::LevelKind::Block))
    if (Block->MaxThreads && Result.ThreadsPerBlock > Block->MaxThreads)
      return makeError(Twine(*NumWarps) + " warps are " +
                       Twine(Result.ThreadsPerBlock) + " threads; " +
                       Desc.Name + " allows " + Twine(Block->MaxThreads) +
                       " per block");
  if (auto Shared =
          (*Kernel)->getAttrOfType<mlir::IntegerAttr>(SharedMemoryAttr))
    Result.SharedMemoryBytes = Shared.getInt();
  if (auto Scratch =
          (*Kernel)->getAttrOfType<mlir::IntegerAttr>(GlobalScratchAttr))
    Result.GlobalScratchBytes = Scratch.getInt();
  if (auto Specs =
          (*Kernel)->getAttrOfType<mlir::ArrayAttr>(LaunchTensorMapsAttr)) {
    std::optional<std::vector<backend::LaunchTensorMap>> Maps =
        getLaunchTensorMaps(Specs);
    if (!Maps)
      return makeError(Twine(LaunchTensorMapsAttr) +
                       " of the distributed kernel is malformed");
    Result.LaunchTensorMaps = std::move(*Maps);
  }

  mlir::Builder B(Module.getContext());
  (*Kernel)->setAttr(mlir::NVVM::NVVMDialect::getKernelFuncAttrName(),
                     B.getUnitAttr());
  // A launcher-built tensor map is read in place (its address taken by the
  // copies), not copied to local memory: __grid_constant__.
  for (unsigned I = 0, E = (*Kernel).getNumArguments(); I < E; ++I)
    if ((*Kernel).getArgAttr(I, LaunchTensorMapArgAttr))
      (*Kernel).setArgAttr(I,
                           mlir::NVVM::NVVMDialect::getGridConstantAttrName(),
                           B.getUnitAttr());
  // Exactly this many threads (the launch always gives ThreadsPerBlock):
  // ptxas may use it (Triton emits .reqntid too).
  (*Kernel)->setAttr(mlir::NVVM::NVVMDialect::getReqntidAttrName(),
                     B.getDenseI32ArrayAttr(
                         {static_cast<int32_t>(Result.ThreadsPerBlock), 1, 1}));

  Expected<std::unique_ptr<TargetMachine>> TM =
      createTargetMachine(Desc, Options.OptLevel, Options.FPFusion);
  if (!TM)
    return TM.takeError();

  // TLE-Raw: native functions to link after translation; inline PTX
  // marked with its source line for ptxas's errors.
  std::vector<backend::RawFunction> Raw = backend::collectRawFunctions(Module);
  annotateInlinePtx(Module);
  useFullRangeDivision(Module);
  useApproximateExp(Module);

  LLVMContext Context;
  std::unique_ptr<llvm::Module> M =
      mlir::translateModuleToLLVMIR(Module, Context, Result.EntryName);
  if (!M)
    return makeError("cannot translate distributed IR to LLVM IR:" +
                     Diagnostics);
  M->setTargetTriple((*TM)->getTargetTriple());
  M->setDataLayout((*TM)->createDataLayout());

  if (Error E = backend::linkRawFunctions(*M, Raw, *this, Desc))
    return std::move(E);
  CudaToolkit Kit = findCudaToolkit();
  flushExp2Denormals(*M);
  lowerMathToLibDevice(*M);
  if (Error E = linkLibDevice(*M, Kit.LibDevice))
    return std::move(E);
  optimize(*M, **TM, Options.OptLevel);
  if (Options.OptLevel > 0)
    keepLoopPointerOffsetsWide(*M);
  if (Options.KeepLLVMIR) {
    raw_string_ostream OS(Result.LLVMIR);
    M->print(OS, /*AAW=*/nullptr);
  }
  Expected<std::string> Ptx = emitPtx(*M, **TM);
  if (!Ptx)
    return Ptx.takeError();
  Result.Assembly = *Ptx;

  if (Kit.Ptxas.empty()) {
    errs() << "nvidia: ptxas not found (set CUDA_HOME); emitting PTX only\n";
    Result.Binary = std::move(*Ptx);
    Result.Format = "ptx";
    return std::move(Result);
  }
  backend::ResourceUsage Usage;
  std::string PtxasLog;
  Expected<std::string> Cubin = runPtxas(Kit.Ptxas, Result.Assembly, Desc.Arch,
                                         Result.EntryName, Usage, &PtxasLog);
  if (!Cubin) {
    std::string Message = toString(Cubin.takeError());
    // ptxas errors in inline PTX, at the kernel's source line first.
    std::string Mapped = mapPtxasErrors(Message, Result.Assembly);
    return createStringError(inconvertibleErrorCode(),
                             Mapped.empty() ? Message : Mapped + Message);
  }
  std::optional<unsigned> Hold;
  if (Options.HoldMmaResidency && Options.OptLevel > 0 &&
      nvidia::issuesWarpgroupMma(Result.Assembly))
    Hold = nvidia::getMatrixKernelBlockHold(Desc);
  unsigned MaxBlocks = Hold.value_or(nvidia::UnlimitedBlocks);
  if (Options.RaiseOccupancy && Options.OptLevel > 0)
    raiseOccupancy(Kit.Ptxas, Desc, Result, *Cubin, Usage, PtxasLog, MaxBlocks);
  if (Hold)
    holdResidentBlocks(Desc, Result, Usage, *Hold);
  // What the description's limits let reside on one SM with these
  // registers and this much shared memory (docs/bundle.md); nothing when it
  // gives no limit.
  unsigned Resident = nvidia::getResidentBlocks(
      Desc, Result.ThreadsPerBlock, Usage.Registers,
      Result.SharedMemoryBytes + Usage.StaticSharedMemoryBytes);
  if (Resident != nvidia::UnlimitedBlocks)
    Result.Properties.insert(
        Result.Properties.begin(),
        {"blocks_per_sm", std::to_string(Resident), "blocks"});
  Result.Binary = std::move(*Cubin);
  Result.Format = "cubin";
  Result.Resources = Usage;
  return std::move(Result);
}

std::string NvidiaBackend::getToolchainKey(const hwdesc::HwDesc &Desc) const {
  // Which ptxas and libdevice compile() finds decides the bytes: a cubin or
  // only PTX, and the code of the math functions; so does the clang that
  // compiles TLE-Raw CUDA C.
  CudaToolkit Kit = findCudaToolkit();
  std::string Key;
  raw_string_ostream OS(Key);
  for (const std::string &File : {Kit.Ptxas, Kit.LibDevice, findRawClang()}) {
    OS << File;
    sys::fs::file_status Status;
    if (!File.empty() && !sys::fs::status(File, Status))
      OS << ' ' << Status.getSize() << ' '
         << Status.getLastModificationTime().time_since_epoch().count();
    OS << ';';
  }
  return Key;
}
