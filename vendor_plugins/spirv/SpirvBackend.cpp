//===- SpirvBackend.cpp - The SPIR-V backend ------------------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvBackend.h"
#include "OpenClBuiltins.h"
#include "OpenClRuntime.h"
#include "SpirvBitReverse.h"
#include "SpirvHalfMath.h"
#include "SpirvIntegerWidths.h"
#include "SpirvRaw.h"
#include "SpirvTargetInfo.h"
#include "SpirvValidator.h"
#include "SpirvVersion.h"

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/MathLibrary.h"
#include "tle/Backend/RawCode.h"

#include "tle/Backend/DistributedIR.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>

extern "C" {
void LLVMInitializeSPIRVTargetInfo();
void LLVMInitializeSPIRVTarget();
void LLVMInitializeSPIRVTargetMC();
void LLVMInitializeSPIRVAsmPrinter();
}

using namespace llvm;
using namespace tle;
using namespace tle::spirv;

/// The attributes of the distributed-IR contract (backends/README.md).
static constexpr StringLiteral SharedMemoryAttr = "tle.shared_memory";

static constexpr StringLiteral DefaultTriple = "spirv64-unknown-unknown";

static Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "spirv plugin: " + Message);
}

void SpirvBackend::registerDialects(mlir::DialectRegistry &Registry) const {
  // What SpirvTargetInfo emits, and what compile() translates to LLVM IR.
  Registry.insert<mlir::LLVM::LLVMDialect>();
  mlir::registerBuiltinDialectTranslation(Registry);
  mlir::registerLLVMDialectTranslation(Registry);
}

std::unique_ptr<backend::TargetInfo>
SpirvBackend::createTargetInfo(const hwdesc::HwDesc &Desc) const {
  return std::make_unique<SpirvTargetInfo>(Desc);
}

std::unique_ptr<backend::Runtime>
SpirvBackend::createRuntime(const hwdesc::HwDesc &Desc) {
  return std::make_unique<OpenClRuntime>(Desc.getWarpSize());
}

/// OpenCL has no dynamic local memory outside kernel arguments, so the
/// Workgroup arrays whose size is only known now become fixed-size ones:
/// the lane-exchange array of emulated shuffles (8 bytes per work-item) and
/// the external `[0 x i8]` array of tle.shared_memory (SharedBytes).
static Error sizeWorkgroupArrays(mlir::ModuleOp Module, unsigned Threads,
                                 uint64_t SharedBytes) {
  for (auto Global : Module.getOps<mlir::LLVM::GlobalOp>()) {
    auto Array = dyn_cast<mlir::LLVM::LLVMArrayType>(Global.getGlobalType());
    if (Global.getLinkage() != mlir::LLVM::Linkage::External ||
        Global.getInitializerRegion().getBlocks().size() || Global.getValue() ||
        !Array || Array.getNumElements() != 0)
      continue;
    uint64_t Count;
    if (Global.getSymName() == LaneExchangeGlobal)
      Count = Threads;
    else if (SharedBytes > 0 && Array.getElementType().isInteger(8))
      Count = SharedBytes;
    else
      return makeError("the kernel uses the external array @" +
                       Global.getSymName() + ", but '" + SharedMemoryAttr +
                       "' gives it no size");
    Global.setGlobalType(
        mlir::LLVM::LLVMArrayType::get(Array.getElementType(), Count));
    Global.setLinkage(mlir::LLVM::Linkage::Internal);
  }
  return Error::success();
}

/// Calls of C math library names (erff, atan2, ...) become calls of the
/// OpenCL built-in of the same function (erf(float) is _Z3erff), which LLVM's
/// SPIR-V backend emits as OpenCL.std instructions.
static void useOpenClMath(llvm::Module &M) {
  for (Function &F : make_early_inc_range(M)) {
    Type *Ty = F.getReturnType();
    if (!F.isDeclaration() || F.isIntrinsic() ||
        !backend::isMathLibraryFunction(F.getName()) ||
        !(Ty->isFloatTy() || Ty->isDoubleTy()))
      continue;
    // erff is erf(float); erf is erf(double).
    StringRef Base = Ty->isFloatTy() ? F.getName().drop_back() : F.getName();
    std::string Name = ("_Z" + Twine(Base.size()) + Base).str();
    Name.append(F.arg_size(), Ty->isFloatTy() ? 'f' : 'd');
    Function *Builtin = backend::renameDeclaration(F, Name);
    Builtin->setDoesNotAccessMemory();
    Builtin->setWillReturn();
  }
}

