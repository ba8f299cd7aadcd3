//===- RawCode.h - Native functions (TLE-Raw) for backend plugins -*- C++
//-*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The extension point through which plugins forward TLE-Raw native code to
// their vendor's toolchain.
//
// Inline assembly (ptx, amdgcn with constraints) needs nothing from the
// plugin: the core's distribution emits it as `llvm.inline_asm`. Every other
// language (CUDA C, OpenCL C, HIP, LLVM IR, SPIR-V assembly) is a function:
// distribution calls it once per element a thread holds, through an
// `llvm.func` declaration that carries the variant (attribute
// `tle_raw.variant`). The plugin's compile() then
//   1. collects those declarations with collectRawFunctions() before it
//      translates the module to LLVM IR;
//   2. for each, asks Backend::forwardRaw() for the native code as an LLVM
//      module (or, for code that only exists after code generation, as a
//      binary it links itself), and
//   3. links the modules into the kernel with linkRawFunctions() before its
//      optimization pipeline, so that the native functions inline.
// A vendor tool runs through runRawTool(): an argument vector (no shell), a
// private temporary directory, a time limit; mapRawDiagnostics() rewrites
// its `input:LINE:COL:` diagnostics to the kernel's source lines.
//
// Header-only, like the rest of the SDK.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_BACKEND_RAWCODE_H
#define TLE_BACKEND_RAWCODE_H

#include "tle/Backend/Backend.h"

#include "dialects/TLERaw/TLERawDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tle {
namespace backend {

/// The attribute on the llvm.func declarations of native functions.
inline constexpr llvm::StringLiteral RawVariantAttrName = "tle_raw.variant";

/// The native functions distribution declared in Module, in symbol order.
inline std::vector<RawFunction> collectRawFunctions(mlir::ModuleOp Module) {
  std::vector<RawFunction> Fns;
  std::string Kernel;
  Module.walk([&](mlir::LLVM::LLVMFuncOp Fn) {
    if (Fn->hasAttr("tle.kernel"))
      Kernel = Fn.getSymName().str();
    auto Variant =
        Fn->getAttrOfType<mlir::tle_raw::VariantAttr>(RawVariantAttrName);
    if (!Variant)
      return;
    RawFunction R;
    R.Symbol = Fn.getSymName().str();
    R.Language = Variant.getLanguage().str();
    R.Code = Variant.getCode().str();
    R.Entry = Variant.getEntry() ? Variant.getEntry().str() : R.Symbol;
    if (Variant.getFile()) {
      R.File = Variant.getFile().str();
      R.Line = Variant.getLine();
      R.Column = Variant.getColumn();
    }
    Fns.push_back(std::move(R));
  });
  for (RawFunction &R : Fns)
    R.Kernel = Kernel;
  return Fns;
}

/// "FILE:LINE:COL: error: <first line of Message> (kernel 'K', P plugin)"
/// followed by the rest of Message (e.g. a vendor tool's diagnostics).
inline llvm::Error makeRawError(const RawFunction &Fn, llvm::StringRef Plugin,
                                const llvm::Twine &Message) {
  std::string Text = Message.str();
  size_t NewLine = Text.find('\n');
  Text.insert(NewLine == std::string::npos ? Text.size() : NewLine,
              " (kernel '" + Fn.Kernel + "', " + Plugin.str() + " plugin)");
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Fn.where() + ": error: " + Text);
}

/// Rewrites `<path ending in InputName>:LINE:COL:` at the start of a line of
/// Log to Fn's position in the kernel source, so that a compiler's
/// diagnostics about native code point at the kernel file. LineOffset lines
/// of prelude the plugin put before Code are subtracted.
inline std::string mapRawDiagnostics(llvm::StringRef Log,
                                     llvm::StringRef InputName,
                                     const RawFunction &Fn,
                                     unsigned LineOffset = 0) {
  std::string Out;
  llvm::SmallVector<llvm::StringRef> Lines;
  Log.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (!Out.empty())
      Out += '\n';
    size_t At = L.find(InputName.str() + ":");
    size_t Start = At == llvm::StringRef::npos ? At : L.rfind(' ', At);
    Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
    unsigned Line, Col;
    llvm::StringRef Rest = At == llvm::StringRef::npos
                               ? ""
                               : L.drop_front(At + InputName.size() + 1);
    llvm::StringRef LineText = Rest.take_while(llvm::isDigit);
    llvm::StringRef AfterLine = Rest.drop_front(LineText.size());
    llvm::StringRef ColText =
        AfterLine.consume_front(":") ? AfterLine.take_while(llvm::isDigit) : "";
    if (At == llvm::StringRef::npos || LineText.getAsInteger(10, Line) ||
        ColText.getAsInteger(10, Col) || Line <= LineOffset) {
      Out += L.str();
      continue;
    }
    Out += L.take_front(Start).str();
    Out += Fn.where(Line - LineOffset, Col);
    Out += AfterLine.drop_front(ColText.size()).str();
  }
  return llvm::StringRef(Out).rtrim().str();
}

