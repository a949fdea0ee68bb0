//===- CudaRuntime.cpp - Device, ranks, mgpu* ABI and GEMM ----------------===//
//
// The CUDA plugin's core: the process's Device (pprt_cuda_open), the
// per-rank streams, cuBLAS handles and memory pools, the thread's binding,
// the device-memory hooks, and the C ABI that generated code calls: the
// mgpu* functions of MLIR 22's gpu-to-llvm / #gpu.select_object lowering
// (same names and signatures), and pprt_gpu_gemm_f32/_f64.
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

#include "CudaInternal.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

using namespace pprt;
using namespace pprt::cuda;

namespace {

class DeviceImpl;
DeviceImpl *theDevice = nullptr;
std::mutex theDeviceMutex;
thread_local RankState *bound = nullptr;
thread_local CUcontext currentContext = nullptr;
std::atomic<double> timeoutSeconds{60.0};

std::string describeBlas(cublasStatus_t status, const char *call) {
  const char *name = cublasGetStatusName(status);
  const char *text = cublasGetStatusString(status);
  return std::string("cuda error: ") + call + " failed: " +
         (name ? name : "?") + " (" + (text ? text : "?") + ")";
}

bool checkBlas(cublasStatus_t status, const char *call) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return true;
  reportError(describeBlas(status, call));
  return false;
}

/// Waits with a growing pause: spins first, then sleeps up to 200 us.
void backoff(int64_t &tries) {
  if (++tries < 200) {
    std::this_thread::yield();
    return;
  }
  std::this_thread::sleep_for(std::chrono::microseconds(
      std::min<int64_t>(200, (tries - 200) / 10 + 1)));
}

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
  void unbind() override { bound = nullptr; }
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

/// Moves the pending frees of `r` whose events completed back to the pool;
/// with `wait`, waits for all of them first. Caller holds r.mutex.
void reclaim(RankState &r, bool wait) {
  // Waiting is bounded by the timeout: a block a receive still fills may
  // wait on a peer that waits on this rank.
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(waitTimeout());
  for (auto it = r.pending.begin(); it != r.pending.end();) {
    bool done = true;
    for (CUevent event : it->events) {
      CUresult result = cuEventQuery(event);
      while (wait && result == CUDA_ERROR_NOT_READY &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        result = cuEventQuery(event);
      }
      if (result == CUDA_ERROR_NOT_READY) {
        if (wait)
          reportError("cuda error: rank " + std::to_string(r.rank) +
                      " timed out waiting for its communication streams to "
                      "release freed pool blocks");
        done = false;
        break;
      }
      if (result != CUDA_SUCCESS) {
        checkCu(result, "cuEventQuery (pending free)");
        done = false;
        break;
      }
    }
    if (!done) {
      ++it;
      continue;
    }
    for (CUevent event : it->events)
      r.spareEvents.push_back(event);
    r.pendingBytes -= r.pool.blockSize(it->offset);
    r.pool.release(it->offset);
    it = r.pending.erase(it);
  }
}

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
    if (bound == &r)
      bound = nullptr;
  }
  if (unboundBlas)
    cublasDestroy(unboundBlas);
  for (CUdeviceptr ptr : directBlocks)
    cuMemFree(ptr);
  cuDevicePrimaryCtxRelease(device);
  std::lock_guard<std::mutex> lock(theDeviceMutex);
  theDevice = nullptr;
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
      error += " (pool of " + std::to_string(aligned) + " bytes; the device has " +
               std::to_string(freeBytes) + " of " + std::to_string(totalBytes) +
               " bytes free)";
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
  bound = r;
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
    } else if (!waitEvent(event, "rank " + std::to_string(rank) +
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

/// A synchronous copy on the rank's compute stream, bounded by the timeout.
void hookCopy(int rank, void *dst, const void *src, int64_t bytes,
              bool toHost) {
  RankState *r = theDevice ? theDevice->find(rank) : nullptr;
  if (!r) {
    reportError("cuda error: the device-memory hook was called for rank " +
                std::to_string(rank) + ", which was not added");
    return;
  }
  if (!ensureContext())
    return;
  // A grouped receive may fill `src`; a grouped send may still read `dst`:
  // end the group, and before writing device memory let the compute stream
  // wait for the communication streams (a send issued earlier may still
  // read `dst`).
  if (r->groupOpen && endCommunicationGroup)
    endCommunicationGroup();
  if (!toHost)
    for (CUstream comm : r->comm) {
      CUevent passed = takeEvent(*r);
      bool ok = checkCu(cuEventRecord(passed, comm), "cuEventRecord") &&
                checkCu(cuStreamWaitEvent(r->compute, passed, 0),
                        "cuStreamWaitEvent");
      giveEvent(*r, passed);
      if (!ok)
        return;
    }
  // Through pinned staging memory, so that the copy is asynchronous and
  // the wait below (bounded by the timeout) is the only one.
  auto size = static_cast<size_t>(bytes);
  if (size > r->stagingBytes) {
    if (r->staging)
      cuMemFreeHost(r->staging);
    r->staging = nullptr;
    r->stagingBytes = 0;
    if (!checkCu(cuMemAllocHost(&r->staging, size), "cuMemAllocHost"))
      return;
    r->stagingBytes = size;
  }
  if (!toHost)
    std::memcpy(r->staging, src, size);
  CUresult result =
      toHost ? cuMemcpyDtoHAsync(r->staging,
                                 reinterpret_cast<CUdeviceptr>(src), size,
                                 r->compute)
             : cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dst),
                                 r->staging, size, r->compute);
  if (!checkCu(result, toHost ? "cuMemcpyDtoHAsync" : "cuMemcpyHtoDAsync"))
    return;
  CUevent event = takeEvent(*r);
  std::string error;
  if (!checkCu(cuEventRecord(event, r->compute), "cuEventRecord")) {
    giveEvent(*r, event);
    return;
  }
  bool arrived =
      waitEvent(event,
                std::string("a copy ") + (toHost ? "from" : "to") +
                    " the device (" + std::to_string(bytes) + " bytes)",
                error);
  giveEvent(*r, event);
  if (!arrived) {
    reportError(error);
    return;
  }
  if (toHost)
    std::memcpy(dst, r->staging, size);
}