/// The calling conventions and attributes OpenCL code has: the kernel is a
/// spir_kernel with the work-group size it was compiled for, everything
/// else spir_func. Barriers and shuffles are convergent so that the
/// optimizer does not move them into divergent code; id queries read no
/// memory so that it can merge them.
static void prepareForOpenCL(llvm::Module &M, Function &Kernel,
                             unsigned Threads) {
  LLVMContext &Ctx = M.getContext();
  for (Function &F : M) {
    if (&F == &Kernel || F.isIntrinsic())
      continue;
    F.setCallingConv(CallingConv::SPIR_FUNC);
    if (isConvergentBuiltin(F.getName()))
      F.setConvergent();
    if (isWorkItemQuery(F.getName())) {
      F.setDoesNotAccessMemory();
      F.setWillReturn();
    }
    F.setDoesNotThrow();
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallInst>(U))
        Call->setCallingConv(CallingConv::SPIR_FUNC);
  }
  Kernel.setCallingConv(CallingConv::SPIR_KERNEL);
  Type *I32 = Type::getInt32Ty(Ctx);
  Metadata *Size[] = {ConstantAsMetadata::get(ConstantInt::get(I32, Threads)),
                      ConstantAsMetadata::get(ConstantInt::get(I32, 1)),
                      ConstantAsMetadata::get(ConstantInt::get(I32, 1))};
  Kernel.setMetadata("reqd_work_group_size", MDNode::get(Ctx, Size));
}

static void initializeSPIRV() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeSPIRVTargetInfo();
    LLVMInitializeSPIRVTarget();
    LLVMInitializeSPIRVTargetMC();
    LLVMInitializeSPIRVAsmPrinter();
  });
}

/// LLVM's SPIR-V backend only emits instructions of extensions it was told
/// about, and its one way to be told is its `-spirv-ext` option. A float
/// atomic add without SPV_EXT_shader_atomic_float_add is a fatal error in
/// the backend, so the extension is enabled before such a module is
/// compiled (the option is process-wide; enabling more extensions only
/// allows more instructions).
static Error enableFloatAtomicAdd() {
  static std::once_flag Once;
  static bool Found = false;
  std::call_once(Once, [] {
    auto &Options = cl::getRegisteredOptions();
    auto It = Options.find("spirv-ext");
    if (It == Options.end())
      return;
    Found = !It->second->addOccurrence(0, "spirv-ext",
                                       "+SPV_EXT_shader_atomic_float_add");
  });
  if (!Found)
    return makeError("cannot enable SPV_EXT_shader_atomic_float_add in "
                     "LLVM's SPIR-V backend (no usable -spirv-ext option)");
  return Error::success();
}

static bool hasFloatAtomicAdd(const llvm::Module &M) {
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        if (RMW->isFloatingPointOperation())
          return true;
  return false;
}

