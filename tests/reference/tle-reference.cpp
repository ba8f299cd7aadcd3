//===- tle-reference.cpp - Inputs and reference outputs for tests ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Writes random inputs of one example kernel and the outputs a plain C++
// implementation computes from them (in double, rounded to the output type)
// as raw little-endian files, which execution tests pass to tle-run with
// `buf:...:file=` and check with `out:...:ref=`:
//
//   tle-reference softmax   --rows R --cols C [--type f32|f16] --out DIR
//       DIR/x.bin (input), DIR/y.bin (row-wise softmax)
//   tle-reference layernorm --rows R --cols C [--eps E] --out DIR
//       DIR/x.bin w.bin b.bin (f16), DIR/y.bin (f16), mean.bin rstd.bin (f32)
//   tle-reference matmul    --m M --n N --k K [--activation leaky_relu]
//                           --out DIR
//       DIR/a.bin (MxK f16), b.bin (KxN f16), c.bin (MxN f16), and bt.bin
//       (B stored N x K, for kernels that read it transposed)
//
// Inputs are uniform in [-1, 1), drawn from --seed, and rounded to their
// type before the reference reads them.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace llvm;

static cl::OptionCategory Category("tle-reference options");
static cl::opt<std::string> Kernel(cl::Positional, cl::Required,
                                   cl::desc("<softmax|layernorm|matmul>"),
                                   cl::cat(Category));
static cl::opt<std::string> OutDir("out", cl::Required,
                                   cl::desc("Directory for the files"),
                                   cl::cat(Category));
static cl::opt<unsigned> Rows("rows", cl::desc("Rows (softmax, layernorm)"),
                              cl::init(1), cl::cat(Category));
static cl::opt<unsigned> Cols("cols", cl::desc("Columns (softmax, layernorm)"),
                              cl::init(1), cl::cat(Category));
static cl::opt<unsigned> M("m", cl::desc("Rows of A and C (matmul)"),
                           cl::init(1), cl::cat(Category));
static cl::opt<unsigned> N("n", cl::desc("Columns of B and C (matmul)"),
                           cl::init(1), cl::cat(Category));
static cl::opt<unsigned> K("k", cl::desc("Columns of A, rows of B (matmul)"),
                           cl::init(1), cl::cat(Category));
static cl::opt<std::string> Type("type", cl::desc("f32 or f16 (softmax)"),
                                 cl::init("f32"), cl::cat(Category));
static cl::opt<double> Eps("eps", cl::desc("Epsilon (layernorm)"),
                           cl::init(1e-5), cl::cat(Category));
static cl::opt<std::string> Activation("activation",
                                       cl::desc("none or leaky_relu (matmul)"),
                                       cl::init("none"), cl::cat(Category));
static cl::opt<uint64_t> Seed("seed", cl::desc("Seed of the inputs"),
                              cl::init(1), cl::cat(Category));

namespace {

/// Values of one element type, kept as the doubles they round to.
struct Tensor {
  bool Half;
  std::vector<double> Values;

  Tensor(bool Half, size_t Count) : Half(Half), Values(Count) {}
  static double round(bool Half, double V) {
    if (!Half)
      return static_cast<float>(V);
    APFloat F(V);
    bool LosesInfo;
    F.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &LosesInfo);
    return F.convertToDouble();
  }
  void set(size_t I, double V) { Values[I] = round(Half, V); }

  Error write(StringRef Name) const {
    SmallString<128> Path(OutDir);
    sys::path::append(Path, Name);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(Path + ": " + EC.message());
    for (double V : Values) {
      if (Half) {
        APFloat F(V);
        bool LosesInfo;
        F.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven,
                  &LosesInfo);
        uint16_t Bits = F.bitcastToAPInt().getZExtValue();
        OS.write(reinterpret_cast<const char *>(&Bits), 2);
      } else {
        float F = static_cast<float>(V);
        OS.write(reinterpret_cast<const char *>(&F), 4);
      }
    }
    return Error::success();
  }
};

Tensor randomTensor(bool Half, size_t Count, std::mt19937_64 &Rng) {
  std::uniform_real_distribution<double> Dist(-1.0, 1.0);
  Tensor T(Half, Count);
  for (size_t I = 0; I < Count; ++I)
    T.set(I, Dist(Rng));
  return T;
}

