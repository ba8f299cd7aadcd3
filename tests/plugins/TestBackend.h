//===- TestBackend.h - A backend for the plugin host's tests ----*- C++ -*-===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_TESTS_PLUGINS_TESTBACKEND_H
#define TLE_TESTS_PLUGINS_TESTBACKEND_H

namespace tle {
namespace backend {
class Backend;
} // namespace backend

namespace test {
/// How the test backend's compile() fails.
enum class CompileFailure { ReturnError, Throw, FatalError };
backend::Backend *createTestBackend(CompileFailure Failure);
} // namespace test
} // namespace tle

#endif // TLE_TESTS_PLUGINS_TESTBACKEND_H
