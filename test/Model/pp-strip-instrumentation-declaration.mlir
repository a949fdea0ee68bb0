// RUN: pp-opt %s -verify-diagnostics -pp-strip-instrumentation="function=rtclock" -o /dev/null

// expected-error @below {{@rtclock is a declaration; it has no body to strip}}
func.func private @rtclock() -> f64
