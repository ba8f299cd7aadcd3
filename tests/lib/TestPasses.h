//===- TestPasses.h - Passes that expose analyses to lit tests --*- C++ -*-===//

#ifndef TLE_TESTS_LIB_TESTPASSES_H
#define TLE_TESTS_LIB_TESTPASSES_H

namespace tle::test {
void registerTestPasses();
/// tle-assign-layouts, and tle-distribute with the gpu-dialect test target.
void registerTestDistributePass();
} // namespace tle::test

#endif // TLE_TESTS_LIB_TESTPASSES_H
