//===- AmdRaw.cpp - TLE-Raw native code for AMD GPUs ----------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Inline AMDGCN is handled by the core (llvm.inline_asm). LLVM IR functions
// are parsed and linked into the kernel before optimization, so they inline.
// HIP needs clang's HIP mode with ROCm's HIP headers: clang-22 alone refuses
// HIP without a ROCm installation (without headers even `__device__` is
// unknown), so HIP is compiled only when ROCm is found and is otherwise a
// clear error that says what to write instead.
//
//===----------------------------------------------------------------------===//

#include "AmdBackend.h"

#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/RawCode.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace llvm;
using namespace tle;

static Error rawError(const backend::RawFunction &Fn, const Twine &Message) {
  return backend::makeRawError(Fn, "amd", Message);
}

/// ROCM_PATH, else /opt/rocm, if it has HIP's headers; else empty.
static std::string findRocm() {
  const char *Env = std::getenv("ROCM_PATH");
  std::string Root = Env && *Env ? Env : "/opt/rocm";
  SmallString<256> Header(Root);
  sys::path::append(Header, "include", "hip", "hip_runtime.h");
  return sys::fs::exists(Header) ? Root : "";
}

static Expected<std::unique_ptr<Module>>
compileHip(const backend::RawFunction &Fn, const hwdesc::HwDesc &Desc,
           LLVMContext &Context) {
  std::string Rocm = findRocm();
  if (Rocm.empty())
    return rawError(Fn, "no HIP compiler is available: HIP needs ROCm's HIP "
                        "headers (none at $ROCM_PATH or /opt/rocm), and "
                        "clang-22 cannot compile HIP without them; write the "
                        "function as LLVM IR (@dialect(name=\"llvm\")) or "
                        "inline AMDGCN (@dialect(name=\"amdgcn\", "
                        "constraints=...))");
  std::string Clang;
  if (const char *Path = std::getenv("TLE_CLANG"); Path && *Path)
    Clang = Path;
  else if (ErrorOr<std::string> Path = sys::findProgramByName("clang-22"))
    Clang = *Path;
  if (Clang.empty())
    return rawError(Fn, "HIP needs clang-22 (on PATH, or TLE_CLANG)");
  std::vector<std::string> Args = {"-x",
                                   "hip",
                                   "--cuda-device-only",
                                   "-emit-llvm",
                                   "-c",
                                   "-O3",
                                   "--offload-arch=" + Desc.Arch,
                                   "--rocm-path=" + Rocm,
                                   "-nogpulib",
                                   "-fno-color-diagnostics",
                                   "-o",
                                   "%dir/native.bc",
                                   "%dir/native.hip"};
  return backend::compileRawWithClang(Fn, "amd", Clang, Args,
                                      "native.hip", "HIP", Context);
}

Expected<backend::RawCode>
amd::AmdBackend::forwardRaw(const backend::RawFunction &Fn,
                            const hwdesc::HwDesc &Desc, LLVMContext &Context) {
  backend::RawCode Code;
  if (Fn.Language == "llvm" || Fn.Language == "hip") {
    Expected<std::unique_ptr<Module>> M =
        Fn.Language == "llvm" ? backend::parseRawLLVM(Fn, Context, "amd")
                              : compileHip(Fn, Desc, Context);
    if (!M)
      return M.takeError();
    Code.IR = std::move(*M);
    return std::move(Code);
  }
  return rawError(Fn, "the amd plugin does not forward '" + Fn.Language +
                          "' functions (it takes llvm and hip functions, and "
                          "amdgcn as inline assembly with constraints)");
}
