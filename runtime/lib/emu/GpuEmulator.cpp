//===- GpuEmulator.cpp - the CUDA plugin's interface, emulated on the host ===//
//
// libPPRuntimeGPUEmu.so implements what libPPRuntimeCUDA.so implements
// (runtime/include/pprt/Cuda.h: pprt_cuda_open and the Device interface,
// the mgpu* memory and stream functions, pprt_gpu_gemm_f32/_f64) on the
// host, for tests of the GPU path on machines without a GPU: pp-run
// --device=cuda-emu compiles the rank programs with
// pp-lower-stages-to-gpu{emulate=true} (the would-be kernels stay loops the
// host runs) and loads this library instead of the CUDA plugin. Everything
// else is as on a GPU: every buffer comes from the rank's pool (the same
// PoolAllocator, over a host arena of the size the launcher asks for, so
// pool exhaustion and leaks show), GEMMs go through pprt_gpu_gemm_* with the
// documented row-major convention, and pprt_* calls reach buffers through
// the world's device-memory hooks.
//
// Streams are synchronous (work runs when it is issued) and events are
// no-ops. There are no kernels: loading a module is an error. The GEMMs
// accumulate each C(i, j) over k in order, one rounding per multiply and per
// add, as the linalg loops of the CPU path do.
//
//===----------------------------------------------------------------------===//

#include "../cuda/PoolAllocator.h"
#include "pprt/Cuda.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

using namespace pprt;
using namespace pprt::cuda;

namespace {

/// One rank's emulated device memory.
struct EmulatedRank {
  int rank = 0;
  /// Not zeroed, like device memory.
  std::unique_ptr<char[]> arena;
  size_t arenaBytes = 0;
  std::unique_ptr<PoolAllocator> pool;
  pprt_rank *handle = nullptr;
  /// Blocks handed out after the pool ran out (the step failed), malloc'd.
  std::set<void *> outside;
  std::mutex mutex;
  ~EmulatedRank() {
    for (void *block : outside)
      std::free(block);
  }
};

class EmulatedDevice;
EmulatedDevice *theDevice = nullptr;
thread_local EmulatedRank *bound = nullptr;

/// Prints "pprt: <message>" and fails the bound rank's step, if any.
void reportError(const std::string &message) {
  std::fprintf(stderr, "pprt: %s\n", message.c_str());
  std::fflush(stderr);
  if (bound && bound->handle)
    pprt_fail(bound->handle, message.c_str());
}

class EmulatedDevice final : public Device {
public:
  ~EmulatedDevice() override {
    if (theDevice == this)
      theDevice = nullptr;
  }
  int ordinal() const override { return 0; }
  std::string description() const override {
    return "emulated GPU (host memory, no kernels)";
  }
  bool addRank(int rank, int64_t poolBytes, std::string &error) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (ranks.count(rank)) {
      error = "rank " + std::to_string(rank) + " was added already";
      return false;
    }
    if (poolBytes <= 0) {
      error = "the pool of rank " + std::to_string(rank) +
              " must have a positive size";
      return false;
    }
    auto r = std::make_unique<EmulatedRank>();
    r->rank = rank;
    r->arenaBytes = static_cast<size_t>(poolBytes) + 256;
    r->arena.reset(new char[r->arenaBytes]);
    r->pool = std::make_unique<PoolAllocator>(static_cast<uint64_t>(poolBytes));
    ranks[rank] = std::move(r);
    return true;
  }
  bool bindRank(int rank, pprt_rank *handle, std::string &error) override {
    EmulatedRank *r = find(rank);
    if (!r) {
      error = "rank " + std::to_string(rank) +
              " was not added to the device (Device::addRank)";
      return false;
    }
    r->handle = handle;
    bound = r;
    return true;
  }
  void unbind() override { bound = nullptr; }
  bool synchronize(int, double, std::string &) override { return true; }
  PoolStats poolStats(int rank) const override {
    PoolStats stats;
    if (EmulatedRank *r = find(rank)) {
      std::lock_guard<std::mutex> lock(r->mutex);
      stats.size = static_cast<int64_t>(r->pool->size());
      stats.inUse = static_cast<int64_t>(r->pool->inUse());
      stats.peak = static_cast<int64_t>(r->pool->peak());
      stats.largestFree = static_cast<int64_t>(r->pool->largestFree());
    }
    return stats;
  }
  void resetPeak(int rank) override {
    if (EmulatedRank *r = find(rank)) {
      std::lock_guard<std::mutex> lock(r->mutex);
      r->pool->resetPeak();
    }
  }
  void fillDeviceMemory(WorldOptions &options) override {
    // Device memory is host memory: plain copies (through the hooks, so
    // that the runtime takes the GPU path).
    options.deviceMemory.toHost = [](int, void *dst, const void *src,
                                     int64_t bytes) {
      std::memcpy(dst, src, static_cast<size_t>(bytes));
    };
    options.deviceMemory.toDevice = [](int, void *dst, const void *src,
                                       int64_t bytes) {
      std::memcpy(dst, src, static_cast<size_t>(bytes));
    };
  }
  bool registerNcclTransport(std::string &error) override {
    error = "the emulated GPU has no NCCL (use --transport=inproc)";
    return false;
  }

  EmulatedRank *find(int rank) const {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = ranks.find(rank);
    return it == ranks.end() ? nullptr : it->second.get();
  }
  /// The rank whose arena holds `address`, null if none.
  EmulatedRank *owner(const void *address) const {
    std::lock_guard<std::mutex> lock(mutex);
    auto p = static_cast<const char *>(address);
    for (const auto &entry : ranks) {
      const EmulatedRank &r = *entry.second;
      if (p >= r.arena.get() && p < r.arena.get() + r.arenaBytes)
        return entry.second.get();
    }
    return nullptr;
  }

private:
  mutable std::mutex mutex;
  std::map<int, std::unique_ptr<EmulatedRank>> ranks;
};

