// RUN: pp-opt %s -verify-diagnostics -pp-strip-instrumentation="function=g" -o /dev/null

// expected-error @below {{no function named @g}}
module {
  func.func @f() {
    return
  }
}