void DeviceImpl::fillDeviceMemory(WorldOptions &worldOptions) {
  timeoutSeconds = worldOptions.timeoutSeconds;
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

/// The device, reporting an error if none is open.
DeviceImpl *device(const char *function) {
  if (theDevice)
    return theDevice;
  reportError(std::string("cuda error: ") + function +
              ": the CUDA plugin's device is not open (pprt_cuda_open)");
  return nullptr;
}

} // namespace

//===----------------------------------------------------------------------===//
// Shared helpers (CudaInternal.h)
//===----------------------------------------------------------------------===//

std::function<std::string(int)> pprt::cuda::stallHint;

RankState *pprt::cuda::boundRank() { return bound; }

RankState *pprt::cuda::rankState(int rank) {
  return theDevice ? theDevice->find(rank) : nullptr;
}

const DeviceOptions &pprt::cuda::deviceOptions() {
  static const DeviceOptions none;
  return theDevice ? theDevice->options : none;
}

double pprt::cuda::waitTimeout() { return timeoutSeconds; }

std::string pprt::cuda::describeCu(CUresult result, const char *call) {
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  return std::string("cuda error: ") + call + " failed: " +
         (name ? name : "CUDA_ERROR_UNKNOWN") + " (" +
         (text ? text : "no description") + ")";
}

void pprt::cuda::reportError(const std::string &message) {
  std::fprintf(stderr, "pprt: %s\n", message.c_str());
  std::fflush(stderr);
  if (bound && bound->handle)
    pprt_fail(bound->handle, message.c_str());
}

bool pprt::cuda::checkCu(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return true;
  reportError(describeCu(result, call));
  return false;
}

bool pprt::cuda::ensureContext() {
  if (!theDevice) {
    reportError("cuda error: the CUDA plugin's device is not open "
                "(pprt_cuda_open)");
    return false;
  }
  if (currentContext == theDevice->context)
    return true;
  if (!checkCu(cuCtxSetCurrent(theDevice->context), "cuCtxSetCurrent"))
    return false;
  currentContext = theDevice->context;
  return true;
}

bool pprt::cuda::waitEvent(CUevent event, const std::string &what,
                           std::string &error, double timeout) {
  if (timeout < 0)
    timeout = timeoutSeconds;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(timeout));
  int64_t tries = 0;
  for (;;) {
    CUresult result = cuEventQuery(event);
    if (result == CUDA_SUCCESS)
      return true;
    if (result != CUDA_ERROR_NOT_READY) {
      error = describeCu(result, "cuEventQuery");
      return false;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g", timeout);
      error = std::string("timed out after ") + seconds + " s waiting for " +
              what + " on the GPU";
      if (stallHint && bound) {
        std::string hint = stallHint(bound->rank);
        if (!hint.empty())
          error += " (" + hint + ")";
      }
      return false;
    }
    backoff(tries);
  }
}

