//===- BadPlugin.cpp - Plugins that the host must reject or survive -------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Built once per TLE_TEST_PLUGIN_* case (see CMakeLists.txt); each case gets
// one thing wrong. The lit tests in tests/lit/plugins check the host's
// message for each.
//
//===----------------------------------------------------------------------===//

#include "TestBackend.h"

#include "tle/Backend/PluginABI.h"

#include <stdexcept>

using tle::backend::Backend;
using tle::test::CompileFailure;
using tle::test::createTestBackend;

#if defined(TLE_TEST_PLUGIN_MISSING_SYMBOL)
namespace tle_test {
// Declared, never defined: the plugin is linked without -z defs, so only the
// host's dlopen can notice.
int missingFunction(int);
} // namespace tle_test
#endif

// Unused where a variant returns no plugin info (TLE_TEST_PLUGIN_NULL_INFO).
[[maybe_unused]] static Backend *createBackend() {
#if defined(TLE_TEST_PLUGIN_NULL_FACTORY)
  return nullptr;
#elif defined(TLE_TEST_PLUGIN_THROWING_FACTORY)
  throw std::runtime_error("no device found");
#elif defined(TLE_TEST_PLUGIN_MISSING_SYMBOL)
  if (tle_test::missingFunction(1))
    return nullptr;
  return createTestBackend(CompileFailure::ReturnError);
#elif defined(TLE_TEST_PLUGIN_THROWING_COMPILE)
  return createTestBackend(CompileFailure::Throw);
#elif defined(TLE_TEST_PLUGIN_FATAL_COMPILE)
  return createTestBackend(CompileFailure::FatalError);
#else
  return createTestBackend(CompileFailure::ReturnError);
#endif
}

#if defined(TLE_TEST_PLUGIN_NO_ENTRY)
extern "C" TLE_BACKEND_PLUGIN_EXPORT int tleSomethingElse(void) { return 0; }
#else
extern "C" TLE_BACKEND_PLUGIN_EXPORT const TLEBackendPluginInfo *
tleGetBackendPluginInfo(void) {
  static const char *const Keys[] = {TLE_TEST_PLUGIN_KEY, nullptr};
#if defined(TLE_TEST_PLUGIN_WRONG_ABI)
  // What a plugin built against the previous LLVM release would report.
  static const TLEBackendPluginInfo Info = {TLE_BACKEND_ABI_VERSION - 1000,
                                            TLE_TEST_PLUGIN_NAME, "1.0", Keys,
                                            createBackend};
#elif defined(TLE_TEST_PLUGIN_OLD_REVISION)
  // Same LLVM, but built against the previous revision of the SDK headers.
  static const TLEBackendPluginInfo Info = {TLE_BACKEND_ABI_VERSION - 1,
                                            TLE_TEST_PLUGIN_NAME, "1.0", Keys,
                                            createBackend};
#else
  [[maybe_unused]] static const TLEBackendPluginInfo Info = {
      TLE_BACKEND_ABI_VERSION, TLE_TEST_PLUGIN_NAME, "1.0", Keys,
      createBackend};
#endif
#if defined(TLE_TEST_PLUGIN_NULL_INFO)
  return nullptr;
#else
  return &Info;
#endif
}
#endif