/// The arena's first 256-byte aligned address.
char *arenaBase(EmulatedRank &r) {
  auto address = reinterpret_cast<uintptr_t>(r.arena.get());
  return r.arena.get() + ((256 - address % 256) % 256);
}

/// C(b) += op(A(b)) op(B(b)), row-major (Cuda.h's convention), over k in
/// order with one rounding per multiply and per add.
template <typename T>
void gemm(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t transA,
          int64_t transB, const T *a, int64_t lda, int64_t strideA, const T *b,
          int64_t ldb, int64_t strideB, T *c, int64_t ldc, int64_t strideC,
          int64_t accumulate) {
  if (batch < 0 || m < 0 || n < 0 || k < 0) {
    reportError("pprt_gpu_gemm: negative size");
    return;
  }
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        T &out = c[p * strideC + i * ldc + j];
        T acc = accumulate ? out : T(0);
        for (int64_t l = 0; l < k; ++l) {
          T x = transA ? a[p * strideA + l * lda + i]
                       : a[p * strideA + i * lda + l];
          T y = transB ? b[p * strideB + j * ldb + l]
                       : b[p * strideB + l * ldb + j];
          T product = x * y;
          acc = acc + product;
        }
        out = acc;
      }
}

} // namespace

extern "C" {

Device *pprt_cuda_open(const DeviceOptions *, char *error, size_t errorBytes) {
  if (theDevice) {
    std::snprintf(error, errorBytes, "the emulated device is open already");
    return nullptr;
  }
  theDevice = new EmulatedDevice();
  return theDevice;
}

void *mgpuStreamCreate() { return nullptr; }
void mgpuStreamDestroy(void *) {}
void mgpuStreamSynchronize(void *) {}
void mgpuStreamWaitEvent(void *, void *) {}
void *mgpuEventCreate() { return nullptr; }
void mgpuEventDestroy(void *) {}
void mgpuEventSynchronize(void *) {}
void mgpuEventRecord(void *, void *) {}
void mgpuSetDefaultDevice(int32_t) {}

void *mgpuModuleLoad(void *, size_t) {
  reportError("the emulated GPU runs no kernels: compile with "
              "pp-lower-stages-to-gpu{emulate=true}");
  return nullptr;
}
void *mgpuModuleLoadJIT(void *data, int) { return mgpuModuleLoad(data, 0); }
void mgpuModuleUnload(void *) {}
void *mgpuModuleGetFunction(void *, const char *) { return nullptr; }
void mgpuLaunchKernel(void *, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                      intptr_t, int32_t, void *, void **, void **, size_t) {
  reportError("the emulated GPU runs no kernels");
}

void *mgpuMemAlloc(uint64_t bytes, void *, bool) {
  if (!theDevice || !bound) {
    reportError("mgpuMemAlloc outside a rank program (no bound rank)");
    return nullptr;
  }
  EmulatedRank &r = *bound;
  std::lock_guard<std::mutex> lock(r.mutex);
  uint64_t offset = 0;
  if (!r.pool->allocate(bytes, offset)) {
    std::string message =
        "the device memory pool (" + std::to_string(r.pool->size()) +
        " bytes, " + std::to_string(r.pool->inUse()) +
        " in use, largest free range " + std::to_string(r.pool->largestFree()) +
        ") has no room for " + std::to_string(bytes) + " bytes";
    std::fprintf(stderr, "pprt: rank %d: %s\n", r.rank, message.c_str());
    if (r.handle)
      pprt_fail(r.handle, message.c_str());
    // The step has failed; the program still runs to its end, so it gets
    // real memory outside the pool rather than a null pointer.
    void *block = std::malloc(std::max<uint64_t>(bytes, 1));
    r.outside.insert(block);
    return block;
  }
  return arenaBase(r) + offset;
}

void mgpuMemFree(void *ptr, void *) {
  if (!ptr || !theDevice)
    return;
  if (bound) {
    std::lock_guard<std::mutex> lock(bound->mutex);
    if (bound->outside.erase(ptr)) {
      std::free(ptr);
      return;
    }
  }
  EmulatedRank *r = theDevice->owner(ptr);
  if (!r) {
    reportError("mgpuMemFree of an address no rank's pool holds");
    return;
  }
  std::lock_guard<std::mutex> lock(r->mutex);
  uint64_t offset =
      static_cast<uint64_t>(static_cast<char *>(ptr) - arenaBase(*r));
  if (!r->pool->release(offset))
    reportError("mgpuMemFree of an address that is not an allocated block "
                "of rank " +
                std::to_string(r->rank) + "'s pool");
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *) {
  std::memmove(dst, src, bytes);
}
void mgpuMemset32(void *dst, unsigned value, size_t count, void *) {
  auto *p = static_cast<uint32_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
}
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *) {
  auto *p = static_cast<uint16_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
}

void pprt_gpu_gemm_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, const float *a,
                       int64_t lda, int64_t strideA, const float *b,
                       int64_t ldb, int64_t strideB, float *c, int64_t ldc,
                       int64_t strideC, int64_t accumulate) {
  gemm(batch, m, n, k, transA, transB, a, lda, strideA, b, ldb, strideB, c, ldc,
       strideC, accumulate);
}
void pprt_gpu_gemm_f64(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, const double *a,
                       int64_t lda, int64_t strideA, const double *b,
                       int64_t ldb, int64_t strideB, double *c, int64_t ldc,
                       int64_t strideC, int64_t accumulate) {
  gemm(batch, m, n, k, transA, transB, a, lda, strideA, b, ldb, strideB, c, ldc,
       strideC, accumulate);
}

} // extern "C"
