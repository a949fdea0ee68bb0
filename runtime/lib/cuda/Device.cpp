//===- Device.cpp - The CUDA plugin's device and ranks --------------------===//
//
// The CUDA plugin's core: the process's Device (pprt_cuda_open), the
// per-rank streams, cuBLAS handles and memory pools, the thread's binding.
// The helpers the other parts share (the context, error reports) are in
// CudaInternal.cpp. The C ABI that generated code calls is in Module.cpp,
// Streams.cpp and Memory.cpp (the mgpu* functions of MLIR 22's gpu-to-llvm /
// #gpu.select_object lowering, same names and signatures) and Gemm.cpp
// (pprt_gpu_gemm_f32/_f64).
//
// Streams: every rank has one compute stream (mgpuStreamCreate returns the
// bound rank's, mgpuStreamDestroy leaves it alone) and communication
// streams for the nccl transport. Memory: mgpuMemAlloc sub-allocates from
// the bound rank's pool; mgpuMemFree records an event on every
// communication stream of the rank and makes the block reusable only once
// they completed, so a block a pending ncclSend still reads is not handed
// out again. (Reuse by the compute stream itself is stream-ordered.)
//
// Errors never abort: a failing call prints "pprt: cuda error: <call>
// failed: <NAME> (<description>)" and fails the bound rank's step.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

using namespace pprt;
using namespace pprt::cuda;

//===----------------------------------------------------------------------===//
// DeviceImpl
//===----------------------------------------------------------------------===//

DeviceImpl::~DeviceImpl() {
  ensureContext();
  for (auto &entry : ranks) {
    RankState &r = *entry.second;
    if (r.compute)
      cuStreamSynchronize(r.compute);
    for (CUstream s : r.comm)
      cuStreamSynchronize(s);
    reclaim(r, true);
    for (CUevent e : r.spareEvents)
      cuEventDestroy(e);
    if (r.blas)
      cublasDestroy(r.blas);
    if (r.base)
      cuMemFree(r.base);
    if (r.staging)
      cuMemFreeHost(r.staging);
    for (CUstream s : r.comm)
      cuStreamDestroy(s);
    if (r.compute)
      cuStreamDestroy(r.compute);
    if (state::bound == &r)
      state::bound = nullptr;
  }
  if (unboundBlas)
    cublasDestroy(unboundBlas);
  for (CUdeviceptr ptr : directBlocks)
    cuMemFree(ptr);
  cuDevicePrimaryCtxRelease(device);
  std::lock_guard<std::mutex> lock(state::deviceMutex);
  state::device = nullptr;
}

std::string DeviceImpl::description() const {
  char name[256] = {0};
  cuDeviceGetName(name, sizeof(name), device);
  int major = 0, minor = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                       device);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                       device);
  size_t bytes = 0;
  cuDeviceTotalMem(&bytes, device);
  return std::string(name) + " (device " + std::to_string(deviceOrdinal) +
         ", sm_" + std::to_string(major * 10 + minor) + ", " +
         std::to_string(bytes >> 30) + " GiB)";
}

