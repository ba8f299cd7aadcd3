//===- tle-lite-reference.cpp - References for the TLE-Lite/Struct kernels ===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Writes random inputs of the TLE-Lite/TLE-Struct example kernels and what a
// plain C++ implementation computes from them, as raw little-endian files
// that execution tests pass to tle-run with `buf:...:file=` and check with
// `out:...:ref=` (the same contract as tle-reference):
//
//   tle-lite-reference moe --tokens T --experts E --block-tokens BT
//                          --block-size BS --out DIR
//       DIR/ids.bin (i32[T], expert of each token), counts.bin (i32[E]),
//       offsets.bin (i32[G*E]: per program, the exclusive prefix sum of its
//       counts padded to BS), totals.bin (i32[G]), G = ceil(T / BT)
//   tle-lite-reference rmsnorm --rows R --cols C [--eps E] --out DIR
//       DIR/x.bin, y.bin (f32; y = x / sqrt(mean(x^2) + eps) per row)
//   tle-lite-reference topk --rows R --cols N --k K [--levels L] --out DIR
//       DIR/x.bin (f32[R*N]), vals.bin (f32[R*K]), idx.bin (i32[R*K]): per
//       row the K largest values, those above the K-th largest first taken
//       all and ties at it taken lowest index first, listed in index order;
//       --levels L draws from L distinct values, so rows have many ties
//   tle-lite-reference pipe-sum --rows R --cols N --out DIR
//       DIR/x.bin (f32[R*N]), y.bin (f32[R*N], a copy), sums.bin (f32[R])
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace llvm;

static cl::opt<std::string> Kernel(cl::Positional, cl::Required,
                                   cl::desc("<moe|rmsnorm|topk|pipe-sum>"));
static cl::opt<std::string> OutDir("out", cl::Required,
                                   cl::desc("Directory for the files"));
static cl::opt<unsigned> Tokens("tokens", cl::desc("Tokens (moe)"),
                                cl::init(1));
static cl::opt<unsigned> Experts("experts", cl::desc("Experts (moe)"),
                                 cl::init(1));
static cl::opt<unsigned> BlockTokens("block-tokens",
                                     cl::desc("Tokens per program (moe)"),
                                     cl::init(1024));
static cl::opt<unsigned> BlockSize("block-size",
                                   cl::desc("Padding granule (moe)"),
                                   cl::init(16));
static cl::opt<unsigned> Rows("rows", cl::desc("Rows"), cl::init(1));
static cl::opt<unsigned> Cols("cols", cl::desc("Columns"), cl::init(1));
static cl::opt<unsigned> TopK("k", cl::desc("Values per row (topk)"),
                              cl::init(1));
static cl::opt<unsigned>
    Levels("levels",
           cl::desc("Distinct input values (topk; 0: uniform in [-1, 1))"),
           cl::init(0));
static cl::opt<double> Eps("eps", cl::desc("Epsilon (rmsnorm)"),
                           cl::init(1e-6));
static cl::opt<uint64_t> Seed("seed", cl::desc("Seed of the inputs"),
                              cl::init(1));

