//===- RuntimeTestUtil.h - Helpers of the runtime unit tests ----*- C++ -*-===//

#ifndef PP_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
#define PP_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H

#include "pprt/Runtime.h"
#include "pprt/pprt.h"

#include "gtest/gtest.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace pprt_test {

/// An inproc world of `ranks` ranks, failing the test (and returning null)
/// if it cannot be created.
inline std::unique_ptr<pprt::World> makeWorld(int ranks,
                                              int64_t microbatches = 1,
                                              double timeout = 10.0,
                                              pprt::FaultInjection fault = {}) {
  pprt::WorldOptions options;
  options.ranks = ranks;
  options.microbatches = microbatches;
  options.timeoutSeconds = timeout;
  options.fault = fault;
  std::string error;
  std::unique_ptr<pprt::World> world = pprt::World::create(options, error);
  EXPECT_TRUE(world) << error;
  return world;
}

/// A buffer of `dtype` holding `values`.
template <typename T>
pprt::Buffer bufferOf(pprt_dtype dtype, const std::vector<T> &values) {
  pprt::Buffer buffer;
  buffer.dtype = dtype;
  buffer.bytes.resize(values.size() * sizeof(T));
  std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
  return buffer;
}
inline pprt::Buffer f32Buffer(std::vector<float> values) {
  return bufferOf(PPRT_F32, values);
}
inline pprt::Buffer f64Buffer(std::vector<double> values) {
  return bufferOf(PPRT_F64, values);
}

/// The elements of `buffer` as T.
template <typename T> std::vector<T> valuesOf(const pprt::Buffer &buffer) {
  std::vector<T> values(buffer.bytes.size() / sizeof(T));
  std::memcpy(values.data(), buffer.bytes.data(), buffer.bytes.size());
  return values;
}

} // namespace pprt_test

#endif // PP_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
