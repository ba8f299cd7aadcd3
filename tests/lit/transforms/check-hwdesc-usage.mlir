// RUN: not tle-opt %s -tle-check-hwdesc 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not tle-opt %s -tle-check-hwdesc=target=no-such-chip 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// NONE: error: tle-check-hwdesc needs a description: target=<name or file>
// UNKNOWN: error: no hardware description named 'no-such-chip'
tle.func @k() {
  tle.return
}