bool DeviceImpl::addRank(int rank, int64_t poolBytes, std::string &error) {
  if (find(rank)) {
    error = "rank " + std::to_string(rank) + " was added already";
    return false;
  }
  if (poolBytes < 0) {
    error = "negative pool size " + std::to_string(poolBytes);
    return false;
  }
  if (!ensureContext()) {
    error = "cannot make the CUDA context current";
    return false;
  }
  auto r = std::make_unique<RankState>();
  r->rank = rank;
  auto fail = [&](CUresult result, const char *call) {
    error = "rank " + std::to_string(rank) + ": " + describeCu(result, call);
    if (r->blas)
      cublasDestroy(r->blas);
    if (r->base)
      cuMemFree(r->base);
    for (CUstream s : r->comm)
      cuStreamDestroy(s);
    if (r->compute)
      cuStreamDestroy(r->compute);
    return false;
  };
  CUresult result = cuStreamCreate(&r->compute, CU_STREAM_NON_BLOCKING);
  if (result != CUDA_SUCCESS)
    return fail(result, "cuStreamCreate");
  for (int i = 0; i < std::max(1, options.commStreams); ++i) {
    CUstream s = nullptr;
    if ((result = cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS)
      return fail(result, "cuStreamCreate");
    r->comm.push_back(s);
  }
  uint64_t aligned = static_cast<uint64_t>(poolBytes);
  aligned -= aligned % 256;
  if (aligned > 0) {
    result = cuMemAlloc(&r->base, aligned);
    if (result != CUDA_SUCCESS) {
      size_t freeBytes = 0, totalBytes = 0;
      cuMemGetInfo(&freeBytes, &totalBytes);
      fail(result, "cuMemAlloc");
      error += " (pool of " + std::to_string(aligned) +
               " bytes; the device has " + std::to_string(freeBytes) + " of " +
               std::to_string(totalBytes) + " bytes free)";
      return false;
    }
  }
  r->pool = PoolAllocator(aligned);
  cublasStatus_t status = cublasCreate(&r->blas);
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasSetStream(r->blas, r->compute);
  // Pure FP32/FP64: no TF32 or other reduced-precision shortcuts, so the
  // gradients compare tightly with the CPU run.
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasSetMathMode(r->blas, CUBLAS_PEDANTIC_MATH);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::string blasError = describeBlas(status, "cublasCreate");
    fail(CUDA_SUCCESS, "");
    error = "rank " + std::to_string(rank) + ": " + blasError;
    return false;
  }
  std::lock_guard<std::mutex> lock(mutex);
  ranks[rank] = std::move(r);
  return true;
}

bool DeviceImpl::bindRank(int rank, pprt_rank *handle, std::string &error) {
  RankState *r = find(rank);
  if (!r) {
    error = "bindRank: rank " + std::to_string(rank) +
            " was not added (Device::addRank)";
    return false;
  }
  if (!ensureContext()) {
    error = "bindRank: cannot make the CUDA context current";
    return false;
  }
  r->handle = handle;
  state::bound = r;
  return true;
}

bool DeviceImpl::synchronize(int rank, double timeout, std::string &error) {
  RankState *r = find(rank);
  if (!r) {
    error = "synchronize: rank " + std::to_string(rank) + " was not added";
    return false;
  }
  if (!ensureContext()) {
    error = "synchronize: cannot make the CUDA context current";
    return false;
  }
  // The step's last messages may still be in an open NCCL group: issue
  // them, so that this waits for them too.
  if (r->groupOpen && endCommunicationGroup)
    endCommunicationGroup();
  bool ok = true;
  std::vector<CUstream> streams = r->comm;
  streams.push_back(r->compute);
  for (CUstream s : streams) {
    CUevent event = takeEvent(*r);
    CUresult result = cuEventRecord(event, s);
    if (result != CUDA_SUCCESS) {
      error = describeCu(result, "cuEventRecord");
      ok = false;
    } else if (!waitEvent(event,
                          "rank " + std::to_string(rank) +
                              "'s streams to finish",
                          error, timeout)) {
      ok = false;
    }
    giveEvent(*r, event);
    if (!ok)
      break;
  }
  if (ok) {
    std::lock_guard<std::mutex> lock(r->mutex);
    reclaim(*r, false);
  }
  return ok;
}

PoolStats DeviceImpl::poolStats(int rank) const {
  PoolStats stats;
  RankState *r = find(rank);
  if (!r)
    return stats;
  std::lock_guard<std::mutex> lock(r->mutex);
  stats.size = static_cast<int64_t>(r->pool.size());
  stats.inUse = static_cast<int64_t>(r->pool.inUse());
  stats.peak = static_cast<int64_t>(r->pool.peak());
  stats.largestFree = static_cast<int64_t>(r->pool.largestFree());
  stats.pendingFree = static_cast<int64_t>(r->pendingBytes);
  stats.overflow = r->overflowBytes;
  return stats;
}