/// A file a vendor tool reads (Name inside the private directory).
struct RawToolInput {
  std::string Name;
  std::string Contents;
};

/// Runs Program with Args, without a shell, in a fresh directory only this
/// user can read (mode 0700), removed afterwards. `%dir` at the start of an
/// argument is replaced by that directory. Inputs are written there first;
/// returns the contents of the file Output names there. A failure, a crash
/// or a run longer than TimeoutSeconds is an error carrying the tool's
/// stderr and stdout.
inline llvm::Expected<std::string>
runRawTool(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
           llvm::ArrayRef<RawToolInput> Inputs, llvm::StringRef Output,
           unsigned TimeoutSeconds = 60) {
  llvm::SmallString<128> Dir;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("tle-raw", Dir))
    return llvm::createStringError(EC, "cannot create a temporary directory: " +
                                           EC.message());
  std::vector<std::string> Files;
  auto Path = [&](llvm::StringRef Name) {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    Files.push_back(P.str().str());
    return P.str().str();
  };
  llvm::scope_exit Cleanup([&] {
    for (const std::string &F : Files)
      llvm::sys::fs::remove(F);
    llvm::sys::fs::remove(Dir);
  });
  for (const RawToolInput &In : Inputs) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path(In.Name), EC, llvm::sys::fs::OF_None);
    if (EC)
      return llvm::createStringError(EC, "cannot write " + In.Name + ": " +
                                             EC.message());
    OS << In.Contents;
  }
  std::string OutPath = Path(Output), StdoutPath = Path("stdout"),
              StderrPath = Path("stderr");
  std::vector<std::string> Expanded;
  for (const std::string &A : Args)
    Expanded.push_back(llvm::StringRef(A).starts_with("%dir")
                           ? (Dir + llvm::StringRef(A).drop_front(4)).str()
                           : A);
  llvm::SmallVector<llvm::StringRef> Argv = {Program};
  for (const std::string &A : Expanded)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(StdoutPath),
                                                llvm::StringRef(StderrPath)};
  std::string ErrMsg;
  int Status = llvm::sys::ExecuteAndWait(Program, Argv, /*Env=*/std::nullopt,
                                         Redirects, TimeoutSeconds,
                                         /*MemoryLimit=*/0, &ErrMsg);
  auto Read = [](llvm::StringRef P) -> std::string {
    auto Buf = llvm::MemoryBuffer::getFile(P, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    return Buf ? (*Buf)->getBuffer().str() : std::string();
  };
  if (Status != 0) {
    std::string Message =
        (llvm::sys::path::filename(Program) + " failed").str();
    // -1: not run or timed out, -2: crashed; ErrMsg says which.
    if (Status < 0) {
      llvm::StringRef Why = llvm::StringRef(ErrMsg).rtrim(": ");
      Message += ": " + (Why.empty() ? std::string("crashed") : Why.str());
      if (Why.contains("timed out"))
        Message += " (limit " + std::to_string(TimeoutSeconds) + " s)";
    } else
      Message += " with exit status " + std::to_string(Status);
    for (llvm::StringRef Log :
         {llvm::StringRef(StderrPath), llvm::StringRef(StdoutPath)}) {
      std::string Text = Read(Log);
      // The directory is gone after this call; keep only file names.
      std::string T = llvm::StringRef(Text).trim().str();
      std::string Prefix = (Dir + "/").str();
      for (size_t P; (P = T.find(Prefix)) != std::string::npos;)
        T.erase(P, Prefix.size());
      if (!T.empty())
        Message += "\n" + T;
    }
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
  }
  return Read(OutPath);
}

/// The function in Native that implements Fn: Fn.Entry itself, else the one
/// C++-mangled function of that name (CUDA/HIP without extern "C").
inline llvm::Function *findRawEntry(llvm::Module &Native,
                                    const RawFunction &Fn) {
  if (llvm::Function *F = Native.getFunction(Fn.Entry);
      F && !F->isDeclaration())
    return F;
  std::string Mangled = "_Z" + std::to_string(Fn.Entry.size()) + Fn.Entry;
  llvm::Function *Found = nullptr;
  for (llvm::Function &F : Native)
    if (!F.isDeclaration() && F.getName().starts_with(Mangled)) {
      if (Found)
        return nullptr;
      Found = &F;
    }
  return Found;
}

