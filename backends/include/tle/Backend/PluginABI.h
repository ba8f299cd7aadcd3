/*===- PluginABI.h - The one C entry point of a backend plugin ----*- C -*-===*\
|*                                                                            *|
|* Part of the TLE project.                                                   *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* A backend plugin is a shared library that exports exactly one symbol,      *|
|* tleGetBackendPluginInfo. The host reads the first field (the ABI version)  *|
|* before anything else: only when it matches does it trust the rest of the   *|
|* struct, whose layout, like the C++ interfaces it leads to, belongs to that *|
|* ABI version.                                                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TLE_BACKEND_PLUGINABI_H
#define TLE_BACKEND_PLUGINABI_H

#include "llvm/Config/llvm-config.h"

#include <stdint.h>

/* Bump TLE_BACKEND_ABI_REVISION whenever PluginABI.h or a C++ interface in
 * tle/Backend changes incompatibly. The LLVM major version is part of the ABI
 * because the interfaces pass MLIR objects, whose C++ API and layout change
 * between LLVM releases; a plugin built against LLVM 21 must not be loaded by
 * a host on LLVM 22 even when our own headers did not change. */
#define TLE_BACKEND_ABI_REVISION 21
#define TLE_BACKEND_ABI_VERSION                                                \
  ((uint32_t)(LLVM_VERSION_MAJOR * 1000 + TLE_BACKEND_ABI_REVISION))

/* The name of the entry symbol, for hosts that look it up. */
#define TLE_BACKEND_PLUGIN_ENTRY "tleGetBackendPluginInfo"

/* Plugins are best built with hidden visibility; this marks the entry. */
#if defined(_WIN32)
#define TLE_BACKEND_PLUGIN_EXPORT __declspec(dllexport)
#else
#define TLE_BACKEND_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
namespace tle {
namespace backend {
class Backend;
} // namespace backend
} // namespace tle
/* C++ plugins see the factory's real result type; C sees the same pointer. */
typedef tle::backend::Backend *TLEBackendHandle;
extern "C" {
#else
typedef void *TLEBackendHandle;
#endif

typedef struct TLEBackendPluginInfo {
  /* Must be TLE_BACKEND_ABI_VERSION as seen by the plugin's compiler. */
  uint32_t AbiVersion;
  /* Shown by `tlec --list-targets`; both non-empty. */
  const char *PluginName;
  const char *PluginVersion;
  /* The hardware-description `backend:` keys this plugin serves, ended by a
   * null pointer. At least one; a key may be served by only one plugin. */
  const char *const *BackendKeys;
  /* Returns a new backend allocated with C++ `new`, or null on failure. The
   * host owns it and deletes it through its virtual destructor before it
   * unloads the library. Called once per host process; may throw (the host
   * catches and reports it) but should rather return null. */
  TLEBackendHandle (*CreateBackend)(void);
} TLEBackendPluginInfo;

/* Returns a pointer to static storage that stays valid while the library is
 * loaded. Must not allocate or touch MLIR: the host calls it before it knows
 * whether the plugin's ABI matches its own. */
TLE_BACKEND_PLUGIN_EXPORT const TLEBackendPluginInfo *
tleGetBackendPluginInfo(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TLE_BACKEND_PLUGINABI_H */
