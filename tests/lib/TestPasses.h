//===- TestPasses.h - Passes that expose analyses to lit tests --*- C++ -*-===//

#ifndef TLE_TESTS_LIB_TESTPASSES_H
#define TLE_TESTS_LIB_TESTPASSES_H

namespace tle::test {
void registerTestPasses();
} // namespace tle::test

#endif // TLE_TESTS_LIB_TESTPASSES_H
