//===- Schema.cpp - Machine-checkable schema of hardware descriptions -----===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Every key a description may contain is listed here exactly once, with its
// type, range and the sentence that documents it. Adding a key means adding a
// row here, a field in HwDesc.h, and regenerating the table in SCHEMA.md
// (`tle-hwdesc schema`); the lit test schema-doc.test fails until all three
// agree.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/Schema.h"
#include "core/hwdesc/HwDesc.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tle {
namespace hwdesc {

ArrayRef<std::string> getLevelKindNames() {
  static const std::vector<std::string> Names = {"grid", "cluster", "block",
                                                 "warp", "thread"};
  return Names;
}
ArrayRef<std::string> getMemoryScopeNames() {
  static const std::vector<std::string> Names = {"device", "cluster", "block",
                                                 "thread"};
  return Names;
}
ArrayRef<std::string> getMemoryKindNames() {
  static const std::vector<std::string> Names = {"global", "cache", "shared",
                                                 "scratchpad", "registers"};
  return Names;
}
ArrayRef<std::string> getIssueLevelNames() {
  static const std::vector<std::string> Names = {"thread", "warp", "warpgroup",
                                                 "wavefront", "subgroup"};
  return Names;
}

// Small constructors that keep the table below readable.
static SchemaNode str() { return SchemaNode(); }
static SchemaNode ident() {
  SchemaNode N;
  N.Type = ValueType::Identifier;
  return N;
}
static SchemaNode boolean() {
  SchemaNode N;
  N.Type = ValueType::Bool;
  return N;
}
static SchemaNode enumOf(ArrayRef<std::string> Values) {
  SchemaNode N;
  N.Type = ValueType::Enum;
  N.EnumValues.assign(Values.begin(), Values.end());
  return N;
}
static SchemaNode integer(int64_t Min, int64_t Max, bool Pow2 = false) {
  SchemaNode N;
  N.Type = ValueType::Int;
  N.Min = Min;
  N.Max = Max;
  N.PowerOfTwo = Pow2;
  return N;
}
static SchemaNode quantity(UnitKind U, bool NonZero = true) {
  SchemaNode N;
  N.Type = ValueType::Quantity;
  N.Unit = U;
  N.NonZero = NonZero;
  return N;
}
static SchemaNode list(SchemaNode Elem, unsigned MaxItems = 0) {
  SchemaNode N;
  N.Type = ValueType::List;
  N.Element.push_back(std::move(Elem));
  N.MaxItems = MaxItems;
  return N;
}
static SchemaNode dynMap(std::vector<std::string> Keys, SchemaNode Value) {
  SchemaNode N;
  N.Type = ValueType::DynMap;
  N.KeyValues = std::move(Keys);
  N.Element.push_back(std::move(Value));
  return N;
}
static SchemaNode map(std::vector<SchemaField> Fields) {
  SchemaNode N;
  N.Type = ValueType::Map;
  N.Fields = std::move(Fields);
  return N;
}
static SchemaField req(StringRef Key, SchemaNode N, StringRef Doc) {
  return SchemaField{Key.str(), true, Doc.str(), std::move(N)};
}
static SchemaField opt(StringRef Key, SchemaNode N, StringRef Doc) {
  return SchemaField{Key.str(), false, Doc.str(), std::move(N)};
}

static const std::vector<std::string> &getDTypes() {
  static const std::vector<std::string> DTypes = {
      "fp64",    "fp32", "tf32", "xf32",  "fp16", "bf16",  "fp8", "fp8e4m3",
      "fp8e5m2", "fp6",  "fp4",  "int32", "int8", "uint8", "int4"};
  return DTypes;
}

static SchemaNode buildSchema() {
  constexpr int64_t Big = int64_t(1) << 40;
  SchemaNode Features =
      enumOf({"async_copy",  "tma",        "wgmma",        "wmma",
              "mma",         "mfma",       "wmma_amd",     "cooperative_matrix",
              "fp8",         "bf16",       "fp16",         "fp64",
              "tf32",        "xf32",       "int8",         "clusters",
              "dsmem",       "mbarrier",   "warp_shuffle", "subgroup_shuffle",
              "sparsity",    "setmaxnreg", "dma",          "atomics_fp32",
              "atomics_fp64"});
  Features.OpenPrefix = "x_";

  SchemaNode ParallelLevel = map({
      req("name", ident(),
          "Hardware name of the level (grid, block, "
          "workgroup, wavefront, lane, core, ...)."),
      req("kind", enumOf(getLevelKindNames()),
          "The TLE level it implements; kinds must appear in the order "
          "grid, cluster, block, warp, thread."),
      opt("size", integer(1, 1 << 20),
          "Fixed number of threads in one instance (warp: 32; thread: 1)."),
      opt("max_threads", integer(1, 1 << 20),
          "Most threads one instance may have (block: 1024)."),
      opt("max_blocks", integer(1, 1024),
          "Cluster only: most blocks in one cluster (portable limit)."),
      opt("max_blocks_nonportable", integer(1, 1024),
          "Cluster only: most blocks in one cluster when opted in."),
      opt("max_dims", list(integer(1, Big), 3),
          "Per-dimension maxima x, y, z of the launch extent."),
      opt("max_resident", integer(1, 1 << 20),
          "Instances resident on one processor at once (blocks per SM)."),
  });

  SchemaNode MemoryLevel = map({
      req("name", ident(),
          "Name that `local_buffer(level=...)` and aliases refer to."),
      req("scope", enumOf(getMemoryScopeNames()),
          "Which threads share one instance; levels are ordered outermost "
          "(device) to innermost (thread)."),
      req("kind", enumOf(getMemoryKindNames()), "What the level is."),
      req("size", quantity(UnitKind::Size),
          "Capacity of one instance (per SM for shared memory)."),
      opt("bandwidth", quantity(UnitKind::Bandwidth),
          "Peak bandwidth of the level for the whole chip."),
      opt("latency_cycles", integer(0, 1000000),
          "Typical load latency in processor cycles."),
      opt("banks", integer(1, 1024),
          "Number of banks. Banks times bank_width is one row of banks: in "
          "the block level, each local buffer of a row or more starts on "
          "a row."),
      opt("bank_width", quantity(UnitKind::Size), "Width of one bank."),
      opt("address_space", integer(0, 255),
          "Address space number the backend uses for the level."),
      opt("alignment", quantity(UnitKind::Size),
          "Required alignment of a buffer placed in the level."),
      opt("software_managed", boolean(),
          "True if kernels place data explicitly (shared memory, "
          "scratchpad); defaults to false for caches, true otherwise."),
  });

  SchemaNode MatrixInstruction = map({
      req("name", str(), "Instruction or intrinsic name."),
      req("m", integer(1, 1024), "Rows of A and C."),
      req("n", integer(1, 1024), "Columns of B and C."),
      req("k", integer(1, 1024), "Reduction size."),
      req("a_type", enumOf(getDTypes()), "Element type of A."),
      req("b_type", enumOf(getDTypes()), "Element type of B."),
      req("acc_type", enumOf(getDTypes()),
          "Element type of the accumulator C/D."),
      req("level", enumOf(getIssueLevelNames()),
          "Group of threads that issues it together."),
  });

  return map({
      req("name", str(), "Chip name as the vendor prints it (H200)."),
      req("vendor", str(), "Vendor name."),
      req("backend", ident(),
          "Key of the backend plugin that serves the chip (nvidia, amd, "
          "spirv, ...)."),
      req("arch", str(),
          "Architecture the backend compiles for (sm_90a, "
          "gfx942, ...)."),
      opt("extends", str(),
          "Base description: a path relative to this file, or a name "
          "looked up in this file's directory and the search path."),
      opt("abstract", boolean(),
          "True for family bases that only make sense when extended; not "
          "inherited."),
      opt("description", str(), "One line about the chip."),
      req("parallel",
          map({
              req("processor_count", integer(1, 1 << 20),
                  "Number of processors (SMs, CUs, cores)."),
              opt("processor_name", str(),
                  "What the vendor calls a processor (SM, CU, core)."),
              req("warp_size", integer(1, 1024, true),
                  "Default threads per warp/wavefront/subgroup."),
              opt("subgroup_sizes", list(integer(1, 1024, true)),
                  "All subgroup sizes the chip supports; must include "
                  "warp_size."),
              req("levels", list(ParallelLevel),
                  "Parallel levels, outermost first."),
          }),
          "The parallel hierarchy."),
      req("memory",
          map({
              req("levels", list(MemoryLevel),
                  "Memory levels, outermost first."),
              opt("aliases", dynMap({}, ident()),
                  "Extra names for levels, e.g. `block: shared`; TLE-Struct "
                  "names resolve through them."),
          }),
          "The memory hierarchy."),
      req("compute",
          map({
              req("clock", quantity(UnitKind::Frequency),
                  "Maximum (boost) processor clock."),
              opt("base_clock", quantity(UnitKind::Frequency),
                  "Base processor clock."),
              opt("matrix_rates", dynMap(getDTypes(), quantity(UnitKind::Rate)),
                  "Dense peak rate of the matrix units per input dtype."),
              opt("vector_rates", dynMap(getDTypes(), quantity(UnitKind::Rate)),
                  "Peak rate of the vector (non-matrix) units per dtype."),
              opt("matrix_instructions", list(MatrixInstruction),
                  "Matrix instructions, in order of preference."),
              opt("vector_width", quantity(UnitKind::Size),
                  "Widest vector memory access of one thread."),
              opt("sfu_per_processor", integer(0, 1 << 16),
                  "Special-function units (sin, exp, rsqrt) per processor."),
          }),
          "Compute units and their rates."),
      req("limits",
          map({
              req("registers_per_thread", integer(1, 1 << 16),
                  "Most 32-bit registers one thread may use."),
              opt("registers_per_block", integer(1, 1 << 24),
                  "Most 32-bit registers one block may use."),
              opt("registers_per_processor", integer(1, 1 << 24),
                  "32-bit registers of one processor."),
              req("shared_per_block", quantity(UnitKind::Size),
                  "Shared memory a block gets without opting in."),
              opt("shared_per_block_optin", quantity(UnitKind::Size),
                  "Shared memory a block may opt in to (>= default)."),
              opt("shared_per_processor", quantity(UnitKind::Size),
                  "Shared memory of one processor (>= per block)."),
          }),
          "Resource limits that kernels are checked against."),
      opt("toolchain",
          map({
              opt("isa_version", str(),
                  "PTX ISA / AMDGPU ISA / SPIR-V version to emit."),
              opt("triple", str(), "LLVM target triple."),
              opt("features", list(Features),
                  "Feature flags; vendor-specific ones start with `x_`."),
          }),
          "What the backend's toolchain may use."),
      opt("raw",
          map({
              opt("languages",
                  list(enumOf({"ptx", "cuda", "llvm", "mlir", "amdgcn", "hip",
                               "spirv", "opencl"})),
                  "Native languages TLE-Raw code may be written in."),
          }),
          "TLE-Raw support."),
  });
}

const SchemaNode &getSchema() {
  static const SchemaNode Schema = buildSchema();
  return Schema;
}

std::string describeType(const SchemaNode &N) {
  switch (N.Type) {
  case ValueType::Map:
    return "mapping";
  case ValueType::List:
    return "list of " + describeType(N.Element[0]);
  case ValueType::DynMap:
    return "mapping to " + describeType(N.Element[0]);
  case ValueType::String:
    return "string";
  case ValueType::Identifier:
    return "identifier";
  case ValueType::Enum:
    return "enum";
  case ValueType::Int:
    return "integer";
  case ValueType::Bool:
    return "boolean";
  case ValueType::Quantity:
    switch (N.Unit) {
    case UnitKind::Size:
      return "size";
    case UnitKind::Bandwidth:
      return "bandwidth";
    case UnitKind::Frequency:
      return "frequency";
    case UnitKind::Rate:
      return "rate";
    }
  }
  return "";
}

static std::string describeRange(const SchemaNode &N) {
  switch (N.Type) {
  case ValueType::Int: {
    std::string S =
        "[" + std::to_string(N.Min) + ", " + std::to_string(N.Max) + "]";
    return N.PowerOfTwo ? S + ", power of two" : S;
  }
  case ValueType::Enum: {
    std::string S = join(N.EnumValues, ", ");
    return N.OpenPrefix.empty() ? S : S + ", or `" + N.OpenPrefix + "*`";
  }
  case ValueType::DynMap:
    return N.KeyValues.empty() ? "keys: identifiers"
                               : "keys: " + join(N.KeyValues, ", ");
  case ValueType::List: {
    std::string S = describeRange(N.Element[0]);
    if (N.MaxItems)
      S += (S.empty() ? "" : "; ") + std::string("at most ") +
           std::to_string(N.MaxItems) + " items";
    return S;
  }
  case ValueType::Quantity:
    return N.NonZero ? "> 0" : ">= 0";
  default:
    return "";
  }
}

static void printRows(raw_ostream &OS, const SchemaNode &N,
                      const std::string &Prefix) {
  for (const SchemaField &F : N.Fields) {
    std::string Path = Prefix.empty() ? F.Key : Prefix + "." + F.Key;
    OS << "| `" << Path << "` | " << describeType(F.Node) << " | "
       << (F.Required ? "yes" : "no") << " | " << describeRange(F.Node) << " | "
       << F.Doc << " |\n";
    if (F.Node.Type == ValueType::Map)
      printRows(OS, F.Node, Path);
    else if (F.Node.Type == ValueType::List &&
             F.Node.Element[0].Type == ValueType::Map)
      printRows(OS, F.Node.Element[0], Path + "[]");
  }
}

void printSchemaMarkdown(raw_ostream &OS) {
  OS << "| key | type | required | values | meaning |\n";
  OS << "| --- | --- | --- | --- | --- |\n";
  printRows(OS, getSchema(), "");
}

} // namespace hwdesc
} // namespace tle
