//===- Device.h - The CUDA plugin's device (internal) -----------*- C++ -*-===//
//
// The process's Device (pprt_cuda_open, Device.cpp) as the parts of the
// plugin see it: module loading and launch (Module.cpp), streams and events
// (Streams.cpp), memory and its pools (Memory.cpp), GEMM (Gemm.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_LIB_CUDA_DEVICE_H
#define PPRT_LIB_CUDA_DEVICE_H

#include "CudaInternal.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <set>

namespace pprt {
namespace cuda {

class DeviceImpl final : public Device {
public:
  DeviceImpl(DeviceOptions options, CUdevice device, CUcontext context,
             int ordinal)
      : options(options), device(device), context(context),
        deviceOrdinal(ordinal) {}
  ~DeviceImpl() override;

  int ordinal() const override { return deviceOrdinal; }
  std::string description() const override;
  bool addRank(int rank, int64_t poolBytes, std::string &error) override;
  bool bindRank(int rank, pprt_rank *handle, std::string &error) override;
  void unbind() override;
  bool synchronize(int rank, double timeout, std::string &error) override;
  PoolStats poolStats(int rank) const override;
  void resetPeak(int rank) override;
  void fillDeviceMemory(WorldOptions &worldOptions) override;
  bool registerNcclTransport(std::string &error) override {
    return registerNccl(error);
  }

  RankState *find(int rank) const {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = ranks.find(rank);
    return it == ranks.end() ? nullptr : it->second.get();
  }
  /// The rank whose pool holds `ptr`, or null.
  RankState *owner(CUdeviceptr ptr) const {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto &entry : ranks) {
      RankState &r = *entry.second;
      if (ptr >= r.base && ptr < r.base + r.pool.size())
        return &r;
    }
    return nullptr;
  }
  bool isComputeStream(CUstream stream) const {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto &entry : ranks)
      if (entry.second->compute == stream)
        return true;
    return false;
  }
  /// A cuBLAS handle for threads without a bound rank (legacy stream).
  cublasHandle_t fallbackBlas();

  DeviceOptions options;
  CUdevice device;
  CUcontext context;
  int deviceOrdinal;
  mutable std::mutex mutex;
  std::map<int, std::unique_ptr<RankState>> ranks;
  cublasHandle_t unboundBlas = nullptr;
  /// Blocks from plain cuMemAlloc / cuMemAllocManaged (no bound rank, or
  /// host_shared), freed with cuMemFree.
  std::set<CUdeviceptr> directBlocks;
};

/// The open device, or null.
DeviceImpl *openDevice();
/// The open device, reporting an error naming `function` if none is open.
DeviceImpl *requireDevice(const char *function);

/// Moves the pending frees of `r` whose events completed back to the pool;
/// with `wait`, waits for all of them first. Caller holds r.mutex
/// (Memory.cpp).
void reclaim(RankState &r, bool wait);
/// The device-memory hooks (Device::fillDeviceMemory): a synchronous copy
/// of `bytes` bytes between host memory and rank `rank`'s device memory on
/// its compute stream, bounded by the timeout (Memory.cpp).
void hookCopy(int rank, void *dst, const void *src, int64_t bytes, bool toHost);

/// "cuda error: <call> failed: <NAME> (<description>)" for cuBLAS (Gemm.cpp).
std::string describeBlas(cublasStatus_t status, const char *call);
/// Reports `status` if it is not CUBLAS_STATUS_SUCCESS; true on success.
bool checkBlas(cublasStatus_t status, const char *call);

/// The plugin's process-wide state (CudaInternal.cpp).
namespace state {
/// The open device (pprt_cuda_open), set and cleared under deviceMutex.
extern DeviceImpl *device;
extern std::mutex deviceMutex;
/// The rank bound to the calling thread (DeviceImpl::bindRank).
extern thread_local RankState *bound;
/// waitTimeout()'s seconds (DeviceImpl::fillDeviceMemory sets them).
extern std::atomic<double> timeoutSeconds;
} // namespace state

} // namespace cuda
} // namespace pprt

#endif // PPRT_LIB_CUDA_DEVICE_H
