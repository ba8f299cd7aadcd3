//===- AmdBackend.cpp - The AMD backend -----------------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "AmdBackend.h"
#include "AmdRuntime.h"
#include "AmdTargetInfo.h"
#include "CodeObjectLinker.h"
#include "CodeObjectMetadata.h"

#include "core/hwdesc/HwDesc.h"

#include "tle/Backend/DistributedIR.h"
#include "tle/Backend/RawCode.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeAMDGPUAsmParser();
}

using namespace llvm;
using namespace tle;
using namespace tle::amd;

/// The attributes of the distributed-IR contract (backends/README.md).
static constexpr StringLiteral SharedMemoryAttr = "tle.shared_memory";

static constexpr StringLiteral DefaultTriple = "amdgcn-amd-amdhsa";

/// Code object version 5 (ROCm 5.x and later load it). LLVM 22 defaults to
/// it too, but MLIR's ROCDL target defaults to 6, which needs ROCm 6.3; the
/// version is spelled out so that it does not drift with the LLVM release.
static constexpr uint32_t CodeObjectVersion = 500;

static Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "amd plugin: " + Message);
}

void AmdBackend::registerDialects(mlir::DialectRegistry &Registry) const {
  // What AmdTargetInfo emits, and what compile() translates to LLVM IR.
  Registry.insert<mlir::LLVM::LLVMDialect, mlir::ROCDL::ROCDLDialect>();
  mlir::registerBuiltinDialectTranslation(Registry);
  mlir::registerLLVMDialectTranslation(Registry);
  mlir::registerROCDLDialectTranslation(Registry);
}

std::unique_ptr<backend::TargetInfo>
AmdBackend::createTargetInfo(const hwdesc::HwDesc &Desc) const {
  return std::make_unique<AmdTargetInfo>(Desc);
}

std::unique_ptr<backend::Runtime>
AmdBackend::createRuntime(const hwdesc::HwDesc &Desc) {
  return std::make_unique<AmdRuntime>();
}

static void initializeAMDGPU() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // Inline AMDGCN (tle_raw) is assembled while the object is written.
    LLVMInitializeAMDGPUAsmParser();
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
  initializeAMDGPU();
  Triple TT(Desc.Tools.Triple.empty() ? DefaultTriple.str()
                                      : Desc.Tools.Triple);
  if (TT.getArch() != Triple::amdgcn || TT.getOS() != Triple::AMDHSA)
    return makeError(Desc.Name + ": toolchain.triple '" + TT.str() +
                     "' is not an HSA triple (amdgcn-amd-amdhsa)");
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T)
    return makeError(Error);
  // Checked here because LLVM would only warn and fall back to a generic
  // processor.
  std::unique_ptr<MCSubtargetInfo> STI(T->createMCSubtargetInfo(TT, "", ""));
  if (!STI->isCPUStringValid(Desc.Arch))
    return makeError("LLVM's AMDGPU backend does not know arch '" + Desc.Arch +
                     "' of " + Desc.Name);
  int64_t WarpSize = Desc.getWarpSize();
  if (WarpSize != 32 && WarpSize != 64)
    return makeError(Desc.Name + ": AMD wavefronts have 32 or 64 lanes, not " +
                     Twine(WarpSize) + " (parallel.warp_size)");
  // GCN and CDNA (gfx6 to gfx9) run wave64 only; RDNA runs both.
  if (WarpSize == 32 && StringRef(Desc.Arch).starts_with("gfx9"))
    return makeError(Desc.Name + ": " + Desc.Arch +
                     " runs 64-lane wavefronts only, but the description "
                     "says parallel.warp_size 32");
  std::string Features = WarpSize == 64 ? "+wavefrontsize64"
                                        : "+wavefrontsize32";
  TargetOptions Opts;
  // As Triton's enable_fp_fusion: a multiply feeding an add may become one
  // fma (one rounding instead of two).
  Opts.AllowFPOpFusion = FPFusion ? FPOpFusion::Fast : FPOpFusion::Standard;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, Desc.Arch, Features, Opts, /*RM=*/std::nullopt,
      /*CM=*/std::nullopt, getCodeGenOptLevel(OptLevel)));
  if (!TM)
    return makeError("cannot create a target machine for " + Desc.Arch);
  return std::move(TM);
}

/// The kernel's calling convention and launch facts: the work-group size it
/// was compiled for (so the backend budgets registers for exactly that many
/// lanes) and the promise that every work-group is full, which Triton-style
/// launches keep (grid = blocks x block size).
static void prepareKernel(llvm::Module &M, Function &Kernel,
                          unsigned Threads) {
  for (Function &F : M)
    if (&F != &Kernel && !F.isDeclaration())
      F.setLinkage(GlobalValue::InternalLinkage);
  Kernel.setCallingConv(CallingConv::AMDGPU_KERNEL);
  std::string Size = std::to_string(Threads);
  Kernel.addFnAttr("amdgpu-flat-work-group-size", Size + "," + Size);
  Kernel.addFnAttr("uniform-work-group-size", "true");
  M.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                  CodeObjectVersion);
}

