//===- AmdPlugin.cpp - Entry point of the AMD plugin ----------------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "AmdBackend.h"

#include "tle/Backend/PluginABI.h"

static tle::backend::Backend *createAmdBackend() {
  return new tle::amd::AmdBackend();
}

extern "C" TLE_BACKEND_PLUGIN_EXPORT const TLEBackendPluginInfo *
tleGetBackendPluginInfo(void) {
  static const char *const Keys[] = {"amd", nullptr};
  static const TLEBackendPluginInfo Info = {TLE_BACKEND_ABI_VERSION, "amd",
                                            "0.1.0", Keys, createAmdBackend};
  return &Info;
}
