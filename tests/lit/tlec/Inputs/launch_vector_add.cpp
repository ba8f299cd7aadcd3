// A kernel author's program: launches vector add through the launcher tlec
// generated (add_kernel.h/.cpp, binaries embedded) on the device named on
// the command line, and checks every element.
#include "add_kernel.h"

#include "core/runtime/OpenDevice.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <vector>

template <typename T> static T check(llvm::Expected<T> V, const char *What) {
  if (!V) {
    llvm::errs() << "launch_vector_add: " << What << ": "
                 << llvm::toString(V.takeError()) << "\n";
    std::exit(1);
  }
  return std::move(*V);
}

static void check(llvm::Error E, const char *What) {
  if (E) {
    llvm::errs() << "launch_vector_add: " << What << ": "
                 << llvm::toString(std::move(E)) << "\n";
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  const char *Target = argc > 1 ? argv[1] : "cpu-spirv";
  // Ragged: the last block is partly masked.
  const int32_t N = 100000;
  tle::plugins::PluginHost Host;
  for (const std::string &Dir : tle::plugins::getDefaultPluginSearchPath())
    Host.addDirectory(Dir, /*MustExist=*/false);
  std::unique_ptr<tle::runtime::Device> Dev =
      check(tle::runtime::openDevice(Target, Host), "opening the device");
  llvm::outs() << "compiled for:";
  for (const char *T : tle_kernels::add_kernel::targets())
    llvm::outs() << ' ' << T;
  llvm::outs() << "\n";
  tle_kernels::add_kernel Kernel =
      check(tle_kernels::add_kernel::load(*Dev), "loading add_kernel");

  std::vector<float> X(N), Y(N), Out(N, -1.0f);
  for (int32_t I = 0; I < N; ++I) {
    X[I] = 0.5f * I;
    Y[I] = 1.0f - 2.0f * I;
  }
  uint64_t Bytes = N * sizeof(float);
  tle::runtime::Buffer DX = check(Dev->allocate(Bytes), "allocating x");
  tle::runtime::Buffer DY = check(Dev->allocate(Bytes), "allocating y");
  tle::runtime::Buffer DOut = check(Dev->allocate(Bytes), "allocating out");
  check(DX.write(X.data(), Bytes), "writing x");
  check(DY.write(Y.data(), Bytes), "writing y");
  check(DOut.write(Out.data(), Bytes), "writing out");
  check(Kernel.launch({(N + 1023) / 1024, 1, 1}, DX, DY, DOut, N),
        "launching");
  check(Dev->synchronize(), "synchronizing");
  check(DOut.read(Out.data(), Bytes), "reading out");
  int32_t Wrong = 0;
  for (int32_t I = 0; I < N; ++I)
    if (std::fabs(Out[I] - (X[I] + Y[I])) > 1e-3f * std::fabs(X[I] + Y[I]) + 1e-6f)
      ++Wrong;
  llvm::outs() << "add_kernel on " << Dev->getTargetName() << ": " << N
               << " elements, " << Wrong << " wrong\n";
  return Wrong ? 1 : 0;
}
