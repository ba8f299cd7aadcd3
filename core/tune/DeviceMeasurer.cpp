//===- DeviceMeasurer.cpp - Time candidates on a runtime Device -----------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/DeviceMeasurer.h"
#include "core/tune/Expr.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace tle {
namespace tune {

namespace {

uint16_t floatToHalf(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  uint32_t Sign = (X >> 16) & 0x8000;
  int32_t Exp = static_cast<int32_t>((X >> 23) & 0xff) - 127 + 15;
  uint32_t Mant = X & 0x7fffff;
  if (Exp <= 0)
    return static_cast<uint16_t>(Sign); // flush tiny values to zero
  if (Exp >= 31)
    return static_cast<uint16_t>(Sign | 0x7c00);
  uint32_t H = Sign | (static_cast<uint32_t>(Exp) << 10) | (Mant >> 13);
  uint32_t Rest = Mant & 0x1fff;
  if (Rest > 0x1000 || (Rest == 0x1000 && (H & 1)))
    ++H;
  return static_cast<uint16_t>(H);
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = (H & 0x8000u) << 16;
  uint32_t Exp = (H >> 10) & 0x1f, Mant = H & 0x3ff;
  uint32_t X;
  if (Exp == 0) {
    if (Mant == 0) {
      X = Sign;
    } else { // subnormal
      int E = -1;
      do {
        ++E;
        Mant <<= 1;
      } while (!(Mant & 0x400));
      X = Sign | (static_cast<uint32_t>(127 - 15 - E) << 23) |
          ((Mant & 0x3ff) << 13);
    }
  } else if (Exp == 31) {
    X = Sign | 0x7f800000u | (Mant << 13);
  } else {
    X = Sign | ((Exp - 15 + 127) << 23) | (Mant << 13);
  }
  float F;
  std::memcpy(&F, &X, 4);
  return F;
}

uint16_t floatToBf16(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  X += 0x7fff + ((X >> 16) & 1);
  return static_cast<uint16_t>(X >> 16);
}

float bf16ToFloat(uint16_t H) {
  uint32_t X = static_cast<uint32_t>(H) << 16;
  float F;
  std::memcpy(&F, &X, 4);
  return F;
}

} // namespace

/// Random values in [-1, 1) as fp16, bf16 or fp32 bit patterns from a
/// xorshift generator: the largest shapes need about a billion elements per
/// buffer, which std::mt19937 plus a float conversion makes seconds of host
/// time on the device machine.
static void fillRandom(StringRef Fill, MutableArrayRef<uint8_t> Raw,
                       uint64_t Seed) {
  uint64_t X = Seed * 0x9E3779B97F4A7C15ull + 1;
  auto Next = [&X] {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
    return X;
  };
  if (Fill == "fp16" || Fill == "bf16") {
    bool Half = Fill == "fp16";
    for (size_t I = 0; I + 2 <= Raw.size(); I += 2) {
      float F = static_cast<float>(static_cast<int64_t>(Next() >> 40) -
                                   (int64_t(1) << 23)) /
                static_cast<float>(int64_t(1) << 23);
      uint16_t H = Half ? floatToHalf(F) : floatToBf16(F);
      std::memcpy(&Raw[I], &H, 2);
    }
  } else if (Fill == "fp32") {
    for (size_t I = 0; I + 4 <= Raw.size(); I += 4) {
      float F = static_cast<float>(static_cast<int64_t>(Next() >> 40) -
                                   (int64_t(1) << 23)) /
                static_cast<float>(int64_t(1) << 23);
      std::memcpy(&Raw[I], &F, 4);
    }
  }
}

Error DeviceMeasurer::prepareShape(const Shape &S) {
  if (CurrentShape == S.key())
    return Error::success();
  CurrentShape.clear();
  Reference.clear();
  NameLookup Lookup = [&](StringRef N) { return S.get(N); };
  // A shape is checked against the host reference when the spec has one and
  // it is small enough; its inputs are then generated afresh so that host
  // and device hold the same values.
  bool Check = false;
  if (B.Launch.Reference == "matmul" && Opts.CheckLimit && S.Dims.size() >= 3)
    Check = uint64_t(S.Dims[0].second) * S.Dims[1].second * S.Dims[2].second <=
            Opts.CheckLimit;
  Buffers.resize(B.Launch.Buffers.size());
  Capacity.resize(B.Launch.Buffers.size(), 0);
  HostInputs.assign(B.Launch.Buffers.size(), {});
  for (size_t BI = 0; BI < B.Launch.Buffers.size(); ++BI) {
    const BufferSpec &BS = B.Launch.Buffers[BI];
    Expected<int64_t> Bytes = evalExpr(BS.Bytes, Lookup);
    if (!Bytes)
      return Bytes.takeError();
    uint64_t Need = static_cast<uint64_t>(std::max<int64_t>(*Bytes, 1));
    // Timing does not depend on the values, so a buffer large enough for
    // this shape keeps the random values it already holds.
    if (Need <= Capacity[BI] && !Check)
      continue;
    if (Need > Capacity[BI]) {
      Buffers[BI] = runtime::Buffer();
      Capacity[BI] = 0;
      Expected<runtime::Buffer> Buf = Dev.allocate(Need);
      if (!Buf)
        return Buf.takeError();
      Buffers[BI] = std::move(*Buf);
      Capacity[BI] = Need;
    }
    std::vector<uint8_t> Raw(Need, 0);
    fillRandom(BS.Fill, Raw, BI + 1);
    if (Error E = Buffers[BI].write(Raw.data(), Raw.size()))
      return E;
    if (Check && (BS.Fill == "fp16" || BS.Fill == "bf16")) {
      HostInputs[BI].resize(Raw.size() / 2);
      std::memcpy(HostInputs[BI].data(), Raw.data(), HostInputs[BI].size() * 2);
    }
  }
  // The host reference of a matmul: C = A (MxK) * B (KxN), in fp32.
  if (Check && Buffers.size() >= 3) {
    uint64_t M = S.Dims[0].second, N = S.Dims[1].second, K = S.Dims[2].second;
    bool Bf16 = B.Launch.Buffers[0].Fill == "bf16";
    if (HostInputs[0].size() >= M * K && HostInputs[1].size() >= K * N) {
      auto Cvt = [&](uint16_t H) { return Bf16 ? bf16ToFloat(H) : halfToFloat(H); };
      std::vector<float> A(M * K), Bm(K * N);
      for (size_t I = 0; I < A.size(); ++I)
        A[I] = Cvt(HostInputs[0][I]);
      for (size_t I = 0; I < Bm.size(); ++I)
        Bm[I] = Cvt(HostInputs[1][I]);
      Reference.assign(M * N, 0.0f);
      for (uint64_t I = 0; I < M; ++I)
        for (uint64_t P = 0; P < K; ++P) {
          float AV = A[I * K + P];
          const float *BRow = &Bm[P * N];
          float *CRow = &Reference[I * N];
          for (uint64_t J = 0; J < N; ++J)
            CRow[J] += AV * BRow[J];
        }
    }
  }
  CurrentShape = S.key();
  return Error::success();
}

std::optional<std::string> DeviceMeasurer::checkResult(const Shape &S) {
  if (Reference.empty())
    return std::nullopt;
  uint64_t M = S.Dims[0].second, N = S.Dims[1].second;
  std::vector<uint16_t> Out(M * N);
  if (Error E = Buffers[2].read(Out.data(), Out.size() * 2))
    return toString(std::move(E));
  bool Bf16 = B.Launch.Buffers[0].Fill == "bf16";
  double Err = 0, Norm = 0;
  for (size_t I = 0; I < Out.size(); ++I) {
    double V = Bf16 ? bf16ToFloat(Out[I]) : halfToFloat(Out[I]);
    double D = V - Reference[I];
    if (std::isnan(V))
      return std::string("result has NaN");
    Err += D * D;
    Norm += double(Reference[I]) * Reference[I];
  }
  double Rel = std::sqrt(Err / std::max(Norm, 1e-30));
  if (Rel > 1e-2)
    return formatv("relative error {0:e2} against the host reference",
                   Rel)
        .str();
  return std::nullopt;
}

Expected<runtime::Kernel> DeviceMeasurer::kernelFor(const Candidate &C) {
  auto It = Kernels.find(C.File);
  if (It != Kernels.end())
    return It->second;
  auto EIt = LoadErrors.find(C.File);
  if (EIt != LoadErrors.end())
    return createStringError(EIt->second);
  SmallString<256> Path(B.Dir);
  sys::path::append(Path, C.File);
  Expected<runtime::Kernel> K = Dev.loadKernelFile(Path, C.Entry);
  if (!K) {
    std::string Msg = toString(K.takeError());
    LoadErrors[C.File] = Msg;
    return createStringError(Msg);
  }
  Kernels[C.File] = *K;
  return *K;
}

std::variant<double, Measurer::Failure>
DeviceMeasurer::measure(const Candidate &C, const Shape &S) {
  auto Fail = [](StringRef Status, std::string Msg) {
    return Failure{Status.str(), std::move(Msg)};
  };
  if (Error E = prepareShape(S))
    return Fail("launch-failed", toString(std::move(E)));
  Expected<runtime::Kernel> K = kernelFor(C);
  if (!K)
    return Fail("launch-failed", toString(K.takeError()));
  NameLookup Lookup = [&](StringRef N) -> std::optional<int64_t> {
    if (std::optional<int64_t> V = S.get(N))
      return V;
    return C.Cfg.get(N);
  };
  runtime::LaunchDims Dims;
  for (size_t I = 0; I < 3; ++I) {
    Expected<int64_t> G = evalExpr(B.Launch.Grid[I], Lookup);
    if (!G)
      return Fail("launch-failed", toString(G.takeError()));
    Dims.Grid[I] = static_cast<unsigned>(*G);
  }
  Dims.Threads = static_cast<unsigned>(
      C.Threads ? C.Threads : C.Cfg.NumWarps * B.Device.WarpSize);
  Dims.SharedMemoryBytes = static_cast<uint64_t>(C.DynamicShared);
  Dims.GlobalScratchBytes = static_cast<uint64_t>(C.GlobalScratch);
  Dims.TensorMaps = C.TensorMaps;
  std::vector<runtime::KernelArg> Args;
  for (const std::string &A : B.Launch.Args) {
    StringRef AS(A);
    if (AS.starts_with("i32:") || AS.starts_with("i64:")) {
      Expected<int64_t> V = evalExpr(AS.drop_front(4), Lookup);
      if (!V)
        return Fail("launch-failed", toString(V.takeError()));
      Args.push_back(AS.starts_with("i32:")
                         ? runtime::KernelArg::i32(static_cast<int32_t>(*V))
                         : runtime::KernelArg::i64(*V));
      continue;
    }
    for (size_t I = 0; I < B.Launch.Buffers.size(); ++I)
      if (B.Launch.Buffers[I].Name == A)
        Args.push_back(runtime::KernelArg::pointer(Buffers[I]));
  }
  Expected<double> Warm = Dev.time(*K, Dims, Args, 1);
  if (!Warm)
    return Fail("launch-failed", toString(Warm.takeError()));
  DeviceMs += *Warm;
  if (std::optional<std::string> Wrong = checkResult(S))
    return Fail("wrong-result", *Wrong);
  unsigned Reps = static_cast<unsigned>(std::ceil(Opts.TargetMs / std::max(*Warm, 1e-4)));
  Reps = std::clamp(Reps, Opts.MinReps, Opts.MaxReps);
  double Best = 0;
  for (int I = 0; I < 2; ++I) {
    Expected<double> T = Dev.time(*K, Dims, Args, Reps);
    if (!T)
      return Fail("launch-failed", toString(T.takeError()));
    DeviceMs += *T * Reps;
    Best = I == 0 ? *T : std::min(Best, *T);
  }
  return Best;
}

} // namespace tune
} // namespace tle
