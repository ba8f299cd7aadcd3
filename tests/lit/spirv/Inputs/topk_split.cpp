// Runs the multi-block radix top-k of examples/topk_radix.py on a device:
// one launch of topk_radix_split_hist_kernel per radix pass (grid: rows x
// splits), then topk_radix_split_gather_kernel, through the launchers tlec
// generated (--emit-header). Checks every row against std::nth_element:
// the K values taken, sorted, are the K largest, and each index is in
// range, used once, and points at its value (the output order and the
// choice among ties depend on timing).
//
//   topk_split TARGET ROWS COLS K SPLIT SPLITS LEVELS RADIX_BITS
#include "topk_radix_split_gather_kernel.h"
#include "topk_radix_split_hist_kernel.h"

#include "core/runtime/OpenDevice.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

template <typename T> static T check(llvm::Expected<T> V, const char *What) {
  if (!V) {
    llvm::errs() << "topk_split: " << What << ": "
                 << llvm::toString(V.takeError()) << "\n";
    std::exit(2);
  }
  return std::move(*V);
}

static void check(llvm::Error E, const char *What) {
  if (E) {
    llvm::errs() << "topk_split: " << What << ": "
                 << llvm::toString(std::move(E)) << "\n";
    std::exit(2);
  }
}

int main(int argc, char **argv) {
  if (argc != 9) {
    llvm::errs() << "usage: topk_split TARGET ROWS COLS K SPLIT SPLITS LEVELS "
                    "RADIX_BITS\n";
    return 2;
  }
  const char *Target = argv[1];
  int32_t Rows = std::atoi(argv[2]), Cols = std::atoi(argv[3]),
          K = std::atoi(argv[4]), Split = std::atoi(argv[5]),
          Splits = std::atoi(argv[6]), Levels = std::atoi(argv[7]),
          RadixBits = std::atoi(argv[8]);
  int32_t Passes = 32 / RadixBits, Bins = 1 << RadixBits;

  tle::plugins::PluginHost Host;
  for (const std::string &Dir : tle::plugins::getDefaultPluginSearchPath())
    Host.addDirectory(Dir, /*MustExist=*/false);
  std::unique_ptr<tle::runtime::Device> Dev =
      check(tle::runtime::openDevice(Target, Host), "opening the device");
  auto Hist = check(tle_kernels::topk_radix_split_hist_kernel::load(*Dev),
                    "loading the histogram kernel");
  auto Gather = check(tle_kernels::topk_radix_split_gather_kernel::load(*Dev),
                      "loading the gather kernel");

  std::mt19937 Rng(7);
  std::uniform_real_distribution<float> Uniform(-1.0f, 1.0f);
  std::uniform_int_distribution<int32_t> Level(0, std::max(Levels - 1, 0));
  std::vector<float> X(size_t(Rows) * Cols);
  for (float &V : X)
    V = Levels > 0 ? float(Level(Rng) - Levels / 2) : Uniform(Rng);

  auto Alloc = [&](uint64_t Bytes, const void *Init, const char *What) {
    tle::runtime::Buffer B = check(Dev->allocate(Bytes), What);
    check(B.write(Init, Bytes), What);
    return B;
  };
  std::vector<int32_t> Zeros(size_t(Rows) * Passes * Bins, 0);
  std::vector<float> Vals(size_t(Rows) * K, -1e30f);
  std::vector<int32_t> Idx(size_t(Rows) * K, -1);
  tle::runtime::Buffer DX = Alloc(X.size() * 4, X.data(), "x");
  tle::runtime::Buffer DHist = Alloc(Zeros.size() * 4, Zeros.data(), "hist");
  tle::runtime::Buffer DCounts = Alloc(size_t(Rows) * 2 * 4, Zeros.data(),
                                       "counts");
  tle::runtime::Buffer DVals = Alloc(Vals.size() * 4, Vals.data(), "vals");
  tle::runtime::Buffer DIdx = Alloc(Idx.size() * 4, Idx.data(), "idx");

  std::array<unsigned, 3> Grid{unsigned(Rows), unsigned(Splits), 1};
  for (int32_t P = 0; P < Passes; ++P)
    check(Hist.launch(Grid, DX, DHist, Cols, K, Split, P), "a radix pass");
  check(Gather.launch(Grid, DX, DHist, DCounts, DVals, DIdx, Cols, K, Split),
        "the gather");
  check(Dev->synchronize(), "synchronizing");
  check(DVals.read(Vals.data(), Vals.size() * 4), "reading vals");
  check(DIdx.read(Idx.data(), Idx.size() * 4), "reading idx");

  int32_t WrongRows = 0;
  for (int32_t R = 0; R < Rows; ++R) {
    const float *Row = &X[size_t(R) * Cols];
    std::vector<float> Want(Row, Row + Cols);
    std::nth_element(Want.begin(), Want.begin() + (K - 1), Want.end(),
                     std::greater<float>());
    Want.resize(K);
    std::sort(Want.begin(), Want.end(), std::greater<float>());
    std::vector<float> Got(&Vals[size_t(R) * K], &Vals[size_t(R) * K] + K);
    std::sort(Got.begin(), Got.end(), std::greater<float>());
    bool Ok = Got == Want;
    std::vector<bool> Used(Cols, false);
    for (int32_t J = 0; Ok && J < K; ++J) {
      int32_t I = Idx[size_t(R) * K + J];
      Ok = I >= 0 && I < Cols && !Used[I] && Row[I] == Vals[size_t(R) * K + J];
      if (Ok)
        Used[I] = true;
    }
    WrongRows += !Ok;
  }
  llvm::outs() << "topk split on " << Dev->getTargetName() << ": " << Rows
               << " rows of " << Cols << ", K " << K << ", " << Splits
               << " splits of " << Split << ": " << WrongRows
               << " wrong rows\n";
  return WrongRows ? 1 : 0;
}