/// Links Native, which implements Fn, into Kernel: its entry takes the name
/// of the declaration the kernel calls; everything else it defines becomes
/// internal (two native functions may each define a helper `f`); attributes
/// that would stop inlining into the kernel (another target-cpu or feature
/// set) are dropped and the entry is always-inline. Plugin names the caller.
inline llvm::Error linkRawFunction(llvm::Module &Kernel, const RawFunction &Fn,
                                   std::unique_ptr<llvm::Module> Native,
                                   llvm::StringRef Plugin) {
  auto Fail = [&](const llvm::Twine &Message) {
    return makeRawError(Fn, Plugin, Message);
  };
  llvm::Function *Decl = Kernel.getFunction(Fn.Symbol);
  if (!Decl)
    return llvm::Error::success(); // optimized away before translation
  llvm::Function *Entry = findRawEntry(*Native, Fn);
  if (!Entry) {
    std::vector<std::string> Names;
    for (llvm::Function &F : *Native)
      if (!F.isDeclaration())
        Names.push_back(F.getName().str());
    return Fail(
        "the " + Fn.Language + " code defines no function '" + Fn.Entry +
        "' (it defines: " +
        (Names.empty() ? std::string("nothing") : llvm::join(Names, ", ")) +
        "); name it with @dialect(extern_func_name=...)");
  }
  if (Entry->getFunctionType() != Decl->getFunctionType()) {
    std::string Want, Got;
    llvm::raw_string_ostream W(Want), G(Got);
    Decl->getFunctionType()->print(W);
    Entry->getFunctionType()->print(G);
    return Fail("'" + Fn.Entry + "' has type " + Got +
                ", but the call passes one element per operand: " + Want);
  }
  Native->setTargetTriple(Kernel.getTargetTriple());
  Native->setDataLayout(Kernel.getDataLayout());
  // Module flags (wchar_size, frame-pointer, ...) are the front end's, not
  // the kernel's; conflicting ones would stop the link.
  if (llvm::NamedMDNode *Flags = Native->getModuleFlagsMetadata())
    Native->eraseNamedMetadata(Flags);
  if (llvm::NamedMDNode *Ident = Native->getNamedMetadata("llvm.ident"))
    Native->eraseNamedMetadata(Ident);
  for (llvm::Function &F : *Native) {
    if (F.isDeclaration())
      continue;
    for (llvm::StringRef A :
         {"target-cpu", "target-features", "tune-cpu", "frame-pointer"})
      F.removeFnAttr(A);
    F.removeFnAttr(llvm::Attribute::NoInline);
    F.removeFnAttr(llvm::Attribute::OptimizeNone);
    if (&F != Entry)
      F.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  for (llvm::GlobalVariable &G : Native->globals())
    if (!G.isDeclaration())
      G.setLinkage(llvm::GlobalValue::InternalLinkage);
  Entry->setName(Fn.Symbol);
  if (Entry->getName() != Fn.Symbol)
    return Fail("cannot rename '" + Fn.Entry + "' to '" + Fn.Symbol + "'");
  // The kernel calls it with the declaration's convention (clang gives
  // OpenCL functions spir_func, CUDA ones the default).
  Entry->setCallingConv(Decl->getCallingConv());
  Entry->setLinkage(llvm::GlobalValue::ExternalLinkage);
  Entry->setVisibility(llvm::GlobalValue::DefaultVisibility);
  if (llvm::Linker::linkModules(Kernel, std::move(Native)))
    return Fail("cannot link the " + Fn.Language + " code into the kernel");
  if (llvm::Function *Linked = Kernel.getFunction(Fn.Symbol)) {
    Linked->setLinkage(llvm::GlobalValue::InternalLinkage);
    Linked->addFnAttr(llvm::Attribute::AlwaysInline);
    // Native code may talk to the other lanes (shuffles, votes): keep it
    // out of branches only some lanes take.
    Linked->setConvergent();
  }
  return llvm::Error::success();
}

/// Fn.Code compiled to LLVM bitcode by Clang and parsed into Context. Args
/// are runRawTool's: they compile `%dir/<SourceName>` (Fn.Code) into
/// `%dir/native.bc`. Clang's diagnostics are mapped to the kernel's line;
/// Language names the code in messages ("CUDA C", "OpenCL C"), Plugin the
/// caller.
inline llvm::Expected<std::unique_ptr<llvm::Module>>
compileRawWithClang(const RawFunction &Fn, llvm::StringRef Plugin,
                    llvm::StringRef Clang, llvm::ArrayRef<std::string> Args,
                    llvm::StringRef SourceName, llvm::StringRef Language,
                    llvm::LLVMContext &Context) {
  // A minute is plenty for one function; the limit only stops a hung tool.
  llvm::Expected<std::string> Bitcode =
      runRawTool(Clang, Args, {{SourceName.str(), Fn.Code}}, "native.bc",
                 /*TimeoutSeconds=*/120);
  if (!Bitcode)
    return makeRawError(
        Fn, Plugin,
        "the " + Language + " code does not compile\n" +
            mapRawDiagnostics(llvm::toString(Bitcode.takeError()), SourceName,
                              Fn));
  llvm::Expected<std::unique_ptr<llvm::Module>> M = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(*Bitcode, "native.bc"), Context);
  if (!M)
    return makeRawError(Fn, Plugin,
                        "cannot read clang's bitcode: " +
                            llvm::toString(M.takeError()));
  return std::move(*M);
}

