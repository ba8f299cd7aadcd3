//===- Backend.h - The interface a backend plugin implements ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// A Backend turns a kernel that the core has lowered as far as the backend
// asks for (tile IR, or per-thread code in the LLVM dialect) into a binary for
// one chip. The core never names a vendor: it finds the Backend through the
// `backend:` key of a hardware description and talks to it only through this
// interface, TargetInfo and Runtime.
//
// This header forward-declares the MLIR classes it mentions so that code that
// only holds backends (the plugin host, the driver) does not pay for MLIR's
// headers; implementations include what they use.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_BACKEND_BACKEND_H
#define TLE_BACKEND_BACKEND_H

#include "tle/Backend/Runtime.h"

#include "llvm/ADT/BitmaskEnum.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace tle {
namespace hwdesc {
class HwDesc;
} // namespace hwdesc

namespace backend {
class TargetInfo;

/// One native function the kernel calls.
struct RawFunction {
  /// The declaration the kernel calls; the native entry is renamed to it.
  std::string Symbol;
  /// The tle.kernel function, for messages.
  std::string Kernel;
  /// A tle_raw language (cuda, opencl, llvm, hip, spirv, ...).
  std::string Language;
  std::string Code;
  /// The function inside Code that implements the call.
  std::string Entry;
  /// Where Code starts in the kernel's sources (empty File: unknown).
  std::string File;
  unsigned Line = 0, Column = 0;

  /// "file:line:col" of Code's first character, or "<Entry>" if unknown.
  std::string where() const {
    if (File.empty())
      return "'" + Entry + "'";
    return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
  }
  /// The source position of line N (1-based) of Code.
  std::string where(unsigned N, unsigned Col) const {
    if (File.empty())
      return where();
    unsigned C = N == 1 ? Column + Col - 1 : Col;
    return File + ":" + std::to_string(Line + N - 1) + ":" + std::to_string(C);
  }
};

/// What Backend::forwardRaw makes of a RawFunction: LLVM IR linked into the
/// kernel before optimization (it inlines), or a binary the plugin links
/// after code generation (e.g. a SPIR-V module for spirv-link).
struct RawCode {
  std::unique_ptr<llvm::Module> IR;
  std::string Binary;
};

/// The forms of a kernel that a backend accepts in compile().
enum class Stage : unsigned {
  None = 0,
  /// tle + tle_struct + tle_raw with arith/math/scf, as the front end and the
  /// tile passes leave it. Tile-level backends (e.g. CUDA Tile IR) take this.
  TileIR = 1u << 0,
  /// Per-thread code in the LLVM dialect, produced by the core's distribution
  /// through the backend's TargetInfo.
  DistributedIR = 1u << 1,
  LLVM_MARK_AS_BITMASK_ENUM(/*LargestValue=*/DistributedIR)
};

/// Knobs of one compilation that are not part of the chip description.
struct CompileOptions {
  unsigned NumWarps = 4;
  unsigned NumStages = 3;
  /// Optimization level 0..3 of the backend's own LLVM pipeline and code
  /// generation (tlec -O).
  unsigned OptLevel = 3;
  /// The backend may contract a floating-point multiply and add into one
  /// fused multiply-add (Triton's enable_fp_fusion, on by default; tlec
  /// --no-fp-fusion).
  bool FPFusion = true;
  /// The backend may have its assembler fit the kernel in fewer registers
  /// when that lets more blocks reside on one processor and nothing spills
  /// (tlec --disable-opt=occupancy turns it off).
  bool RaiseOccupancy = true;
  /// The backend may hold a kernel built around the matrix unit's
  /// asynchronous MMAs to fewer resident blocks per processor than its
  /// resources allow, e.g. by launching it with more block-level memory than
  /// it uses (CompiledKernel::SharedMemoryBytes); not at OptLevel 0 (tlec
  /// --disable-opt=mma-residency turns it off).
  bool HoldMmaResidency = true;
  /// Asks compile() to fill CompiledKernel::LLVMIR (tlec --emit=llvm); off
  /// by default because printing a module costs time nobody else needs.
  bool KeepLLVMIR = false;
};

/// What the chip's own assembler reported about one kernel (e.g. ptxas -v).
struct ResourceUsage {
  unsigned Registers = 0;
  uint64_t SpillStoreBytes = 0;
  uint64_t SpillLoadBytes = 0;
  uint64_t StackFrameBytes = 0;
  /// Shared memory the binary declares itself, on top of SharedMemoryBytes.
  uint64_t StaticSharedMemoryBytes = 0;
};

/// A fact about one compiled kernel that only some targets have (register
/// files, wavefront size, segment sizes, ...), as the plugin read it from the
/// binary or its assembler's report. The core shows these in bundle
/// manifests and tool output without interpreting them, so a plugin can
/// report a new kind of fact without an ABI change.
struct KernelProperty {
  /// Lower-case snake_case, unique within one kernel (e.g. "sgpr_count");
  /// best the name the vendor's own format gives the fact.
  std::string Name;
  /// As the binary states it: a decimal number ("24"), "true"/"false", or
  /// text ("amdgcn-amd-amdhsa--gfx942").
  std::string Value;
  /// What a numeric Value counts ("registers", "bytes", "lanes",
  /// "work-items"); empty when Value is not a quantity.
  std::string Unit;
};

/// One slot of the buffer a launch fills with the kernel's arguments, as the
/// binary lays it out; hidden (implicit) arguments the runtime fills
/// included.
struct KernelArgumentSlot {
  /// The argument's name if the binary records one, else empty.
  std::string Name;
  /// The target's word for what goes there, e.g. "global_buffer",
  /// "by_value", "hidden_block_count_x".
  std::string Kind;
  /// Byte offset from the start of the argument buffer, and size in bytes.
  uint64_t Offset = 0;
  uint64_t Size = 0;
};

/// What compile() produces: the bytes a Runtime loads, plus what a launcher
/// needs to know about them.
struct CompiledKernel {
  std::string Binary;
  /// Kind of Binary, also used as file extension: "cubin", "ptx", "hsaco",
  /// "spv", "txt", ...
  std::string Format;
  /// The symbol to launch inside Binary.
  std::string EntryName;
  /// Threads per block (work-group) the kernel was compiled for.
  unsigned ThreadsPerBlock = 0;
  /// Dynamic shared (local) memory the launch must provide, in bytes: at
  /// least what the kernel uses, more where the backend holds it to fewer
  /// resident blocks (CompileOptions::HoldMmaResidency).
  uint64_t SharedMemoryBytes = 0;
  /// Global memory each program (block) of a launch needs, in bytes: the
  /// launcher passes a pointer to grid size x this many bytes as one more
  /// argument after the kernel's own (distributed IR's
  /// `tle.global_scratch`; tensor maps). 0: no such argument.
  uint64_t GlobalScratchBytes = 0;
  /// Tensor maps the launcher builds from the kernel's arguments and passes
  /// by value after them, before the global scratch (distributed IR's
  /// `tle.launch_tensor_maps`).
  std::vector<LaunchTensorMap> LaunchTensorMaps;
  /// The readable assembly Binary was made from (e.g. PTX for a cubin), or
  /// Binary itself when that is already text; empty if the backend has none.
  std::string Assembly;
  /// The optimized LLVM IR module Assembly was generated from, as text;
  /// filled only when CompileOptions::KeepLLVMIR asks for it.
  std::string LLVMIR;
  /// Absent when no assembler ran (e.g. PTX emitted without ptxas).
  std::optional<ResourceUsage> Resources;
  /// Target-specific facts, in the order the plugin wants them shown;
  /// empty if the plugin reports none.
  std::vector<KernelProperty> Properties;
  /// The argument buffer's layout as the binary declares it, in offset
  /// order; empty if the binary does not declare one.
  std::vector<KernelArgumentSlot> ArgumentLayout;
};

/// The compiler side of a backend plugin. One instance serves every
/// description whose `backend:` key the plugin claims; everything chip
/// specific comes from the HwDesc passed in. Methods must not throw: report
/// failures through llvm::Error with a message that names the plugin.
class Backend {
public:
  virtual ~Backend() = default;

