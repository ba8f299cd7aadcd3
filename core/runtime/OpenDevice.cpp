//===- OpenDevice.cpp - A Device for a target, through its plugin ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/runtime/OpenDevice.h"

#include "core/plugins/Targets.h"

using namespace llvm;

namespace tle {
namespace runtime {

Expected<std::unique_ptr<Device>>
openDevice(StringRef NameOrPath, const plugins::PluginHost &Host) {
  Expected<plugins::Target> T = plugins::resolveTarget(NameOrPath, Host);
  if (!T)
    return T.takeError();
  std::shared_ptr<backend::Backend> Backend = T->ThePlugin->getBackend();
  const hwdesc::HwDesc &Desc = *T->Desc;
  std::unique_ptr<backend::Runtime> Impl = Backend->createRuntime(Desc);
  if (!Impl)
    return createStringError("target " + Desc.Name + ": plugin " +
                             T->ThePlugin->getName() +
                             " only compiles; it has no runtime to run "
                             "kernels with");
  unsigned WarpSize = std::max<int64_t>(Desc.getWarpSize(), 0);
  return std::make_unique<Device>(std::move(Impl), std::move(Backend),
                                  Desc.Name, WarpSize);
}

} // namespace runtime
} // namespace tle
