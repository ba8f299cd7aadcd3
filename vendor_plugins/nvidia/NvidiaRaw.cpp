//===- NvidiaRaw.cpp - TLE-Raw native code for NVIDIA GPUs ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Inline PTX reaches ptxas inside the kernel's PTX; a ptxas error about a
// line of it is mapped back to the line of the kernel source it came from
// through a `// tle_raw FILE:LINE:COL` comment put before each inline asm.
//
// CUDA C device functions are compiled to LLVM IR by clang in CUDA mode
// against the toolkit's headers (no libdevice: the kernel links its own) and
// linked into the kernel before optimization, so they inline. LLVM IR
// functions are parsed and linked the same way.
//
//===----------------------------------------------------------------------===//

#include "NvidiaRaw.h"
#include "NvidiaBackend.h"

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/RawCode.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>

using namespace llvm;
using namespace tle;

static constexpr StringLiteral Marker = "// tle_raw ";

static Error rawError(const backend::RawFunction &Fn, const Twine &Message) {
  return backend::makeRawError(Fn, "nvidia", Message);
}

std::string nvidia::findCudaRoot() {
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *Dir = std::getenv(Var); Dir && *Dir)
      return Dir;
  return "/usr/local/cuda";
}

std::string nvidia::findRawClang() {
  if (const char *Path = std::getenv("TLE_CLANG"); Path && *Path)
    return Path;
  for (StringRef Name : {"clang-22", "clang"})
    if (ErrorOr<std::string> Path = sys::findProgramByName(Name))
      return *Path;
  return "";
}

void nvidia::annotateInlinePtx(mlir::ModuleOp Module) {
  Module.walk([](mlir::LLVM::InlineAsmOp Asm) {
    auto Fused = dyn_cast<mlir::FusedLoc>(Asm.getLoc());
    auto Tag = Fused ? dyn_cast_or_null<mlir::StringAttr>(Fused.getMetadata())
                     : mlir::StringAttr();
    if (!Tag || Tag.getValue() != "tle_raw" || Fused.getLocations().size() < 2)
      return;
    auto Code = dyn_cast<mlir::FileLineColLoc>(Fused.getLocations()[1]);
    if (!Code)
      return;
    std::string Text =
        (Marker + Code.getFilename().getValue() + ":" + Twine(Code.getLine()) +
         ":" + Twine(Code.getColumn()) + "\n" + Asm.getAsmString())
            .str();
    Asm.setAsmString(Text);
  });
}

std::string nvidia::mapPtxasErrors(StringRef Log, StringRef Ptx) {
  SmallVector<StringRef> PtxLines;
  Ptx.split(PtxLines, '\n');
  std::string Mapped;
  SmallVector<StringRef> LogLines;
  Log.split(LogLines, '\n');
  for (StringRef L : LogLines) {
    // "ptxas K.ptx, line 42; error   : Unknown modifier '.s33'"
    size_t At = L.find(", line ");
    unsigned N;
    StringRef Rest = At == StringRef::npos ? "" : L.drop_front(At + 7);
    StringRef Num = Rest.take_while(isDigit);
    if (At == StringRef::npos || Num.getAsInteger(10, N) || N == 0 ||
        N > PtxLines.size())
      continue;
    // The marker of the inline asm block line N is in, if any.
    for (unsigned I = N; I-- > 0;) {
      StringRef P = PtxLines[I].trim();
      if (P.starts_with("// end inline asm") ||
          P.starts_with("// begin inline asm"))
        break;
      if (!P.starts_with(Marker))
        continue;
      StringRef Where = P.drop_front(Marker.size());
      auto [FileLine, Col] = Where.rsplit(':');
      auto [File, Line] = FileLine.rsplit(':');
      unsigned LineNo, ColNo;
      if (Line.getAsInteger(10, LineNo) || Col.getAsInteger(10, ColNo))
        break;
      // The marker is line I + 1; the native code starts on the next one.
      unsigned Offset = N - I - 2;
      StringRef Message = Rest.drop_front(Num.size()).ltrim("; ");
      if (Message.consume_front("error"))
        Message = Message.ltrim(" :");
      Mapped += (File + ":" + Twine(LineNo + Offset) + ":" +
                 Twine(Offset == 0 ? ColNo : 1) + ": error: " + Message +
                 " (inline PTX: " + PtxLines[N - 1].trim() + ")\n")
                    .str();
      break;
    }
  }
  return Mapped;
}

/// CUDA C to LLVM IR with clang in CUDA device mode.
static Expected<std::unique_ptr<Module>>
compileCuda(const backend::RawFunction &Fn, const hwdesc::HwDesc &Desc,
            LLVMContext &Context) {
  std::string Root = nvidia::findCudaRoot();
  SmallString<256> Header(Root);
  sys::path::append(Header, "include", "cuda_runtime.h");
  if (!sys::fs::exists(Header))
    return rawError(Fn, "CUDA C needs a CUDA toolkit's headers, and " + Header +
                            " does not exist (set CUDA_HOME to a toolkit); "
                            "inline PTX needs no toolkit");
  std::string Clang = nvidia::findRawClang();
  if (Clang.empty())
    return rawError(Fn, "CUDA C needs clang-22 (on PATH, or TLE_CLANG)");
  std::vector<std::string> Args = {
      "-x", "cuda", "--cuda-device-only", "-emit-llvm", "-c", "-O3",
      "--cuda-gpu-arch=" + Desc.Arch, "--cuda-path=" + Root, "-nocudalib",
      "-Wno-unknown-cuda-version", "-fno-exceptions",
      // The kernel's data layout: 32-bit shared, constant and local
      // pointers (NvidiaBackend sets nvptx-short-ptr).
      "-fcuda-short-ptr",
      // Diagnostics name native.cu only, which mapRawDiagnostics rewrites.
      "-fno-color-diagnostics", "-o", "%dir/native.bc", "%dir/native.cu"};
  return backend::compileRawWithClang(Fn, "nvidia", Clang, Args,
                                      "native.cu", "CUDA C", Context);
}

Expected<backend::RawCode>
nvidia::NvidiaBackend::forwardRaw(const backend::RawFunction &Fn,
                                  const hwdesc::HwDesc &Desc,
                                  LLVMContext &Context) {
  backend::RawCode Code;
  if (Fn.Language == "cuda") {
    Expected<std::unique_ptr<Module>> M = compileCuda(Fn, Desc, Context);
    if (!M)
      return M.takeError();
    Code.IR = std::move(*M);
    return std::move(Code);
  }
  if (Fn.Language == "llvm") {
    Expected<std::unique_ptr<Module>> M =
        backend::parseRawLLVM(Fn, Context, "nvidia");
    if (!M)
      return M.takeError();
    Code.IR = std::move(*M);
    return std::move(Code);
  }
  return rawError(Fn, "the nvidia plugin does not forward '" + Fn.Language +
                          "' functions (it takes cuda and llvm functions, "
                          "and ptx as inline assembly with constraints)");
}
