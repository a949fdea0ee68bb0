//===- CudaInternal.h - The CUDA plugin's shared state ----------*- C++ -*-===//
//
// The process's device, the per-rank resources and the calling thread's
// binding, shared by the parts of the plugin (Device.cpp, Module.cpp,
// Streams.cpp, Memory.cpp, Gemm.cpp) and the nccl transport
// (NcclBootstrap.cpp, NcclTransport.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_LIB_CUDA_CUDAINTERNAL_H
#define PPRT_LIB_CUDA_CUDAINTERNAL_H

#include "PoolAllocator.h"
#include "pprt/Cuda.h"

#include <cublas_v2.h>
#include <cuda.h>

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace pprt {
namespace cuda {

/// One rank's resources on the device.
struct RankState {
  int rank = 0;
  CUstream compute = nullptr;
  std::vector<CUstream> comm;
  cublasHandle_t blas = nullptr;
  CUdeviceptr base = 0;
  PoolAllocator pool{0};
  /// Blocks freed by the program, reusable once their events completed
  /// (one per communication stream, recorded at the free).
  struct PendingFree {
    uint64_t offset;
    std::vector<CUevent> events;
  };
  std::vector<PendingFree> pending;
  /// The nccl transport has an NCCL group open (its operations are issued
  /// only when the group ends): blocks freed meanwhile wait in
  /// `freedInGroup` (offsets) until the group ends and their events can
  /// be recorded after the group's operations (endCommunicationGroup).
  bool groupOpen = false;
  std::vector<uint64_t> freedInGroup;
  uint64_t pendingBytes = 0;
  /// Bytes allocated outside the pool because in-flight messages held
  /// part of it (mgpuMemAlloc does not wait for them).
  int64_t overflowBytes = 0;
  /// Spare events (disable-timing) for pending frees and copies.
  std::vector<CUevent> spareEvents;
  /// Pinned host memory the device-memory hooks stage copies through
  /// (a copy from pageable memory would block the host without a bound).
  void *staging = nullptr;
  size_t stagingBytes = 0;
  /// The pprt_rank of the current step (bindRank), failed on CUDA errors.
  pprt_rank *handle = nullptr;
  std::mutex mutex;
};

/// The rank bound to the calling thread (null: none).
RankState *boundRank();
/// Makes the device's primary context current on the calling thread.
/// False (and reported) on failure or when no device is open.
bool ensureContext();

/// "cuda error: <call> failed: <NAME> (<description>)".
std::string describeCu(CUresult result, const char *call);
/// Reports an error of the calling thread: prints "pprt: <message>" to
/// stderr and fails the bound rank's step (pprt_fail) if there is one.
void reportError(const std::string &message);
/// Reports `result` if it is not CUDA_SUCCESS; returns true on success.
bool checkCu(CUresult result, const char *call);

/// The world's timeout in seconds, for the bounded waits (fillDeviceMemory
/// sets it; 60 by default).
double waitTimeout();
/// Waits for `event` polling cuEventQuery, at most `timeout` seconds
/// (negative: waitTimeout()); on
/// timeout returns false with `error` "timed out after T s waiting for
/// <what>" (plus what `stallHint` says, if set). Errors: false, `error`.
bool waitEvent(CUevent event, const std::string &what, std::string &error,
               double timeout = -1);
/// Says which communication of `rank` is still pending (the nccl transport
/// sets it), for timeout messages; "" if none.
extern std::function<std::string(int rank)> stallHint;

/// A spare event of `rank` (created if none), and its return.
CUevent takeEvent(RankState &rank);
void giveEvent(RankState &rank, CUevent event);

/// The rank state of `rank`, null if it was not added.
RankState *rankState(int rank);
/// The device's options (commStreams).
const DeviceOptions &deviceOptions();

/// Ends the nccl transport's open NCCL group, if any, so that its
/// operations are issued (set by the nccl transport; null otherwise). The
/// device-memory hooks call it before copying, since a copy may read a
/// buffer a grouped receive fills.
extern std::function<void()> endCommunicationGroup;

/// Makes the blocks of `r` freed while a group was open reusable once the
/// communication streams pass this point (records their events now). The
/// nccl transport calls it right after ncclGroupEnd.
void settleFreedInGroup(RankState &r);

/// Registers "nccl" (NcclTransport.cpp); false and `error` without NCCL.
bool registerNccl(std::string &error);

} // namespace cuda
} // namespace pprt

#endif // PPRT_LIB_CUDA_CUDAINTERNAL_H
