//===- CheckHwDesc.cpp - Check a kernel against a hardware description ----===//
//
// Kernels name memory and parallel levels by string (TLE-Struct) and carry
// native code per language (TLE-Raw); only a hardware description says
// whether a chip has them. Checking here, on tile IR whose locations are the
// kernel's source lines, reports a kernel that cannot run on a chip at the
// line that asks for too much.
//
//===----------------------------------------------------------------------===//

#include "core/transforms/Passes.h"
#include "core/transforms/PipeRings.h"

#include "core/hwdesc/HwDesc.h"
#include "dialects/TLE/TLEDialect.h"
#include "dialects/TLERaw/TLERawDialect.h"
#include "dialects/TLEStruct/TLEStructDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLECHECKHWDESC
#include "core/transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
namespace hw = ::tle::hwdesc;

namespace {
/// "global, shared, registers (aliases: block -> shared)".
std::string describeLevels(const hw::HwDesc &Desc) {
  SmallVector<std::string> Names;
  for (const hw::MemoryLevel &L : Desc.MemoryLevels)
    Names.push_back(L.Name);
  std::string Text = llvm::join(Names, ", ");
  SmallVector<std::string> Aliases;
  for (const auto &A : Desc.MemoryAliases)
    Aliases.push_back((A.getKey() + " -> " + A.getValue()).str());
  llvm::sort(Aliases);
  if (!Aliases.empty())
    Text += " (aliases: " + llvm::join(Aliases, ", ") + ")";
  return Text;
}

int64_t bufferBytes(tle_struct::BufferType Type) {
  int64_t Elements = 1;
  for (int64_t Dim : Type.getShape())
    Elements *= Dim;
  int64_t Bits = Type.getElementType().getIntOrFloatBitWidth();
  // Padding inserted by an explicit layout occupies memory too.
  if (auto Layout = Type.getLayout(); Layout && Layout.getPadInterval() > 0)
    Elements += Elements / Layout.getPadInterval() * Layout.getPadAmount();
  return Elements * std::max<int64_t>(Bits, 8) / 8;
}

class CheckHwDescPass
    : public mlir::tle::impl::TLECheckHwDescBase<CheckHwDescPass> {
public:
  using TLECheckHwDescBase::TLECheckHwDescBase;
  explicit CheckHwDescPass(const hw::HwDesc &Desc) : Given(&Desc) {}

  void runOnOperation() override {
    const hw::HwDesc *Desc = Given;
    std::unique_ptr<hw::HwDesc> Loaded;
    if (!Desc) {
      Loaded = load();
      if (!Loaded)
        return signalPassFailure();
      Desc = Loaded.get();
    }
    bool Ok = true;
    getOperation()->walk([&](mlir::tle::FuncOp Fn) {
      if (failed(checkFunction(Fn, *Desc)))
        Ok = false;
    });
    if (!Ok)
      signalPassFailure();
  }

private:
  std::unique_ptr<hw::HwDesc> load() {
    if (target.empty()) {
      getOperation()->emitError()
          << "tle-check-hwdesc needs a description: target=<name or file>";
      return nullptr;
    }
    std::vector<std::string> SearchPath = hw::getDefaultSearchPath();
    std::optional<std::string> File = hw::findTarget(target, SearchPath);
    if (!File) {
      getOperation()->emitError()
          << "no hardware description named '" << target << "'";
      return nullptr;
    }
    std::vector<hw::Diagnostic> Diags;
    hw::LoadOptions Options;
    Options.SearchPath = SearchPath;
    if (std::unique_ptr<hw::HwDesc> Desc = hw::loadFile(*File, Options, Diags))
      return Desc;
    InFlightDiagnostic D = getOperation()->emitError()
                           << "invalid hardware description " << *File;
    for (const hw::Diagnostic &Problem : Diags)
      D.attachNote() << Problem.str();
    return nullptr;
  }

  /// `Name (file)` for messages.
  static std::string chip(const hw::HwDesc &Desc) {
    return Desc.Name + " (" + Desc.SourceFile + ")";
  }

  LogicalResult checkLevel(Operation *Op, tle_struct::BufferType Type,
                           const hw::HwDesc &Desc, int64_t &BlockBytes) {
    StringRef Name = Type.getMemoryLevel().getValue();
    const hw::MemoryLevel *Level = Desc.getMemoryLevel(Name);
    if (!Level)
      return Op->emitError() << "memory level '" << Name << "' is not defined "
                             << "by " << chip(Desc) << "; it defines "
                             << describeLevels(Desc);
    if (Level->Scope != hw::MemoryScope::Block)
      return success();
    // A block-level buffer lives once per block: bounded by what one block
    // may use (the opt-in maximum) and by the level's own size.
    uint64_t Limit = Level->Size;
    if (Desc.Lim.SharedPerBlockOptin)
      Limit = std::min<uint64_t>(Limit ? Limit : UINT64_MAX,
                                 Desc.Lim.SharedPerBlockOptin);
    int64_t Bytes = bufferBytes(Type);
    BlockBytes += Bytes;
    if (Limit && static_cast<uint64_t>(Bytes) > Limit)
      return Op->emitError()
             << "local buffer of " << Bytes << " bytes does not fit the "
             << Limit << " bytes of '" << Level->Name << "' a block may use on "
             << chip(Desc);
    return success();
  }

  LogicalResult checkFunction(mlir::tle::FuncOp Fn, const hw::HwDesc &Desc) {
    bool Ok = true;
    int64_t BlockBytes = 0;
    Fn.walk([&](Operation *Op) {
      LogicalResult R = success();
      if (auto Alloc = dyn_cast<tle_struct::AllocOp>(Op))
        R = checkLevel(Op, Alloc.getBuffer().getType(), Desc, BlockBytes);
      else if (auto ToBuffer = dyn_cast<tle_struct::ToBufferOp>(Op))
        R = checkLevel(Op, ToBuffer.getBuffer().getType(), Desc, BlockBytes);
      else if (auto Pipe = dyn_cast<mlir::tle::PipeCreateOp>(Op)) {
        // A pipe's slots become block-level buffers (tle-lower-pipes).
        auto Rings = mlir::tle::getPipeRingTypes(Pipe);
        R = failed(Rings) ? failure() : success();
        if (succeeded(Rings))
          for (tle_struct::BufferType Ring : *Rings)
            if (failed(checkLevel(Op, Ring, Desc, BlockBytes)))
              R = failure();
      }
      else if (auto Parallel = dyn_cast<tle_struct::ParallelOp>(Op))
        R = checkParallel(Parallel, Desc);
      else if (auto Raw = dyn_cast<tle_raw::CallOp>(Op))
        R = checkRaw(Raw, Desc);
      if (failed(R))
        Ok = false;
    });
    if (!Ok)
      return failure();
    uint64_t Limit = Desc.Lim.SharedPerBlockOptin;
    if (Limit && static_cast<uint64_t>(BlockBytes) > Limit)
      return Fn.emitError() << "the block-level buffers of '" << Fn.getName()
                            << "' need " << BlockBytes << " bytes together, "
                            << "more than the " << Limit
                            << " bytes a block may use on " << chip(Desc);
    return success();
  }

  LogicalResult checkParallel(tle_struct::ParallelOp Op,
                              const hw::HwDesc &Desc) {
    if (Desc.getParallelLevel(Op.getLevel()))
      return success();
    SmallVector<std::string> Names;
    for (const hw::ParallelLevel &L : Desc.ParallelLevels)
      Names.push_back(L.Name);
    return Op.emitError() << "parallel level '" << Op.getLevel()
                          << "' is not defined by " << chip(Desc)
                          << "; it defines " << llvm::join(Names, ", ");
  }

  LogicalResult checkRaw(tle_raw::CallOp Op, const hw::HwDesc &Desc) {
    SmallVector<std::string> Given;
    for (Attribute A : Op.getVariants()) {
      StringRef Language = cast<tle_raw::VariantAttr>(A).getLanguage();
      if (Desc.acceptsRawLanguage(Language))
        return success();
      Given.push_back(Language.str());
    }
    // A portable fallback runs where no variant can (tle-select-raw-variants).
    if (!Op.getFallback().empty())
      return success();
    StringRef Kernel = "?";
    if (auto Fn = Op->getParentOfType<mlir::tle::FuncOp>())
      Kernel = Fn.getName();
    return Op.emitError() << "kernel '" << Kernel << "': no variant of '"
                          << Op.getName() << "' is in a language "
                          << chip(Desc) << " accepts ("
                          << llvm::join(Desc.RawLanguages, ", ")
                          << "); the call has " << llvm::join(Given, ", ")
                          << " and no portable fallback (a @triton.jit "
                             "function in the list)";
  }

  const hw::HwDesc *Given = nullptr;
};
} // namespace

std::unique_ptr<Pass>
mlir::tle::createCheckHwDescPass(const hw::HwDesc &Desc) {
  return std::make_unique<CheckHwDescPass>(Desc);
}
