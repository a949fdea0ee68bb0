//===- BenchCommon.h - helpers the standalone benchmarks share -*- C++ -*-===//
//
// Included by the benchmarks that bench/*.sh compile on their own, without
// CMake or project headers (bench/bf16-gemm.cpp, bench/conv-onednn.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PP_BENCH_BENCHCOMMON_H
#define PP_BENCH_BENCHCOMMON_H

#include <algorithm>
#include <cmath>
#include <vector>

/// max |a - b| / max |b|, elementwise over two results of the same shape
/// (`b` the reference); the absolute difference when `b` is all zeros.
inline double maxRelativeError(const std::vector<float> &a,
                               const std::vector<float> &b) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, double(std::fabs(a[i] - b[i])));
    scale = std::max(scale, double(std::fabs(b[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

#endif // PP_BENCH_BENCHCOMMON_H
