//===- tle-run-nvidia.cpp - tle-run with the NVIDIA runtime linked in -----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The benchmark machine has the NVIDIA driver, Triton and PyTorch but no
// LLVM 22, so the plugin (which links libMLIR/libLLVM) cannot be loaded
// there. This main runs the same tle-run code (tools/tle-run/TleRun.cpp) on
// the same runtime code the plugin uses (vendor_plugins/nvidia), linked
// statically with LLVM Support; bench/build_tle_run_nvidia.sh builds it here
// and the binary travels to the device. Without hardware descriptions, the
// target name is taken as given and warps are 32 threads.
//
//===----------------------------------------------------------------------===//

#include "tools/tle-run/TleRun.h"
#include "vendor_plugins/nvidia/NvidiaRuntime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(tle::run::getOptionCategory());
  cl::ParseCommandLineOptions(argc, argv, tle::run::Overview);
  return tle::run::runTleRun(
      [](StringRef Target) -> Expected<std::unique_ptr<tle::runtime::Device>> {
        auto Impl = std::make_unique<tle::nvidia::NvidiaRuntime>();
        if (Error E = Impl->checkReady())
          return std::move(E);
        outs() << "device: " << Impl->getDeviceName() << "\n";
        return std::make_unique<tle::runtime::Device>(
            std::move(Impl), nullptr, Target.str(), /*WarpSize=*/32);
      });
}