CUevent pprt::cuda::takeEvent(RankState &rank) {
  {
    std::lock_guard<std::mutex> lock(rank.mutex);
    if (!rank.spareEvents.empty()) {
      CUevent event = rank.spareEvents.back();
      rank.spareEvents.pop_back();
      return event;
    }
  }
  CUevent event = nullptr;
  checkCu(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

void pprt::cuda::giveEvent(RankState &rank, CUevent event) {
  if (!event)
    return;
  std::lock_guard<std::mutex> lock(rank.mutex);
  rank.spareEvents.push_back(event);
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
  std::lock_guard<std::mutex> lock(theDeviceMutex);
  if (theDevice) {
    setError(error, errorBytes,
             "the CUDA plugin's device is open already (one per process)");
    return nullptr;
  }
  CUresult result = cuInit(0);
  if (result != CUDA_SUCCESS) {
    setError(error, errorBytes, "no CUDA device: " +
                                    describeCu(result, "cuInit").substr(12));
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
                 (chosen.device >= 0 ? "the options"
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
  theDevice = new DeviceImpl(chosen, device, context, ordinal);
  return theDevice;
}

//===----------------------------------------------------------------------===//
// The mgpu* ABI (MLIR 22 gpu-to-llvm and #gpu.select_object)
//===----------------------------------------------------------------------===//

namespace {
/// A ranked memref descriptor: allocated, aligned, offset, sizes, strides.
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};
} // namespace

std::function<void()> pprt::cuda::endCommunicationGroup;

/// Queues the freed block at `offset` of `r`'s pool for reuse once the
/// rank's communication streams are past this point (an event on each).
/// Takes r.mutex; the caller must not hold it.
static void freeAfterCommunication(RankState &r, uint64_t offset) {
  RankState::PendingFree pending{offset, {}};
  for (CUstream comm : r.comm) {
    CUevent event = takeEvent(r);
    if (event && checkCu(cuEventRecord(event, comm), "cuEventRecord"))
      pending.events.push_back(event);
    else
      giveEvent(r, event);
  }
  std::lock_guard<std::mutex> lock(r.mutex);
  r.pending.push_back(std::move(pending));
}

void pprt::cuda::settleFreedInGroup(RankState &r) {
  std::vector<uint64_t> freed;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    freed.swap(r.freedInGroup);
  }
  for (uint64_t offset : freed)
    freeAfterCommunication(r, offset);
}

extern "C" {

/// Loads a cubin or fatbin (`bytes` long) into the device's context.
CUmodule mgpuModuleLoad(void *data, size_t bytes) {
  (void)bytes;
  if (!ensureContext())
    return nullptr;
  CUmodule module = nullptr;
  checkCu(cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

/// Loads PTX (NUL-terminated) through the driver's JIT at `optLevel`
/// (0-4); a JIT error prints the JIT's log.
CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!ensureContext())
    return nullptr;
  char log[8192] = {0};
  CUjit_option keys[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {
      reinterpret_cast<void *>(static_cast<intptr_t>(std::clamp(optLevel, 0, 4))),
      log, reinterpret_cast<void *>(static_cast<intptr_t>(sizeof(log)))};
  CUmodule module = nullptr;
  CUresult result = cuModuleLoadDataEx(&module, data, 3, keys, values);
  if (result != CUDA_SUCCESS) {
    std::string message = describeCu(result, "cuModuleLoadDataEx (PTX JIT)");
    if (log[0])
      message += ": " + std::string(log);
    reportError(message);
    return nullptr;
  }
  return module;
}

void mgpuModuleUnload(CUmodule module) {
  if (module && ensureContext())
    checkCu(cuModuleUnload(module), "cuModuleUnload");
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  if (!module)
    return nullptr; // the load reported its error
  if (!checkCu(cuModuleGetFunction(&function, module, name),
               "cuModuleGetFunction"))
    std::fprintf(stderr, "pprt: (kernel %s)\n", name);
  return function;
}

/// Launches on `stream` (the bound rank's compute stream, when the code
/// took it from mgpuStreamCreate). `paramsCount` is unused (the kernel's
/// signature gives it).
void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, CUstream stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)paramsCount;
  if (!function) {
    // The module did not load (its error was printed at startup, when no
    // rank was bound): fail the rank rather than skip the kernel.
    reportError("cuda error: mgpuLaunchKernel of a kernel whose module did "
                "not load (see the mgpuModuleLoad error above)");
    return;
  }
  if (!ensureContext())
    return;
  checkCu(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                         smem, stream, params, extra),
          "cuLaunchKernel");
}

void mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, CUstream stream, void **params,
                             void **extra, size_t paramsCount) {
  (void)paramsCount;
  if (!function || !ensureContext())
    return;
  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = static_cast<unsigned>(clusterX);
  attribute.value.clusterDim.y = static_cast<unsigned>(clusterY);
  attribute.value.clusterDim.z = static_cast<unsigned>(clusterZ);
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = static_cast<unsigned>(gridX);
  config.gridDimY = static_cast<unsigned>(gridY);
  config.gridDimZ = static_cast<unsigned>(gridZ);
  config.blockDimX = static_cast<unsigned>(blockX);
  config.blockDimY = static_cast<unsigned>(blockY);
  config.blockDimZ = static_cast<unsigned>(blockZ);
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  if (smem > 48 * 1024)
    cuFuncSetAttribute(function,
                       CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
  checkCu(cuLaunchKernelEx(&config, function, params, extra),
          "cuLaunchKernelEx");
}

/// The bound rank's compute stream; without a binding a new stream.
CUstream mgpuStreamCreate() {
  if (bound)
    return bound->compute;
  if (!ensureContext())
    return nullptr;
  CUstream stream = nullptr;
  checkCu(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream;
}

/// No-op for a rank's compute stream; destroys streams made unbound.
void mgpuStreamDestroy(CUstream stream) {
  if (!stream || (bound && stream == bound->compute))
    return;
  if (theDevice && theDevice->isComputeStream(stream))
    return;
  checkCu(cuStreamDestroy(stream), "cuStreamDestroy");
}

/// Waits for `stream`, at most the world's timeout (polling an event).
void mgpuStreamSynchronize(CUstream stream) {
  if (!ensureContext())
    return;
  CUevent event = nullptr;
  if (!checkCu(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
               "cuEventCreate"))
    return;
  std::string error;
  if (checkCu(cuEventRecord(event, stream), "cuEventRecord") &&
      !waitEvent(event, "a stream synchronization", error))
    reportError(error);
  cuEventDestroy(event);
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (ensureContext())
    checkCu(cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

CUevent mgpuEventCreate() {
  if (!ensureContext())
    return nullptr;
  CUevent event = nullptr;
  checkCu(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

void mgpuEventDestroy(CUevent event) {
  if (event && ensureContext())
    checkCu(cuEventDestroy(event), "cuEventDestroy");
}

/// Waits for `event`, at most the world's timeout.
void mgpuEventSynchronize(CUevent event) {
  if (!event || !ensureContext())
    return;
  std::string error;
  if (!waitEvent(event, "an event", error))
    reportError(error);
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  if (ensureContext())
    checkCu(cuEventRecord(event, stream), "cuEventRecord");
}

/// `bytes` bytes from the bound rank's pool (256-byte aligned); with
/// `isHostShared`, managed memory (cuMemAllocManaged). Without a binding,
/// plain cuMemAlloc. Exhaustion fails the rank and returns null.
void *mgpuMemAlloc(uint64_t bytes, CUstream stream, bool isHostShared) {
  (void)stream;
  DeviceImpl *dev = device("mgpuMemAlloc");
  if (!dev || !ensureContext())
    return nullptr;
  // Memory outside any pool (cuMemFree'd by mgpuMemFree).
  auto direct = [&](bool managed) -> void * {
    CUdeviceptr ptr = 0;
    uint64_t size = std::max<uint64_t>(bytes, 1);
    bool ok = managed ? checkCu(cuMemAllocManaged(&ptr, size,
                                                  CU_MEM_ATTACH_GLOBAL),
                                "cuMemAllocManaged")
                      : checkCu(cuMemAlloc(&ptr, size), "cuMemAlloc");
    if (!ok)
      return nullptr;
    std::lock_guard<std::mutex> lock(dev->mutex);
    dev->directBlocks.insert(ptr);
    return reinterpret_cast<void *>(ptr);
  };
  if (isHostShared || !bound)
    return direct(isHostShared);
  RankState &r = *bound;
  bool overflow = false;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    reclaim(r, false);
    uint64_t offset = 0;
    if (r.pool.allocate(bytes, offset))
      return reinterpret_cast<void *>(r.base + offset);
    if (r.pendingBytes > 0) {
      // Part of the pool waits for messages in flight. Waiting for them
      // here could deadlock (a send completes only when its peer posts the
      // receive, and the peer may be in the same situation): take memory
      // outside the pool instead and count it (PoolStats::overflow).
      r.overflowBytes += static_cast<int64_t>(bytes);
      overflow = true;
    }
  }
  if (overflow)
    return direct(false);
  reportError("cuda error: device memory pool of rank " +
              std::to_string(r.rank) + " exhausted: requested " +
              std::to_string(bytes) + " bytes; pool " +
              std::to_string(r.pool.size()) + " bytes, in use " +
              std::to_string(r.pool.inUse()) + " bytes, largest free range " +
              std::to_string(r.pool.largestFree()) + " bytes");
  // The step has failed; the program still runs to its end (the pprt_*
  // calls return at once), so hand it real memory outside the pool rather
  // than a null pointer its kernels would fault on.
  return direct(false);
}

/// Returns a block to its pool once the rank's communication streams are
/// past this point (see the file comment).
void mgpuMemFree(void *ptr, CUstream stream) {
  (void)stream;
  if (!ptr || !theDevice || !ensureContext())
    return;
  auto address = reinterpret_cast<CUdeviceptr>(ptr);
  if (RankState *r = theDevice->owner(address)) {
    uint64_t offset = address - r->base;
    {
      std::lock_guard<std::mutex> lock(r->mutex);
      uint64_t size = r->pool.blockSize(offset);
      if (size == 0) {
        reportError("cuda error: mgpuMemFree of an address that is not an "
                    "allocated block of rank " +
                    std::to_string(r->rank) + "'s pool");
        return;
      }
      r->pendingBytes += size;
      // A grouped ncclSend may read the block once the group ends: its
      // events are recorded then (settleFreedInGroup).
      if (r->groupOpen) {
        r->freedInGroup.push_back(offset);
        return;
      }
    }
    freeAfterCommunication(*r, offset);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(theDevice->mutex);
    if (!theDevice->directBlocks.erase(address)) {
      reportError("cuda error: mgpuMemFree of an address the plugin did not "
                  "allocate");
      return;
    }
  }
  checkCu(cuMemFree(address), "cuMemFree");
}

/// Copies `bytes` bytes (any direction; unified addressing) on `stream`.
void mgpuMemcpy(void *dst, void *src, size_t bytes, CUstream stream) {
  if (bytes && ensureContext())
    checkCu(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                          reinterpret_cast<CUdeviceptr>(src), bytes, stream),
            "cuMemcpyAsync");
}

/// Sets `count` 32-bit words (16-bit for mgpuMemset16) on `stream`.
void mgpuMemset32(void *dst, unsigned int value, size_t count,
                  CUstream stream) {
  if (count && ensureContext())
    checkCu(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                             stream),
            "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  CUstream stream) {
  if (count && ensureContext())
    checkCu(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                             stream),
            "cuMemsetD16Async");
}

/// Page-locks host memory (`bytes` bytes) for faster copies.
void mgpuMemHostRegister(void *ptr, uint64_t bytes) {
  if (ensureContext())
    checkCu(cuMemHostRegister(ptr, bytes, 0), "cuMemHostRegister");
}

void mgpuMemHostUnregister(void *ptr) {
  if (ensureContext())
    checkCu(cuMemHostUnregister(ptr), "cuMemHostUnregister");
}

/// The same for a dense ranked memref of `rank` dimensions.
void mgpuMemHostRegisterMemRef(int64_t rank, MemRefDescriptor *descriptor,
                               int64_t elementBytes) {
  int64_t elements = 1;
  for (int64_t i = 0; i < rank; ++i)
    elements *= descriptor->sizesAndStrides[i];
  mgpuMemHostRegister(descriptor->aligned + descriptor->offset * elementBytes,
                      static_cast<uint64_t>(elements * elementBytes));
}

void mgpuMemHostUnregisterMemRef(int64_t rank, MemRefDescriptor *descriptor,
                                 int64_t elementBytes) {
  (void)rank;
  mgpuMemHostUnregister(descriptor->aligned +
                        descriptor->offset * elementBytes);
}

/// The plugin runs on the device pprt_cuda_open chose; asking for another
/// one is reported (generated code passes 0 by default, which is accepted
/// whatever the ordinal, as every process sees its own GPU as "its" device).
void mgpuSetDefaultDevice(int32_t device) {
  if (theDevice && device != 0 && device != theDevice->deviceOrdinal)
    std::fprintf(stderr,
                 "pprt: warning: mgpuSetDefaultDevice(%d) ignored: the CUDA "
                 "plugin runs on device %d\n",
                 device, theDevice->deviceOrdinal);
}

} // extern "C"

//===----------------------------------------------------------------------===//
// GEMM
//===----------------------------------------------------------------------===//

namespace {

/// cuBLAS is column-major: a row-major X (r x c, leading dimension ld) is
/// the column-major X^T. So row-major C = op(A) op(B) is column-major
/// C^T = op(B)^T op(A)^T: cuBLAS's "A" is our B and its "B" our A, with
/// the transposition flags as given, m and n swapped.
template <typename T, typename Gemm>
void gemm(const char *name, Gemm call, int64_t batch, int64_t m, int64_t n,
          int64_t k, int64_t transA, int64_t transB, const T *a, int64_t lda,
          int64_t strideA, const T *b, int64_t ldb, int64_t strideB, T *c,
          int64_t ldc, int64_t strideC, int64_t accumulate) {
  if (batch <= 0 || m <= 0 || n <= 0)
    return;
  DeviceImpl *dev = device(name);
  if (!dev || !ensureContext())
    return;
  cublasHandle_t handle = bound ? bound->blas : dev->fallbackBlas();
  if (!handle)
    return;
  // Leading dimensions (elements) of the row-major storage: a row of
  // op(A) stored untransposed needs lda >= k, transposed lda >= m, etc.
  // A dimension of 1 leaves its leading dimension free; cuBLAS still wants
  // it at least as large as the rows it sees, so it is raised then.
  auto leading = [&](int64_t ld, int64_t need, int64_t rows,
                     const char *which, int64_t &out) {
    need = std::max<int64_t>(need, 1);
    if (ld >= need || rows <= 1) {
      out = std::max(ld, need);
      return true;
    }
    reportError(std::string("cuda error: ") + name + ": " + which + " " +
                std::to_string(ld) + " is less than " + std::to_string(need));
    return false;
  };
  int64_t ldaEff, ldbEff, ldcEff;
  if (k < 0) {
    reportError(std::string("cuda error: ") + name + ": negative k " +
                std::to_string(k));
    return;
  }
  if (!leading(lda, transA ? m : k, transA ? k : m, "lda", ldaEff) ||
      !leading(ldb, transB ? k : n, transB ? n : k, "ldb", ldbEff) ||
      !leading(ldc, n, m, "ldc", ldcEff))
    return;
  T alpha = 1, beta = accumulate ? 1 : 0;
  checkBlas(call(handle, transB ? CUBLAS_OP_T : CUBLAS_OP_N,
                 transA ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, &alpha, b,
                 ldbEff, strideB, a, ldaEff, strideA, &beta, c, ldcEff, strideC,
                 batch),
            name);
}

} // namespace

extern "C" void pprt_gpu_gemm_f32(int64_t batch, int64_t m, int64_t n,
                                  int64_t k, int64_t transA, int64_t transB,
                                  const float *a, int64_t lda, int64_t strideA,
                                  const float *b, int64_t ldb, int64_t strideB,
                                  float *c, int64_t ldc, int64_t strideC,
                                  int64_t accumulate) {
  gemm<float>("cublasSgemmStridedBatched_64", cublasSgemmStridedBatched_64,
              batch, m, n, k, transA, transB, a, lda, strideA, b, ldb, strideB,
              c, ldc, strideC, accumulate);
}

extern "C" void pprt_gpu_gemm_f64(int64_t batch, int64_t m, int64_t n,
                                  int64_t k, int64_t transA, int64_t transB,
                                  const double *a, int64_t lda, int64_t strideA,
                                  const double *b, int64_t ldb, int64_t strideB,
                                  double *c, int64_t ldc, int64_t strideC,
                                  int64_t accumulate) {
  gemm<double>("cublasDgemmStridedBatched_64", cublasDgemmStridedBatched_64,
               batch, m, n, k, transA, transB, a, lda, strideA, b, ldb,
               strideB, c, ldc, strideC, accumulate);
}
