//===- tle-tune-nvidia.cpp - tle-tune's measuring half for NVIDIA ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The benchmark machine has the NVIDIA driver but no LLVM 22, so tlec cannot
// run there: candidates are compiled here by `tle-tune compile` and this
// binary only measures them. It is tle-tune's run/compare/report/pick
// (tools/tle-tune/TleTune.cpp) on the tuner library (core/tune) and the
// NVIDIA runtime (vendor_plugins/nvidia/NvidiaRuntime.cpp), linked with LLVM
// Support and libstdc++ statically; XGBoost and its libraries travel beside
// it in lib/ (bench/build_tle_tune_nvidia.sh). The device's target name is
// the bundle's description name.
//
//===----------------------------------------------------------------------===//

#include "tools/tle-tune/TleTune.h"
#include "vendor_plugins/nvidia/NvidiaRuntime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tle-tune-nvidia: measure a tle-tune candidate bundle on an NVIDIA GPU "
      "(docs/tune.md)\n");
  int RC = tle::tunetool::runSharedCommand(
      [](const tle::tune::CandidateBundle &B)
          -> Expected<std::unique_ptr<tle::runtime::Device>> {
        auto Impl = std::make_unique<tle::nvidia::NvidiaRuntime>();
        if (Error E = Impl->checkReady())
          return std::move(E);
        outs() << "device: " << Impl->getDeviceName() << "\n";
        return std::make_unique<tle::runtime::Device>(
            std::move(Impl), nullptr, B.Device.Name,
            static_cast<unsigned>(B.Device.WarpSize));
      });
  if (RC >= 0)
    return RC;
  errs() << "tle-tune-nvidia: error: name a subcommand: run, compare, "
            "report, pick (--help)\n";
  return 1;
}
