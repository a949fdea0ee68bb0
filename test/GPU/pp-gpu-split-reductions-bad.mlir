// RUN: pp-opt %s -pass-pipeline='builtin.module(func.func(pp-gpu-split-reductions{max-ratio=1}))' -verify-diagnostics

// expected-error @below {{max-ratio must be at least 2}}
func.func @f() {
  return
}