  /// Short name used in messages, e.g. "spirv".
  virtual llvm::StringRef getName() const = 0;

  /// The forms compile() accepts; the core hands over tile IR when TileIR is
  /// included, and distributed IR otherwise.
  virtual Stage getStages() const = 0;

  /// `toolchain.features` the description must list for this backend to
  /// compile for it (e.g. a PTX version); the host refuses the target
  /// otherwise, naming the missing feature.
  virtual std::vector<std::string> getRequiredFeatures() const { return {}; }

  /// Adds the dialects compile() creates, so that the host loads them into
  /// the context before any compilation (contexts may not load dialects while
  /// passes run on several threads).
  virtual void registerDialects(mlir::DialectRegistry &Registry) const {}

  /// The distribution hooks for one chip; null if the backend only accepts
  /// Stage::TileIR.
  virtual std::unique_ptr<TargetInfo>
  createTargetInfo(const hwdesc::HwDesc &Desc) const = 0;

  /// Compiles Module (in one of getStages()) for Desc. The module belongs to
  /// this call and may be rewritten in place. tlec compiles targets in
  /// parallel: compile() may run on several threads at once, each with its
  /// own module in its own MLIRContext, so process-wide state (LLVM target
  /// initialization, cl::opts, temporary files) must be set up once and
  /// guarded.
  virtual llvm::Expected<CompiledKernel>
  compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
          const CompileOptions &Options) = 0;

  /// Identifies the outside tools compile() would use for Desc (e.g. the
  /// path, size and date of ptxas and libdevice), or "" when the result
  /// depends on nothing outside the plugin. tlec's compile cache keys on it,
  /// so that installing another toolkit does not return stale binaries.
  virtual std::string getToolchainKey(const hwdesc::HwDesc &Desc) const {
    return "";
  }

  /// Turns one TLE-Raw native function (a variant in one of the
  /// description's `raw.languages` that is not inline assembly) into code
  /// linked with the kernel: LLVM IR in Context, linked before optimization
  /// so that it inlines, or a binary the plugin links after code generation.
  /// An error names the kernel's source line (RawFunction::where) and
  /// carries the vendor tool's diagnostics mapped to it. tle/Backend/RawCode.h
  /// has the helpers that collect, compile and link these.
  virtual llvm::Expected<RawCode> forwardRaw(const RawFunction &Fn,
                                             const hwdesc::HwDesc &Desc,
                                             llvm::LLVMContext &Context) = 0;

  /// The runtime part of the plugin for Desc's chip, or null if the plugin
  /// only compiles (the default).
  virtual std::unique_ptr<Runtime> createRuntime(const hwdesc::HwDesc &Desc) {
    return nullptr;
  }
};

} // namespace backend
} // namespace tle

#endif // TLE_BACKEND_BACKEND_H