void DeviceImpl::resetPeak(int rank) {
  if (RankState *r = find(rank)) {
    std::lock_guard<std::mutex> lock(r->mutex);
    r->pool.resetPeak();
  }
}

void DeviceImpl::unbind() { state::bound = nullptr; }

void DeviceImpl::fillDeviceMemory(WorldOptions &worldOptions) {
  state::timeoutSeconds = worldOptions.timeoutSeconds;
  worldOptions.deviceMemory.toHost = [](int rank, void *hostDst,
                                        const void *deviceSrc, int64_t bytes) {
    hookCopy(rank, hostDst, deviceSrc, bytes, true);
  };
  worldOptions.deviceMemory.toDevice = [](int rank, void *deviceDst,
                                          const void *hostSrc, int64_t bytes) {
    hookCopy(rank, deviceDst, hostSrc, bytes, false);
  };
}

cublasHandle_t DeviceImpl::fallbackBlas() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!unboundBlas) {
    if (!checkBlas(cublasCreate(&unboundBlas), "cublasCreate"))
      return nullptr;
    cublasSetMathMode(unboundBlas, CUBLAS_PEDANTIC_MATH);
  }
  return unboundBlas;
}

//===----------------------------------------------------------------------===//
// pprt_cuda_open
//===----------------------------------------------------------------------===//

namespace {
/// The device ordinal from the options or the environment.
int chooseOrdinal(const DeviceOptions &options) {
  if (options.device >= 0)
    return options.device;
  for (const char *name : {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                           "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char *value = std::getenv(name); value && *value)
      return std::atoi(value);
  return 0;
}

void setError(char *error, size_t errorBytes, const std::string &text) {
  if (!error || errorBytes == 0)
    return;
  std::snprintf(error, errorBytes, "%s", text.c_str());
}
} // namespace

extern "C" Device *pprt_cuda_open(const DeviceOptions *options, char *error,
                                  size_t errorBytes) {
  DeviceOptions chosen = options ? *options : DeviceOptions();
  std::lock_guard<std::mutex> lock(state::deviceMutex);
  if (state::device) {
    setError(error, errorBytes,
             "the CUDA plugin's device is open already (one per process)");
    return nullptr;
  }
  CUresult result = cuInit(0);
  if (result != CUDA_SUCCESS) {
    setError(error, errorBytes,
             "no CUDA device: " + describeCu(result, "cuInit").substr(12));
    return nullptr;
  }
  int count = 0;
  result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    setError(error, errorBytes,
             result != CUDA_SUCCESS
                 ? "no CUDA device: " +
                       describeCu(result, "cuDeviceGetCount").substr(12)
                 : std::string("no CUDA device: the driver lists none"));
    return nullptr;
  }
  int ordinal = chooseOrdinal(chosen);
  if (ordinal < 0 || ordinal >= count) {
    setError(error, errorBytes,
             "CUDA device " + std::to_string(ordinal) +
                 " does not exist (the machine has " + std::to_string(count) +
                 "; set by " +
                 (chosen.device >= 0
                      ? "the options"
                      : "LOCAL_RANK / OMPI_COMM_WORLD_LOCAL_RANK") +
                 ")");
    return nullptr;
  }
  CUdevice device = 0;
  CUcontext context = nullptr;
  result = cuDeviceGet(&device, ordinal);
  if (result == CUDA_SUCCESS)
    result = cuDevicePrimaryCtxRetain(&context, device);
  if (result != CUDA_SUCCESS) {
    setError(error, errorBytes,
             "CUDA device " + std::to_string(ordinal) + ": " +
                 describeCu(result, "cuDevicePrimaryCtxRetain").substr(12));
    return nullptr;
  }
  state::device = new DeviceImpl(chosen, device, context, ordinal);
  return state::device;
}