static Expected<std::unique_ptr<TargetMachine>>
createTargetMachine(const hwdesc::HwDesc &Desc, unsigned Version) {
  initializeSPIRV();
  // The version is the triple's sub-architecture: spirv64v1.2-unknown-...
  Triple TT(Desc.Tools.Triple.empty() ? DefaultTriple.str()
                                      : Desc.Tools.Triple);
  if (!TT.isSPIRV())
    return makeError(Desc.Name + ": toolchain.triple '" + Desc.Tools.Triple +
                     "' is not a SPIR-V triple (spirv64-unknown-unknown)");
  if (TT.getSubArch() == Triple::NoSubArch)
    TT.setArchName((TT.getArchName() + "v" + Twine(Version / 10) + "." +
                    Twine(Version % 10))
                       .str());
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T)
    return makeError(Error);
  TargetOptions Opts;
  // The module comes optimized (optimize() at tlec's -O level) and the
  // OpenCL driver optimizes the binary again. Code generation's own IR
  // passes are left out: its loop strength reduction made integers of
  // widths SPIR-V lacks (i2), which LLVM 22's SPIR-V backend miscompiles
  // (SpirvIntegerWidths.h).
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(TT, "", "", Opts, /*RM=*/std::nullopt,
                             /*CM=*/std::nullopt, CodeGenOptLevel::None));
  if (!TM)
    return makeError("cannot create a target machine for " + TT.str());
  return std::move(TM);
}

static void optimize(llvm::Module &M, TargetMachine &TM, unsigned OptLevel) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
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

static Expected<std::string> emit(llvm::Module &M, TargetMachine &TM,
                                  CodeGenFileType Type) {
  SmallString<0> Out;
  raw_svector_ostream OS(Out);
  legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, Type))
    return makeError("LLVM's SPIR-V backend cannot emit this file type");
  PM.run(M);
  return Out.str().str();
}

