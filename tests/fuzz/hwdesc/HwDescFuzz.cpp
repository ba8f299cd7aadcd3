//===- HwDescFuzz.cpp - libFuzzer entry for the hwdesc loader -------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the loader as a description and, when one loads,
// runs every query and printer on it. The loader must never crash, hang or
// let an exception escape, whatever the input. `extends` resolves against the
// shipped descriptions so that merging is exercised too.
//
//===----------------------------------------------------------------------===//

#include "core/hwdesc/HwDesc.h"

#include <cstddef>
#include <cstdint>

using namespace tle::hwdesc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  LoadOptions Opts;
  Opts.AllowAbstract = true;
  Opts.SearchPath.push_back(TLE_HWDESC_SOURCE_DIR);
  std::vector<Diagnostic> Diags;
  std::unique_ptr<HwDesc> D =
      loadBuffer(Text, TLE_HWDESC_SOURCE_DIR "/fuzz-input.yaml", Opts, Diags);
  for (const Diagnostic &Diag : Diags)
    (void)Diag.str();
  if (!D)
    return 0;
  llvm::raw_null_ostream Null;
  D->printTree(Null);
  D->printScaffold(Null);
  (void)D->flatten();
  (void)D->getTleMapping();
  for (llvm::StringRef Name : {"block", "shared", "device", "thread", "spm"})
    (void)D->getMemoryLevel(Name);
  (void)D->getMatrixInstructions("fp16");
  (void)D->hasFeature("tma");
  return 0;
}