/// Calls that nothing will resolve: a code object is linked with no
/// libraries, so a call to a declared function (e.g. __ocml_tanh_f32 from
/// ROCm's device libraries) cannot run.
static Error checkNoExternalCalls(const llvm::Module &M) {
  for (const Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty())
      return makeError(
          "the kernel calls '" + F.getName() +
          "', which is not defined; the amd plugin links no device libraries "
          "(ROCm's ocml/ockl are not used), so every function must come with "
          "the kernel and math must lower to LLVM intrinsics");
  return Error::success();
}

/// f64 sine and cosine: the AMDGPU backend has no instruction sequence for
/// them and stops the process ("Cannot select") instead of reporting an
/// error, so they are refused before code generation.
static Error checkSelectableMath(const llvm::Module &M) {
  for (const Function &F : M) {
    Intrinsic::ID ID = F.getIntrinsicID();
    if ((ID == Intrinsic::sin || ID == Intrinsic::cos) && !F.use_empty() &&
        F.getReturnType()->getScalarType()->isDoubleTy())
      return makeError(
          "the kernel computes " + F.getName() +
          " (fp64 sine or cosine), which needs ROCm's device libraries; the "
          "amd plugin does not use them (fp32 sin/cos compile)");
  }
  return Error::success();
}

static void optimize(llvm::Module &M, TargetMachine &TM, unsigned OptLevel) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  // Constructed with the target machine so that AMDGPU adds its own passes
  // (address-space inference, attribute inference) to the pipeline.
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

namespace {
/// Collects the errors code generation reports through the LLVMContext
/// (e.g. "no libcall available for ftanh"); without a handler, LLVM prints
/// them and exits the process.
struct CodegenErrors {
  std::string Text;

  static void handle(const DiagnosticInfo *DI, void *Self) {
    if (DI->getSeverity() != DS_Error)
      return;
    std::string &Text = static_cast<CodegenErrors *>(Self)->Text;
    raw_string_ostream OS(Text);
    DiagnosticPrinterRawOStream Printer(OS);
    OS << (Text.empty() ? " " : "; ");
    DI->print(Printer);
  }
};
} // namespace

static Expected<std::string> emit(llvm::Module &M, TargetMachine &TM,
                                  CodeGenFileType Type,
                                  const CodegenErrors &Errors) {
  SmallString<0> Out;
  raw_svector_ostream OS(Out);
  legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, Type))
    return makeError("LLVM's AMDGPU backend cannot emit this file type");
  PM.run(M);
  if (!Errors.Text.empty())
    return makeError("LLVM's AMDGPU backend cannot compile the kernel for " +
                     TM.getTargetCPU() + ":" + Errors.Text +
                     " (math functions without an AMDGPU instruction "
                     "sequence, such as tanh, need ROCm's device libraries, "
                     "which this plugin does not use)");
  return Out.str().str();
}

/// What the code object's metadata says, as the figures every backend
/// reports. Spill counts are registers; a spilled VGPR takes 4 bytes of
/// scratch per lane.
static backend::ResourceUsage toResourceUsage(const KernelMetadata &Meta) {
  backend::ResourceUsage Usage;
  Usage.Registers = Meta.VgprCount;
  Usage.SpillStoreBytes = Meta.VgprSpillCount * 4;
  Usage.SpillLoadBytes = Meta.VgprSpillCount * 4;
  Usage.StackFrameBytes = Meta.PrivateSegmentFixedSize;
  Usage.StaticSharedMemoryBytes = Meta.GroupSegmentFixedSize;
  return Usage;
}

/// Checks that the linked code object is what was asked for: the arch, the
/// wavefront size and the work-group size the kernel was compiled for.
static Error checkMetadata(const KernelMetadata &Meta,
                           const hwdesc::HwDesc &Desc, unsigned Threads) {
  StringRef Target = Meta.Target;
  // "amdgcn-amd-amdhsa--gfx942" plus optional ":sramecc+:xnack-" settings.
  if (Target.split(':').first.rsplit('-').second != Desc.Arch)
    return makeError("the code object is for '" + Target + "', not " +
                     Desc.Arch);
  if (Meta.WavefrontSize != uint64_t(Desc.getWarpSize()))
    return makeError("the code object runs " + Twine(Meta.WavefrontSize) +
                     "-lane wavefronts, but " + Desc.Name + " has " +
                     Twine(Desc.getWarpSize()));
  if (Meta.MaxFlatWorkgroupSize != Threads)
    return makeError("the code object allows " +
                     Twine(Meta.MaxFlatWorkgroupSize) +
                     " work-items per work-group, not " + Twine(Threads));
  return Error::success();
}

