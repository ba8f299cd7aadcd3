//===- TleRun.cpp - The tle-run tool, over any way to open a device -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "TleRun.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace llvm;

namespace tle {
namespace run {

const char *const Overview =
    "tle-run: launch a kernel that tlec compiled, check and time it\n\n"
    "  tle-run D/add_kernel.h200.cubin --grid 1024 --num-warps 4 \\\n"
    "    --arg buf:f32:N=1048576 --arg buf:f32:N=1048576 \\\n"
    "    --arg 'out:f32:N=1048576:expr=$0+$1' --arg i32:1048576\n\n"
    "Arguments, one --arg per kernel parameter in order:\n"
    "  i32:V  i64:V  f32:V  f64:V     a scalar\n"
    "  buf:T:N=COUNT[:INIT]           an input buffer of COUNT (e.g. "
    "4096x1024)\n"
    "                                 elements of type T; INIT is random\n"
    "                                 (default, uniform in [-1, 1), integers "
    "in\n"
    "                                 [-100, 100]), fill=V, iota or file=PATH\n"
    "                                 (raw little-endian elements)\n"
    "  out:T:N=COUNT[:fill=V][:CHECK] an output buffer, filled with 0xff "
    "bytes\n"
    "                                 (NaN) before the run, or with V (for\n"
    "                                 outputs a kernel accumulates into); "
    "CHECK is\n"
    "                                 ref=PATH (raw elements) or expr=E, an\n"
    "                                 expression per element i over $K\n"
    "                                 (argument K: element i of a buffer, or "
    "a\n"
    "                                 scalar), numbers, + - * /, exp log sqrt\n"
    "                                 abs erf acos asin atan sinh cosh rint "
    "min\n"
    "                                 max pow atan2 fmod\n"
    "  T is one of f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64.\n\n"
    "The target comes from the file name <kernel>.<target>.<format> as tlec\n"
    "writes it, or --target.\n";

static cl::OptionCategory Category("tle-run options");

cl::OptionCategory &getOptionCategory() { return Category; }

static cl::opt<std::string> BinaryPath(cl::Positional, cl::Required,
                                       cl::desc("<compiled kernel file>"),
                                       cl::cat(Category));
static cl::opt<std::string>
    KernelName("kernel",
               cl::desc("Entry to launch (default: the file name up to the "
                        "first '.')"),
               cl::value_desc("name"), cl::cat(Category));
static cl::opt<std::string>
    TargetName("target",
               cl::desc("Chip the file was compiled for (default: from the "
                        "file name)"),
               cl::value_desc("chip"), cl::cat(Category));
static cl::opt<std::string> GridSpec("grid", cl::Required,
                                     cl::desc("Blocks: X[,Y[,Z]]"),
                                     cl::value_desc("x,y,z"),
                                     cl::cat(Category));
static cl::opt<unsigned>
    NumWarps("num-warps",
             cl::desc("Warps per block; threads = warps x the target's warp "
                      "size"),
             cl::cat(Category));
static cl::opt<unsigned> Threads("block-threads",
                                 cl::desc("Threads per block (instead of "
                                          "--num-warps)"),
                                 cl::cat(Category));
static cl::opt<uint64_t>
    SharedMemory("shared-memory",
                 cl::desc("Dynamic shared memory bytes (default: the "
                          "bundle manifest's, else 0)"),
                 cl::init(0), cl::cat(Category));
static cl::opt<uint64_t> GlobalScratch(
    "global-scratch",
    cl::desc("Global scratch bytes per program, passed after the kernel's "
             "arguments (default: the bundle manifest's "
             "global_scratch_bytes, else 0)"),
    cl::init(0), cl::cat(Category));
static cl::list<std::string> ArgSpecs("arg",
                                      cl::desc("A kernel argument (see above)"),
                                      cl::value_desc("spec"),
                                      cl::cat(Category));
static cl::opt<unsigned> Warmup("warmup",
                                cl::desc("Launches before timing"),
                                cl::init(10), cl::cat(Category));
static cl::opt<unsigned>
    Repeat("repeat",
           cl::desc("Timed launches, each measured alone with device events; "
                    "the median is reported (0: do not time)"),
           cl::init(100), cl::cat(Category));
static cl::opt<unsigned> FlushMiB(
    "flush-l2-mib",
    cl::desc("Overwrite this many MiB of device memory before each timed "
             "launch so that it starts with a cold cache, as "
             "triton.testing.do_bench does (0: keep the cache warm)"),
    cl::init(256), cl::cat(Category));
static cl::opt<double>
    RelTolerance("rtol",
                 cl::desc("Largest relative error |out-ref|/|ref| a check "
                          "accepts (default by type: f64 1e-12, f32 1e-5, "
                          "f16 1e-3, bf16 8e-3, integers exact)"),
                 cl::cat(Category));
static cl::opt<uint64_t> Seed("seed",
                              cl::desc("Seed of random inputs (default: a "
                                       "fresh one, printed)"),
                              cl::cat(Category));
static cl::opt<std::string>
    OutDir("out-dir",
           cl::desc("Write each output buffer to DIR/argK.bin after the "
                    "checked run"),
           cl::value_desc("dir"), cl::cat(Category));

namespace {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

enum class Kind { Half, BFloat, Float, Double, Signed, Unsigned };

struct ElementType {
  StringRef Name;
  Kind K;
  unsigned Bytes;
  double DefaultTolerance;
};

const ElementType ElementTypes[] = {
    {"f16", Kind::Half, 2, 1e-3},      {"bf16", Kind::BFloat, 2, 8e-3},
    {"f32", Kind::Float, 4, 1e-5},     {"f64", Kind::Double, 8, 1e-12},
    {"i8", Kind::Signed, 1, 0},        {"i16", Kind::Signed, 2, 0},
    {"i32", Kind::Signed, 4, 0},       {"i64", Kind::Signed, 8, 0},
    {"u8", Kind::Unsigned, 1, 0},      {"u16", Kind::Unsigned, 2, 0},
    {"u32", Kind::Unsigned, 4, 0},     {"u64", Kind::Unsigned, 8, 0},
};

const ElementType *lookupType(StringRef Name) {
  for (const ElementType &T : ElementTypes)
    if (T.Name == Name)
      return &T;
  return nullptr;
}

bool isFloat(const ElementType &T) {
  return T.K != Kind::Signed && T.K != Kind::Unsigned;
}

double loadElement(const ElementType &T, const uint8_t *P) {
  switch (T.K) {
  case Kind::Half:
  case Kind::BFloat: {
    uint16_t Bits;
    std::memcpy(&Bits, P, 2);
    APFloat F(T.K == Kind::Half ? APFloat::IEEEhalf() : APFloat::BFloat(),
              APInt(16, Bits));
    return F.convertToDouble();
  }
  case Kind::Float: {
    float F;
    std::memcpy(&F, P, 4);
    return F;
  }
  case Kind::Double: {
    double D;
    std::memcpy(&D, P, 8);
    return D;
  }
  case Kind::Signed: {
    int64_t V = 0;
    std::memcpy(&V, P, T.Bytes);
    unsigned Shift = 64 - 8 * T.Bytes;
    return static_cast<double>(static_cast<int64_t>(uint64_t(V) << Shift) >>
                               Shift);
  }
  case Kind::Unsigned: {
    uint64_t V = 0;
    std::memcpy(&V, P, T.Bytes);
    return static_cast<double>(V);
  }
  }
  llvm_unreachable("unknown element kind");
}

void storeElement(const ElementType &T, uint8_t *P, double V) {
  switch (T.K) {
  case Kind::Half:
  case Kind::BFloat: {
    APFloat F(V);
    bool LosesInfo;
    F.convert(T.K == Kind::Half ? APFloat::IEEEhalf() : APFloat::BFloat(),
              APFloat::rmNearestTiesToEven, &LosesInfo);
    uint16_t Bits = F.bitcastToAPInt().getZExtValue();
    std::memcpy(P, &Bits, 2);
    return;
  }
  case Kind::Float: {
    float F = static_cast<float>(V);
    std::memcpy(P, &F, 4);
    return;
  }
  case Kind::Double:
    std::memcpy(P, &V, 8);
    return;
  case Kind::Signed: {
    int64_t I = static_cast<int64_t>(V);
    std::memcpy(P, &I, T.Bytes);
    return;
  }
  case Kind::Unsigned: {
    uint64_t U = static_cast<uint64_t>(V);
    std::memcpy(P, &U, T.Bytes);
    return;
  }
  }
  llvm_unreachable("unknown element kind");
}

//===----------------------------------------------------------------------===//
// Reference expressions
//===----------------------------------------------------------------------===//

/// One node of a reference expression, evaluated per element in double.
struct ExprFunction;

struct Expr {
  enum class Op { Number, Arg, Index, Neg, Add, Sub, Mul, Div, Call } O;
  double Value = 0;
  unsigned ArgIndex = 0;
  /// The function a Call calls, resolved once when parsed.
  const ExprFunction *Callee = nullptr;
  std::vector<std::unique_ptr<Expr>> Operands;
};

/// What an expression reads for argument $K at element I.
using ArgReader = function_ref<double(unsigned ArgIndex, uint64_t I)>;

/// The functions an expression may call, each of one or two operands.
struct ExprFunction {
  StringRef Name;
  double (*Unary)(double);
  double (*Binary)(double, double);
};
const ExprFunction ExprFunctions[] = {
    {"exp", [](double X) { return std::exp(X); }, nullptr},
    {"log", [](double X) { return std::log(X); }, nullptr},
    {"sqrt", [](double X) { return std::sqrt(X); }, nullptr},
    {"abs", [](double X) { return std::fabs(X); }, nullptr},
    {"erf", [](double X) { return std::erf(X); }, nullptr},
    {"acos", [](double X) { return std::acos(X); }, nullptr},
    {"asin", [](double X) { return std::asin(X); }, nullptr},
    {"atan", [](double X) { return std::atan(X); }, nullptr},
    {"sinh", [](double X) { return std::sinh(X); }, nullptr},
    {"cosh", [](double X) { return std::cosh(X); }, nullptr},
    {"rint", [](double X) { return std::nearbyint(X); }, nullptr},
    {"min", nullptr, [](double X, double Y) { return std::min(X, Y); }},
    {"max", nullptr, [](double X, double Y) { return std::max(X, Y); }},
    {"pow", nullptr, [](double X, double Y) { return std::pow(X, Y); }},
    {"atan2", nullptr, [](double X, double Y) { return std::atan2(X, Y); }},
    {"fmod", nullptr, [](double X, double Y) { return std::fmod(X, Y); }},
};

const ExprFunction *lookupExprFunction(StringRef Name) {
  for (const ExprFunction &F : ExprFunctions)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

double evaluate(const Expr &E, uint64_t I, ArgReader Read) {
  auto Operand = [&](unsigned N) { return evaluate(*E.Operands[N], I, Read); };
  switch (E.O) {
  case Expr::Op::Number:
    return E.Value;
  case Expr::Op::Arg:
    return Read(E.ArgIndex, I);
  case Expr::Op::Index:
    return static_cast<double>(I);
  case Expr::Op::Neg:
    return -Operand(0);
  case Expr::Op::Add:
    return Operand(0) + Operand(1);
  case Expr::Op::Sub:
    return Operand(0) - Operand(1);
  case Expr::Op::Mul:
    return Operand(0) * Operand(1);
  case Expr::Op::Div:
    return Operand(0) / Operand(1);
  case Expr::Op::Call:
    return E.Callee->Unary ? E.Callee->Unary(Operand(0))
                           : E.Callee->Binary(Operand(0), Operand(1));
  }
  llvm_unreachable("unknown expression node");
}

/// Recursive descent over `sum := product (('+'|'-') product)*`,
/// `product := unary (('*'|'/') unary)*`, `unary := '-' unary | primary`,
/// `primary := number | $K | i | name '(' sum (',' sum)* ')' | '(' sum ')'`.
class ExprParser {
public:
  explicit ExprParser(StringRef Text) : Text(Text), Rest(Text) {}

  Expected<std::unique_ptr<Expr>> parse() {
    auto E = parseSum();
    if (!E)
      return E.takeError();
    skipSpace();
    if (!Rest.empty())
      return error("unexpected '" + Rest.take_front(1) + "'");
    return E;
  }

private:
  Error error(const Twine &Message) {
    return createStringError(
        formatv("expression '{0}', column {1}: {2}", Text,
                Text.size() - Rest.size() + 1, Message.str())
            .str());
  }
  void skipSpace() { Rest = Rest.ltrim(); }
  bool consume(char C) {
    skipSpace();
    return Rest.consume_front(StringRef(&C, 1));
  }
  static std::unique_ptr<Expr> node(Expr::Op O) {
    auto E = std::make_unique<Expr>();
    E->O = O;
    return E;
  }
  static std::unique_ptr<Expr> binary(Expr::Op O, std::unique_ptr<Expr> L,
                                      std::unique_ptr<Expr> R) {
    auto E = node(O);
    E->Operands.push_back(std::move(L));
    E->Operands.push_back(std::move(R));
    return E;
  }

  Expected<std::unique_ptr<Expr>> parseSum() {
    auto L = parseProduct();
    if (!L)
      return L;
    while (true) {
      Expr::Op O;
      if (consume('+'))
        O = Expr::Op::Add;
      else if (consume('-'))
        O = Expr::Op::Sub;
      else
        return L;
      auto R = parseProduct();
      if (!R)
        return R;
      L = binary(O, std::move(*L), std::move(*R));
    }
  }

  Expected<std::unique_ptr<Expr>> parseProduct() {
    auto L = parseUnary();
    if (!L)
      return L;
    while (true) {
      Expr::Op O;
      if (consume('*'))
        O = Expr::Op::Mul;
      else if (consume('/'))
        O = Expr::Op::Div;
      else
        return L;
      auto R = parseUnary();
      if (!R)
        return R;
      L = binary(O, std::move(*L), std::move(*R));
    }
  }

  Expected<std::unique_ptr<Expr>> parseUnary() {
    if (!consume('-'))
      return parsePrimary();
    auto Operand = parseUnary();
    if (!Operand)
      return Operand;
    auto E = node(Expr::Op::Neg);
    E->Operands.push_back(std::move(*Operand));
    return E;
  }

  Expected<std::unique_ptr<Expr>> parsePrimary() {
    skipSpace();
    if (consume('(')) {
      auto E = parseSum();
      if (!E)
        return E;
      if (!consume(')'))
        return error("expected ')'");
      return E;
    }
    if (consume('$')) {
      size_t Len = std::min(Rest.find_if_not(isDigit), Rest.size());
      unsigned Index;
      if (Len == 0 || Rest.take_front(Len).getAsInteger(10, Index))
        return error("expected an argument number after '$'");
      Rest = Rest.drop_front(Len);
      auto E = node(Expr::Op::Arg);
      E->ArgIndex = Index;
      return E;
    }
    if (!Rest.empty() && (isDigit(Rest.front()) || Rest.front() == '.')) {
      size_t Len = std::min(
          Rest.find_if_not([](char C) { return isAlnum(C) || C == '.'; }),
          Rest.size());
      // An exponent's sign belongs to the number: 1e-5.
      while (Len < Rest.size() && (Rest[Len] == '-' || Rest[Len] == '+') &&
             (Rest[Len - 1] == 'e' || Rest[Len - 1] == 'E'))
        Len += 1 + Rest.drop_front(Len + 1).find_if_not(isDigit);
      Len = std::min(Len, Rest.size());
      double Value;
      if (Rest.take_front(Len).getAsDouble(Value))
        return error("bad number '" + Rest.take_front(Len) + "'");
      Rest = Rest.drop_front(Len);
      auto E = node(Expr::Op::Number);
      E->Value = Value;
      return E;
    }
    // A name: letters, then letters or digits (atan2).
    size_t Len = Rest.empty() || !isAlpha(Rest.front())
                     ? 0
                     : std::min(Rest.find_if_not(isAlnum), Rest.size());
    StringRef Name = Rest.take_front(Len);
    if (Name.empty())
      return error(Rest.empty() ? "expected an operand at the end"
                                : "expected an operand");
    Rest = Rest.drop_front(Len);
    if (Name == "i")
      return node(Expr::Op::Index);
    const ExprFunction *F = lookupExprFunction(Name);
    if (!F) {
      std::string Known = "i";
      for (const ExprFunction &Each : ExprFunctions)
        Known += ", " + Each.Name.str();
      return error("unknown name '" + Name + "' (known: " + Known + ")");
    }
    unsigned Arity = F->Unary ? 1 : 2;
    if (!consume('('))
      return error("expected '(' after " + Name);
    auto E = node(Expr::Op::Call);
    E->Callee = F;
    for (unsigned N = 0; N < Arity; ++N) {
      if (N > 0 && !consume(','))
        return error(Name + " takes " + Twine(Arity) + " operands");
      auto Operand = parseSum();
      if (!Operand)
        return Operand;
      E->Operands.push_back(std::move(*Operand));
    }
    if (!consume(')'))
      return error("expected ')' after the operands of " + Name);
    return E;
  }

  StringRef Text, Rest;
};

//===----------------------------------------------------------------------===//
// Argument specifications
//===----------------------------------------------------------------------===//

struct ArgSpec {
  enum class Role { Scalar, Input, Output } R;
  const ElementType *Type = nullptr;
  /// Scalars: the value.
  double ScalarValue = 0;
  int64_t IntValue = 0;
  /// Buffers: element count and how to fill or check.
  uint64_t Count = 0;
  enum class Init { Random, Fill, Iota, File } How = Init::Random;
  double FillValue = 0;
  std::string Path;
  std::unique_ptr<Expr> Reference;
  std::string ReferenceText;

  uint64_t bytes() const { return Count * Type->Bytes; }
};

Error specError(unsigned Index, StringRef Spec, const Twine &Message) {
  return createStringError(formatv("--arg {0} '{1}': {2}", Index, Spec,
                                   Message.str())
                               .str());
}

Expected<uint64_t> parseCount(StringRef Text) {
  uint64_t Count = 1;
  SmallVector<StringRef> Dims;
  Text.split(Dims, 'x');
  for (StringRef D : Dims) {
    uint64_t V;
    if (D.getAsInteger(10, V) || V == 0)
      return createStringError("N= takes a positive count or a shape such "
                               "as 4096x1024, not '" +
                               Text + "'");
    if (Count > UINT64_MAX / V)
      return createStringError("N=" + Text + " is too large");
    Count *= V;
  }
  return Count;
}

Expected<ArgSpec> parseArg(unsigned Index, StringRef Spec) {
  ArgSpec A;
  auto [Head, Rest] = Spec.split(':');
  if (Head == "buf" || Head == "out") {
    A.R = Head == "buf" ? ArgSpec::Role::Input : ArgSpec::Role::Output;
    auto [TypeName, AfterType] = Rest.split(':');
    A.Type = lookupType(TypeName);
    if (!A.Type)
      return specError(Index, Spec,
                       "unknown element type '" + TypeName +
                           "' (f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 "
                           "u64)");
    auto [CountField, Init] = AfterType.split(':');
    if (!CountField.consume_front("N="))
      return specError(Index, Spec,
                       "a buffer needs its size as N=COUNT after the type, "
                       "e.g. " + Head + ":f32:N=1024");
    Expected<uint64_t> Count = parseCount(CountField);
    if (!Count)
      return specError(Index, Spec, toString(Count.takeError()));
    A.Count = *Count;
    if (A.R == ArgSpec::Role::Input) {
      if (Init.empty() || Init == "random")
        A.How = ArgSpec::Init::Random;
      else if (Init == "iota")
        A.How = ArgSpec::Init::Iota;
      else if (Init.consume_front("fill=")) {
        A.How = ArgSpec::Init::Fill;
        if (Init.getAsDouble(A.FillValue))
          return specError(Index, Spec, "fill= takes a number");
      } else if (Init.consume_front("file=")) {
        A.How = ArgSpec::Init::File;
        A.Path = Init.str();
      } else
        return specError(Index, Spec,
                         "unknown initializer '" + Init +
                             "' (random, iota, fill=V, file=PATH)");
      return A;
    }
    // An output that the kernel accumulates into (atomics) starts from
    // fill=V instead of the poison.
    if (Init.consume_front("fill=")) {
      auto [Value, Check] = Init.split(':');
      A.How = ArgSpec::Init::Fill;
      if (Value.getAsDouble(A.FillValue))
        return specError(Index, Spec, "fill= takes a number");
      Init = Check;
    }
    if (Init.empty())
      return A;
    if (Init.consume_front("ref="))
      A.Path = Init.str();
    else if (Init.consume_front("expr=")) {
      Expected<std::unique_ptr<Expr>> E = ExprParser(Init).parse();
      if (!E)
        return specError(Index, Spec, toString(E.takeError()));
      A.Reference = std::move(*E);
      A.ReferenceText = Init.str();
    } else
      return specError(Index, Spec,
                       "unknown check '" + Init + "' (ref=PATH, expr=E)");
    return A;
  }

  A.R = ArgSpec::Role::Scalar;
  A.Type = lookupType(Head);
  if (!A.Type || !is_contained(ArrayRef<StringRef>{"i32", "i64", "f32", "f64"}, Head))
    return specError(Index, Spec,
                     "expected buf:, out: or a scalar i32:V, i64:V, f32:V, "
                     "f64:V");
  if (Rest.empty())
    return specError(Index, Spec, "the scalar has no value");
  if (isFloat(*A.Type) ? Rest.getAsDouble(A.ScalarValue)
                       : Rest.getAsInteger(0, A.IntValue))
    return specError(Index, Spec,
                     "'" + Rest + "' is not " +
                         (isFloat(*A.Type) ? "a number" : "an integer"));
  if (Head == "i32" && (A.IntValue < INT32_MIN || A.IntValue > INT32_MAX))
    return specError(Index, Spec, "does not fit in 32 bits");
  return A;
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

/// The host copy of one argument.
struct HostArg {
  const ArgSpec *Spec;
  std::vector<uint8_t> Data;
  runtime::Buffer Device;
};

Error fillInput(const ArgSpec &A, std::vector<uint8_t> &Data,
                std::mt19937_64 &Rng) {
  Data.resize(A.bytes());
  const ElementType &T = *A.Type;
  switch (A.How) {
  case ArgSpec::Init::File: {
    ErrorOr<std::unique_ptr<MemoryBuffer>> F =
        MemoryBuffer::getFile(A.Path, false, false);
    if (!F)
      return createStringError(A.Path + ": cannot read: " +
                               F.getError().message());
    if ((*F)->getBufferSize() != A.bytes())
      return createStringError(formatv("{0}: holds {1} bytes, but {2} {3} "
                                       "elements need {4}",
                                       A.Path, (*F)->getBufferSize(), A.Count,
                                       T.Name, A.bytes())
                                   .str());
    std::memcpy(Data.data(), (*F)->getBufferStart(), A.bytes());
    return Error::success();
  }
  case ArgSpec::Init::Random: {
    std::uniform_real_distribution<double> Real(-1.0, 1.0);
    std::uniform_int_distribution<int> Int(T.K == Kind::Unsigned ? 0 : -100,
                                           100);
    for (uint64_t I = 0; I < A.Count; ++I)
      storeElement(T, Data.data() + I * T.Bytes,
                   isFloat(T) ? Real(Rng) : Int(Rng));
    return Error::success();
  }
  case ArgSpec::Init::Fill:
  case ArgSpec::Init::Iota:
    for (uint64_t I = 0; I < A.Count; ++I)
      storeElement(T, Data.data() + I * T.Bytes,
                   A.How == ArgSpec::Init::Fill ? A.FillValue
                                                : static_cast<double>(I));
    return Error::success();
  }
  llvm_unreachable("unknown initializer");
}

/// Compares an output with its reference; prints one line.
Expected<bool> check(unsigned Index, const HostArg &Out,
                     ArrayRef<HostArg> All) {
  const ArgSpec &A = *Out.Spec;
  const ElementType &T = *A.Type;
  std::vector<uint8_t> RefData;
  if (!A.Path.empty()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> F =
        MemoryBuffer::getFile(A.Path, false, false);
    if (!F)
      return createStringError(A.Path + ": cannot read: " +
                               F.getError().message());
    if ((*F)->getBufferSize() != A.bytes())
      return createStringError(formatv("{0}: holds {1} bytes, but the "
                                       "output has {2}",
                                       A.Path, (*F)->getBufferSize(),
                                       A.bytes())
                                   .str());
    RefData.assign((*F)->getBufferStart(), (*F)->getBufferEnd());
  }
  auto Read = [&](unsigned K, uint64_t I) -> double {
    const ArgSpec &S = *All[K].Spec;
    if (S.R == ArgSpec::Role::Scalar)
      return isFloat(*S.Type) ? S.ScalarValue
                              : static_cast<double>(S.IntValue);
    return loadElement(*S.Type, All[K].Data.data() +
                                    (I % S.Count) * S.Type->Bytes);
  };
  double DiffSq = 0, RefSq = 0;
  uint64_t BadIndex = UINT64_MAX;
  for (uint64_t I = 0; I < A.Count; ++I) {
    double Got = loadElement(T, Out.Data.data() + I * T.Bytes);
    double Ref = A.Reference ? evaluate(*A.Reference, I, Read)
                             : loadElement(T, RefData.data() + I * T.Bytes);
    if (!std::isfinite(Got) && std::isfinite(Ref)) {
      if (BadIndex == UINT64_MAX)
        BadIndex = I;
      continue;
    }
    DiffSq += (Got - Ref) * (Got - Ref);
    RefSq += Ref * Ref;
  }
  double Tolerance =
      RelTolerance.getNumOccurrences() ? RelTolerance : T.DefaultTolerance;
  double Rel = RefSq > 0 ? std::sqrt(DiffSq / RefSq) : std::sqrt(DiffSq);
  std::string Against = A.Reference ? A.ReferenceText : A.Path;
  outs() << formatv("check: argument {0} ({1}[{2}]) against {3}: ", Index,
                    T.Name, A.Count, Against);
  if (BadIndex != UINT64_MAX) {
    outs() << formatv("FAILED: element {0} is not finite (NaN means the "
                      "kernel did not write it)\n",
                      BadIndex);
    return false;
  }
  bool Ok = Rel <= Tolerance;
  outs() << formatv("relative error {0:e} (tolerance {1:e}): {2}\n", Rel,
                    Tolerance, Ok ? "ok" : "FAILED");
  return Ok;
}

Expected<std::array<unsigned, 3>> parseGrid(StringRef Text) {
  std::array<unsigned, 3> Grid = {1, 1, 1};
  SmallVector<StringRef> Parts;
  Text.split(Parts, ',');
  if (Parts.size() > 3)
    return createStringError("--grid takes at most 3 dimensions, X,Y,Z");
  for (auto [I, P] : enumerate(Parts))
    if (P.trim().getAsInteger(0, Grid[I]) || Grid[I] == 0)
      return createStringError("--grid " + Text +
                               ": each dimension must be a positive "
                               "integer");
  return Grid;
}

/// `add_kernel.h200.cubin` -> {add_kernel, h200}.
std::pair<StringRef, StringRef> splitFileName(StringRef Path) {
  StringRef Name = sys::path::filename(Path);
  SmallVector<StringRef> Parts;
  Name.split(Parts, '.');
  if (Parts.size() < 3)
    return {Parts.front(), ""};
  return {Parts.front(), Parts[Parts.size() - 2]};
}

/// What a launch of a bundle's binary must provide.
struct BundleLaunchFacts {
  uint64_t SharedMemoryBytes = 0, GlobalScratchBytes = 0;
  std::vector<backend::LaunchTensorMap> TensorMaps;
};

/// What a launch of BinaryPath must provide, from the manifest of the bundle
/// it sits in (tlec -o DIR: DIR/<kernel>/manifest.json beside the binary);
/// nothing when there is no manifest or it does not list the file.
Expected<std::optional<BundleLaunchFacts>>
readBundleLaunchFacts(StringRef Path) {
  SmallString<256> Manifest(sys::path::parent_path(Path));
  sys::path::append(Manifest, "manifest.json");
  ErrorOr<std::unique_ptr<MemoryBuffer>> File =
      MemoryBuffer::getFile(Manifest, /*IsText=*/true);
  if (!File)
    return std::nullopt;
  Expected<json::Value> Value = json::parse((*File)->getBuffer());
  if (!Value) {
    consumeError(Value.takeError());
    return std::nullopt;
  }
  const json::Object *Root = Value->getAsObject();
  const json::Array *Targets = Root ? Root->getArray("targets") : nullptr;
  if (!Targets)
    return std::nullopt;
  for (const json::Value &Entry : *Targets) {
    const json::Object *T = Entry.getAsObject();
    if (!T || T->getString("binary") != sys::path::filename(Path))
      continue;
    BundleLaunchFacts Facts;
    Facts.SharedMemoryBytes =
        uint64_t(T->getInteger("shared_memory_bytes").value_or(0));
    Facts.GlobalScratchBytes =
        uint64_t(T->getInteger("global_scratch_bytes").value_or(0));
    Expected<std::vector<backend::LaunchTensorMap>> Maps =
        runtime::readLaunchTensorMaps(*T);
    if (!Maps)
      return createStringError(Manifest + ": " + toString(Maps.takeError()));
    Facts.TensorMaps = std::move(*Maps);
    return Facts;
  }
  return std::nullopt;
}

Error run(const DeviceOpener &Open) {
  if (NumWarps.getNumOccurrences() && Threads.getNumOccurrences())
    return createStringError("give --num-warps or --block-threads, not both");
  if (!NumWarps.getNumOccurrences() && !Threads.getNumOccurrences())
    return createStringError("give the block size: --num-warps N (as the "
                             "kernel was compiled with) or --block-threads N");
  Expected<std::array<unsigned, 3>> Grid = parseGrid(GridSpec);
  if (!Grid)
    return Grid.takeError();

  std::vector<ArgSpec> Specs;
  for (auto [I, S] : enumerate(ArgSpecs)) {
    Expected<ArgSpec> A = parseArg(I, S);
    if (!A)
      return A.takeError();
    Specs.push_back(std::move(*A));
  }
  for (auto [I, A] : enumerate(Specs)) {
    if (!A.Reference)
      continue;
    // Every $K must name an argument; check before touching the device.
    SmallVector<const Expr *> Work = {A.Reference.get()};
    while (!Work.empty()) {
      const Expr *E = Work.pop_back_val();
      if (E->O == Expr::Op::Arg &&
          (E->ArgIndex >= Specs.size() ||
           Specs[E->ArgIndex].R == ArgSpec::Role::Output))
        return specError(I, ArgSpecs[I],
                         "$" + Twine(E->ArgIndex) +
                             " is not an input or scalar argument");
      for (const auto &O : E->Operands)
        Work.push_back(O.get());
    }
  }

  auto [FileKernel, FileTarget] = splitFileName(BinaryPath);
  std::string Target = TargetName.empty() ? FileTarget.str() : TargetName;
  if (Target.empty())
    return createStringError(
        "cannot tell the target from the file name '" +
        sys::path::filename(BinaryPath) +
        "' (tlec writes <kernel>.<target>.<format>); give --target CHIP");
  std::string Entry = KernelName.empty() ? FileKernel.str() : KernelName;
  if (!sys::fs::exists(BinaryPath))
    return createStringError(BinaryPath + ": no such file");

  Expected<std::unique_ptr<runtime::Device>> DeviceOrErr = Open(Target);
  if (!DeviceOrErr)
    return DeviceOrErr.takeError();
  runtime::Device &Dev = **DeviceOrErr;

  runtime::LaunchDims Dims;
  Dims.Grid = *Grid;
  Dims.SharedMemoryBytes = SharedMemory;
  Dims.GlobalScratchBytes = GlobalScratch;
  // A binary of a bundle: what its manifest says the launch needs, unless
  // given.
  Expected<std::optional<BundleLaunchFacts>> Facts =
      readBundleLaunchFacts(BinaryPath);
  if (!Facts)
    return Facts.takeError();
  if (*Facts) {
    if (!SharedMemory.getNumOccurrences())
      Dims.SharedMemoryBytes = (*Facts)->SharedMemoryBytes;
    if (!GlobalScratch.getNumOccurrences())
      Dims.GlobalScratchBytes = (*Facts)->GlobalScratchBytes;
    Dims.TensorMaps = std::move((*Facts)->TensorMaps);
  }
  if (Threads.getNumOccurrences())
    Dims.Threads = Threads;
  else if (Dev.getWarpSize() == 0)
    return createStringError("target " + Dev.getTargetName() +
                             " names no warp size; give --block-threads");
  else
    Dims.Threads = NumWarps * Dev.getWarpSize();

  Expected<runtime::Kernel> K = Dev.loadKernelFile(BinaryPath, Entry);
  if (!K)
    return K.takeError();
  // A failing launch names the binary too, as a failing load does.
  auto inBinary = [](Error E) -> Error {
    if (!E)
      return E;
    return createStringError(BinaryPath + ": " + toString(std::move(E)));
  };

  uint64_t SeedValue =
      Seed.getNumOccurrences() ? uint64_t(Seed) : std::random_device()();
  std::mt19937_64 Rng(SeedValue);
  std::vector<HostArg> Host;
  std::vector<runtime::KernelArg> Args;
  uint64_t BufferBytes = 0;
  for (const ArgSpec &A : Specs) {
    HostArg H{&A, {}, {}};
    if (A.R == ArgSpec::Role::Scalar) {
      StringRef T = A.Type->Name;
      Args.push_back(T == "i32"   ? runtime::KernelArg::i32(A.IntValue)
                     : T == "i64" ? runtime::KernelArg::i64(A.IntValue)
                     : T == "f32" ? runtime::KernelArg::f32(A.ScalarValue)
                                  : runtime::KernelArg::f64(A.ScalarValue));
      Host.push_back(std::move(H));
      continue;
    }
    if (A.R == ArgSpec::Role::Input) {
      if (Error E = fillInput(A, H.Data, Rng))
        return E;
    } else if (A.How == ArgSpec::Init::Fill) {
      if (Error E = fillInput(A, H.Data, Rng))
        return E;
    } else {
      // Poison: 0xff bytes are NaN in every float type, so an element the
      // kernel did not write fails the check.
      H.Data.assign(A.bytes(), 0xff);
    }
    Expected<runtime::Buffer> B = Dev.allocate(A.bytes());
    if (!B)
      return B.takeError();
    H.Device = std::move(*B);
    if (Error E = H.Device.write(H.Data.data(), A.bytes()))
      return E;
    BufferBytes += A.bytes();
    Args.push_back(runtime::KernelArg::pointer(H.Device));
    Host.push_back(std::move(H));
  }

  outs() << formatv("run: {0} from {1} on {2}: grid {3}x{4}x{5}, {6} threads "
                    "per block, {7} bytes of dynamic shared memory, seed {8}\n",
                    Entry, BinaryPath, Dev.getTargetName(), Dims.Grid[0],
                    Dims.Grid[1], Dims.Grid[2], Dims.Threads,
                    Dims.SharedMemoryBytes, SeedValue);
  if (Error E = Dev.launch(*K, Dims, Args))
    return inBinary(std::move(E));
  if (Error E = Dev.synchronize())
    return inBinary(std::move(E));

  bool AllOk = true;
  for (auto [I, H] : enumerate(Host)) {
    if (H.Spec->R != ArgSpec::Role::Output)
      continue;
    if (Error E = H.Device.read(H.Data.data(), H.Spec->bytes()))
      return E;
    if (!OutDir.empty()) {
      if (std::error_code EC = sys::fs::create_directories(OutDir))
        return createStringError(OutDir + ": " + EC.message());
      SmallString<128> Path(OutDir);
      sys::path::append(Path, formatv("arg{0}.bin", I).str());
      std::error_code EC;
      raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
      if (EC)
        return createStringError(Path + ": " + EC.message());
      OS.write(reinterpret_cast<const char *>(H.Data.data()), H.Data.size());
    }
    if (!H.Spec->Reference && H.Spec->Path.empty())
      continue;
    Expected<bool> Ok = check(I, H, Host);
    if (!Ok)
      return Ok.takeError();
    AllOk &= *Ok;
  }
  if (!AllOk)
    return createStringError("a check failed");
  if (Repeat == 0)
    return Error::success();

  for (unsigned I = 0; I < Warmup; ++I)
    if (Error E = Dev.launch(*K, Dims, Args))
      return inBinary(std::move(E));
  if (Error E = Dev.synchronize())
    return inBinary(std::move(E));
  runtime::Buffer Flush;
  std::vector<uint8_t> FlushData;
  if (FlushMiB > 0) {
    FlushData.assign(uint64_t(FlushMiB) << 20, 0);
    Expected<runtime::Buffer> B = Dev.allocate(FlushData.size());
    if (!B)
      return B.takeError();
    Flush = std::move(*B);
  }
  std::vector<double> Samples;
  for (unsigned I = 0; I < Repeat; ++I) {
    if (FlushMiB > 0) {
      if (Error E = Flush.write(FlushData.data(), FlushData.size()))
        return E;
      // A copy from pageable memory may return before its last bytes reach
      // the device; they must not land inside the timed launch.
      if (Error E = Dev.synchronize())
        return E;
    }
    Expected<double> Ms = Dev.time(*K, Dims, Args, 1);
    if (!Ms)
      return inBinary(Ms.takeError());
    Samples.push_back(*Ms);
  }
  llvm::sort(Samples);
  double Median = Samples.size() % 2
                      ? Samples[Samples.size() / 2]
                      : (Samples[Samples.size() / 2 - 1] +
                         Samples[Samples.size() / 2]) /
                            2;
  outs() << formatv("time: median {0:f4} ms, min {1:f4}, max {2:f4} over {3} "
                    "launches after {4} warm-up ({5}); {6:f1} GB/s counting "
                    "each buffer once\n",
                    Median, Samples.front(), Samples.back(), Repeat, Warmup,
                    FlushMiB > 0 ? formatv("{0} MiB written before each",
                                           unsigned(FlushMiB))
                                       .str()
                                 : std::string("cache kept warm"),
                    BufferBytes / (Median * 1e6));
  return Error::success();
}

} // namespace

int runTleRun(const DeviceOpener &Open) {
  if (Error E = run(Open)) {
    WithColor::error(errs(), "tle-run") << toString(std::move(E)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace run
} // namespace tle
