//===- SpirvPlugin.cpp - Entry point of the SPIR-V plugin -----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "SpirvBackend.h"

#include "tle/Backend/PluginABI.h"

static tle::backend::Backend *createSpirvBackend() {
  return new tle::spirv::SpirvBackend();
}

extern "C" TLE_BACKEND_PLUGIN_EXPORT const TLEBackendPluginInfo *
tleGetBackendPluginInfo(void) {
  static const char *const Keys[] = {"spirv", nullptr};
  static const TLEBackendPluginInfo Info = {TLE_BACKEND_ABI_VERSION, "spirv",
                                            "0.1.0", Keys, createSpirvBackend};
  return &Info;
}