Error softmax(std::mt19937_64 &Rng) {
  bool Half = Type == "f16";
  Tensor X = randomTensor(Half, size_t(Rows) * Cols, Rng);
  Tensor Y(Half, X.Values.size());
  for (unsigned R = 0; R < Rows; ++R) {
    const double *Row = &X.Values[size_t(R) * Cols];
    double Max = -INFINITY, Sum = 0;
    for (unsigned C = 0; C < Cols; ++C)
      Max = std::max(Max, Row[C]);
    for (unsigned C = 0; C < Cols; ++C)
      Sum += std::exp(Row[C] - Max);
    for (unsigned C = 0; C < Cols; ++C)
      Y.set(size_t(R) * Cols + C, std::exp(Row[C] - Max) / Sum);
  }
  if (Error E = X.write("x.bin"))
    return E;
  return Y.write("y.bin");
}

Error layerNorm(std::mt19937_64 &Rng) {
  Tensor X = randomTensor(true, size_t(Rows) * Cols, Rng);
  Tensor W = randomTensor(true, Cols, Rng);
  Tensor B = randomTensor(true, Cols, Rng);
  Tensor Y(true, X.Values.size()), Mean(false, Rows), Rstd(false, Rows);
  for (unsigned R = 0; R < Rows; ++R) {
    const double *Row = &X.Values[size_t(R) * Cols];
    double Sum = 0, Var = 0;
    for (unsigned C = 0; C < Cols; ++C)
      Sum += Row[C];
    double Mu = Sum / Cols;
    for (unsigned C = 0; C < Cols; ++C)
      Var += (Row[C] - Mu) * (Row[C] - Mu);
    double Rs = 1 / std::sqrt(Var / Cols + Eps);
    Mean.set(R, Mu);
    Rstd.set(R, Rs);
    for (unsigned C = 0; C < Cols; ++C)
      Y.set(size_t(R) * Cols + C,
            (Row[C] - Mu) * Rs * W.Values[C] + B.Values[C]);
  }
  for (auto [T, Name] : {std::pair{&X, "x.bin"},
                         {&W, "w.bin"},
                         {&B, "b.bin"},
                         {&Y, "y.bin"},
                         {&Mean, "mean.bin"},
                         {&Rstd, "rstd.bin"}})
    if (Error E = T->write(Name))
      return E;
  return Error::success();
}

Error matmul(std::mt19937_64 &Rng) {
  if (Activation != "none" && Activation != "leaky_relu")
    return createStringError("--activation is none or leaky_relu");
  Tensor A = randomTensor(true, size_t(M) * K, Rng);
  Tensor B = randomTensor(true, size_t(K) * N, Rng);
  Tensor C(true, size_t(M) * N);
  for (unsigned I = 0; I < M; ++I)
    for (unsigned J = 0; J < N; ++J) {
      double Acc = 0;
      for (unsigned L = 0; L < K; ++L)
        Acc += A.Values[size_t(I) * K + L] * B.Values[size_t(L) * N + J];
      if (Activation == "leaky_relu" && Acc < 0)
        Acc *= 0.01;
      C.set(size_t(I) * N + J, Acc);
    }
  Tensor BT(true, B.Values.size());
  for (unsigned L = 0; L < K; ++L)
    for (unsigned J = 0; J < N; ++J)
      BT.Values[size_t(J) * K + L] = B.Values[size_t(L) * N + J];
  for (auto [T, Name] :
       {std::pair{&A, "a.bin"}, {&B, "b.bin"}, {&BT, "bt.bin"}, {&C, "c.bin"}})
    if (Error E = T->write(Name))
      return E;
  return Error::success();
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tle-reference: test inputs and C++ reference "
                              "outputs of the example kernels\n");
  std::mt19937_64 Rng(Seed);
  Error E = Error::success();
  if (std::error_code EC = sys::fs::create_directories(OutDir))
    E = createStringError(OutDir + ": " + EC.message());
  else if (Kernel == "softmax")
    E = softmax(Rng);
  else if (Kernel == "layernorm")
    E = layerNorm(Rng);
  else if (Kernel == "matmul")
    E = matmul(Rng);
  else
    E = createStringError("unknown kernel '" + Kernel +
                          "' (softmax, layernorm, matmul)");
  if (E) {
    WithColor::error(errs(), "tle-reference") << toString(std::move(E)) << "\n";
    return 1;
  }
  return 0;
}
