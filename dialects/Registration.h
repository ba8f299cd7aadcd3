//===- Registration.h - Register the TLE dialects ---------------*- C++ -*-===//

#ifndef TLE_DIALECTS_REGISTRATION_H
#define TLE_DIALECTS_REGISTRATION_H

namespace mlir {
class DialectRegistry;

namespace tle {
/// Adds tle, tle_struct and tle_raw and the upstream dialects their IR uses
/// (arith, math, scf, cf) to `registry`.
void registerTLEDialects(DialectRegistry &registry);
} // namespace tle
} // namespace mlir

#endif // TLE_DIALECTS_REGISTRATION_H
