//===- SpirvRaw.cpp - TLE-Raw native code for SPIR-V devices --------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// OpenCL C is compiled by clang for the spirv64 target to LLVM IR, not to a
// SPIR-V module, and linked into the kernel before optimization: the kernel
// itself becomes SPIR-V through LLVM's SPIR-V backend, so going through IR
// lets the native function inline (spirv-link only resolves calls, and the
// OpenCL built-ins it calls are lowered by the same backend as the kernel's).
//
// SPIR-V assembly cannot be LLVM IR: spirv-as assembles it and spirv-link
// links the result with the kernel's binary, whose declaration of the
// function is an import (LinkageAttributes) that the assembly must export.
//
//===----------------------------------------------------------------------===//

#include "SpirvRaw.h"
#include "ExternalTool.h"
#include "SpirvBackend.h"

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/RawCode.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace tle;

static Error rawError(const backend::RawFunction &Fn, const Twine &Message) {
  return backend::makeRawError(Fn, "spirv", Message);
}

/// OpenCL C 1.2 (what PoCL and most OpenCL drivers accept) to LLVM IR.
static Expected<std::unique_ptr<Module>>
compileOpenCl(const backend::RawFunction &Fn, LLVMContext &Context) {
  std::string Clang = spirv::findTool("TLE_CLANG", {"clang-22", "clang"});
  if (Clang.empty())
    return rawError(Fn, "OpenCL C needs clang-22 (on PATH, or TLE_CLANG)");
  std::vector<std::string> Args = {"-x",
                                   "cl",
                                   "-cl-std=CL1.2",
                                   "-target",
                                   "spirv64",
                                   "-emit-llvm",
                                   "-c",
                                   "-O2",
                                   "-Xclang",
                                   "-finclude-default-header",
                                   "-fno-color-diagnostics",
                                   "-o",
                                   "%dir/native.bc",
                                   "%dir/native.cl"};
  return backend::compileRawWithClang(Fn, "spirv", Clang, Args,
                                      "native.cl", "OpenCL C", Context);
}

/// spirv-as names no file: "error: LINE: COL: message" becomes
/// "FILE:LINE:COL: error: message" at the kernel file's line.
static std::string mapSpirvAsDiagnostics(StringRef Log,
                                         const backend::RawFunction &Fn) {
  std::string Out;
  SmallVector<StringRef> Lines;
  Log.split(Lines, '\n');
  for (StringRef L : Lines) {
    if (!Out.empty())
      Out += '\n';
    StringRef Rest = L;
    unsigned Line, Col;
    if (Rest.consume_front("error: ") && !Rest.consumeInteger(10, Line) &&
        Rest.consume_front(": ") && !Rest.consumeInteger(10, Col) &&
        Rest.consume_front(": ")) {
      Out += Fn.where(Line, Col) + ": error: " + Rest.str();
      continue;
    }
    Out += L.str();
  }
  return Out;
}

/// SPIR-V assembly to a binary module with spirv-as.
static Expected<std::string> assembleSpirv(const backend::RawFunction &Fn) {
  std::string As = spirv::findTool("TLE_SPIRV_AS", {"spirv-as"});
  if (As.empty())
    return rawError(Fn, "SPIR-V assembly needs spirv-as (Debian package "
                        "spirv-tools, or TLE_SPIRV_AS)");
  Expected<std::string> Binary = backend::runRawTool(
      As,
      {"--target-env", "spv1.2", "-o", "%dir/native.spv", "%dir/native.spvasm"},
      {{"native.spvasm", Fn.Code}}, "native.spv", /*TimeoutSeconds=*/60);
  if (!Binary)
    return rawError(
        Fn, "the SPIR-V assembly does not assemble\n" +
                mapSpirvAsDiagnostics(toString(Binary.takeError()), Fn));
  return std::move(*Binary);
}

Expected<std::string> spirv::linkRawBinaries(StringRef Kernel,
                                             ArrayRef<std::string> Natives) {
  if (Natives.empty())
    return Kernel.str();
  std::string Link = findTool("TLE_SPIRV_LINK", {"spirv-link"});
  if (Link.empty())
    return createStringError(inconvertibleErrorCode(),
                             "spirv plugin: linking SPIR-V assembly needs "
                             "spirv-link (Debian package spirv-tools, or "
                             "TLE_SPIRV_LINK)");
  std::vector<backend::RawToolInput> Inputs = {{"kernel.spv", Kernel.str()}};
  std::vector<std::string> Args = {"--target-env", "spv1.2", "-o",
                                   "%dir/linked.spv", "%dir/kernel.spv"};
  for (size_t I = 0; I < Natives.size(); ++I) {
    std::string Name = "native" + std::to_string(I) + ".spv";
    Inputs.push_back({Name, Natives[I]});
    Args.push_back("%dir/" + Name);
  }
  Expected<std::string> Linked =
      backend::runRawTool(Link, Args, Inputs, "linked.spv", 60);
  if (!Linked)
    return createStringError(inconvertibleErrorCode(),
                             "spirv plugin: cannot link the SPIR-V assembly "
                             "of tle_raw functions with the kernel: " +
                                 toString(Linked.takeError()));
  return std::move(*Linked);
}

Expected<backend::RawCode>
spirv::SpirvBackend::forwardRaw(const backend::RawFunction &Fn,
                                const hwdesc::HwDesc &Desc,
                                LLVMContext &Context) {
  backend::RawCode Code;
  if (Fn.Language == "opencl" || Fn.Language == "llvm") {
    Expected<std::unique_ptr<Module>> M =
        Fn.Language == "opencl" ? compileOpenCl(Fn, Context)
                                : backend::parseRawLLVM(Fn, Context, "spirv");
    if (!M)
      return M.takeError();
    Code.IR = std::move(*M);
    return std::move(Code);
  }
  if (Fn.Language == "spirv") {
    Expected<std::string> Binary = assembleSpirv(Fn);
    if (!Binary)
      return Binary.takeError();
    Code.Binary = std::move(*Binary);
    return std::move(Code);
  }
  return rawError(Fn, "the spirv plugin does not forward '" + Fn.Language +
                          "' functions (it takes opencl, llvm and spirv)");
}