namespace {

template <typename T> Error write(StringRef Name, const std::vector<T> &V) {
  SmallString<128> Path(OutDir);
  sys::path::append(Path, Name);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(Path + ": " + EC.message());
  OS.write(reinterpret_cast<const char *>(V.data()), V.size() * sizeof(T));
  return Error::success();
}

std::vector<float> uniform(size_t Count, std::mt19937_64 &Rng) {
  std::uniform_real_distribution<float> Dist(-1.0f, 1.0f);
  std::vector<float> V(Count);
  for (float &X : V)
    X = Dist(Rng);
  return V;
}

Error moe(std::mt19937_64 &Rng) {
  if (Experts == 0 || BlockTokens == 0 || BlockSize == 0)
    return createStringError("--experts, --block-tokens and --block-size "
                             "must be positive");
  std::uniform_int_distribution<int32_t> Dist(0, Experts - 1);
  std::vector<int32_t> Ids(Tokens);
  for (int32_t &Id : Ids)
    Id = Dist(Rng);
  unsigned Programs = (Tokens + BlockTokens - 1) / BlockTokens;
  std::vector<int32_t> Counts(Experts, 0), Offsets(size_t(Programs) * Experts),
      Totals(Programs);
  for (unsigned P = 0; P < Programs; ++P) {
    std::vector<int32_t> Local(Experts, 0);
    for (unsigned T = P * BlockTokens;
         T < std::min<unsigned>(Tokens, (P + 1) * BlockTokens); ++T)
      ++Local[Ids[T]];
    int32_t Running = 0;
    for (unsigned E = 0; E < Experts; ++E) {
      Counts[E] += Local[E];
      Offsets[size_t(P) * Experts + E] = Running;
      Running += (Local[E] + BlockSize - 1) / BlockSize * BlockSize;
    }
    Totals[P] = Running;
  }
  for (auto [Name, V] : {std::pair{"ids.bin", &Ids},
                         {"counts.bin", &Counts},
                         {"offsets.bin", &Offsets},
                         {"totals.bin", &Totals}})
    if (Error E = write(Name, *V))
      return E;
  return Error::success();
}

Error rmsNorm(std::mt19937_64 &Rng) {
  std::vector<float> X = uniform(size_t(Rows) * Cols, Rng), Y(X.size());
  for (unsigned R = 0; R < Rows; ++R) {
    double Sum = 0;
    for (unsigned C = 0; C < Cols; ++C)
      Sum += double(X[size_t(R) * Cols + C]) * X[size_t(R) * Cols + C];
    double Rms = std::sqrt(Sum / Cols + Eps);
    for (unsigned C = 0; C < Cols; ++C)
      Y[size_t(R) * Cols + C] = X[size_t(R) * Cols + C] / Rms;
  }
  if (Error E = write("x.bin", X))
    return E;
  return write("y.bin", Y);
}

Error topk(std::mt19937_64 &Rng) {
  if (TopK == 0 || TopK > Cols)
    return createStringError("--k must be in [1, --cols]");
  std::vector<float> X = uniform(size_t(Rows) * Cols, Rng);
  if (Levels > 0) {
    std::uniform_int_distribution<unsigned> Level(0, Levels - 1);
    for (float &V : X)
      V = float(Level(Rng)) - float(Levels / 2);
  }
  std::vector<float> Vals(size_t(Rows) * TopK);
  std::vector<int32_t> Idx(size_t(Rows) * TopK);
  for (unsigned R = 0; R < Rows; ++R) {
    const float *Row = &X[size_t(R) * Cols];
    std::vector<float> Sorted(Row, Row + Cols);
    std::nth_element(Sorted.begin(), Sorted.begin() + (TopK - 1), Sorted.end(),
                     std::greater<float>());
    float Kth = Sorted[TopK - 1];
    unsigned Above = 0;
    for (unsigned C = 0; C < Cols; ++C)
      Above += Row[C] > Kth;
    unsigned TiesLeft = TopK - Above, Out = 0;
    for (unsigned C = 0; C < Cols; ++C) {
      bool Take = Row[C] > Kth || (Row[C] == Kth && TiesLeft > 0);
      if (!Take)
        continue;
      if (Row[C] == Kth)
        --TiesLeft;
      Vals[size_t(R) * TopK + Out] = Row[C];
      Idx[size_t(R) * TopK + Out] = C;
      ++Out;
    }
  }
  if (Error E = write("x.bin", X))
    return E;
  if (Error E = write("vals.bin", Vals))
    return E;
  return write("idx.bin", Idx);
}

Error pipeSum(std::mt19937_64 &Rng) {
  std::vector<float> X = uniform(size_t(Rows) * Cols, Rng), Sums(Rows);
  for (unsigned R = 0; R < Rows; ++R) {
    double Sum = 0;
    for (unsigned C = 0; C < Cols; ++C)
      Sum += X[size_t(R) * Cols + C];
    Sums[R] = Sum;
  }
  if (Error E = write("x.bin", X))
    return E;
  if (Error E = write("y.bin", X))
    return E;
  return write("sums.bin", Sums);
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "tle-lite-reference: test inputs and C++ "
                              "reference outputs of the TLE-Lite/Struct "
                              "example kernels\n");
  std::mt19937_64 Rng(Seed);
  Error E = Error::success();
  if (std::error_code EC = sys::fs::create_directories(OutDir))
    E = createStringError(OutDir + ": " + EC.message());
  else if (Kernel == "moe")
    E = moe(Rng);
  else if (Kernel == "rmsnorm")
    E = rmsNorm(Rng);
  else if (Kernel == "topk")
    E = topk(Rng);
  else if (Kernel == "pipe-sum")
    E = pipeSum(Rng);
  else
    E = createStringError("unknown kernel '" + Kernel +
                          "' (moe, rmsnorm, topk, pipe-sum)");
  if (E) {
    WithColor::error(errs(), "tle-lite-reference")
        << toString(std::move(E)) << "\n";
    return 1;
  }
  return 0;
}
