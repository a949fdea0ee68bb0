//===- CudaPluginTest.cpp - The CUDA plugin on a GPU ----------------------===//
//
// Loads libPPRuntimeCUDA.so as a launcher would (pprt::cuda::openCudaPlugin)
// and checks GEMM against a CPU loop, the pool's round trip and exhaustion,
// and two inproc ranks exchanging device buffers through the hooks. Every
// test is skipped when the plugin cannot open a device (no driver, no GPU).
//
//===----------------------------------------------------------------------===//

#include "pprt/Cuda.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace pprt;

namespace {

using AllocFn = void *(*)(uint64_t, void *, bool);
using FreeFn = void (*)(void *, void *);
using CopyFn = void (*)(void *, void *, size_t, void *);
using StreamFn = void *(*)();
using SyncFn = void (*)(void *);
using GemmFn = decltype(&pprt_gpu_gemm_f32);

struct Plugin {
  std::unique_ptr<cuda::Device> device;
  std::string error;
  AllocFn alloc = nullptr;
  FreeFn free = nullptr;
  CopyFn copy = nullptr;
  StreamFn stream = nullptr;
  SyncFn sync = nullptr;
  GemmFn gemm = nullptr;
};

Plugin &plugin() {
  static Plugin p = [] {
    Plugin p;
    p.device = cuda::openCudaPlugin(PPRT_CUDA_PLUGIN_PATH, {}, p.error);
    if (!p.device)
      return p;
    void *self = dlopen(PPRT_CUDA_PLUGIN_PATH, RTLD_NOW | RTLD_GLOBAL);
    p.alloc = reinterpret_cast<AllocFn>(dlsym(self, "mgpuMemAlloc"));
    p.free = reinterpret_cast<FreeFn>(dlsym(self, "mgpuMemFree"));
    p.copy = reinterpret_cast<CopyFn>(dlsym(self, "mgpuMemcpy"));
    p.stream = reinterpret_cast<StreamFn>(dlsym(self, "mgpuStreamCreate"));
    p.sync = reinterpret_cast<SyncFn>(dlsym(self, "mgpuStreamSynchronize"));
    p.gemm = reinterpret_cast<GemmFn>(dlsym(self, "pprt_gpu_gemm_f32"));
    std::string error;
    for (int r = 0; r < 2; ++r)
      if (!p.device->addRank(r, 64 << 20, error))
        p.error = error;
    return p;
  }();
  return p;
}

#define REQUIRE_GPU()                                                          \
  if (!plugin().device)                                                        \
  GTEST_SKIP() << plugin().error

TEST(CudaPlugin, GemmMatchesCpu) {
  REQUIRE_GPU();
  Plugin &p = plugin();
  std::string error;
  ASSERT_TRUE(p.device->bindRank(0, nullptr, error)) << error;
  std::mt19937 random(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (int transA = 0; transA < 2; ++transA)
    for (int transB = 0; transB < 2; ++transB)
      for (int accumulate = 0; accumulate < 2; ++accumulate) {
        const int64_t batch = 3, m = 5, n = 7, k = 4;
        int64_t lda = transA ? m + 1 : k + 2, ldb = transB ? k + 1 : n + 3,
                ldc = n + 1;
        int64_t strideA = (transA ? k : m) * lda,
                strideB = (transB ? n : k) * ldb, strideC = m * ldc;
        std::vector<float> a(batch * strideA), b(batch * strideB),
            c(batch * strideC);
        for (float &x : a)
          x = uniform(random);
        for (float &x : b)
          x = uniform(random);
        for (float &x : c)
          x = uniform(random);
        std::vector<double> want(c.size());
        for (int64_t q = 0; q < batch; ++q)
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
              double sum = accumulate ? c[q * strideC + i * ldc + j] : 0.0;
              for (int64_t l = 0; l < k; ++l)
                sum +=
                    double(
                        a[q * strideA + (transA ? l * lda + i : i * lda + l)]) *
                    b[q * strideB + (transB ? j * ldb + l : l * ldb + j)];
              want[q * strideC + i * ldc + j] = sum;
            }
        void *s = p.stream();
        auto upload = [&](std::vector<float> &host) {
          void *d = p.alloc(host.size() * 4, s, false);
          p.copy(d, host.data(), host.size() * 4, s);
          return d;
        };
        void *da = upload(a), *db = upload(b), *dc = upload(c);
        p.gemm(batch, m, n, k, transA, transB, static_cast<float *>(da), lda,
               strideA, static_cast<float *>(db), ldb, strideB,
               static_cast<float *>(dc), ldc, strideC, accumulate);
        std::vector<float> got(c.size());
        p.copy(got.data(), dc, got.size() * 4, s);
        p.sync(s);
        for (int64_t q = 0; q < batch; ++q)
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
              int64_t at = q * strideC + i * ldc + j;
              EXPECT_NEAR(got[at], want[at], 1e-5)
                  << "transA " << transA << " transB " << transB << " acc "
                  << accumulate;
            }
        p.free(da, s);
        p.free(db, s);
        p.free(dc, s);
      }
  p.device->unbind();
}