Expected<backend::CompiledKernel>
AmdBackend::compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
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

  Expected<mlir::LLVM::LLVMFuncOp> Kernel = backend::findKernel(Module, "amd");
  if (!Kernel)
    return Kernel.takeError();
  Expected<unsigned> NumWarps =
      backend::getNumWarps(*Kernel, Module, Options, "amd");
  if (!NumWarps)
    return NumWarps.takeError();

  backend::CompiledKernel Result;
  Result.EntryName = Kernel->getSymName().str();
  Result.Format = "hsaco";
  Result.ThreadsPerBlock = *NumWarps * Desc.getWarpSize();
  if (const hwdesc::ParallelLevel *Block =
          Desc.getParallelLevel(hwdesc::LevelKind::Block))
    if (Block->MaxThreads && Result.ThreadsPerBlock > Block->MaxThreads)
      return makeError(Twine(*NumWarps) + " wavefronts are " +
                       Twine(Result.ThreadsPerBlock) + " work-items; " +
                       Desc.Name + " allows " + Twine(Block->MaxThreads) +
                       " per work-group");
  // The external [0 x i8] LDS array of tle.shared_memory is AMDGPU's
  // dynamic LDS (HIP's extern __shared__): sized at launch.
  if (auto Shared =
          (*Kernel)->getAttrOfType<mlir::IntegerAttr>(SharedMemoryAttr))
    Result.SharedMemoryBytes = Shared.getInt();

  Expected<std::unique_ptr<TargetMachine>> TM =
      createTargetMachine(Desc, Options.OptLevel, Options.FPFusion);
  if (!TM)
    return TM.takeError();

  // TLE-Raw functions, linked after translation.
  std::vector<backend::RawFunction> Raw = backend::collectRawFunctions(Module);

  LLVMContext Context;
  CodegenErrors Errors;
  Context.setDiagnosticHandlerCallBack(CodegenErrors::handle, &Errors);
  std::unique_ptr<llvm::Module> M =
      mlir::translateModuleToLLVMIR(Module, Context, Result.EntryName);
  if (!M)
    return makeError("cannot translate distributed IR to LLVM IR:" +
                     Diagnostics);
  M->setTargetTriple((*TM)->getTargetTriple());
  M->setDataLayout((*TM)->createDataLayout());
  if (Error E = backend::linkRawFunctions(*M, Raw, *this, Desc))
    return std::move(E);
  prepareKernel(*M, *M->getFunction(Result.EntryName), Result.ThreadsPerBlock);
  if (Error E = checkNoExternalCalls(*M))
    return std::move(E);
  if (Error E = checkSelectableMath(*M))
    return std::move(E);

  optimize(*M, **TM, Options.OptLevel);
  if (Options.KeepLLVMIR) {
    raw_string_ostream OS(Result.LLVMIR);
    M->print(OS, /*AAW=*/nullptr);
  }
  // Code generation rewrites the module it runs on: the assembly is made
  // from a copy.
  std::unique_ptr<llvm::Module> Copy = CloneModule(*M);
  Expected<std::string> Assembly =
      emit(*Copy, **TM, CodeGenFileType::AssemblyFile, Errors);
  if (!Assembly)
    return Assembly.takeError();
  Result.Assembly = std::move(*Assembly);
  Expected<std::string> Object =
      emit(*M, **TM, CodeGenFileType::ObjectFile, Errors);
  if (!Object)
    return Object.takeError();

  std::string Lld = findLld();
  if (Lld.empty())
    return makeError("ld.lld-" + Twine(LLVM_VERSION_MAJOR) +
                     " not found (Debian package lld-" +
                     Twine(LLVM_VERSION_MAJOR) +
                     ", or set TLE_AMD_LLD); it links the code object");
  Expected<std::string> CodeObject = linkCodeObject(Lld, *Object);
  if (!CodeObject)
    return CodeObject.takeError();
  Expected<KernelMetadata> Meta =
      readKernelMetadata(*CodeObject, Result.EntryName);
  if (!Meta)
    return Meta.takeError();
  if (Error E = checkMetadata(*Meta, Desc, Result.ThreadsPerBlock))
    return std::move(E);
  Result.Binary = std::move(*CodeObject);
  Result.Resources = toResourceUsage(*Meta);
  // The code object's own words, for the manifest (docs/amd.md lists them).
  Result.Properties = std::move(Meta->Properties);
  Result.Properties.insert(Result.Properties.begin(),
                           {"target", Meta->Target, ""});
  Result.ArgumentLayout = std::move(Meta->Arguments);
  return std::move(Result);
}
