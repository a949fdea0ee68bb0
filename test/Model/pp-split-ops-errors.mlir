// RUN: pp-opt %s -verify-diagnostics -pp-split-ops="function=f max-fraction=0.5" -o /dev/null
// RUN: not pp-opt %s -pp-split-ops="max-fraction=0.5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
// RUN: not pp-opt %s -pp-split-ops="function=g max-fraction=0.5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pp-opt %s -pp-split-ops="function=f" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FRACTION
// RUN: not pp-opt %s -pp-split-ops="function=f max-fraction=1.5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: not pp-opt %s -pp-split-ops="function=f max-fraction=nan" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAN

// NO-FUNCTION: error: option 'function' is required
// UNKNOWN: error: no function named @g
// NO-FRACTION: error: option 'max-fraction' is required and must be in (0, 1], got 0
// LARGE: error: option 'max-fraction' is required and must be in (0, 1], got 1.5
// NAN: error: option 'max-fraction' is required and must be in (0, 1], got nan

// expected-error @below {{pp-split-ops needs a function with one block}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32>
