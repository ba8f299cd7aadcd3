//===- NvidiaPlugin.cpp - Entry point of the NVIDIA plugin ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "NvidiaBackend.h"

#include "tle/Backend/PluginABI.h"

static tle::backend::Backend *createNvidiaBackend() {
  return new tle::nvidia::NvidiaBackend();
}

extern "C" TLE_BACKEND_PLUGIN_EXPORT const TLEBackendPluginInfo *
tleGetBackendPluginInfo(void) {
  static const char *const Keys[] = {"nvidia", nullptr};
  static const TLEBackendPluginInfo Info = {TLE_BACKEND_ABI_VERSION, "nvidia",
                                            "0.1.0", Keys, createNvidiaBackend};
  return &Info;
}