TEST(CudaPlugin, PoolRoundTripAndExhaustion) {
  REQUIRE_GPU();
  Plugin &p = plugin();
  std::string error;
  ASSERT_TRUE(p.device->bindRank(1, nullptr, error)) << error;
  void *s = p.stream();
  cuda::PoolStats before = p.device->poolStats(1);
  void *x = p.alloc(1000, s, false);
  ASSERT_TRUE(x);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x) % 256, 0u);
  std::vector<int> data(250), back(250);
  for (int i = 0; i < 250; ++i)
    data[i] = i * i;
  p.copy(x, data.data(), 1000, s);
  p.copy(back.data(), x, 1000, s);
  p.sync(s);
  EXPECT_EQ(back, data);
  EXPECT_EQ(p.device->poolStats(1).inUse, before.inUse + 1024);
  p.free(x, s);
  ASSERT_TRUE(p.device->synchronize(1, 10, error)) << error;
  EXPECT_EQ(p.device->poolStats(1).inUse, before.inUse);
  // Too large: null, reported, nothing changes.
  EXPECT_EQ(p.alloc(uint64_t(1) << 40, s, false), nullptr);
  EXPECT_EQ(p.device->poolStats(1).inUse, before.inUse);
  p.device->unbind();
}

TEST(CudaPlugin, InprocRanksExchangeDeviceBuffers) {
  REQUIRE_GPU();
  Plugin &p = plugin();
  WorldOptions options;
  options.ranks = 2;
  options.timeoutSeconds = 20;
  p.device->fillDeviceMemory(options);
  std::string error;
  std::unique_ptr<World> world = World::create(options, error);
  ASSERT_TRUE(world) << error;
  Buffer param;
  param.bytes.resize(16);
  float values[4] = {1, 2, 3, 4};
  std::memcpy(param.bytes.data(), values, 16);
  world->setParameter(0, 0, param);
  std::vector<float> received(4, 0.0f);
  bool ok = world->runStep([&](int rank, pprt_rank *handle) {
    std::string bindError;
    if (!p.device->bindRank(rank, handle, bindError)) {
      pprt_fail(handle, bindError.c_str());
      return;
    }
    void *s = p.stream();
    void *buffer = p.alloc(16, s, false);
    if (rank == 0) {
      pprt_parameter(handle, 0, 0, buffer, 16);
      pprt_send(handle, 1, 0, 0, PPRT_ACTIVATION, buffer, 16);
      pprt_accumulate_gradient(handle, 0, 0, buffer, 16, PPRT_F32);
    } else {
      pprt_recv(handle, 0, 0, 0, PPRT_ACTIVATION, buffer, 16);
      p.copy(received.data(), buffer, 16, s);
      p.sync(s);
    }
    p.free(buffer, s);
    p.device->unbind();
  });
  ASSERT_TRUE(ok) << world->error();
  EXPECT_EQ(received, std::vector<float>({1, 2, 3, 4}));
  const Buffer *grad = world->gradient(0, 0);
  ASSERT_TRUE(grad);
  EXPECT_EQ(grad->bytes, param.bytes);
}

} // namespace
