// Errors of pp-strip-instrumentation about the function named by 'function'.
// RUN: not pp-opt %s -split-input-file -pp-strip-instrumentation="function=rtclock" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECLARATION
// RUN: not pp-opt %s -split-input-file -pp-strip-instrumentation="function=g" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION

// DECLARATION: :[[@LINE+1]]:1: error: @rtclock is a declaration; it has no body to strip
func.func private @rtclock() -> f64

// -----

// NO-FUNCTION: :[[@LINE+1]]:1: error: no function named @g
module {
  func.func @f() {
    return
  }
}