/// Fn.Code as LLVM IR text (language `llvm`), parsed into Context; a parse
/// error is reported at the kernel's source line. Plugin names the caller.
inline llvm::Expected<std::unique_ptr<llvm::Module>>
parseRawLLVM(const RawFunction &Fn, llvm::LLVMContext &Context,
             llvm::StringRef Plugin) {
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M =
      llvm::parseAssemblyString(Fn.Code, Diag, Context);
  if (!M)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Fn.where(Diag.getLineNo() > 0 ? Diag.getLineNo() : 1,
                 Diag.getColumnNo() >= 0 ? Diag.getColumnNo() + 1 : 1) +
            ": error: LLVM IR: " + Diag.getMessage() + " (kernel '" +
            Fn.Kernel + "', " + Plugin + " plugin)");
  return std::move(M);
}

/// Steps 2 and 3 of the header comment for every function in Fns: asks
/// B.forwardRaw for each and links what comes back as IR; binaries are
/// appended to Binaries for the plugin's own linker.
inline llvm::Error
linkRawFunctions(llvm::Module &Kernel, llvm::ArrayRef<RawFunction> Fns,
                 Backend &B, const hwdesc::HwDesc &Desc,
                 std::vector<std::string> *Binaries = nullptr) {
  // Inline assembly (TLE-Raw ptx/amdgcn, or a backend's own) may exchange
  // values between lanes, like a shuffle: without `convergent`, LLVM may
  // copy it into both sides of a branch on a per-lane condition (seen with
  // a masked load before a shfl.sync butterfly), where lanes no longer meet.
  for (llvm::Function &F : Kernel)
    for (llvm::BasicBlock &BB : F)
      for (llvm::Instruction &I : BB)
        if (auto *Call = llvm::dyn_cast<llvm::CallInst>(&I);
            Call && Call->isInlineAsm())
          Call->setConvergent();
  for (const RawFunction &Fn : Fns) {
    if (!Kernel.getFunction(Fn.Symbol))
      continue;
    llvm::Expected<RawCode> Code = B.forwardRaw(Fn, Desc, Kernel.getContext());
    if (!Code)
      return Code.takeError();
    if (Code->IR) {
      if (llvm::Error E =
              linkRawFunction(Kernel, Fn, std::move(Code->IR), B.getName()))
        return E;
    } else if (!Code->Binary.empty() && Binaries) {
      // A binary is linked after code generation by symbol name: the
      // kernel's declaration takes the entry's name, which it imports.
      llvm::Function *Decl = Kernel.getFunction(Fn.Symbol);
      if (llvm::Function *Other = Kernel.getFunction(Fn.Entry);
          Other && Other != Decl)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            Fn.where() + ": error: the " + Fn.Language + " function '" +
                Fn.Entry +
                "' has the name of another function of the "
                "kernel (kernel '" +
                Fn.Kernel + "', " + B.getName() + " plugin)");
      Decl->setName(Fn.Entry);
      Binaries->push_back(std::move(Code->Binary));
    } else {
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          Fn.where() + ": error: the " + B.getName() +
              " plugin returned nothing for the " + Fn.Language +
              " function '" + Fn.Entry + "'");
    }
  }
  return llvm::Error::success();
}

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_RAWCODE_H