Expected<backend::CompiledKernel>
SpirvBackend::compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
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

  std::optional<unsigned> Version = getSpirvVersion(Desc);
  if (!Version)
    return makeError(Desc.Name +
                     " needs toolchain.isa_version, the SPIR-V version "
                     "(\"1.0\" to \"1.6\"), not '" +
                     Desc.Tools.IsaVersion + "'");
  Expected<mlir::LLVM::LLVMFuncOp> Kernel =
      backend::findKernel(Module, "spirv");
  if (!Kernel)
    return Kernel.takeError();
  Expected<unsigned> NumWarps =
      backend::getNumWarps(*Kernel, Module, Options, "spirv");
  if (!NumWarps)
    return NumWarps.takeError();

  backend::CompiledKernel Result;
  Result.EntryName = Kernel->getSymName().str();
  Result.Format = "spv";
  Result.ThreadsPerBlock = *NumWarps * Desc.getWarpSize();
  if (const hwdesc::ParallelLevel *Block =
          Desc.getParallelLevel(hwdesc::LevelKind::Block))
    if (Block->MaxThreads && Result.ThreadsPerBlock > Block->MaxThreads)
      return makeError(Twine(*NumWarps) + " warps are " +
                       Twine(Result.ThreadsPerBlock) + " work-items; " +
                       Desc.Name + " allows " + Twine(Block->MaxThreads) +
                       " per work-group");
  uint64_t SharedBytes = 0;
  if (auto Shared =
          (*Kernel)->getAttrOfType<mlir::IntegerAttr>(SharedMemoryAttr))
    SharedBytes = Shared.getInt();
  // The launch provides no memory: every Workgroup array is static.
  Result.SharedMemoryBytes = 0;
  if (Error E =
          sizeWorkgroupArrays(Module, Result.ThreadsPerBlock, SharedBytes))
    return std::move(E);

  // TLE-Raw functions, linked after translation.
  std::vector<backend::RawFunction> Raw = backend::collectRawFunctions(Module);

  LLVMContext Context;
  std::unique_ptr<llvm::Module> M =
      mlir::translateModuleToLLVMIR(Module, Context, Result.EntryName);
  if (!M)
    return makeError("cannot translate distributed IR to LLVM IR:" +
                     Diagnostics);
  // LLVM 22's SPIR-V backend is not safe to run on two modules at once. Its
  // assembly printer crashed (MachineInstr::getMF) when tlec compiled
  // cpu-spirv and dsa-spirv in parallel with only code generation
  // serialized, and later its IRTranslator (a segfault in CI while the
  // other target's module was being optimized). Everything from making the
  // target machine to the last emitted file runs one module at a time.
  static std::mutex BackendMutex;
  std::lock_guard<std::mutex> Lock(BackendMutex);
  // The backend's subtarget reads its extensions when the target machine
  // is made.
  if (hasFloatAtomicAdd(*M))
    if (Error E = enableFloatAtomicAdd())
      return std::move(E);
  Expected<std::unique_ptr<TargetMachine>> TM =
      createTargetMachine(Desc, *Version);
  if (!TM)
    return TM.takeError();
  M->setTargetTriple((*TM)->getTargetTriple());
  M->setDataLayout((*TM)->createDataLayout());
  std::vector<std::string> RawBinaries;
  if (Error E = backend::linkRawFunctions(*M, Raw, *this, Desc, &RawBinaries))
    return std::move(E);
  Function *KernelFn = M->getFunction(Result.EntryName);
  useOpenClMath(*M);
  useOpenClMulHi(*M);
  prepareForOpenCL(*M, *KernelFn, Result.ThreadsPerBlock);

  optimize(*M, **TM, Options.OptLevel);
  // After the optimizer, which would narrow the fp32 calls back to halves,
  // and may form bit reversals and integers of odd widths.
  promoteHalfMath(*M);
  expandBitReverse(*M);
  if (Expected<unsigned> Widened = legalizeIntegerWidths(*M); !Widened)
    return Widened.takeError();
  if (Options.KeepLLVMIR) {
    raw_string_ostream OS(Result.LLVMIR);
    M->print(OS, /*AAW=*/nullptr);
  }
  // Code generation rewrites the module it runs on: the assembly is made
  // from a copy.
  std::unique_ptr<llvm::Module> Copy = CloneModule(*M);
  Expected<std::string> Assembly =
      emit(*Copy, **TM, CodeGenFileType::AssemblyFile);
  if (!Assembly)
    return Assembly.takeError();
  Result.Assembly = std::move(*Assembly);
  // A target machine for each emission: the backend's subtarget keeps
  // per-function state (its global registry) across runs, and the second
  // run's functions could reuse the freed addresses of the first's (an
  // occasional segfault in the IRTranslator, MachineRegisterInfo::getVRegDef,
  // when tlec compiled several targets at once).
  auto EmitBinary = [&](llvm::Module &Mod) -> Expected<std::string> {
    Expected<std::unique_ptr<TargetMachine>> ObjectTM =
        createTargetMachine(Desc, *Version);
    if (!ObjectTM)
      return ObjectTM.takeError();
    Expected<std::string> Binary =
        emit(Mod, **ObjectTM, CodeGenFileType::ObjectFile);
    if (!Binary || RawBinaries.empty())
      return Binary;
    return linkRawBinaries(*Binary, RawBinaries);
  };
  bool Validate = isValidationRequested();
  // LLVM 22's SPIR-V backend now and then gives two instructions one
  // result id ("Id 2 is defined more than once": twice in CI runs of
  // examples/subtile_norm.py, never in 3000 local compiles of it). When
  // validating, an invalid binary is emitted once more from a copy of the
  // module taken before code generation rewrote it, and said so.
  std::unique_ptr<llvm::Module> Spare = Validate ? CloneModule(*M) : nullptr;
  Expected<std::string> Binary = EmitBinary(*M);
  if (!Binary)
    return Binary.takeError();
  if (Validate) {
    Expected<bool> Valid = validateSpirv(*Binary, *Version);
    if (!Valid) {
      std::string FirstError = toString(Valid.takeError());
      Expected<std::string> Again = EmitBinary(*Spare);
      Expected<bool> ValidAgain =
          Again ? validateSpirv(*Again, *Version) : Again.takeError();
      if (!ValidAgain) {
        consumeError(ValidAgain.takeError());
        return createStringError(inconvertibleErrorCode(),
                                 FirstError +
                                     "\n(emitted twice, both rejected)");
      }
      errs() << "spirv plugin: warning: LLVM's SPIR-V backend gave an "
                "invalid binary for '"
             << Result.EntryName
             << "'; a second emission is valid and is used. The first: "
             << FirstError << "\n";
      Binary = std::move(Again);
    }
  }
  Result.Binary = std::move(*Binary);
  return std::move(Result);
}
